package io.cdcconnect.codec.util;

import io.cdcconnect.codec.util.TlsCipherWarmup.Suite;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TlsCipherWarmupTest {

    @Test
    void encryptsAndDecryptsWhatItIsAskedUnderBothAesKeySizes() throws Exception {
        long bytes = 6L * TlsCipherWarmup.TLS_RECORD;
        assertEquals(bytes, TlsCipherWarmup.run(Suite.AES_GCM, bytes, () -> false));
    }

    @Test
    void encryptsAndDecryptsWithChaCha20Poly1305() throws Exception {
        long bytes = 5L * TlsCipherWarmup.TLS_RECORD;
        assertEquals(bytes, TlsCipherWarmup.run(Suite.CHACHA20_POLY1305, bytes, () -> false));
    }

    @Test
    void stopsWhenAsked() throws Exception {
        for (Suite suite : Suite.values()) assertEquals(0, TlsCipherWarmup.run(suite, Long.MAX_VALUE, () -> true));
        AtomicInteger checks = new AtomicInteger();
        // two records under the 256-bit key, then the stop holds for the 128-bit half too
        long done = TlsCipherWarmup.run(Suite.AES_GCM, Long.MAX_VALUE - 1, () -> checks.incrementAndGet() > 2);
        assertEquals(2L * TlsCipherWarmup.TLS_RECORD, done);
        checks.set(0);
        assertEquals(3L * TlsCipherWarmup.TLS_RECORD, TlsCipherWarmup.run(Suite.CHACHA20_POLY1305,
                Long.MAX_VALUE, () -> checks.incrementAndGet() > 3));
    }
}
