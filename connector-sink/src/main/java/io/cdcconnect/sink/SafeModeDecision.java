package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.sink.dml.SafeMode;

/**
 * Whether a transaction is written in safe mode (as upserts, harmless if its rows are already there): always, never,
 * or with {@code auto} while its commit falls in the replay window, which {@link #openWindow} starts (task start,
 * partitions assigned): rows committed at the source until then, plus {@code safe.mode.replay.margin.ms}, may already
 * be applied.
 */
final class SafeModeDecision {
    private final SafeMode mode;
    private final long replayMarginMillis;
    private volatile long safeUntilMillis;

    SafeModeDecision(CdcSinkConfig config) {
        // A format that cannot tell an update from an insert (Avro) makes every write an upsert
        this.mode = config.inputWireFormat().tellsUpdatesFromInserts() ? config.safeMode() : SafeMode.ALWAYS;
        this.replayMarginMillis = config.safeModeReplayMarginMs();
    }

    SafeMode mode() {
        return mode;
    }

    /** Starts a replay window: rows committed at the source until now (plus the margin) may already be applied. */
    void openWindow() {
        safeUntilMillis = System.currentTimeMillis() + replayMarginMillis;
    }

    /** Whether a transaction committed at {@code commitTs} (0: unknown) is written in safe mode. */
    boolean safe(long commitTs) {
        return switch (mode) {
            case ALWAYS -> true;
            case NEVER -> false;
            case AUTO -> commitTs == 0 || ChangeEvent.physicalMillis(commitTs) <= safeUntilMillis;
        };
    }
}
