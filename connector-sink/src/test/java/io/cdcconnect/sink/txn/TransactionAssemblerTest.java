package io.cdcconnect.sink.txn;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransactionAssemblerTest {

    private final SourcePartition p0 = new SourcePartition("t", 0);
    private final SourcePartition p1 = new SourcePartition("t", 1);
    private final TableInfo table = Rows.idValue("db", "t");
    private final List<Transaction> out = new ArrayList<>();

    private RowChange row(long id, long ts) {
        return RowChange.insert(table, new Object[]{id, "x"}, ts);
    }

    private void record(TransactionAssembler a, SourcePartition p, long offset, RowChange... rows) {
        for (RowChange r : rows) a.addRow(p, offset, r, 10);
        a.endRecord(p, offset);
    }

    @Test
    void rowsWithOneCommitTsFormOneTransaction() {
        TransactionAssembler a = new TransactionAssembler(100, out::add);
        record(a, p0, 0, row(1, 5));
        record(a, p0, 1, row(2, 5));
        record(a, p0, 2, row(3, 6));
        assertEquals(1, out.size());
        assertEquals(2, out.get(0).rows().size());
        assertEquals(1, out.get(0).lastOffset());
        a.closeAll();
        assertEquals(2, out.size());
        assertEquals(6, out.get(1).commitTs());
        assertEquals(2, out.get(1).lastOffset());
    }

    @Test
    void partitionsAssembleSeparately() {
        TransactionAssembler a = new TransactionAssembler(100, out::add);
        record(a, p0, 0, row(1, 5));
        record(a, p1, 0, row(2, 5));
        a.closeAll();
        assertEquals(2, out.size());
        assertTrue(out.stream().allMatch(t -> t.rows().size() == 1));
    }

    @Test
    void largeTransactionsAreSplitAtMaxRows() {
        TransactionAssembler a = new TransactionAssembler(3, out::add);
        for (int i = 0; i < 7; i++) record(a, p0, i, row(i, 9));
        a.closeAll();
        assertEquals(List.of(3, 3, 1), out.stream().map(t -> t.rows().size()).toList());
        assertEquals(List.of(2L, 5L, 6L), out.stream().map(Transaction::lastOffset).toList());
    }

    @Test
    void aRecordSplitAcrossTransactionsIsCompleteOnlyWithItsLastPart() {
        TransactionAssembler a = new TransactionAssembler(100, out::add);
        // one message (offset 4) holding rows of two commit ts, as an Open-protocol batch may
        record(a, p0, 4, row(1, 5), row(2, 6));
        a.closeAll();
        assertEquals(3, out.get(0).lastOffset(), "the first part does not complete offset 4");
        assertEquals(4, out.get(1).lastOffset());
    }

    @Test
    void recordsWithoutRowsExtendTheOpenTransactionOrStandAlone() {
        TransactionAssembler a = new TransactionAssembler(100, out::add);
        a.endRecord(p0, 0);
        assertEquals(1, out.size());
        assertTrue(out.get(0).isEmpty());
        record(a, p0, 1, row(1, 5));
        a.endRecord(p0, 2);
        a.closeAll();
        assertEquals(2, out.get(1).lastOffset());
    }

    @Test
    void idlePartitionsAreClosedActiveOnesKeptOpen() {
        TransactionAssembler a = new TransactionAssembler(100, out::add);
        record(a, p0, 0, row(1, 5));
        record(a, p1, 0, row(2, 5));
        a.closeIdle(Set.of(p1));
        assertEquals(1, out.size());
        assertEquals(p0, out.get(0).partition());
        assertTrue(a.hasOpen());
    }
}
