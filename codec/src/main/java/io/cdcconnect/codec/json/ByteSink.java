package io.cdcconnect.codec.json;

import java.io.OutputStream;
import java.util.Arrays;

/** A reusable, unsynchronized byte buffer: encoders write each message into it, copy it out and reset it. */
public final class ByteSink extends OutputStream {
    private byte[] buf;
    private int len;

    public ByteSink(int initialCapacity) {
        buf = new byte[initialCapacity];
    }

    @Override
    public void write(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int n) {
        ensure(n);
        System.arraycopy(b, off, buf, len, n);
        len += n;
    }

    public void writeLongBE(long v) {
        ensure(8);
        for (int i = 7; i >= 0; i--) {
            buf[len++] = (byte) (v >>> (i * 8));
        }
    }

    /** Overwrites 8 bytes at {@code pos} with {@code v} big-endian (for length prefixes written after the body). */
    public void putLongBE(int pos, long v) {
        for (int i = 7; i >= 0; i--) {
            buf[pos++] = (byte) (v >>> (i * 8));
        }
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }

    /** The internal array (valid up to {@link #size()}); for copying out without an intermediate array. */
    public byte[] buffer() {
        return buf;
    }

    public int size() {
        return len;
    }

    public void reset() {
        len = 0;
    }

    /** Drops everything written after {@code size}. */
    public void truncate(int size) {
        len = size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    public byte[] toByteArray(int from, int to) {
        return Arrays.copyOfRange(buf, from, to);
    }

    /** Shrinks a buffer that grew for one huge message, so an encoder does not keep it forever. */
    public void trim(int maxRetained) {
        if (buf.length > maxRetained && len <= maxRetained) {
            buf = Arrays.copyOf(buf, maxRetained);
        }
    }
}
