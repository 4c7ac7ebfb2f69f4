package io.cdcconnect.sink.dialect.mysql;

/** MariaDB (all supported versions): {@code VALUES(col)} in the update clause, as MariaDB has no row alias. */
public final class MariaDbDialect extends MySqlFamilyDialect {

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    protected String insertedValue(String quotedColumn) {
        return "VALUES(" + quotedColumn + ")";
    }
}
