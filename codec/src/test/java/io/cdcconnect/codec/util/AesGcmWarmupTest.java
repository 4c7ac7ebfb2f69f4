package io.cdcconnect.codec.util;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AesGcmWarmupTest {

    @Test
    void encryptsAndDecryptsWhatItIsAskedUnderBothKeySizes() throws Exception {
        long bytes = 6L * AesGcmWarmup.TLS_RECORD;
        assertEquals(bytes, AesGcmWarmup.run(bytes, () -> false));
    }

    @Test
    void stopsWhenAsked() throws Exception {
        assertEquals(0, AesGcmWarmup.run(Long.MAX_VALUE, () -> true));
        AtomicInteger checks = new AtomicInteger();
        // two records under the 256-bit key, then the stop holds for the 128-bit half too
        long done = AesGcmWarmup.run(Long.MAX_VALUE - 1, () -> checks.incrementAndGet() > 2);
        assertEquals(2L * AesGcmWarmup.TLS_RECORD, done);
    }
}
