package io.cdcconnect.sink.ddl.control;

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
             PreparedStatement later = c.prepareStatement(sql.copiesAfter());
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
                if (n < 0 && countCopies(later, topic, key, partition, e.getValue()) > 0) {
                    // copies of this statement at higher offsets, none at this one: the partition went back below
                    // what it had delivered, which only a recreated topic does (CoreSimulationTest seed 66185: a
                    // partition whose recreation no checkpoint showed kept its old copies, and its new copy took
                    // the number of a sending that had run)
                    LOG.warn("{}-{} delivers a copy of DDL {} at offset {}, below copies of it recorded before: the "
                            + "topic was recreated; its recorded copies move below every offset of the new topic",
                            topic, partition, key.substring(0, 12), e.getValue());
                    shiftCopies(c, e.getKey());
                }
                if (n < 0) {
                    n = countCopies(last, topic, key, partition, e.getValue()) + 1;
                    insertCopy(ins, topic, key, partition, e.getValue(), n);
                }
                number = Math.max(number, n);
            }
            if (!c.getAutoCommit()) c.commit();
        }
        return new ControlStore.Sending(number, sendingId(ddlKey, number));
    }

    private long countCopies(PreparedStatement ps, String topic, String key, int partition, long offset)
            throws SQLException {
        ps.setString(1, connector);
        ps.setString(2, topic);
        ps.setString(3, key);
        ps.setInt(4, partition);
        ps.setLong(5, offset);
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** Moves the copies {@code partition} delivered below every offset of its recreated topic. */
    void shiftCopies(SourcePartition partition) throws SQLException {
        ensureTables();
        try (Connection c = dataSource.getConnection()) {
            shiftCopies(c, partition);
            if (!c.getAutoCommit()) c.commit();
        }
    }

    private void shiftCopies(Connection c, SourcePartition partition) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.shiftCopies())) {
            ps.setLong(1, ControlStore.COPIES_SHIFT);
            ps.setString(2, connector);
            ps.setString(3, partition.topic());
            ps.setInt(4, partition.partition());
            ps.executeUpdate();
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

    /**
     * {@link ControlStore#uncountedRan}: a row per copy in {@code ddl_copy}, with sending 0 (a counted statement's
     * sendings are numbered from 1); offset -1 for a copy still to come.
     */
    public void uncountedRan(String topic, String ddlKey, java.util.Map<SourcePartition, Long> copies)
            throws SQLException {
        if (copies.isEmpty()) return;
        ensureTables();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ins = c.prepareStatement(sql.insertCopy())) {
            for (java.util.Map.Entry<SourcePartition, Long> e : copies.entrySet()) {
                insertCopy(ins, topic, id(ddlKey), e.getKey().partition(), Math.max(-1, e.getValue()), 0);
            }
            if (!c.getAutoCommit()) c.commit();
        }
    }

    /** {@link ControlStore#uncountedCopyRan}: a copy of a statement that ran here gets a row of its own. */
    public boolean uncountedCopyRan(String topic, String ddlKey, SourcePartition partition, long offset)
            throws SQLException {
        ensureTables();
        String key = id(ddlKey);
        try (Connection c = dataSource.getConnection();
             PreparedStatement find = c.prepareStatement(sql.selectLateCopies())) {
            find.setString(1, connector);
            find.setString(2, topic);
            find.setString(3, key);
            find.setInt(4, partition.partition());
            boolean ran = false;
            try (ResultSet rs = find.executeQuery()) {
                while (rs.next()) {
                    if (rs.getLong(1) == offset) return true;
                    ran = true;
                }
            }
            if (!ran) return false;
            // a late copy, or the statement sent again: recorded at its offset too
            try (PreparedStatement ins = c.prepareStatement(sql.insertCopy())) {
                insertCopy(ins, topic, key, partition.partition(), offset, 0);
            }
            if (!c.getAutoCommit()) c.commit();
            return true;
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
        Claim claim = claim(c, topic, ddlId);
        if (claim != null) {
            if (claim.done) {
                unlock(topic, ddlId);
                return State.DONE;
            }
            if (claim.by.equals(instance)) {
                // this task's claim: it runs it while it holds the run lock (a lost session lost the lock too, and
                // another task may hold it now)
                return lock(topic, ddlId) ? State.RUN : State.WAIT;
            }
            // before any take-over: a claimed partition past its copy has applied rows from after the
            // statement, which must not run again before them
            long past = copyCheckpointed(c, topic, ddlKey, claim.partition, sending.number());
            if (past >= 0) {
                finish(c, topic, ddlId);
                LOG.warn("The DDL {} of {} was claimed by a task that ran it but stopped before marking it "
                        + "run: partition {}'s checkpoint is past its copy at offset {}. It counts as run",
                        ddlId.substring(0, 12), topic, claim.partition, past);
                return State.DONE;
            }
            if (!assigned.contains(new SourcePartition(topic, claim.partition))) return State.WAIT;
            // this task holds the claimed partition now; the claimant may still be running the statement (a consumer
            // that left the group while the statement ran lost its partitions, not its session): only when its run
            // lock is free is it gone, and only then is the claim taken over (never because time passed)
            if (!lock(topic, ddlId)) {
                if (waitingLogged.add(ddlId)) {
                    LOG.warn("The DDL {} of {} is claimed for partition {}, which this task holds now, by a task "
                            + "whose session still holds its run lock: it is still running it, and this task waits "
                            + "until it is done or its session ends", ddlId.substring(0, 12), topic, claim.partition);
                }
                return State.WAIT;
            }
            Claim again = claim(c, topic, ddlId);
            if (again != null && again.done) {
                unlock(topic, ddlId);
                return State.DONE;
            }
            if (again != null && again.by.equals(claim.by) && takeOver(c, topic, ddlId, claim.by)) {
                LOG.warn("The DDL {} of {} was claimed by a task that no longer holds partition {} and no longer "
                        + "runs it (its run lock is free): this task runs it", ddlId.substring(0, 12), topic,
                        claim.partition);
                return State.RUN;
            }
            unlock(topic, ddlId);
            return State.WAIT;
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
        if (!lock(topic, ddlId)) return State.WAIT;
        try (PreparedStatement ps = c.prepareStatement(sql.insertRun())) {
            ps.setString(1, connector);
            ps.setString(2, topic);
            ps.setString(3, ddlId);
            ps.setString(4, instance);
            ps.setInt(5, claimant.partition());
            if (ps.executeUpdate() == 1) return State.RUN;
        }
        // nothing inserted: another task claimed it first
        unlock(topic, ddlId);
        return State.WAIT;
    }

    /** A row of {@code ddl_run}: who claimed a sending, for which partition, and whether it ran. */
    private record Claim(String by, int partition, boolean done) {
    }

    private Claim claim(Connection c, String topic, String ddlId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.selectRun())) {
            ps.setString(1, connector);
            ps.setString(2, topic);
            ps.setString(3, ddlId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Claim(rs.getString(1), rs.getInt(2), rs.getInt(3) != 0) : null;
            }
        }
    }

    /** Sendings whose claimant's held run lock was reported (once each). */
    private final Set<String> waitingLogged = new java.util.HashSet<>();
    /** The session that holds this task's run locks, while it holds any. */
    private Connection lockSession;
    /** The run locks this task holds, by name. */
    private final Set<String> locks = new java.util.HashSet<>();

    /** The run lock of a sending: one name per connector, topic and sending, in hex (a server's lock names are global). */
    private String lockName(String topic, String ddlId) {
        return id(connector + "\u0000" + topic + "\u0000" + ddlId).substring(0, 60);
    }

    /**
     * Takes the run lock of a sending (without waiting), or says this task still holds it. Held from the claim until
     * the statement is marked run; a task whose session ended (it died, or its connection broke) holds none.
     */
    private boolean lock(String topic, String ddlId) throws SQLException {
        String name = lockName(topic, ddlId);
        if (locks.contains(name)) {
            if (lockSession != null && lockSession.isValid(5)) return true;
            // the session ended, and every lock with it: another task may have taken the claim over
            LOG.warn("The session that held this task's DDL run locks ended: they are taken again, if still free");
            closeLockSession();
        }
        if (lockSession == null) {
            lockSession = dataSource.getConnection();
            lockSession.setAutoCommit(true);
        }
        boolean got;
        try (Statement st = lockSession.createStatement(); ResultSet rs = st.executeQuery(sql.tryRunLock(name))) {
            got = rs.next() && rs.getBoolean(1);
        } catch (SQLException e) {
            closeLockSession();
            throw e;
        }
        if (got) {
            locks.add(name);
        } else if (locks.isEmpty()) {
            closeLockSession();
        }
        return got;
    }

    private void unlock(String topic, String ddlId) {
        String name = lockName(topic, ddlId);
        if (!locks.remove(name)) return;
        try (Statement st = lockSession.createStatement(); ResultSet rs = st.executeQuery(sql.releaseRunLock(name))) {
            rs.next();
        } catch (SQLException e) {
            // a session that cannot release holds nothing once closed
            LOG.warn("Could not release a DDL run lock ({}): its session is closed instead", e.getMessage());
            closeLockSession();
            return;
        }
        if (locks.isEmpty()) closeLockSession();
    }

    /** Releases every run lock this task holds (the task stops): another task may take its claims over. */
    public void close() {
        closeLockSession();
    }

    /**
     * Releases what the session still holds and gives it back. A pooled connection outlives its {@code close()}, and
     * its server session with it: a lock it still held would stay taken; one that cannot be released is evicted from
     * the pool, which ends its session.
     */
    private void closeLockSession() {
        if (lockSession == null) {
            locks.clear();
            return;
        }
        boolean released = true;
        for (String name : locks) {
            try (Statement st = lockSession.createStatement(); ResultSet rs = st.executeQuery(sql.releaseRunLock(name))) {
                rs.next();
            } catch (SQLException e) {
                released = false;
                break;
            }
        }
        locks.clear();
        try {
            if (!released && dataSource.isWrapperFor(com.zaxxer.hikari.HikariDataSource.class)) {
                dataSource.unwrap(com.zaxxer.hikari.HikariDataSource.class).evictConnection(lockSession);
            } else {
                lockSession.close();
            }
        } catch (SQLException e) {
            LOG.debug("Closing the DDL run-lock session: {}", e.getMessage());
        }
        lockSession = null;
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

    /** Marks the statement run, and releases its run lock. */
    public void done(String topic, String ddlId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            finish(c, topic, ddlId);
            if (!c.getAutoCommit()) c.commit();
        }
        unlock(topic, ddlId);
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
            ControlSchema.ensure(c, sql); // an older layout brought to this sink's first
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
