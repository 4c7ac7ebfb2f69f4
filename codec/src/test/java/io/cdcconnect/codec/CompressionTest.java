package io.cdcconnect.codec;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompressionTest {

    private static final byte[] DATA = ("{\"id\":0,\"database\":\"db\",\"table\":\"t\"}".repeat(50))
            .getBytes(StandardCharsets.UTF_8);

    @Test
    void snappyIsTheRawBlockFormatGoWrites() {
        byte[] c = Compression.SNAPPY.compress(DATA);
        // block format: starts with the uncompressed length as a varint (no stream identifier chunk 0xff)
        int len = (c[0] & 0x7F) | ((c[1] & 0x7F) << 7);
        assertEquals(DATA.length, len);
        assertTrue(c.length < DATA.length / 4);
        assertArrayEquals(DATA, Compression.SNAPPY.decompress(c));
    }

    @Test
    void lz4IsTheFrameFormat() {
        byte[] c = Compression.LZ4.compress(DATA);
        assertEquals(0x04, c[0]);
        assertEquals(0x22, c[1]);
        assertEquals(0x4D, c[2]);
        assertEquals(0x18, c[3]); // frame magic 0x184D2204, little-endian
        assertArrayEquals(DATA, Compression.LZ4.decompress(c));
    }

    @Test
    void randomBytesRoundTripAndGarbageIsRejected() {
        byte[] r = new byte[10_000];
        new Random(1).nextBytes(r);
        for (Compression c : Compression.values()) {
            assertArrayEquals(r, c.decompress(c.compress(r)), c.name());
        }
        assertThrows(CodecException.class, () -> Compression.LZ4.decompress(DATA));
        assertThrows(CodecException.class, () -> Compression.SNAPPY.decompress(new byte[] {(byte) 0xff, 1, 2}));
        assertEquals(Compression.LZ4, Compression.parse("LZ4"));
        assertThrows(IllegalArgumentException.class, () -> Compression.parse("zstd"));
    }

    @Test
    void aValueThatDecompressesBeyondTheLimitIsRefusedNamingIt() {
        byte[] zeros = new byte[3 << 20];
        for (Compression c : new Compression[] {Compression.SNAPPY, Compression.LZ4}) {
            byte[] bomb = c.compress(zeros);
            assertTrue(bomb.length < 200_000, c + " compresses zeros well: " + bomb.length);
            CodecException e = assertThrows(CodecException.class, () -> c.decompress(bomb, 1 << 20), c.name());
            assertTrue(e.getMessage().contains("limit of 1048576 bytes (max-decoded-bytes"), e.getMessage());
            assertEquals(zeros.length, c.decompress(bomb, zeros.length).length, "at the limit it is read");
        }
        // snappy's header declares the size: refused before anything is allocated
        byte[] declared = Compression.SNAPPY.compress(zeros);
        CodecException e = assertThrows(CodecException.class, () -> Compression.SNAPPY.decompress(declared, 1000));
        assertTrue(e.getMessage().contains("declares 3145728 bytes"), e.getMessage());
    }

    @Test
    void aCorruptLz4FrameIsACodecError() {
        byte[] c = Compression.LZ4.compress(DATA);
        for (int i = 7; i < c.length; i++) {
            byte[] m = c.clone();
            m[i] ^= (byte) 0x5A;
            try {
                Compression.LZ4.decompress(m);
            } catch (CodecException expected) {
                // the only kind of failure allowed
            }
        }
        assertThrows(CodecException.class, () -> Compression.LZ4.decompress(java.util.Arrays.copyOf(c, c.length - 5)));
    }
}
