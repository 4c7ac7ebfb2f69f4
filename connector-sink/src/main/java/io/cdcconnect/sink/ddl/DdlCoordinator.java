package io.cdcconnect.sink.ddl;

import io.cdcconnect.sink.dialect.ControlSql;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.txn.SourcePartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Set;
import java.util.UUID;

/**
 * Runs a DDL statement that reached several partitions once for all the sink's tasks, after every one of those
 * partitions has passed it. A producer that spreads a table's rows over partitions sends the statement to each of them
 * (cdc-connect's source says how many in the header {@value #COPIES_HEADER}); the partitions may belong to different
 * tasks, and a task that ran the statement on its own could drop a column or truncate a table while another task still
 * holds rows from before it, or run the TRUNCATE again after rows that came after it.
 *
 * <p>Kept in the target, beside the DDL checkpoint ({@code ddl.checkpoint.database}): {@code ddl_barrier} holds one row
 * per partition that passed the statement, once its task applied everything before it; {@code ddl_run} one row per
 * statement, claimed by the task that runs it and marked done after. The task whose arrival completes the count claims
 * it; the others wait for it to be done. If the claimant dies first, the new owner of the claimant's partition takes
 * the claim over and runs the statement again (every partition still waits, so nothing after it has been applied).
 */
public final class DdlCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(DdlCoordinator.class);

    /** The Kafka header in which a producer says to how many partitions of the topic it sent a DDL statement. */
    public static final String COPIES_HEADER = io.cdcconnect.codec.KafkaHeaders.DDL_PARTITIONS;

    /** Where a statement stands for this task. */
    public enum State { WAIT, RUN, DONE }

    private final DataSource dataSource;
    private final String database;
    private final ControlSql sql;
    private final String connector;
    private final String instance = UUID.randomUUID().toString();
    private boolean tablesReady;

    public DdlCoordinator(DataSource dataSource, SqlDialect dialect, String database, String connector) {
        this.dataSource = dataSource;
        this.database = database == null ? "" : database.trim();
        this.sql = dialect.control(this.database);
        this.connector = connector;
    }

    public boolean enabled() {
        return !database.isEmpty();
    }

    /** A short stable id of a statement (its commit ts, database and text). */
    public static String id(String ddlKey) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(ddlKey.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The id of sending {@code number} of a statement: the statement's own id first, a derived one after. */
    public static String sendingId(String ddlKey, long number) {
        return number <= 1 ? id(ddlKey) : id(ddlKey + "\u0000sending " + number);
    }

    /** {@link ControlStore#sending}, kept in {@code ddl_copy}. */
    public ControlStore.Sending sending(String topic, String ddlKey, java.util.Map<SourcePartition, Long> copies)
            throws SQLException {
        ensureTables();
        String key = id(ddlKey);
        long number = 1;
        try (Connection c = dataSource.getConnection();
             PreparedStatement find = c.prepareStatement(sql.selectCopy());
             PreparedStatement last = c.prepareStatement(sql.copiesBefore());
             PreparedStatement ins = c.prepareStatement(sql.insertCopy())) {
            for (java.util.Map.Entry<SourcePartition, Long> e : copies.entrySet()) {
                if (e.getValue() < 0) continue;
                int partition = e.getKey().partition();
                long n = -1;
                find.setString(1, connector);
                find.setString(2, topic);
                find.setString(3, key);
                find.setInt(4, partition);
                find.setLong(5, e.getValue());
                try (ResultSet rs = find.executeQuery()) {
                    if (rs.next()) n = rs.getLong(1);
                }
                if (n < 0) {
                    last.setString(1, connector);
                    last.setString(2, topic);
                    last.setString(3, key);
                    last.setInt(4, partition);
                    last.setLong(5, e.getValue());
                    try (ResultSet rs = last.executeQuery()) {
                        n = (rs.next() ? rs.getLong(1) : 0) + 1;
                    }
                    insertCopy(ins, topic, key, partition, e.getValue(), n);
                }
                number = Math.max(number, n);
            }
            if (!c.getAutoCommit()) c.commit();
        }
        return new ControlStore.Sending(number, sendingId(ddlKey, number));
    }

    /** Moves the copies {@code partition} delivered below every offset of its recreated topic. */
    void shiftCopies(SourcePartition partition) throws SQLException {
        ensureTables();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(sql.shiftCopies())) {
            ps.setLong(1, ControlStore.COPIES_SHIFT);
            ps.setString(2, connector);
            ps.setString(3, partition.topic());
            ps.setInt(4, partition.partition());
            ps.executeUpdate();
            if (!c.getAutoCommit()) c.commit();
        }
    }

    /** {@link ControlStore#copyRan}. */
    public boolean copyRan(String topic, String ddlKey, SourcePartition partition, long offset) throws SQLException {
        ensureTables();
        try (Connection c = dataSource.getConnection();
             PreparedStatement find = c.prepareStatement(sql.selectCopy());
             PreparedStatement run = c.prepareStatement(sql.selectRun())) {
            find.setString(1, connector);
            find.setString(2, topic);
            find.setString(3, id(ddlKey));
            find.setInt(4, partition.partition());
            find.setLong(5, offset);
            long number;
            try (ResultSet rs = find.executeQuery()) {
                if (!rs.next()) return false;
                number = rs.getLong(1);
            }
            run.setString(1, connector);
            run.setString(2, topic);
            run.setString(3, sendingId(ddlKey, number));
            boolean done;
            try (ResultSet rs = run.executeQuery()) {
                done = rs.next() && rs.getInt(3) != 0;
            }
            if (!c.getAutoCommit()) c.commit();
            return done;
        }
    }

    private void insertCopy(PreparedStatement ins, String topic, String key, int partition, long offset, long number)
            throws SQLException {
        ins.setString(1, connector);
        ins.setString(2, topic);
        ins.setString(3, key);
        ins.setInt(4, partition);
        ins.setLong(5, offset);
        ins.setLong(6, number);
        ins.executeUpdate();
    }

    /** The partitions recorded as having passed a sending of a statement. */
    public java.util.Set<Integer> arrivals(String topic, String ddlId) throws SQLException {
        ensureTables();
        java.util.Set<Integer> out = new java.util.HashSet<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(sql.selectArrivals())) {
            ps.setString(1, connector);
            ps.setString(2, topic);
            ps.setString(3, ddlId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(rs.getInt(1));
            }
            if (!c.getAutoCommit()) c.commit();
        }
        return out;
    }

    /** Records that {@code partitions} passed the statement and everything before it is applied from them. */
    public void arrive(String topic, String ddlId, Collection<SourcePartition> partitions) throws SQLException {
        ensureTables();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(sql.insertArrival())) {
            for (SourcePartition p : partitions) {
                ps.setString(1, connector);
                ps.setString(2, topic);
                ps.setString(3, ddlId);
                ps.setInt(4, p.partition());
                ps.executeUpdate();
            }
            if (!c.getAutoCommit()) c.commit();
        }
    }

    /** {@link ControlStore#state}. */
    public State state(String topic, String ddlKey, ControlStore.Sending sending, int copies,
                       Set<SourcePartition> assigned, SourcePartition claimant) throws SQLException {
        ensureTables();
        try (Connection c = dataSource.getConnection()) {
            try {
                return state(c, topic, ddlKey, sending, copies, assigned, claimant);
            } finally {
                if (!c.getAutoCommit()) c.commit();
            }
        }
    }

    private State state(Connection c, String topic, String ddlKey, ControlStore.Sending sending, int copies,
                        Set<SourcePartition> assigned, SourcePartition claimant) throws SQLException {
        String ddlId = sending.id();
        try (PreparedStatement ps = c.prepareStatement(sql.selectRun())) {
            ps.setString(1, connector);
            ps.setString(2, topic);
            ps.setString(3, ddlId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    if (rs.getInt(3) != 0) return State.DONE;
                    String by = rs.getString(1);
                    int partition = rs.getInt(2);
                    if (by.equals(instance)) return State.RUN;
                    // before any take-over: a claimed partition past its copy has applied rows from after the
                    // statement, which must not run again before them
                    long past = copyCheckpointed(c, topic, ddlKey, partition, sending.number());
                    if (past >= 0) {
                        finish(c, topic, ddlId);
                        LOG.warn("The DDL {} of {} was claimed by a task that ran it but stopped before marking it "
                                + "run: partition {}'s checkpoint is past its copy at offset {}. It counts as run",
                                ddlId.substring(0, 12), topic, partition, past);
                        return State.DONE;
                    }
                    if (assigned.contains(new SourcePartition(topic, partition)) && takeOver(c, topic, ddlId, by)) {
                        LOG.warn("The DDL {} of {} was claimed by a task that no longer holds partition {}: this task "
                                + "runs it", ddlId.substring(0, 12), topic, partition);
                        return State.RUN;
                    }
                    return State.WAIT;
                }
            }
        }
        int arrived;
        try (PreparedStatement ps = c.prepareStatement(sql.countArrivals())) {
            ps.setString(1, connector);
            ps.setString(2, topic);
            ps.setString(3, ddlId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                arrived = rs.getInt(1);
            }
        }
        if (arrived < copies) return State.WAIT;
        try (PreparedStatement ps = c.prepareStatement(sql.insertRun())) {
            ps.setString(1, connector);
            ps.setString(2, topic);
            ps.setString(3, ddlId);
            ps.setString(4, instance);
            ps.setInt(5, claimant.partition());
            // nothing inserted: another task claimed it first
            return ps.executeUpdate() == 1 ? State.RUN : State.WAIT;
        }
    }

    /** The offset of {@code partition}'s copy of a sending when its checkpoint is at or past it, else -1. */
    private long copyCheckpointed(Connection c, String topic, String ddlKey, int partition, long number)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.copyCheckpointed())) {
            ps.setString(1, connector);
            ps.setString(2, topic);
            ps.setString(3, id(ddlKey));
            ps.setInt(4, partition);
            ps.setLong(5, number);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    private boolean takeOver(Connection c, String topic, String ddlId, String from) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.takeOverRun())) {
            ps.setString(1, instance);
            ps.setString(2, connector);
            ps.setString(3, topic);
            ps.setString(4, ddlId);
            ps.setString(5, from);
            return ps.executeUpdate() == 1;
        }
    }

    /** Marks the statement run. */
    public void done(String topic, String ddlId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            finish(c, topic, ddlId);
            if (!c.getAutoCommit()) c.commit();
        }
    }

    private void finish(Connection c, String topic, String ddlId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.finishRun())) {
            ps.setString(1, connector);
            ps.setString(2, topic);
            ps.setString(3, ddlId);
            ps.executeUpdate();
        }
    }

    private void ensureTables() throws SQLException {
        if (tablesReady) return;
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            // the checkpoint's tables too: state() reads them beside the coordination's
            for (String statement : sql.createCheckpoint()) st.execute(statement);
            for (String statement : sql.createCoordination()) st.execute(statement);
            if (!c.getAutoCommit()) c.commit();
        }
        tablesReady = true;
    }

    /** Offsets were reset or altered: statements after them will be delivered and coordinated again. */
    public static void forgetAll(Connection c, SqlDialect dialect, String database, String connector)
            throws SQLException {
        ControlSql sql = dialect.control(database);
        for (String t : new String[] {"ddl_barrier", "ddl_run", "ddl_copy"}) {
            if (!dialect.tableExists(c, database, t)) continue;
            try (PreparedStatement ps = c.prepareStatement(sql.deleteConnector(t))) {
                ps.setString(1, connector);
                ps.executeUpdate();
            }
        }
    }
}
