package io.cdcconnect.sink.dialect.mysql;

/** MySQL 5.7 up to 8.0.19: {@code VALUES(col)} in the update clause (deprecated from 8.0.20, still accepted). */
public final class MySql57Dialect extends MySqlFamilyDialect {

    /** Whether the server is MySQL 8.0.3 to 8.0.19, which reads the {@code SET_VAR} hint. */
    private final boolean setVarHint;

    public MySql57Dialect() {
        this(false);
    }

    MySql57Dialect(boolean setVarHint) {
        this.setVarHint = setVarHint;
    }

    @Override
    protected boolean setVarHint() {
        return setVarHint;
    }

    @Override
    public String name() {
        return "mysql57";
    }

    @Override
    protected String insertedValue(String quotedColumn) {
        return "VALUES(" + quotedColumn + ")";
    }
}
