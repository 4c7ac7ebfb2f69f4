package io.cdcconnect.sink.apply;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.sink.txn.SourcePartition;
import io.cdcconnect.sink.txn.Transaction;
import io.cdcconnect.sink.txn.TransactionAssembler;

import java.util.ArrayList;
import java.util.List;

/** Transactions for tests, assembled the way the pipeline assembles them. */
final class TxnFixtures {

    private TxnFixtures() {
    }

    /** One transaction of {@code rows} (their commit ts must be equal), from partition t-0 at offsets 0... */
    static Transaction transaction(List<RowChange> rows) {
        List<Transaction> out = new ArrayList<>();
        TransactionAssembler assembler = new TransactionAssembler(Integer.MAX_VALUE, out::add);
        SourcePartition p = new SourcePartition("t", 0);
        long offset = 0;
        for (RowChange r : rows) {
            assembler.addRow(p, offset, r, 1);
            assembler.endRecord(p, offset++);
        }
        assembler.closeAll();
        if (out.size() != 1) throw new IllegalArgumentException("rows of " + out.size() + " transactions");
        return out.get(0);
    }
}
