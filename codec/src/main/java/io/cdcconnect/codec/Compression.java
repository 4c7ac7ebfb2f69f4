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

    /** Every compression's {@link #configName}, the values a setting naming one accepts. */
    public static String[] configNames() {
        Compression[] all = values();
        String[] names = new String[all.length];
        for (int i = 0; i < all.length; i++) names[i] = all[i].configName();
        return names;
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

    /** Decompresses with the default limit, {@link CodecOptions#DEFAULT_MAX_DECODED_BYTES}. */
    public byte[] decompress(byte[] data) {
        return decompress(data, CodecOptions.DEFAULT_MAX_DECODED_BYTES);
    }

    /**
     * @param maxBytes the most bytes the value may decompress to: a value that declares more (snappy's length
     *                 header) or yields more (an lz4 frame, read in blocks) is refused before it is held in memory
     * @throws CodecException when the value is not of this compression, is corrupt, or exceeds {@code maxBytes}
     */
    public byte[] decompress(byte[] data, long maxBytes) {
        try {
            switch (this) {
                case NONE:
                    return data;
                case SNAPPY:
                    if (!Snappy.isValidCompressedBuffer(data)) {
                        throw new CodecException("value is not snappy-compressed (" + data.length + " bytes)");
                    }
                    int declared = Snappy.uncompressedLength(data);
                    if (declared < 0 || declared > maxBytes) {
                        throw tooLarge("declares " + Integer.toUnsignedString(declared) + " bytes", maxBytes);
                    }
                    return Snappy.uncompress(data);
                default:
                    try (LZ4FrameInputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(data))) {
                        if (in.isExpectedContentSizeDefined() && (in.getExpectedContentSize() < 0
                                || in.getExpectedContentSize() > maxBytes)) {
                            throw tooLarge("declares " + Long.toUnsignedString(in.getExpectedContentSize())
                                    + " bytes", maxBytes);
                        }
                        ByteArrayOutputStream out = new ByteArrayOutputStream(
                                (int) Math.min(maxBytes, Math.max(64L, 4L * data.length)));
                        byte[] buf = new byte[64 * 1024];
                        long total = 0;
                        int n;
                        while ((n = in.read(buf)) > 0) {
                            total += n;
                            if (total > maxBytes) throw tooLarge("yields more than " + maxBytes + " bytes", maxBytes);
                            out.write(buf, 0, n);
                        }
                        return out.toByteArray();
                    }
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof CodecException c) throw c;
            // lz4's and snappy's own exceptions (LZ4Exception, SnappyError) are runtime exceptions
            throw new CodecException("value could not be " + configName() + "-decompressed (" + data.length
                    + " bytes): " + e.getClass().getSimpleName() + " " + e.getMessage(), e);
        }
    }

    private CodecException tooLarge(String what, long maxBytes) {
        return new CodecException(configName() + "-compressed value " + what + " once decompressed, more than the "
                + "limit of " + maxBytes + " bytes (" + CodecOptions.MAX_DECODED_BYTES + "; the sink's "
                + "input.max.decoded.bytes)");
    }
}
