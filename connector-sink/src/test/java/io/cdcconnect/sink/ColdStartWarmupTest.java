package io.cdcconnect.sink;

import io.cdcconnect.codec.WireFormat;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColdStartWarmupTest {

    private static final long CRYPTO = 4L * ColdStartWarmup.TLS_RECORD;

    @Test
    void runsAesGcmUnderBothKeySizesAndDecodesTheInputFormat() {
        for (WireFormat format : new WireFormat[]{WireFormat.CANAL_JSON, WireFormat.OPEN_PROTOCOL}) {
            ColdStartWarmup w = new ColdStartWarmup(format, "test", CRYPTO, 500);
            w.run();
            assertTrue(w.finished(), format.toString());
            // 256- and 128-bit keys, each record encrypted and decrypted back to its length
            assertEquals(2 * CRYPTO, w.encryptedBytes(), format.toString());
            assertEquals(500, w.decodedMessages(), format.toString());
        }
    }

    @Test
    void aFormatThatNeedsASchemaRegistryIsNotDecoded() {
        ColdStartWarmup w = new ColdStartWarmup(WireFormat.AVRO, "test", CRYPTO, 500);
        w.run();
        assertTrue(w.finished());
        assertEquals(0, w.decodedMessages());
    }

    @Test
    void stopsAsSoonAsTheTaskHasWork() {
        ColdStartWarmup w = new ColdStartWarmup(WireFormat.CANAL_JSON, "test", Long.MAX_VALUE, Integer.MAX_VALUE);
        w.stop();
        w.run();
        assertFalse(w.finished());
        assertEquals(0, w.encryptedBytes());
        assertEquals(0, w.decodedMessages());
    }
}
