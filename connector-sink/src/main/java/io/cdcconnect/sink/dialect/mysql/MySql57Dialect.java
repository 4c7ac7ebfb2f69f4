package io.cdcconnect.sink.dialect.mysql;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL 5.7 up to 8.0.19: {@code VALUES(col)} in the update clause (deprecated from 8.0.20, still accepted). The
 * server's release says what else it has: CHECK constraints and {@code DROP CHECK} from 8.0.16, {@code DROP
 * CONSTRAINT} from 8.0.19 ({@link MySqlDropConstraint} writes the clause for the others).
 */
public final class MySql57Dialect extends MySqlFamilyDialect {

    private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");

    /** major * 10000 + minor * 100 + patch; 5.7.0 when the version is not known. */
    private final int release;
    private final String version;

    /** A MySQL 5.7 whose release is not known: none of what 8.0 added is assumed. */
    public MySql57Dialect() {
        this(null);
    }

    /** The server that answered {@code SELECT VERSION()} with {@code serverVersion} ("8.0.15", "5.7.44-log"). */
    public MySql57Dialect(String serverVersion) {
        Matcher m = RELEASE.matcher(serverVersion == null ? "" : serverVersion);
        boolean known = m.find();
        this.release = known ? Integer.parseInt(m.group(1)) * 10000 + Integer.parseInt(m.group(2)) * 100
                + Integer.parseInt(m.group(3)) : 50700;
        this.version = known ? m.group() : null;
    }

    @Override
    public String name() {
        return "mysql57";
    }

    @Override
    protected String insertedValue(String quotedColumn) {
        return "VALUES(" + quotedColumn + ")";
    }

    @Override
    protected boolean keepsCheckConstraints() {
        return release >= 80016;
    }

    @Override
    protected boolean dropsConstraintsByName() {
        return release >= 80019;
    }

    @Override
    protected String serverName() {
        return version == null ? "MySQL (release not known, taken as 5.7)" : "MySQL " + version;
    }
}
