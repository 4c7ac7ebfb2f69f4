package io.cdcconnect.sink.dialect;

import java.util.Locale;

/**
 * {@code foreign.key.checks}: how the sink's sessions meet the target's foreign keys. The source already checked every
 * row it logged, but its binlog does not carry what its foreign keys' actions did (MySQL's and MariaDB's InnoDB cascade
 * inside the engine and log only the statement's own rows: checked on MariaDB 10.11, a cascaded delete and a cascaded
 * key update are absent from the binlog), so the target's own actions must do it again; and safe mode's
 * {@code REPLACE} is a delete and an insert, which fires the target's cascades where the source fired none. (Order
 * between a child row and its parent's is kept by the conflict detector, whatever this setting.)
 */
public enum ForeignKeyChecks {
    /**
     * As a replica applies: inserts, upserts and REPLACE run with the target's foreign key checks off (no cascade
     * from a REPLACE); DELETE and UPDATE statements run with them on, so that the target's {@code ON DELETE} and
     * {@code ON UPDATE} actions do what the source's did without logging it. Where the target cannot switch checks
     * on for one statement ({@link SqlDialect#withForeignKeyChecks} is null: all but MariaDB) this is
     * {@link #SERVER}.
     */
    REPLICA,
    /** Checks and actions off for every statement: for streams that carry the effects of cascades as rows of their own. */
    OFF,
    /** The session's default: every statement checked, as before this setting existed. */
    SERVER;

    public static ForeignKeyChecks parse(String s) {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
    }

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What {@code dialect}'s target gives for this setting: the one place that decides it. */
    public ForeignKeyChecks on(SqlDialect dialect) {
        return switch (this) {
            case REPLICA -> dialect.canTurnForeignKeyChecksOff() && dialect.withForeignKeyChecks("DELETE FROM t") != null
                    ? REPLICA : SERVER;
            case OFF -> dialect.canTurnForeignKeyChecksOff() ? OFF : SERVER;
            case SERVER -> SERVER;
        };
    }

    /** Whether sessions start with the target's foreign key checks off. */
    public boolean sessionOff() {
        return this != SERVER;
    }

    /** Whether DELETE and UPDATE statements switch the checks (and so the target's actions) on for themselves. */
    public boolean actionsOnDeleteAndUpdate() {
        return this == REPLICA;
    }
}
