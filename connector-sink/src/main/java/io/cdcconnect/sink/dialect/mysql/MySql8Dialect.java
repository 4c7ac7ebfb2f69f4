package io.cdcconnect.sink.dialect.mysql;

/** MySQL 8.0.20 and later: a row alias ({@code AS new}) replaces the deprecated {@code VALUES(col)}. */
public final class MySql8Dialect extends MySqlFamilyDialect {

    static final String ALIAS = "`_new`";

    @Override
    public String name() {
        return "mysql8";
    }

    @Override
    protected String rowAlias() {
        return " AS " + ALIAS;
    }

    @Override
    protected String insertedValue(String quotedColumn) {
        return ALIAS + "." + quotedColumn;
    }
}
