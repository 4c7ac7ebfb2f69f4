package io.cdcconnect.sink.ddl;

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

import static io.cdcconnect.sink.ddl.DdlCoordinator.State.DONE;
import static io.cdcconnect.sink.ddl.DdlCoordinator.State.RUN;
import static io.cdcconnect.sink.ddl.DdlCoordinator.State.WAIT;
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
    private static final String KEY = DdlBarrier.key(7_000L << 18, "shop", "TRUNCATE TABLE `orders`");
    private static final SourcePartition P0 = new SourcePartition(TOPIC, 0);
    private static final SourcePartition P1 = new SourcePartition(TOPIC, 1);
    private static final SourcePartition P2 = new SourcePartition(TOPIC, 2);
    private static final SourcePartition P3 = new SourcePartition(TOPIC, 3);

    private static TestDatabase db;
    private static HikariDataSource ds;

    @BeforeAll
    static void setUp() throws Exception {
        db = SinkTarget.database("claims");
        ds = DataSources.create(new MariaDbDialect(), SinkTarget.url(), SinkTarget.user(), SinkTarget.password(), 2,
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
}
