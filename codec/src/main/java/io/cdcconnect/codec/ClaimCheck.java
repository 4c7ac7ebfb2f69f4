package io.cdcconnect.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.cdcconnect.codec.json.ByteSink;
import io.cdcconnect.codec.json.GoJson;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Base64;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * TiCDC's claim-check store ({@code large-message-handle-option=claim-check}): a message too large for Kafka is
 * written whole to a file, and Kafka gets a small message with only the handle-key columns and the file's location
 * ({@code _tidb.claimCheckLocation} in Canal-JSON, {@code ccl} in the Open-protocol key).
 *
 * <p>Files are named {@code <random UUID>.json}, as TiCDC names them, and hold either the message as JSON
 * {@code {"key":<base64 or null>,"value":<base64>}} (Go's encoding of TiCDC's {@code ClaimCheckMessage}) or, with
 * {@code claim-check-raw-value}, the value's bytes alone. A reader looks a location up by its file name in its own
 * store, as TiCDC's consumers do, so producer and consumer may mount the same directory at different paths.
 *
 * <p>Only {@code file://} URIs are supported here (a local or shared directory); TiCDC's S3, GCS and Azure stores are
 * not. A URI's user information (credentials) never appears in a message or an error.
 *
 * <p>Thread-safe: files are written under a temporary name and moved into place, so a reader never sees half a file.
 */
public final class ClaimCheck {

    /** TiCDC's option names. */
    public static final String STORAGE_URI_OPTION = "claim-check-storage-uri";
    public static final String RAW_VALUE_OPTION = "claim-check-raw-value";

    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*");

    private final String uri;
    private final Path directory;
    private final boolean rawValue;
    private final long maxReadBytes;
    private final long maxRecordBytes;
    private final int maxRecordPointers;

    private ClaimCheck(String uri, Path directory, boolean rawValue, long maxReadBytes, long maxRecordBytes,
                       int maxRecordPointers) {
        this.uri = uri;
        this.directory = directory;
        this.rawValue = rawValue;
        this.maxReadBytes = maxReadBytes;
        this.maxRecordBytes = maxRecordBytes;
        this.maxRecordPointers = maxRecordPointers;
    }

    /**
     * The same store, reading back files of at most {@code maxBytes} (default
     * {@link CodecOptions#DEFAULT_MAX_DECODED_BYTES}): a larger one is refused before it is read, whatever the small
     * message that points to it says.
     */
    public ClaimCheck withReadLimit(long maxBytes) {
        if (maxBytes < 1) throw new IllegalArgumentException("read limit must be positive");
        return new ClaimCheck(uri, directory, rawValue, maxBytes, maxRecordBytes, maxRecordPointers);
    }

    public long readLimit() {
        return maxReadBytes;
    }

    /**
     * The same store, with a budget per Kafka record (defaults {@link CodecOptions#DEFAULT_CLAIM_CHECK_MAX_RECORD_BYTES}
     * and {@link CodecOptions#DEFAULT_CLAIM_CHECK_MAX_RECORD_POINTERS}): one record may follow at most
     * {@code maxPointers} claim-check locations, and read back at most {@code maxBytes} through them, counting each
     * file's bytes and what its value decompresses to. Each pointer and each file's size are checked before the file
     * is read, so a record over the budget fails without reading what lies beyond it.
     */
    public ClaimCheck withRecordBudget(long maxBytes, int maxPointers) {
        if (maxBytes < 1 || maxPointers < 1) throw new IllegalArgumentException("record budget must be positive");
        return new ClaimCheck(uri, directory, rawValue, maxReadBytes, maxBytes, maxPointers);
    }

    public long recordByteBudget() {
        return maxRecordBytes;
    }

    public int recordPointerBudget() {
        return maxRecordPointers;
    }

    /** A fresh budget for the claim-check reads of one Kafka record: a decoder takes one per record it decodes. */
    public Budget budget() {
        return new Budget();
    }

    /**
     * What one Kafka record has read back through claim-check pointers so far, against the store's record budget
     * ({@link #withRecordBudget}). Not thread-safe: one record is decoded on one thread.
     */
    public final class Budget {
        private int pointers;
        private long bytes;

        private Budget() {
        }

        private ClaimCheck owner() {
            return ClaimCheck.this;
        }

        /** Pointers followed so far. */
        public int pointers() {
            return pointers;
        }

        /** Bytes read back so far (files, and what their values decompressed to). */
        public long bytes() {
            return bytes;
        }

        private void follow(String location) {
            if (pointers >= maxRecordPointers) {
                throw new CodecException("claim-check location '" + location + "': the record points to more than "
                        + maxRecordPointers + " claim-check locations, its budget (" + CodecOptions.CLAIM_CHECK_MAX_RECORD_POINTERS
                        + "; the sink's input.claim.check.max.record.pointers); nothing more is read for it");
            }
            pointers++;
        }

        private void charge(String location, long n, String what) {
            if (n > maxRecordBytes - bytes) throw overBudget(location, what + " " + n + " bytes");
            bytes += n;
        }

        private CodecException overBudget(String location, String what) {
            return new CodecException("claim-check location '" + location + "': " + what + ", which with the "
                    + bytes + " bytes already read back for this record through " + (pointers - 1) + " other "
                    + "claim-check pointer(s) exceeds the record's budget of " + maxRecordBytes + " bytes ("
                    + CodecOptions.CLAIM_CHECK_MAX_RECORD_BYTES + "; the sink's input.claim.check.max.record.bytes)");
        }

        /**
         * Decompresses a value read back from {@code location}, within what is left of the budget (and at most
         * {@code maxDecodedBytes}, the bound on any one value), and charges what it yields.
         */
        public byte[] decompress(Compression compression, byte[] value, long maxDecodedBytes, String location) {
            if (compression == Compression.NONE) return value;
            long left = maxRecordBytes - bytes;
            byte[] data;
            if (left >= maxDecodedBytes) {
                data = compression.decompress(value, maxDecodedBytes);
            } else {
                try {
                    data = compression.decompress(value, left);
                } catch (CodecException e) {
                    // the budget was the tighter bound: say so, not the bound on one value
                    if (e.getMessage() != null && e.getMessage().contains("limit of " + left + " bytes")) {
                        throw overBudget(location, "its value decompresses to more than " + left + " bytes");
                    }
                    throw e;
                }
            }
            charge(location, data.length, "its value decompresses to");
            return data;
        }
    }

    /**
     * @param storageUri {@code file:///absolute/directory}
     * @param rawValue   store the value's bytes alone instead of the JSON key/value pair
     * @throws IllegalArgumentException for anything but an absolute file URI, naming the option
     */
    public static ClaimCheck open(String storageUri, boolean rawValue) {
        if (storageUri == null || storageUri.isBlank()) {
            throw new IllegalArgumentException(STORAGE_URI_OPTION + " is empty; large-message-handle-option=claim-check"
                    + " needs a directory URI such as file:///var/lib/cdc-connect/claim-check");
        }
        URI u;
        try {
            u = new URI(storageUri.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(STORAGE_URI_OPTION + " is not a valid URI (" + e.getReason() + ")");
        }
        String safe = redact(u);
        if (!"file".equalsIgnoreCase(u.getScheme())) {
            throw new IllegalArgumentException(STORAGE_URI_OPTION + " '" + safe + "': only file:// URIs (a local or"
                    + " shared directory) are supported, not " + (u.getScheme() == null ? "a bare path" : u.getScheme()
                    + "://"));
        }
        if (u.getPath() == null || u.getPath().isEmpty() || !u.getPath().startsWith("/")) {
            throw new IllegalArgumentException(STORAGE_URI_OPTION + " '" + safe + "': needs an absolute path, e.g."
                    + " file:///var/lib/cdc-connect/claim-check");
        }
        Path dir = Path.of(u.getPath());
        String base = "file://" + u.getPath();
        return new ClaimCheck(base.endsWith("/") ? base.substring(0, base.length() - 1) : base, dir, rawValue,
                CodecOptions.DEFAULT_MAX_DECODED_BYTES, CodecOptions.DEFAULT_CLAIM_CHECK_MAX_RECORD_BYTES,
                CodecOptions.DEFAULT_CLAIM_CHECK_MAX_RECORD_POINTERS);
    }

    private static String redact(URI u) {
        if (u.getUserInfo() == null) {
            return u.toString();
        }
        return u.getScheme() + "://***@" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "")
                + (u.getPath() == null ? "" : u.getPath());
    }

    /** The store's URI, without a trailing slash: locations are this plus "/" plus the file name. */
    public String uri() {
        return uri;
    }

    public boolean rawValue() {
        return rawValue;
    }

    /** A location for a new message: this store's URI, "/", a random UUID and ".json" (TiCDC's naming). */
    public String newLocation() {
        return uri + "/" + UUID.randomUUID() + ".json";
    }

    /**
     * Stores one message at a location from {@link #newLocation()}.
     *
     * @param key   the message key as it would have gone to Kafka (null for Canal-JSON)
     * @param value the message value as it would have gone to Kafka (compressed if the producer compresses)
     * @throws CodecException when the file cannot be written
     */
    public void write(String location, byte[] key, byte[] value) {
        String name = fileName(location);
        byte[] data = rawValue ? value : json(key, value);
        Path target = directory.resolve(name);
        Path tmp = directory.resolve("." + name + ".tmp");
        try {
            Files.createDirectories(directory);
            Files.write(tmp, data);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the write failure is what matters
            }
            throw new CodecException("claim-check: cannot write " + data.length + " bytes to " + location + ": " + e, e);
        }
    }

    private static String fileName(String location) {
        if (location == null || location.isEmpty()) {
            throw new CodecException("claim-check: empty location");
        }
        String name = location.substring(location.lastIndexOf('/') + 1);
        if (!FILE_NAME.matcher(name).matches()) {
            throw new CodecException("claim-check location '" + location + "' does not end in a file name");
        }
        return name;
    }

    /** A stored message: the key (null when not stored) and the value. */
    public record Stored(byte[] key, byte[] value) {
    }

    /**
     * Reads the message a location points to, by its file name, from this store.
     *
     * @throws CodecException       naming the location when the name is not a claim-check file name, the file is
     *                              missing from a readable store, or its content is not a claim-check message
     * @throws UnavailableException when the store's directory is missing or unreadable, or reading it fails
     */
    public Stored read(String location) {
        return read(location, budget());
    }

    /**
     * As {@link #read(String)}, for one pointer of a record whose reads {@code budget} counts: the pointer, then the
     * file's size (from the store's metadata), are checked against the budget before the file is read.
     *
     * @throws CodecException also when the record goes over its budget, naming it
     */
    public Stored read(String location, Budget budget) {
        if (budget.owner() != this) throw new IllegalArgumentException("a budget of another store");
        String name = fileName(location);
        budget.follow(location);
        byte[] data;
        Path file = directory.resolve(name);
        try {
            long size = Files.size(file);
            if (size > maxReadBytes) throw tooLarge(location, Long.toString(size));
            budget.charge(location, size, "the file holds");
            long limit = Math.min(maxReadBytes, size);
            try (java.io.InputStream in = Files.newInputStream(file)) {
                // the file may have grown since: read no more than its size said, and fail if there is more
                data = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
            }
            if (data.length > limit) {
                throw new CodecException("claim-check location '" + location + "': the file grew while it was read"
                        + " (more than the " + size + " bytes it held when checked against the limits)");
            }
        } catch (NoSuchFileException e) {
            if (!Files.isDirectory(directory) || !Files.isReadable(directory)) {
                // the store itself is gone (an unmounted share, a missing volume): an outage, not a bad message
                throw new UnavailableException("claim-check store " + uri, "claim-check store " + uri
                        + " is unavailable: its directory is missing or unreadable (reading location '" + location
                        + "')", e);
            }
            throw new CodecException("claim-check location '" + location + "': no file " + name + " in " + uri
                    + " (is " + STORAGE_URI_OPTION + " the producer's store?)", e);
        } catch (IOException e) {
            // an I/O error, a permission refused, a stale share: the store's fault, not the message's
            throw new UnavailableException("claim-check store " + uri, "claim-check store " + uri
                    + " is unavailable: cannot read " + name + " (location '" + location + "'): " + e, e);
        }
        return rawValue ? new Stored(null, data) : parse(data, location);
    }

    private CodecException tooLarge(String location, String size) {
        return new CodecException("claim-check location '" + location + "': the file holds " + size + " bytes, more "
                + "than the limit of " + maxReadBytes + " bytes (" + CodecOptions.MAX_DECODED_BYTES + "; the sink's "
                + "input.max.decoded.bytes)");
    }

    private static byte[] json(byte[] key, byte[] value) {
        ByteSink out = new ByteSink(64 + (value.length + (key == null ? 0 : key.length)) * 4 / 3);
        try (JsonGenerator g = GoJson.generator(out)) {
            g.writeStartObject();
            g.writeFieldName("key");
            if (key == null) {
                g.writeNull();
            } else {
                g.writeString(Base64.getEncoder().encodeToString(key));
            }
            g.writeFieldName("value");
            g.writeString(Base64.getEncoder().encodeToString(value));
            g.writeEndObject();
        } catch (IOException e) {
            throw new CodecException("claim-check: cannot build the stored message: " + e, e);
        }
        return out.toByteArray();
    }

    private static Stored parse(byte[] data, String location) {
        byte[] key = null;
        byte[] value = null;
        try (JsonParser p = GoJson.parser(data, 0, data.length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new CodecException("claim-check location '" + location + "': not a JSON object (a raw value?"
                        + " then set " + RAW_VALUE_OPTION + "=true)");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                // Go's encoding/json matches field names case-insensitively; TiCDC wrote "Key"/"Value" at first
                byte[] b = t == JsonToken.VALUE_NULL ? null : t == JsonToken.VALUE_STRING
                        ? Base64.getDecoder().decode(p.getText()) : skip(p);
                if (f.equalsIgnoreCase("key")) {
                    key = b;
                } else if (f.equalsIgnoreCase("value")) {
                    value = b;
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new CodecException("claim-check location '" + location + "': not a claim-check message (" + e.getMessage()
                    + "; a raw value? then set " + RAW_VALUE_OPTION + "=true)", e);
        }
        if (value == null) {
            throw new CodecException("claim-check location '" + location + "': the stored message has no \"value\""
                    + " (a raw value? then set " + RAW_VALUE_OPTION + "=true)");
        }
        return new Stored(key, value);
    }

    private static byte[] skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }
}
