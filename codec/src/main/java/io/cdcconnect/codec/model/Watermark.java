package io.cdcconnect.codec.model;

/**
 * A resolved ts: every change with a commit ts at or below {@code ts} has been sent on this partition.
 */
public record Watermark(long ts) implements ChangeEvent {

    @Override
    public long commitTs() {
        return ts;
    }
}
