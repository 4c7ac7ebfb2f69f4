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
                null, CRYPTO, 10, 10);
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

    @Test
    void decodesOnPastItsFirstPartUntilItsMost() {
        StartupWarmup w = new StartupWarmup(WireFormat.CANAL_JSON, TlsCipherWarmup.Suite.AES_GCM, "test", null, CRYPTO,
                500, 5_000);
        w.run();
        assertTrue(w.firstPartDone());
        assertTrue(w.finished());
        assertEquals(5_000, w.formatted());
    }

    @Test
    void aWarmUpStoppedPastItsFirstPartHasDoneItsFirstPart() throws Exception {
        StartupWarmup w = new StartupWarmup(WireFormat.CANAL_JSON, TlsCipherWarmup.Suite.AES_GCM, "test", null, CRYPTO,
                500, Integer.MAX_VALUE);
        Thread t = new Thread(w, "warm-up under test");
        t.start();
        try {
            awaitPast(w, 500);
        } finally {
            w.stop();
            t.join(30_000);
        }
        assertFalse(t.isAlive(), "stop ends the decoding");
        assertTrue(w.firstPartDone());
        assertFalse(w.finished());
        assertTrue(w.formatted() > 500 && w.formatted() < Integer.MAX_VALUE, "decoded " + w.formatted());
    }

    @Test
    void onlyOneWarmUpDecodesPastItsFirstPartAtATime() throws Exception {
        StartupWarmup long_ = new StartupWarmup(WireFormat.CANAL_JSON, TlsCipherWarmup.Suite.AES_GCM, "test", null,
                CRYPTO, 500, Integer.MAX_VALUE);
        Thread t = new Thread(long_, "warm-up under test");
        t.start();
        try {
            awaitPast(long_, 500);
            StartupWarmup second = new StartupWarmup(WireFormat.OPEN_PROTOCOL, TlsCipherWarmup.Suite.AES_GCM, "test",
                    null, CRYPTO, 500, 5_000);
            second.run();
            assertTrue(second.firstPartDone());
            assertEquals(500, second.formatted(), "the second decodes its first part only");
        } finally {
            long_.stop();
            t.join(30_000);
        }
        StartupWarmup third = new StartupWarmup(WireFormat.OPEN_PROTOCOL, TlsCipherWarmup.Suite.AES_GCM, "test", null,
                CRYPTO, 500, 5_000);
        third.run();
        assertEquals(5_000, third.formatted(), "once the first has stopped, another goes on past its first part");
    }

    /** Waits (at most 60 s, then fails) until {@code w} has decoded more than {@code n} messages. */
    private static void awaitPast(StartupWarmup w, long n) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (w.formatted() <= n) {
            if (System.nanoTime() > deadline) throw new AssertionError("the warm-up decoded " + w.formatted());
            Thread.sleep(5);
        }
    }
}
