package io.cdcconnect.sink;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.ddl.control.InMemoryControlStore;
import io.cdcconnect.sink.ddl.control.JdbcControlStore;
import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.txn.SourcePartition;
import io.cdcconnect.sink.txn.Transaction;
import io.cdcconnect.sink.txn.TransactionAssembler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SafeModeDecision} on its own, over the in-memory store: under {@code safe.mode=auto}, what a task writes in
 * safe mode is what an earlier task of the partition may have written, as the stored offsets say; the clock plays no
 * part (the rows here were committed long before and long after "now").
 */
class SafeModeDecisionTest {

    private static final SourcePartition P = new SourcePartition("t", 0);
    private static final TableInfo TABLE = Rows.idValue("shop", "items");

    private final InMemoryControlStore.Shared shared = new InMemoryControlStore.Shared();

    /** A configuration only: nothing connects (the host does not resolve). */
    private static CdcSinkConfig config(String safeMode, String format) {
        Map<String, String> props = new HashMap<>();
        props.put(CdcSinkConfig.CONNECTION_URL, "jdbc:mysql://sink.invalid:13306/");
        props.put(CdcSinkConfig.CONNECTION_USER, "u");
        props.put("safe.mode", safeMode);
        props.put("input.format", format);
        props.put("schema.include", "shop");
        if (format.equals("avro")) props.put("schema.registry.url", "http://registry:8081");
        return new CdcSinkConfig(props);
    }

    private SafeModeDecision decision(String safeMode) {
        return new SafeModeDecision(config(safeMode, "canal-json"), new InMemoryControlStore(shared));
    }

    /** One transaction of the rows at {@code offsets} of P, committed at {@code commitMillis} (0: unknown ts). */
    private static Transaction txn(long commitMillis, long... offsets) {
        List<Transaction> out = new ArrayList<>();
        TransactionAssembler assembler = new TransactionAssembler(1_000, out::add);
        long ts = commitMillis == 0 ? 0 : Rows.ts(commitMillis);
        for (long o : offsets) {
            assembler.addRow(P, o, RowChange.insert(TABLE, new Object[]{o, "v"}, ts), 10);
            assembler.endRecord(P, o);
        }
        assembler.closeAll();
        assertEquals(1, out.size());
        return out.get(0);
    }

    @Test
    void aPartitionNoTaskWroteIsWrittenPlainlyAndTheStoredOffsetGoesFirst() {
        SafeModeDecision first = decision("auto");
        assertFalse(onKeyedTables(first, txn(1_000, 0, 1, 2)), "nothing was written before: plain");
        assertEquals(2 + SafeModeDecision.RESERVE, new InMemoryControlStore(shared).writtenThrough(P),
                "raised ahead of what goes to the workers");
        assertFalse(onKeyedTables(first, txn(1_001, 3, 4)));
        assertEquals(2 + SafeModeDecision.RESERVE, new InMemoryControlStore(shared).writtenThrough(P),
                "within what was raised: no write");
        assertFalse(onKeyedTables(first, txn(1_002, 20_000)));
        assertEquals(20_000 + SafeModeDecision.RESERVE, new InMemoryControlStore(shared).writtenThrough(P));
    }

    @Test
    void aRestartedTaskWritesInSafeModeWhatTheOneBeforeMayHaveWritten() {
        onKeyedTables(decision("auto"), txn(1_000, 0, 1, 2)); // written through 10,002 now
        SafeModeDecision restarted = decision("auto");
        long farFuture = System.currentTimeMillis() + 86_400_000L;
        assertTrue(onKeyedTables(restarted, txn(farFuture, 1, 2)), "redelivered, and maybe written: safe, whatever its ts");
        assertTrue(onKeyedTables(restarted, txn(farFuture, 10_002)));
        assertTrue(onKeyedTables(restarted, txn(farFuture, 10_002, 10_003)), "begins at or below: safe");
        assertFalse(onKeyedTables(restarted, txn(1, 10_004)), "above it nothing was written: plain, however old its ts");
    }

    @Test
    void aReassignedPartitionIsReadAgain() {
        SafeModeDecision a = decision("auto");
        SafeModeDecision b = decision("auto");
        assertFalse(onKeyedTables(a, txn(1_000, 0)));
        assertFalse(onKeyedTables(b, txn(1_000, 50_000)), "b read the store before a wrote: plain");
        b.reset(P); // a rebalance gives P to b again: what a wrote counts now
        assertTrue(onKeyedTables(b, txn(1_000, 5)));
    }

    /**
     * The decision for a transaction with a table of more than one unique key (where safe mode writes REPLACE), the
     * case the stored offsets decide.
     */
    private static boolean onKeyedTables(SafeModeDecision d, Transaction t) {
        return d.safe(t, false);
    }

    @Test
    void aTableIdentifiedByOneKeyAloneIsWrittenInSafeModeAndTheStoredOffsetStillGoesFirst() {
        SafeModeDecision d = decision("auto");
        assertTrue(d.safe(txn(1_000, 0, 1), true), "an upsert of the full image ends as the plain write would");
        assertEquals(1 + SafeModeDecision.RESERVE, new InMemoryControlStore(shared).writtenThrough(P),
                "covered all the same: another table of the partition may need it after a restart");
        assertFalse(decision("never").safe(txn(1_000, 2), true), "never is never");
    }

    @Test
    void anUnknownCommitTsIsWrittenInSafeMode() {
        assertTrue(onKeyedTables(decision("auto"), txn(0, 0)));
    }

    @Test
    void withoutAStoreAutoWritesEverythingInSafeMode() {
        JdbcControlStore none = new JdbcControlStore(null, Dialects.forUrl("jdbc:mysql://sink.invalid:13306/"), "",
                "c", io.cdcconnect.sink.apply.RetryPolicy.NONE, () -> { });
        SafeModeDecision d = new SafeModeDecision(config("auto", "canal-json"), none);
        assertTrue(onKeyedTables(d, txn(1_000, 0)));
    }

    @Test
    void alwaysAndNeverAreTheirOwnAndAvroIsAlwaysSafe() {
        assertTrue(onKeyedTables(decision("always"), txn(1_000, 0)));
        assertFalse(onKeyedTables(decision("never"), txn(1_000, 0)));
        assertEquals(-1, new InMemoryControlStore(shared).writtenThrough(P), "neither writes the store");
        assertTrue(onKeyedTables(new SafeModeDecision(config("never", "avro"), new InMemoryControlStore(shared)),
                txn(1_000, 0)),
                "Avro cannot tell an update from an insert: every write is an upsert");
    }
}
