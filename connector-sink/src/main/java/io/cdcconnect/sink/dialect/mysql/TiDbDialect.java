package io.cdcconnect.sink.dialect.mysql;

import java.util.List;

/** TiDB: MySQL 5.7 syntax ({@code VALUES(col)}); TiDB does not accept the MySQL 8 row alias in every version. */
public final class TiDbDialect extends MySqlFamilyDialect {

    /**
     * As TiCDC's MySQL sink sets for a TiDB downstream: rows of AUTO_RANDOM tables arrive with their ids, which TiDB
     * refuses (error 8216) unless explicit inserts are allowed.
     */
    @Override
    protected List<String> sessionSettings() {
        return List.of("allow_auto_random_explicit_insert = 1");
    }

    @Override
    public String name() {
        return "tidb";
    }

    /** TiCDC writes TiDB's feature comments (clustered indexes, AUTO_RANDOM, ...); TiDB reads them. */
    @Override
    protected boolean writesTiDbFeatures() {
        return true;
    }

    @Override
    protected String insertedValue(String quotedColumn) {
        return "VALUES(" + quotedColumn + ")";
    }
}
