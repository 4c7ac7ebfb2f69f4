package io.cdcconnect.codec.json;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The UTF-8 generator writes names and string constants through the UTF-8 methods; those give the Go-escaped
 * bytes. The char-based methods (used only by a char generator) fall back to Jackson's escaping.
 */
final class PreEscaped implements SerializableString {
    private final SerializedString plain;
    /** Escaped content, without the surrounding quotes (Jackson adds those). */
    private final byte[] escaped;
    private final byte[] utf8;

    PreEscaped(String s, byte[] escaped) {
        this.plain = new SerializedString(s);
        this.escaped = escaped;
        this.utf8 = s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String getValue() {
        return plain.getValue();
    }

    @Override
    public int charLength() {
        return plain.charLength();
    }

    @Override
    public char[] asQuotedChars() {
        return plain.asQuotedChars();
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return utf8.clone();
    }

    @Override
    public byte[] asQuotedUTF8() {
        return escaped.clone();
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
        if (offset + escaped.length > buffer.length) return -1;
        System.arraycopy(escaped, 0, buffer, offset, escaped.length);
        return escaped.length;
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
        return plain.appendQuoted(buffer, offset);
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
        if (offset + utf8.length > buffer.length) return -1;
        System.arraycopy(utf8, 0, buffer, offset, utf8.length);
        return utf8.length;
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
        return plain.appendUnquoted(buffer, offset);
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
        out.write(escaped);
        return escaped.length;
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(utf8);
        return utf8.length;
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
        if (buffer.remaining() < escaped.length) return -1;
        buffer.put(escaped);
        return escaped.length;
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
        if (buffer.remaining() < utf8.length) return -1;
        buffer.put(utf8);
        return utf8.length;
    }

    @Override
    public String toString() {
        return plain.getValue();
    }
}
