package io.cdcconnect.sink.dialect.mysql;

/** MySQL 5.7 up to 8.0.19: {@code VALUES(col)} in the update clause (deprecated from 8.0.20, still accepted). */
public final class MySql57Dialect extends MySqlFamilyDialect {

    @Override
    public String name() {
        return "mysql57";
    }

    @Override
    protected String insertedValue(String quotedColumn) {
        return "VALUES(" + quotedColumn + ")";
    }
}
