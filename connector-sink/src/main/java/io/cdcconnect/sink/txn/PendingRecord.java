package io.cdcconnect.sink.txn;

import io.cdcconnect.codec.model.ChangeEvent;

import java.util.List;

/**
 * A record taken from Connect and not yet processed, or the rest of one held back behind a DDL barrier.
 *
 * @param bytes     its size, held against buffer.max.bytes until its rows are committed
 * @param ddlCopies partitions the producer sent its DDL statement to (0: unknown)
 */
public record PendingRecord(SourcePartition partition, long offset, List<ChangeEvent> events, long bytes,
                            int ddlCopies) {
}
