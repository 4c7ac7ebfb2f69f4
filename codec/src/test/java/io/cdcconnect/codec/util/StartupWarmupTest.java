package io.cdcconnect.codec.util;

import io.cdcconnect.codec.WireFormat;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StartupWarmupTest {

    private static final long CRYPTO = 8L * AesGcmWarmup.TLS_RECORD;

    @Test
    void runsAesGcmAndDecodesTheFormat() {
        for (WireFormat format : new WireFormat[]{WireFormat.CANAL_JSON, WireFormat.OPEN_PROTOCOL}) {
            StartupWarmup w = new StartupWarmup(format, "test", CRYPTO, 500);
            w.run();
            assertTrue(w.finished(), format.toString());
            assertEquals(CRYPTO, w.encryptedBytes(), format.toString());
            assertEquals(500, w.formatted(), format.toString());
        }
    }

    @Test
    void aFormatThatNeedsASchemaRegistryRunsOnlyTheCipher() {
        StartupWarmup w = new StartupWarmup(WireFormat.AVRO, "test", CRYPTO, 500);
        w.run();
        assertTrue(w.finished());
        assertEquals(CRYPTO, w.encryptedBytes());
        assertEquals(0, w.formatted());
    }

    @Test
    void stopsAsSoonAsAsked() {
        StartupWarmup w = new StartupWarmup(WireFormat.CANAL_JSON, "test", Long.MAX_VALUE,
                Integer.MAX_VALUE);
        w.stop();
        w.run();
        assertFalse(w.finished());
        assertEquals(0, w.encryptedBytes());
        assertEquals(0, w.formatted());
    }
}
