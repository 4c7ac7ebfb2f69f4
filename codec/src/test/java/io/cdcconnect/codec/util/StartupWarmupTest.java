package io.cdcconnect.codec.util;

import io.cdcconnect.codec.WireFormat;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StartupWarmupTest {

    private static final long CRYPTO = 8L * TlsCipherWarmup.TLS_RECORD;

    @Test
    void runsAesGcmAndDecodesTheFormat() {
        for (WireFormat format : new WireFormat[]{WireFormat.CANAL_JSON, WireFormat.OPEN_PROTOCOL}) {
            java.util.concurrent.atomic.AtomicInteger firstRuns = new java.util.concurrent.atomic.AtomicInteger();
            StartupWarmup w = new StartupWarmup(format, "test", firstRuns::incrementAndGet, CRYPTO, 500);
            w.run();
            assertEquals(1, firstRuns.get(), "the caller's step runs first, once");
            assertTrue(w.finished(), format.toString());
            assertEquals(CRYPTO, w.encryptedBytes(), format.toString());
            assertEquals(500, w.formatted(), format.toString());
        }
    }

    @Test
    void runsTheCipherTheConnectionsUse() {
        StartupWarmup w = new StartupWarmup(WireFormat.CANAL_JSON, TlsCipherWarmup.Suite.CHACHA20_POLY1305, "test",
                null, CRYPTO, 10);
        w.run();
        assertTrue(w.finished());
        assertEquals(CRYPTO, w.encryptedBytes());
    }

    @Test
    void aFormatThatNeedsASchemaRegistryRunsOnlyTheCipher() {
        StartupWarmup w = new StartupWarmup(WireFormat.AVRO, "test", null, CRYPTO, 500);
        w.run();
        assertTrue(w.finished());
        assertEquals(CRYPTO, w.encryptedBytes());
        assertEquals(0, w.formatted());
    }

    @Test
    void stopsAsSoonAsAsked() {
        java.util.concurrent.atomic.AtomicInteger firstRuns = new java.util.concurrent.atomic.AtomicInteger();
        StartupWarmup w = new StartupWarmup(WireFormat.CANAL_JSON, "test", firstRuns::incrementAndGet, Long.MAX_VALUE,
                Integer.MAX_VALUE);
        w.stop();
        w.run();
        assertEquals(0, firstRuns.get(), "a stopped warm-up runs nothing of the caller's either");
        assertFalse(w.finished());
        assertEquals(0, w.encryptedBytes());
        assertEquals(0, w.formatted());
    }
}
