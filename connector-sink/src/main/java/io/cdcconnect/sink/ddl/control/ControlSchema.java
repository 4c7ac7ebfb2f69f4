package io.cdcconnect.sink.ddl.control;

import io.cdcconnect.sink.dialect.ControlSql;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;

/**
 * The layout version of the sink's control tables in one schema, kept in {@code control_schema} (one row), and the
 * steps that bring an older layout to this sink's. Run before a task creates its control tables: a schema with
 * control tables but no {@code control_schema} is 0.1.0's layout (version 0); an empty one gets the current version
 * at once, its tables created in the current layout by their {@code CREATE TABLE IF NOT EXISTS}.
 *
 * <p>Version 1 has 0.1.0's tables unchanged, so its step only records the version. The next layout change is one
 * step: raise {@link #CURRENT} and give {@link ControlSql#migrateTable} that version's statements for the tables it
 * changes. Each step runs under a server session lock (the run locks' kind), so tasks starting together migrate once,
 * and records its version when its statements are done: a task that dies inside a step leaves the previous version
 * recorded, and the next task runs the step again (a step's statements must be safe to run over a half-done step).
 */
public final class ControlSchema {

    private static final Logger LOG = LoggerFactory.getLogger(ControlSchema.class);

    /** This sink's layout of the control tables. */
    public static final int CURRENT = 1;

    /** Every control table but {@code control_schema}: any of them there without it is 0.1.0's layout. */
    public static final List<String> TABLES = List.of("ddl_checkpoint", "ddl_checkpoint_record", "written_through",
            "ddl_copy", "ddl_barrier", "ddl_run");

    private static final long LOCK_WAIT_MS = 60_000;

    private ControlSchema() {
    }

    /**
     * Brings the control tables of {@code sql}'s schema to {@link #CURRENT}, creating {@code control_schema} if
     * missing; returns the version found (0 for 0.1.0's layout).
     *
     * @throws SQLException when the tables are of a newer layout than this sink's, or the lock is not had in time
     */
    public static int ensure(Connection c, ControlSql sql) throws SQLException {
        String lock = lockName(sql.table("control_schema"));
        long deadline = System.currentTimeMillis() + LOCK_WAIT_MS;
        while (!tryLock(c, sql.tryRunLock(lock))) {
            if (System.currentTimeMillis() > deadline) {
                throw new SQLException("another task has held the lock on " + sql.table("control_schema")
                        + " for over " + LOCK_WAIT_MS / 1000 + " s while checking the control tables' layout");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while waiting for the control tables' lock", e);
            }
        }
        try {
            return migrate(c, sql);
        } finally {
            try (Statement st = c.createStatement()) {
                st.execute(sql.releaseRunLock(lock));
            }
            if (!c.getAutoCommit()) c.commit();
        }
    }

    private static int migrate(Connection c, ControlSql sql) throws SQLException {
        int found = recorded(c, sql);
        if (found < 0) found = anyTable(c, sql) ? 0 : CURRENT;
        if (found > CURRENT) {
            throw new SQLException("the control tables in " + sql.table("control_schema") + "'s schema are of layout "
                    + "version " + found + ", newer than this sink's " + CURRENT + ": a newer cdc-connect sink wrote "
                    + "them; run that version or a later one (docs/upgrading.md)");
        }
        try (Statement st = c.createStatement()) {
            for (String statement : sql.createControlSchema()) st.execute(statement);
        }
        try (PreparedStatement ins = c.prepareStatement(sql.insertControlSchemaVersion())) {
            ins.setInt(1, found);
            ins.executeUpdate();
        }
        if (!c.getAutoCommit()) c.commit();
        for (int version = found + 1; version <= CURRENT; version++) {
            try (Statement st = c.createStatement()) {
                for (String table : TABLES) {
                    if (!sql.tableExists(c, table)) continue;
                    for (String statement : sql.migrateTable(version, table)) st.execute(statement);
                }
            }
            try (PreparedStatement up = c.prepareStatement(sql.raiseControlSchemaVersion())) {
                up.setInt(1, version);
                up.setInt(2, version - 1);
                up.executeUpdate();
            }
            if (!c.getAutoCommit()) c.commit();
            LOG.info("control tables in {}'s schema: layout version {} -> {}{}", sql.table("control_schema"),
                    version - 1, version, version == 1 ? " (0.1.0's tables kept as they were)" : "");
        }
        return found;
    }

    /** The version {@code control_schema} records, or -1 when it or its row is missing. */
    static int recorded(Connection c, ControlSql sql) throws SQLException {
        if (!sql.tableExists(c, "control_schema")) return -1;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql.selectControlSchemaVersion())) {
            return rs.next() ? rs.getInt(1) : -1;
        }
    }

    private static boolean anyTable(Connection c, ControlSql sql) throws SQLException {
        for (String table : TABLES) {
            if (sql.tableExists(c, table)) return true;
        }
        return false;
    }

    private static boolean tryLock(Connection c, String query) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** A run-lock name (hex) of its own per schema: the table's qualified name hashed. */
    static String lockName(String qualifiedTable) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256")
                    .digest(("cdc-connect control_schema " + qualifiedTable).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
