package io.cdcconnect.sink.ddl.control;

import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.apply.RetryPolicy;
import io.cdcconnect.sink.dialect.ControlSql;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.offset.RecordFingerprints;
import io.cdcconnect.sink.txn.SourcePartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * Where a DDL statement leaves the stream, kept in the target itself: when the sink runs a DDL statement, every record
 * before it (of every partition the task holds) is committed downstream, and so is the DDL. That position is written
 * to {@code <database>.ddl_checkpoint} in the target, one row per connector, topic and partition, before the task
 * moves on. Connect commits its offsets only later; if the worker dies in between, Connect re-delivers records from
 * before the DDL, in a shape the DDL may have removed (a dropped column, table or name). The task skips every record at
 * or below the checkpoint instead of applying it again, so such a crash does not loop.
 *
 * <p>The sink's user needs {@code CREATE} and {@code INSERT} on that database; an empty database name turns the
 * checkpoint off (then a crash right after a destructive DDL needs the replayed records skipped by hand).
 */
public final class DdlCheckpoint {
    private static final Logger LOG = LoggerFactory.getLogger(DdlCheckpoint.class);

    private final DataSource dataSource;
    private final SqlDialect dialect;
    private final ControlSql sql;
    private final String database;
    private final String connector;
    private final RetryPolicy retry;
    private final Runnable onRetry;
    private final Map<SourcePartition, Long> through = new HashMap<>();
    /** Per partition, the commit ts of the last DDL statement it carried that ran (0: none known). */
    private final Map<SourcePartition, Long> lastDdlTs = new HashMap<>();
    /** Per partition, the record its checkpoint was written at, as read (absent: none known). */
    private final Map<SourcePartition, ControlStore.CheckpointRecord> records = new HashMap<>();
    private RecordFingerprints fingerprints = new RecordFingerprints();
    private boolean tableReady;

    public DdlCheckpoint(DataSource dataSource, SqlDialect dialect, String database, String connector, RetryPolicy retry,
                         Runnable onRetry) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.database = database == null ? "" : database.trim();
        this.sql = dialect.control(this.database);
        this.connector = connector;
        this.retry = retry;
        this.onRetry = onRetry;
    }

    /**
     * The row of {@code ddl_checkpoint} that keeps the commit ts of the last statement run on a target table: topic
     * {@code table:<schema>.<table>} (no Kafka topic name holds a ':'), partition -1; offset -2 while every statement
     * run on it came without a count of its copies (TiCDC), -1 once one came with one.
     */
    static SourcePartition tableRow(String table) {
        return new SourcePartition("table:" + table, -1);
    }

    public boolean enabled() {
        return !database.isEmpty();
    }

    private String table() {
        return sql.table("ddl_checkpoint");
    }

    /** The offset through which a DDL left {@code partition} committed downstream, or -1 (read once, then kept). */
    public long appliedThrough(SourcePartition partition) {
        if (!enabled()) return -1;
        Long known = through.get(partition);
        if (known != null) return known;
        long v;
        try {
            v = retry.run(() -> read(partition), onRetry);
        } catch (SQLException e) {
            throw new ApplyException("cannot read the DDL checkpoint of " + partition + " from " + table() + ": "
                    + dialect.describe(e), e);
        }
        through.put(partition, v);
        if (v >= 0) {
            LOG.info("{}: records through offset {} were applied before a DDL statement ran; a replay of them is skipped",
                    partition, v);
        }
        return v;
    }

    private long read(SourcePartition partition) throws SQLException {
        ensureTable();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(sql.selectCheckpoint())) {
            ps.setString(1, connector);
            ps.setString(2, partition.topic());
            ps.setInt(3, partition.partition());
            long v = -1;
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    v = rs.getLong(1);
                    lastDdlTs.merge(partition, rs.getLong(2), Math::max);
                }
            }
            records.remove(partition);
            if (v >= 0) {
                try (PreparedStatement rec = c.prepareStatement(sql.selectCheckpointRecord())) {
                    rec.setString(1, connector);
                    rec.setString(2, partition.topic());
                    rec.setInt(3, partition.partition());
                    try (ResultSet rs = rec.executeQuery()) {
                        // a record row not at the checkpoint (capped since) says nothing of it
                        RecordFingerprints.Window window = rs.next() && rs.getLong(1) == v
                                ? RecordFingerprints.Window.decode(rs.getString(2)) : null;
                        if (window != null && window.last() == v) {
                            records.put(partition, new ControlStore.CheckpointRecord(v, window));
                        }
                    }
                }
            }
            if (!c.getAutoCommit()) c.commit();
            return v;
        }
    }

    /** The record {@code partition}'s checkpoint was written at, or null when none is known. */
    public ControlStore.CheckpointRecord checkpointRecord(SourcePartition partition) {
        long through = appliedThrough(partition);
        ControlStore.CheckpointRecord r = records.get(partition);
        return r != null && r.offset() == through ? r : null;
    }

    /** Where the fingerprint of the record at a checkpoint's offset is found when the checkpoint is written. */
    public void fingerprints(RecordFingerprints fingerprints) {
        this.fingerprints = fingerprints;
    }

    /**
     * {@code partition}'s topic is not the one its checkpoint was written for (recreated or moved): its checkpoint
     * goes, durably, so that no record of it is skipped for that checkpoint again.
     */
    public void drop(SourcePartition partition) {
        through.put(partition, -1L);
        records.remove(partition);
        if (!enabled()) return;
        try {
            retry.run(() -> {
                ensureTable();
                try (Connection c = dataSource.getConnection();
                     PreparedStatement del = c.prepareStatement(sql.deleteCheckpoint());
                     PreparedStatement rec = c.prepareStatement(sql.deleteCheckpointRecord())) {
                    for (PreparedStatement ps : new PreparedStatement[]{del, rec}) {
                        ps.setString(1, connector);
                        ps.setString(2, partition.topic());
                        ps.setInt(3, partition.partition());
                        ps.executeUpdate();
                    }
                    if (!c.getAutoCommit()) c.commit();
                }
                return null;
            }, onRetry);
        } catch (SQLException e) {
            throw new ApplyException("cannot drop the DDL checkpoint of " + partition + " from " + table() + ": "
                    + dialect.describe(e), e);
        }
        LOG.info("{}: DDL checkpoint dropped", partition);
    }

    /**
     * The commit ts of the last DDL statement that ran from {@code partition} (0: none known). A row committed before
     * it that no longer fits its table (a column or the table gone) is a replay: a source restart sends again the
     * binlog since its last committed position, rows and statements alike, and that row was applied before the
     * statement ran. The statements themselves run again, in order, harmlessly (what they do is already in effect, or
     * is undone again by the statements that follow, as the first time).
     */
    public long lastDdlTs(SourcePartition partition) {
        appliedThrough(partition);
        return lastDdlTs.getOrDefault(partition, 0L);
    }

    /** Records that every record through {@code offsets} (per partition) is committed downstream, DDL included. */
    public void record(Map<SourcePartition, Long> offsets, long ddlCommitTs) {
        record(offsets, ddlCommitTs, java.util.Set.of());
    }

    /**
     * As {@link #record(Map, long)}; the statement came from {@code ddlPartitions}, whose last DDL commit ts it becomes
     * ({@link #lastDdlTs}).
     */
    public void record(Map<SourcePartition, Long> offsets, long ddlCommitTs, java.util.Set<SourcePartition> ddlPartitions) {
        for (SourcePartition p : ddlPartitions) {
            if (ddlCommitTs > 0) lastDdlTs.merge(p, ddlCommitTs, Math::max);
        }
        if (!enabled() || offsets.isEmpty()) return;
        try {
            retry.run(() -> {
                write(offsets, ddlCommitTs, ddlPartitions);
                return null;
            }, onRetry);
        } catch (SQLException e) {
            throw new ApplyException("the DDL statement ran, but its position could not be written to " + table()
                    + ": " + dialect.describe(e), e);
        }
        for (Map.Entry<SourcePartition, Long> e : offsets.entrySet()) {
            long now = through.merge(e.getKey(), e.getValue(), Math::max);
            RecordFingerprints.Window window = fingerprints.window(e.getKey(), e.getValue());
            if (now == e.getValue() && window != null) {
                records.put(e.getKey(), new ControlStore.CheckpointRecord(now, window));
            }
        }
    }

    private void write(Map<SourcePartition, Long> offsets, long ddlCommitTs, java.util.Set<SourcePartition> ddlPartitions)
            throws SQLException {
        ensureTable();
        // ddl_commit_ts: the last statement that ran from the partition itself (other partitions keep theirs)
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(sql.raiseCheckpoint())) {
            for (Map.Entry<SourcePartition, Long> e : offsets.entrySet()) {
                ps.setString(1, connector);
                ps.setString(2, e.getKey().topic());
                ps.setInt(3, e.getKey().partition());
                ps.setLong(4, e.getValue());
                ps.setLong(5, ddlPartitions.contains(e.getKey()) ? Math.max(0, ddlCommitTs) : 0);
                ps.executeUpdate();
            }
            // the record each checkpoint is at: a topic recreated under the same name holds another one there
            try (PreparedStatement rec = c.prepareStatement(sql.raiseCheckpointRecord())) {
                for (Map.Entry<SourcePartition, Long> e : offsets.entrySet()) {
                    if (e.getKey().partition() < 0) continue; // a table's row, not a partition's
                    RecordFingerprints.Window window = fingerprints.window(e.getKey(), e.getValue());
                    if (window == null) continue;
                    rec.setString(1, connector);
                    rec.setString(2, e.getKey().topic());
                    rec.setInt(3, e.getKey().partition());
                    rec.setLong(4, e.getValue());
                    rec.setString(5, window.encode());
                    rec.executeUpdate();
                }
            }
            if (!c.getAutoCommit()) c.commit();
        }
    }

    private void ensureTable() throws SQLException {
        if (tableReady) return;
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            ControlSchema.ensure(c, sql); // an older layout brought to this sink's first
            for (String statement : sql.createCheckpoint()) st.execute(statement);
            if (!c.getAutoCommit()) c.commit();
        }
        tableReady = true;
    }

    /**
     * The consumer's offsets were altered ({@code offset}) or reset (null): records from there on must be applied
     * again, so no checkpoint of these partitions may reach beyond {@code offset - 1}.
     */
    public static void rewind(DataSource dataSource, SqlDialect dialect, String database, String connector,
                              Map<SourcePartition, Long> offsets) throws SQLException {
        ControlSql sql = dialect.control(database);
        try (Connection c = dataSource.getConnection()) {
            if (!dialect.tableExists(c, database, "ddl_checkpoint")) return; // no DDL ever checkpointed
            boolean records = dialect.tableExists(c, database, "ddl_checkpoint_record");
            try (PreparedStatement del = c.prepareStatement(sql.deleteCheckpoint());
                 PreparedStatement cap = c.prepareStatement(sql.capCheckpoint());
                 PreparedStatement rec = records ? c.prepareStatement(sql.deleteCheckpointRecord()) : null) {
                for (Map.Entry<SourcePartition, Long> e : offsets.entrySet()) {
                    SourcePartition p = e.getKey();
                    if (rec != null) {
                        // deleted or capped, the checkpoint is no longer at its record
                        rec.setString(1, connector);
                        rec.setString(2, p.topic());
                        rec.setInt(3, p.partition());
                        rec.executeUpdate();
                    }
                    if (e.getValue() == null) {
                        del.setString(1, connector);
                        del.setString(2, p.topic());
                        del.setInt(3, p.partition());
                        del.executeUpdate();
                    } else {
                        cap.setLong(1, e.getValue() - 1);
                        cap.setString(2, connector);
                        cap.setString(3, p.topic());
                        cap.setInt(4, p.partition());
                        cap.setLong(5, e.getValue() - 1);
                        cap.executeUpdate();
                    }
                }
            }
            // statements coordinated across tasks will come again: coordinate them again; and rows from before the
            // last statement on a table are not replays any more (ReplayRules)
            try (PreparedStatement tables = c.prepareStatement(sql.deleteTableStatements())) {
                tables.setString(1, connector);
                tables.executeUpdate();
            }
            DdlCoordinator.forgetAll(c, dialect, database, connector);
            if (!c.getAutoCommit()) c.commit();
        }
        LOG.info("DDL checkpoint of {} rewound for {}", connector, offsets);
    }

    /** Forgets what was read for a revoked partition (its next owner reads it again). */
    public void forget(SourcePartition partition) {
        through.remove(partition);
        lastDdlTs.remove(partition);
        records.remove(partition);
    }
}
