package io.cdcconnect.sink;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.sink.apply.RejectedRows;
import io.cdcconnect.sink.apply.ShapeResolver;
import io.cdcconnect.sink.apply.WorkItem;
import io.cdcconnect.sink.conflict.ConflictDetector;
import io.cdcconnect.sink.ddl.order.DdlSequencer;
import io.cdcconnect.sink.ddl.TableAutoCreator;
import io.cdcconnect.sink.dml.RowShape;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.offset.OffsetTracker;
import io.cdcconnect.sink.txn.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Turns a transaction the {@link io.cdcconnect.sink.txn.TransactionAssembler} completed into work for the
 * {@link io.cdcconnect.sink.apply.ApplyWorker}s: each row's shape on the target and its conflict keys, in safe mode or
 * not ({@link SafeModeDecision}), registered with the {@link OffsetTracker}. Rows whose table or column the target
 * lacks are replays from before a DDL that already ran (skipped), or rejected rows (dead-letter queue, or the task
 * fails).
 */
final class TransactionDispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionDispatcher.class);

    private final io.cdcconnect.sink.apply.TableShapes shapes;
    private final DdlSequencer ddl;
    private final SinkMetrics metrics;
    private final OffsetTracker tracker;
    private final ConflictDetector<WorkItem> detector;
    private final SafeModeDecision safeMode;
    private final BackPressure buffer;
    private final Supplier<RejectedRows> rejectedRows;
    private final TableAutoCreator tables;
    private final java.util.Map<io.cdcconnect.codec.model.TableInfo, String> targetNames =
            new java.util.IdentityHashMap<>();
    /** Tables whose replayed rows of an older shape were reported once. */
    private final Set<String> replayWarned = new java.util.HashSet<>();

    TransactionDispatcher(io.cdcconnect.sink.apply.TableShapes shapes, DdlSequencer ddl, SinkMetrics metrics, OffsetTracker tracker,
                          ConflictDetector<WorkItem> detector, SafeModeDecision safeMode, BackPressure buffer,
                          Supplier<RejectedRows> rejectedRows, TableAutoCreator tables) {
        this.shapes = shapes;
        this.ddl = ddl;
        this.metrics = metrics;
        this.tracker = tracker;
        this.detector = detector;
        this.safeMode = safeMode;
        this.buffer = buffer;
        this.rejectedRows = rejectedRows;
        this.tables = tables;
    }

    /** The target's schema.table of a table version (rows share their version's TableInfo). */
    private String targetName(io.cdcconnect.codec.model.TableInfo table) {
        String name = targetNames.get(table);
        if (name == null) {
            if (targetNames.size() >= 4096) targetNames.clear();
            name = shapes.targetSchema(table.schema()) + "." + table.table();
            targetNames.put(table, name);
        }
        return name;
    }

    /** Hands a complete transaction to the workers, or completes it when nothing of it is left to apply. */
    void dispatch(Transaction txn) {
        if (txn.isEmpty()) {
            tracker.register(txn.partition(), txn.lastOffset()).markDone();
            return;
        }
        List<RowChange> rows = txn.rows();
        List<RowShape> rowShapes = new java.util.ArrayList<>(rows.size());
        RowShape.LongList keys = new RowShape.LongList();
        long reported = -1;
        for (int i = 0; i < rows.size(); i++) {
            long offset = txn.offsetOf(i);
            RowShape s;
            long rowTs = rows.get(i).commitTs();
            if (rowTs > 0 && ddl.replays().rowReplayed(targetName(rows.get(i).table()), rowTs, true)) {
                // a changefeed restart's re-send from before the last statement on its table (TiCDC's order)
                if (replayWarned.add("resent\u0000" + rows.get(i).table())) {
                    LOG.warn("Row of {} at {} skipped: committed before the last DDL statement that ran on its table "
                            + "(a TiCDC changefeed's, without a count of its copies), so a changefeed restart sent it "
                            + "again; such rows are counted in replays-skipped-total", rows.get(i).table(),
                            txn.partition().where(offset));
                }
                metrics.replaySkipped();
                txn.dropRow(i--);
                continue;
            }
            try {
                s = shapes.shapeOf(rows.get(i).table(), txn.partition(), offset);
            } catch (ShapeResolver.RowRejectedException e) {
                long ts = rowTs;
                if (ddl.replays().rowReplayed(targetName(rows.get(i).table()), ts, false)) {
                    // committed before the last DDL statement that ran on its table, which removed a column or the
                    // table: the producer sent it again (a source restart replays the binlog since its last committed
                    // position). A statement re-run since (a TRUNCATE sent again) may have removed what it wrote, so
                    // it is written again as that statement left it: without the columns the table no longer has
                    if (replayWarned.add(rows.get(i).table().toString())) {
                        LOG.warn("Rows of {} at {} in a shape from before the DDL that ran on it are replays: written "
                                + "without the columns the table no longer has ({})", rows.get(i).table(),
                                txn.partition().where(offset), e.getMessage());
                    }
                    try {
                        s = shapes.projectedShapeOf(rows.get(i).table(), txn.partition(), offset);
                        rowShapes.add(s);
                        s.conflictKeys(rows.get(i), keys);
                        continue;
                    } catch (ShapeResolver.RowRejectedException gone) {
                        // the table itself is gone: nothing to write it into, as when the statement ran the first time
                        if (replayWarned.add("gone\u0000" + rows.get(i).table())) {
                            LOG.warn("Row of {} at {} skipped: a replay from before the DDL that removed its table "
                                    + "(committed at or before it), and the table is gone; counted in "
                                    + "replays-skipped-total", rows.get(i).table(), txn.partition().where(offset));
                        }
                        metrics.replaySkipped();
                        txn.dropRow(i--);
                        continue;
                    }
                }
                // auto.create / auto.evolve: after the replay check, so that a replay never brings back a column
                // or table the stream's DDL removed
                s = null;
                if (tables.enabled()) {
                    try {
                        if (tables.repair(rows.get(i).table(), ts, txn.partition().where(offset))) {
                            s = shapes.shapeOf(rows.get(i).table(), txn.partition(), offset);
                        }
                    } catch (ShapeResolver.RowRejectedException still) {
                        e = still;
                    }
                }
                if (s == null) {
                    // the target lacks the row's table or a column: the row goes to the dead-letter queue, or fails
                    RejectedRows rejectedRows = this.rejectedRows.get();
                    if (!rejectedRows.tolerated()) throw e;
                    if (offset != reported) {
                        rejectedRows.report(txn.partition(), offset, e.getMessage(), e.getCause());
                        metrics.errantRecord();
                        reported = offset;
                    }
                    txn.dropRow(i--);
                    continue;
                }
            }
            rowShapes.add(s);
            s.conflictKeys(rows.get(i), keys);
        }
        if (txn.isEmpty()) {
            // every row was left out: nothing to apply, its records are reported
            buffer.release(txn.bytes());
            tracker.register(txn.partition(), txn.lastOffset()).markDone();
            return;
        }
        boolean upsertsExact = true;
        for (RowShape shape : rowShapes) {
            if (!shape.hasIdentity() || shape.target().needsReplace()) {
                upsertsExact = false;
                break;
            }
        }
        boolean safe = safeMode.safe(txn, upsertsExact);
        OffsetTracker.Ticket ticket = tracker.register(txn.partition(), Math.max(txn.lastOffset(), -1));
        detector.add(new WorkItem(txn, rowShapes.toArray(new RowShape[0]), safe, ticket), keys.toArray());
    }
}
