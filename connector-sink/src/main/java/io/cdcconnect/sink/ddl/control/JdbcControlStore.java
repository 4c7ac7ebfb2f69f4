package io.cdcconnect.sink.ddl.control;

import io.cdcconnect.sink.apply.RetryPolicy;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.offset.RecordFingerprints;
import io.cdcconnect.sink.txn.SourcePartition;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/** The {@link ControlStore} in the target: {@link DdlCheckpoint}'s and {@link DdlCoordinator}'s tables. */
public final class JdbcControlStore implements ControlStore {

    private final DdlCheckpoint checkpoint;
    private final DdlCoordinator coordinator;
    private final WrittenThrough written;

    public JdbcControlStore(DataSource dataSource, SqlDialect dialect, String database, String connector,
                            RetryPolicy retry, Runnable onRetry) {
        this.checkpoint = new DdlCheckpoint(dataSource, dialect, database, connector, retry, onRetry);
        this.coordinator = new DdlCoordinator(dataSource, dialect, database, connector);
        this.written = new WrittenThrough(dataSource, dialect, database, connector, retry, onRetry);
    }

    @Override
    public boolean enabled() {
        return checkpoint.enabled();
    }

    @Override
    public long appliedThrough(SourcePartition partition) {
        return checkpoint.appliedThrough(partition);
    }

    @Override
    public CheckpointRecord checkpointRecord(SourcePartition partition) {
        return checkpoint.checkpointRecord(partition);
    }

    @Override
    public void recreated(SourcePartition partition) {
        if (!checkpoint.enabled()) return;
        try {
            // before the checkpoint goes: a failure in between finds the checkpoint, and does this again
            coordinator.shiftCopies(partition);
        } catch (SQLException e) {
            throw new io.cdcconnect.sink.apply.ApplyException("cannot move the statement copies of recreated "
                    + partition + ": " + e.getMessage(), e);
        }
        checkpoint.drop(partition);
    }

    @Override
    public void fingerprints(RecordFingerprints fingerprints) {
        checkpoint.fingerprints(fingerprints);
    }

    @Override
    public void record(Map<SourcePartition, Long> offsets, long ddlCommitTs, Set<SourcePartition> ddlPartitions) {
        checkpoint.record(offsets, ddlCommitTs, ddlPartitions);
    }

    @Override
    public TableDdl tableDdl(String table) {
        SourcePartition row = DdlCheckpoint.tableRow(table);
        // read anew: another task may have run a statement on the table since (ReplayRules keeps what it reads until
        // the next assignment)
        checkpoint.forget(row);
        long ts = checkpoint.lastDdlTs(row);
        // the row's offset says who produced its statements: -2 only ever uncounted (TiCDC), -1 counted
        return ts == 0 ? TableDdl.NONE : new TableDdl(ts, checkpoint.appliedThrough(row) == -2);
    }

    @Override
    public void recordTableDdl(String table, long ddlCommitTs, boolean uncounted) {
        SourcePartition row = DdlCheckpoint.tableRow(table);
        checkpoint.record(Map.of(row, uncounted ? -2L : -1L), ddlCommitTs, Set.of(row));
    }

    @Override
    public long writtenThrough(SourcePartition partition) {
        return checkpoint.enabled() ? written.read(partition) : -1;
    }

    @Override
    public void raiseWrittenThrough(SourcePartition partition, long offset) {
        if (checkpoint.enabled()) written.raise(partition, offset);
    }

    @Override
    public void forget(SourcePartition partition) {
        checkpoint.forget(partition);
    }

    @Override
    public Sending sending(String topic, String ddlKey, Map<SourcePartition, Long> copies) throws SQLException {
        return coordinator.sending(topic, ddlKey, copies);
    }

    @Override
    public boolean copyRan(String topic, String ddlKey, SourcePartition partition, long offset) throws SQLException {
        return coordinator.copyRan(topic, ddlKey, partition, offset);
    }

    @Override
    public void uncountedRan(String topic, String ddlKey, Map<SourcePartition, Long> copies)
            throws SQLException {
        coordinator.uncountedRan(topic, ddlKey, copies);
    }

    @Override
    public boolean uncountedCopyRan(String topic, String ddlKey, SourcePartition partition, long offset)
            throws SQLException {
        return coordinator.uncountedCopyRan(topic, ddlKey, partition, offset);
    }

    @Override
    public Set<Integer> arrivals(String topic, String ddlId) throws SQLException {
        return coordinator.arrivals(topic, ddlId);
    }

    @Override
    public void arrive(String topic, String ddlId, Collection<SourcePartition> partitions) throws SQLException {
        coordinator.arrive(topic, ddlId, partitions);
    }

    @Override
    public DdlCoordinator.State state(String topic, String ddlKey, Sending sending, int copies,
                                      Set<SourcePartition> assigned, SourcePartition claimant) throws SQLException {
        return coordinator.state(topic, ddlKey, sending, copies, assigned, claimant);
    }

    @Override
    public void done(String topic, String ddlId) throws SQLException {
        coordinator.done(topic, ddlId);
    }

    @Override
    public void close() {
        coordinator.close();
    }
}
