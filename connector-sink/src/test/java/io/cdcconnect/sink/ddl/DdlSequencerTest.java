package io.cdcconnect.sink.ddl;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.sink.CdcSinkConfig;
import io.cdcconnect.sink.dml.RowShape;
import io.cdcconnect.sink.apply.TableShapes;
import io.cdcconnect.sink.ddl.control.InMemoryControlStore;
import io.cdcconnect.sink.ddl.order.DdlExecutor;
import io.cdcconnect.sink.ddl.order.DdlRuns;
import io.cdcconnect.sink.ddl.order.DdlSequencer;
import io.cdcconnect.sink.ddl.order.PartitionHolds;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.txn.PendingRecord;
import io.cdcconnect.sink.txn.SourcePartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sequencer's bookkeeping of waiting statements (it alone owns them: their copies, the partitions that passed
 * them, claims and runs), driven through its own calls with an in-memory store, a target that records what it runs,
 * and statements run on the calling thread. What it holds and releases is read from the partition holds it is given.
 */
class DdlSequencerTest {

    private static final long T = 1000L << 18;
    private final SourcePartition p0 = new SourcePartition("t", 0);
    private final SourcePartition p1 = new SourcePartition("t", 1);
    private final SourcePartition other = new SourcePartition("u", 0);

    /** What ran on the target, in order. */
    private final List<String> ran = new ArrayList<>();
    /** Holds and releases, in order: "hold t-0 key", "unhold t-1 key". */
    private final List<String> holds = new ArrayList<>();
    private final DdlSequencer sequencer = sequencer();

    private DdlSequencer sequencer() {
        // the settings' validation wants a URL; nothing here connects (the executor and the store are in memory)
        CdcSinkConfig config = new CdcSinkConfig(Map.of("connection.url", "jdbc:mysql://target.invalid:3306/",
                "connection.user", "app", "schema.include", "shop", "name", "seq", "task.id", "0"));
        DdlExecutor executor = new DdlExecutor() {
            @Override
            public boolean run(DdlChange ddl, String targetSchema, boolean renamed, String origin) {
                ran.add(ddl.query() + " from " + origin);
                return true;
            }

            @Override
            public DdlRuns runs(String threadName) {
                return new DdlRuns() {
                    @Override
                    public <V> Future<V> submit(Callable<V> run) {
                        try {
                            return CompletableFuture.completedFuture(run.call());
                        } catch (Exception e) {
                            return CompletableFuture.failedFuture(e);
                        }
                    }

                    @Override
                    public void close(Runnable then) {
                        then.run();
                    }
                };
            }
        };
        TableShapes shapes = new TableShapes() {
            @Override
            public String targetSchema(String sourceSchema) {
                return sourceSchema;
            }

            @Override
            public RowShape shapeOf(TableInfo table, SourcePartition partition, long offset) {
                throw new AssertionError("no rows here");
            }

            @Override
            public RowShape projectedShapeOf(TableInfo table, SourcePartition partition, long offset) {
                throw new AssertionError("no rows here");
            }

            @Override
            public void invalidateAll() {
            }
        };
        PartitionHolds gates = new PartitionHolds() {
            @Override
            public void hold(SourcePartition p, Collection<String> keys, PendingRecord rest) {
                for (String k : keys) holds.add("hold " + p + " " + name(k));
            }

            @Override
            public void hold(SourcePartition p, String key) {
                holds.add("hold " + p + " " + name(key));
            }

            @Override
            public void unhold(SourcePartition p, String key) {
                holds.add("unhold " + p + " " + name(key));
            }
        };
        return new DdlSequencer(config, SinkMetrics.inMemory("seq", "0"),
                new InMemoryControlStore(new InMemoryControlStore.Shared()), executor, shapes, gates,
                new DdlSequencer.Pipeline() {
                    @Override
                    public boolean drain(long timeoutMillis) {
                        return true; // no rows here
                    }

                    @Override
                    public Map<SourcePartition, Long> appliedOffsets() {
                        return Map.of();
                    }

                    @Override
                    public io.cdcconnect.sink.apply.RejectedRows rejections() {
                        return null;
                    }
                });
    }

    /** The statement's text out of a key ({@link DdlSequencer#key}: ts, schema, text, and a sending's number). */
    private static String name(String key) {
        return key.split("\u0000")[2];
    }

    private static DdlChange ddl(String sql, long ts) {
        return new DdlChange("shop", "orders", sql, DdlChange.Kind.TRUNCATE, ts);
    }

    private boolean copy(DdlChange ddl, SourcePartition p, long offset, int copies) {
        return sequencer.onDdl(ddl, p, offset, copies, List.of(), 0);
    }

    @Test
    void aCountedStatementRunsOnceWhenEveryAssignedPartitionOfItsTopicDeliveredItsCopy() {
        sequencer.assign(p0);
        sequencer.assign(p1);
        sequencer.assign(other);
        DdlChange truncate = ddl("TRUNCATE orders", T);
        assertTrue(copy(truncate, p0, 5, 2));
        assertEquals(List.of(), ran, "t-1 has not passed it");
        assertTrue(sequencer.isPending("t"));
        assertFalse(sequencer.isPending("u"));
        assertTrue(sequencer.describe().contains("passed {t-0=5}, missing [t-1]"), sequencer.describe());
        assertTrue(copy(truncate, p1, 7, 2));
        assertEquals(List.of("TRUNCATE orders from t-0@5"), ran, "partitions of other topics do not count");
        assertEquals(0, sequencer.statementsRun(), "what follows a run is done when the task thread looks again");
        sequencer.checkBarriers();
        assertEquals(1, sequencer.statementsRun());
        assertFalse(sequencer.waiting());
        assertEquals(List.of("hold t-0 TRUNCATE orders", "hold t-1 TRUNCATE orders", "unhold t-0 TRUNCATE orders",
                "unhold t-1 TRUNCATE orders"), holds);
    }

    /**
     * cdc-connect's source counts a statement's copies and sends one to every partition: only the copy shows that a
     * partition passed it. A row stamped later does not (two producers on one topic, or a clock stepped back, would
     * let the statement overtake that partition's older rows).
     */
    @Test
    void aStatementWithCountedCopiesWaitsForTheCopiesOnly() {
        sequencer.assign(p0);
        sequencer.assign(p1);
        copy(ddl("TRUNCATE orders", T), p0, 5, 2);
        assertFalse(sequencer.passes(p1, row(T + 1)), "a later row is no evidence when copies are counted");
        assertFalse(sequencer.passes(p1, new Watermark(T + 1)), "nor is a watermark");
        assertEquals(List.of(), ran);
    }

    /** TiCDC does not count its copies: an event committed after the statement, or a watermark at it, passes it. */
    @Test
    void anUncountedStatementIsPassedByAnEventCommittedAfterItOrAWatermarkAtIt() {
        sequencer.assign(p0);
        sequencer.assign(p1);
        copy(ddl("TRUNCATE orders", T), p0, 5, 0);
        assertFalse(sequencer.passes(p1, row(T - 1)), "a row from before the DDL");
        assertFalse(sequencer.passes(p1, row(T)), "a row of the DDL's own commit ts is not after it");
        assertFalse(sequencer.passes(p1, row(0)), "an unknown time shows nothing");
        assertTrue(sequencer.passes(p1, new Watermark(T)), "a watermark at the DDL: everything up to it has arrived");
        assertTrue(sequencer.passes(p1, row(T + 1)));
        assertFalse(sequencer.passes(other, row(T + 1)), "no DDL waits on the other topic");
        assertEquals(List.of(), ran);
        sequencer.holdPassed(p1, row(T + 1), 9, List.of(row(T + 1)), 10, 0);
        assertEquals(List.of("TRUNCATE orders from t-0@5"), ran);
        sequencer.checkBarriers();
        assertEquals(List.of("hold t-0 TRUNCATE orders", "hold t-1 TRUNCATE orders", "unhold t-0 TRUNCATE orders",
                "unhold t-1 TRUNCATE orders"), holds, "released in the order they passed it");
    }

    @Test
    void anUncountedStatementOfUnknownTimeWaitsForCopies() {
        sequencer.assign(p0);
        sequencer.assign(p1);
        copy(ddl("TRUNCATE orders", 0), p0, 5, 0);
        assertFalse(sequencer.passes(p1, row(T)));
        assertEquals(List.of(), ran);
        copy(ddl("TRUNCATE orders", 0), p1, 6, 0);
        assertEquals(List.of("TRUNCATE orders from t-0@5"), ran);
    }

    @Test
    void revokingALaggingPartitionLetsTheStatementRunForThePartitionsThatPassedIt() {
        sequencer.assign(p0);
        sequencer.assign(p1);
        copy(ddl("TRUNCATE orders", T), p0, 5, 0);
        sequencer.unassign(p1);
        assertEquals(List.of(), ran, "nothing runs inside the revocation");
        sequencer.forgotten(List.of(p1));
        assertEquals(List.of("TRUNCATE orders from t-0@5"), ran);
    }

    /**
     * After a rebalance or a restart each partition resumes from its own committed offset: one may still be at an
     * earlier statement while another is at a later one. Both wait; the earlier runs once every partition passed it
     * (here t-0, by the later statement's copy, committed after it), the later one only after it.
     */
    @Test
    void aLaggingPartitionsEarlierStatementWaitsBesideALaterOne() {
        sequencer.assign(p0);
        sequencer.assign(p1);
        DdlChange later = ddl("ALTER later", T);
        copy(later, p1, 9, 0);
        copy(ddl("ALTER earlier", T - 1), p0, 5, 0);
        String d = sequencer.describe();
        assertTrue(d.indexOf("ALTER later") < d.indexOf("ALTER earlier") && d.contains("passed {t-1=9}, missing [t-0]")
                && d.contains("passed {t-0=5}, missing [t-1]"), d);
        assertEquals(List.of(), ran);
        // t-1's copy of the later statement showed it passed the earlier one (the pipeline asks first, then holds)
        assertTrue(sequencer.passes(p1, later));
        sequencer.holdPassed(p1, later, 9, List.of(later), 0, 0);
        sequencer.checkBarriers();
        assertEquals(List.of("ALTER earlier from t-0@5"), ran, "the earlier statement first, and alone: t-0 has not "
                + "passed the later one");
        assertTrue(sequencer.describe().contains("ALTER later"), sequencer.describe());
        assertEquals(1, sequencer.statementsRun());
    }

    private static final TableInfo ORDERS = TableInfo.of("shop", "orders", List.of(
            ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY)));

    /** A row change committed at {@code ts}. */
    private static ChangeEvent row(long ts) {
        return new RowChange(ORDERS, RowChange.Op.INSERT, null, new Object[]{1L}, ts);
    }
}
