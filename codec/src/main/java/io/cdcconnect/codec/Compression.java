package io.cdcconnect.codec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.xerial.snappy.Snappy;

/**
 * Message value compression, the same bytes as TiCDC's {@code large-message-handle-compression}: snappy in the raw
 * block format (Go's {@code snappy.Encode}), lz4 in the frame format (Go's {@code lz4.NewWriter}).
 */
public enum Compression {
    NONE, SNAPPY, LZ4;

    public static Compression parse(String name) {
        switch (name == null ? "" : name.trim().toLowerCase(Locale.ROOT)) {
            case "": case "none": return NONE;
            case "snappy": return SNAPPY;
            case "lz4": return LZ4;
            default: throw new IllegalArgumentException("unknown compression '" + name + "' (expected none, snappy or lz4)");
        }
    }

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public byte[] compress(byte[] data) {
        try {
            switch (this) {
                case NONE:
                    return data;
                case SNAPPY:
                    return Snappy.compress(data);
                default:
                    ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 2 + 64);
                    try (LZ4FrameOutputStream lz = new LZ4FrameOutputStream(out)) {
                        lz.write(data);
                    }
                    return out.toByteArray();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(configName() + " compression failed", e);
        }
    }

    public byte[] decompress(byte[] data) {
        try {
            switch (this) {
                case NONE:
                    return data;
                case SNAPPY:
                    if (!Snappy.isValidCompressedBuffer(data)) {
                        throw new CodecException("value is not snappy-compressed (" + data.length + " bytes)");
                    }
                    return Snappy.uncompress(data);
                default:
                    try (LZ4FrameInputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(data))) {
                        return in.readAllBytes();
                    }
            }
        } catch (IOException e) {
            throw new CodecException("value could not be " + configName() + "-decompressed (" + data.length
                    + " bytes): " + e.getMessage(), e);
        }
    }
}
