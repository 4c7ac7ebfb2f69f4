package io.cdcconnect.sink.dialect;

/** TiDB: MySQL 5.7 syntax ({@code VALUES(col)}); TiDB does not accept the MySQL 8 row alias in every version. */
public final class TiDbDialect extends MySqlFamilyDialect {

    @Override
    public String name() {
        return "tidb";
    }

    @Override
    protected String insertedValue(String quotedColumn) {
        return "VALUES(" + quotedColumn + ")";
    }
}
