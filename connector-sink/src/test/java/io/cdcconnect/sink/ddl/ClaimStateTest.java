package io.cdcconnect.sink.ddl;

import io.cdcconnect.sink.ddl.control.ControlStore;
import io.cdcconnect.sink.ddl.control.DdlCoordinator;
import io.cdcconnect.sink.ddl.control.JdbcControlStore;
import io.cdcconnect.sink.ddl.control.InMemoryControlStore;

import com.zaxxer.hikari.HikariDataSource;
import io.cdcconnect.sink.apply.DataSources;
import io.cdcconnect.sink.apply.RetryPolicy;
import io.cdcconnect.sink.dialect.mysql.MariaDbDialect;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.txn.SourcePartition;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import static io.cdcconnect.sink.ddl.control.DdlCoordinator.State.DONE;
import static io.cdcconnect.sink.ddl.control.DdlCoordinator.State.RUN;
import static io.cdcconnect.sink.ddl.control.DdlCoordinator.State.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who runs a statement sent to four partitions held by two tasks, when the task that claimed it stopped part way, as
 * the stores decide it from what they hold: the JDBC store in a real MariaDB and the in-memory one of the simulation,
 * each store instance a task. The busy run's WorkerCrashTest of 2026-11-28 stalled on the first case: the claimant had
 * run the CREATE and written its checkpoint past its copy, then died before marking it run; the new owner of the
 * claimed partition skipped the copy for the checkpoint, and the other task waited for a claim nobody could take over.
 */
class ClaimStateTest {

    private static final String TOPIC = "cdc.shop.orders";
    private static final String KEY = io.cdcconnect.sink.ddl.order.DdlSequencer.key(7_000L << 18, "shop", "TRUNCATE TABLE `orders`");
    private static final SourcePartition P0 = new SourcePartition(TOPIC, 0);
    private static final SourcePartition P1 = new SourcePartition(TOPIC, 1);
    private static final SourcePartition P2 = new SourcePartition(TOPIC, 2);
    private static final SourcePartition P3 = new SourcePartition(TOPIC, 3);

    private static TestDatabase db;
    private static HikariDataSource ds;

    @BeforeAll
    static void setUp() throws Exception {
        db = SinkTarget.database("claims");
        // each task's store keeps a session of its own while it holds a run lock
        ds = DataSources.create(new MariaDbDialect(), SinkTarget.url(), SinkTarget.user(), SinkTarget.password(), 8,
                "+00:00", "claims-test", 0);
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (ds != null) ds.close();
        if (db != null) db.close();
    }

    /** A factory of task stores sharing one state: each call is another task (another instance). */
    private static Supplier<ControlStore> stores(String kind) {
        if (kind.equals("memory")) {
            InMemoryControlStore.Shared shared = new InMemoryControlStore.Shared();
            return () -> new InMemoryControlStore(shared);
        }
        String connector = "claims-" + UUID.randomUUID().toString().substring(0, 8);
        return () -> new JdbcControlStore(ds, new MariaDbDialect(), db.name(), connector, RetryPolicy.NONE, () -> { });
    }

    /** Task A holds p2 and p3 and claims the sending; task B holds p0 and p1 and has recorded its arrival. */
    private record Claimed(ControlStore a, ControlStore b, ControlStore.Sending sending) {
    }

    private static Claimed claimed(Supplier<ControlStore> stores) throws Exception {
        ControlStore a = stores.get();
        ControlStore b = stores.get();
        ControlStore.Sending byB = b.sending(TOPIC, KEY, Map.of(P0, 4L));
        b.arrive(TOPIC, byB.id(), Set.of(P0, P1));
        assertEquals(WAIT, b.state(TOPIC, KEY, byB, 4, Set.of(P0, P1), P0), "B arrived first: A has not");
        ControlStore.Sending byA = a.sending(TOPIC, KEY, Map.of(P2, 7L, P3, 5L));
        a.arrive(TOPIC, byA.id(), Set.of(P2, P3));
        assertEquals(byA, byB, "both tasks' copies are the first sending");
        assertEquals(RUN, a.state(TOPIC, KEY, byA, 4, Set.of(P2, P3), P3), "A's arrival completed the count: it claims");
        assertEquals(WAIT, b.state(TOPIC, KEY, byB, 4, Set.of(P0, P1), P0), "B waits for A to run it");
        return new Claimed(a, b, byA);
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "memory"})
    void aClaimantThatRanTheStatementAndCheckpointedPastItsCopyLeftItRunEvenUnmarked(String kind) throws Exception {
        Supplier<ControlStore> stores = stores(kind);
        Claimed c = claimed(stores);
        // A ran it and wrote the checkpoint past its copies, then died before marking it run (versions before the fix)
        c.a().record(Map.of(P2, 7L, P3, 5L), 7_000L << 18, Set.of(P2, P3));

        assertEquals(DONE, c.b().state(TOPIC, KEY, c.sending(), 4, Set.of(P0, P1), P0),
                "the claimed partition's checkpoint past its copy says the statement ran");
        ControlStore newOwner = stores.get();
        assertTrue(newOwner.copyRan(TOPIC, KEY, P2, 7), "and it is now marked run: p2's copy comes again as run");
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "memory"})
    void aClaimantThatHeldTheCheckpointPastItsCopyCountsEvenForTheOwnerOfTheClaimedPartition(String kind)
            throws Exception {
        Supplier<ControlStore> stores = stores(kind);
        Claimed c = claimed(stores);
        c.a().record(Map.of(P2, 7L, P3, 5L), 7_000L << 18, Set.of(P2, P3));
        // the new owner of A's partitions asks first, holding the claimed one: nothing is marked yet, so only the
        // checkpoint keeps it from taking the claim over and running the statement after rows from after it
        ControlStore newOwner = stores.get();
        assertEquals(DONE, newOwner.state(TOPIC, KEY, c.sending(), 4, Set.of(P2, P3), P2),
                "not RUN: the claimed partition is past the statement, which ran");
        assertEquals(DONE, c.b().state(TOPIC, KEY, c.sending(), 4, Set.of(P0, P1), P0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "memory"})
    void aClaimantThatDiedBeforeItsCheckpointLeavesTheClaimToTheNewOwnerOfTheClaimedPartition(String kind)
            throws Exception {
        Supplier<ControlStore> stores = stores(kind);
        Claimed c = claimed(stores);
        // A's checkpoint is below its copies (written before the statement ran): its copies come again
        c.a().record(Map.of(P2, 6L, P3, 4L), 0, Set.of());
        c.a().close(); // A died: its session, and the run lock with it, is gone

        assertEquals(WAIT, c.b().state(TOPIC, KEY, c.sending(), 4, Set.of(P0, P1), P0),
                "B does not hold the claimed partition: it waits, for as long as it takes");
        ControlStore newOwner = stores.get();
        assertFalse(newOwner.copyRan(TOPIC, KEY, P3, 5), "the claimed partition's copy has not run");
        assertEquals(RUN, newOwner.state(TOPIC, KEY, c.sending(), 4, Set.of(P2, P3), P2),
                "the new owner of the claimed partition takes the claim over");
        assertEquals(WAIT, c.b().state(TOPIC, KEY, c.sending(), 4, Set.of(P0, P1), P0));
        newOwner.done(TOPIC, c.sending().id());
        assertEquals(DONE, c.b().state(TOPIC, KEY, c.sending(), 4, Set.of(P0, P1), P0));
    }

    /**
     * Issue 38, item 4: a claimant alive and still running the statement lost the claimed partition (its consumer left
     * the group while a TRUNCATE waited for a metadata lock longer than max.poll.interval.ms). At a092367 the new
     * owner took the claim over at once and ran the TRUNCATE a second time, after rows written since; now it waits
     * for as long as the claimant's session holds the run lock, and takes over only once it is gone.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "memory"})
    void aClaimantStillRunningTheStatementKeepsItsClaimWhateverOwnsTheClaimedPartition(String kind) throws Exception {
        Supplier<ControlStore> stores = stores(kind);
        Claimed c = claimed(stores);
        ControlStore newOwner = stores.get();
        try {
            for (int i = 0; i < 3; i++) {
                assertEquals(WAIT, newOwner.state(TOPIC, KEY, c.sending(), 4, Set.of(P2, P3), P3),
                        "A still holds the run lock: the new owner of the claimed partition must not run it too");
            }
            assertEquals(RUN, c.a().state(TOPIC, KEY, c.sending(), 4, Set.of(P2), P2),
                    "A, still alive, keeps its claim");
            c.a().done(TOPIC, c.sending().id());
            assertEquals(DONE, newOwner.state(TOPIC, KEY, c.sending(), 4, Set.of(P2, P3), P3),
                    "A ran it once and marked it: the new owner finds it done");
        } finally {
            newOwner.close();
            c.a().close();
            c.b().close();
        }
    }

    /** The run lock is released with its session: a claimant that stopped part way leaves the claim to the owner. */
    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "memory"})
    void aClaimantWhoseSessionEndedLeavesTheClaimToTheOwnerOfTheClaimedPartition(String kind) throws Exception {
        Supplier<ControlStore> stores = stores(kind);
        Claimed c = claimed(stores);
        ControlStore newOwner = stores.get();
        try {
            assertEquals(WAIT, newOwner.state(TOPIC, KEY, c.sending(), 4, Set.of(P2, P3), P3));
            c.a().close();
            assertEquals(RUN, newOwner.state(TOPIC, KEY, c.sending(), 4, Set.of(P2, P3), P3),
                    "A's session ended: the owner of the claimed partition takes the claim over");
            assertEquals(WAIT, c.a().state(TOPIC, KEY, c.sending(), 4, Set.of(P2), P2),
                    "A, back with a new session, finds the claim taken over and does not run it");
            newOwner.done(TOPIC, c.sending().id());
            assertEquals(DONE, c.b().state(TOPIC, KEY, c.sending(), 4, Set.of(P0, P1), P0));
        } finally {
            newOwner.close();
            c.a().close();
            c.b().close();
        }
    }

    /**
     * Issue 38, item 3 (CoreSimulationTest seed 66185): a partition of a recreated topic that no checkpoint showed was
     * recreated kept its old copies, and its new copy of the statement took the number of a sending that had run.
     * A copy below copies the partition had delivered proves the topic was recreated: the old ones move down.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "memory"})
    void aCopyBelowCopiesThePartitionDeliveredBeforeIsOfARecreatedTopic(String kind) throws Exception {
        Supplier<ControlStore> stores = stores(kind);
        ControlStore task = stores.get();
        ControlStore.Sending first = task.sending(TOPIC, KEY, Map.of(P0, 8L, P1, 5L));
        assertEquals(1, first.number());
        task.arrive(TOPIC, first.id(), Set.of(P0, P1));
        assertEquals(RUN, task.state(TOPIC, KEY, first, 2, Set.of(P0, P1), P0));
        task.done(TOPIC, first.id());
        // the topic was deleted and recreated; the statement comes again, at lower offsets than before
        ControlStore.Sending again = task.sending(TOPIC, KEY, Map.of(P0, 7L));
        assertEquals(2, again.number(), "the new topic's copy is a later sending, not the one that ran");
        assertFalse(task.copyRan(TOPIC, KEY, P0, 7), "and it has not run");
        task.close();
    }

    /**
     * Issue 38, the replay rule: an uncounted statement (a TiCDC changefeed's) is skipped only when the very same
     * statement (commit ts, database and text) ran for its partition, never because its commit ts is not above the
     * last one that ran on its table (at a092367, ten ALTERs sharing a commit ts ran once).
     */
    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "memory"})
    void anUncountedStatementIsARunOneOnlyByItsIdentity(String kind) throws Exception {
        ControlStore task = stores(kind).get();
        String alterA = io.cdcconnect.sink.ddl.order.DdlSequencer.key(9_000L << 18, "shop", "ALTER TABLE `orders` ADD COLUMN `a` INT");
        String alterB = io.cdcconnect.sink.ddl.order.DdlSequencer.key(9_000L << 18, "shop", "ALTER TABLE `orders` ADD COLUMN `b` INT");
        String earlier = io.cdcconnect.sink.ddl.order.DdlSequencer.key(1_000L << 18, "shop", "TRUNCATE TABLE `orders`");
        task.uncountedRan(TOPIC, alterA, Map.of(P0, 10L, P1, -1L));
        assertTrue(task.uncountedCopyRan(TOPIC, alterA, P0, 10), "its copy delivered again");
        assertTrue(task.uncountedCopyRan(TOPIC, alterA, P1, 4), "the late copy of a partition that passed it");
        assertTrue(task.uncountedCopyRan(TOPIC, alterA, P0, 30), "the same statement sent again");
        assertFalse(task.uncountedCopyRan(TOPIC, alterB, P0, 11), "another statement with the same commit ts runs");
        assertFalse(task.uncountedCopyRan(TOPIC, earlier, P0, 12), "a statement with a lower commit ts runs");
        assertFalse(task.uncountedCopyRan(TOPIC, alterA, P2, 10), "a partition it never ran for is not told so");
        task.close();
    }
}
