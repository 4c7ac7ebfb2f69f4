package io.cdcconnect.codec.open;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.Compression;
import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.HandleKeys;
import io.cdcconnect.codec.LargeMessageHandle;
import io.cdcconnect.codec.MessageSize;
import io.cdcconnect.codec.json.ByteSink;
import io.cdcconnect.codec.json.GoJson;
import io.cdcconnect.codec.json.GoText;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.Watermark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes TiCDC's Open-protocol: rows batched into Kafka messages of {@code [u64 len][key JSON]…} keys (after a u64
 * version 1) and {@code [u64 len][value JSON]…} values; a batch closes when it holds {@code max-batch-size} rows or
 * the next row would push it past {@code max-message-bytes}. DDL and resolved events are single-event messages.
 *
 * <p>Give it the rows of one Kafka partition only (batches must not mix partitions), and call {@link #flush()} to
 * close the open batch. Not thread-safe; one encoder per thread and partition stream.
 */
public final class OpenProtocolEncoder {

    private static final SerializedString F_U = new SerializedString("u");
    private static final SerializedString F_P = new SerializedString("p");
    private static final SerializedString F_D = new SerializedString("d");
    private static final SerializedString F_T = new SerializedString("t");
    private static final SerializedString F_H = new SerializedString("h");
    private static final SerializedString F_F = new SerializedString("f");
    private static final SerializedString F_V = new SerializedString("v");
    private static final SerializedString F_Q = new SerializedString("q");

    /** Batch version written at the start of every key. */
    public static final long BATCH_VERSION = 1;
    /** Per-entry framing TiCDC adds when sizing: 8-byte key length + 8-byte value length. */
    private static final int ENTRY_FRAMING = 16;
    private static final int MAX_CACHED_TABLES = 4096;
    private static final int RETAINED_BUFFER = 1 << 20;

    private final OpenProtocolOptions options;
    private final ByteSink scratch = new ByteSink(2048);
    private JsonGenerator gen = GoJson.generator(scratch);
    private final GoText text = new GoText();
    private final ByteSink batchKey = new ByteSink(1024);
    private final ByteSink batchValue = new ByteSink(16 * 1024);
    private int batchRows;
    private long batchLastTs;
    private final Map<TableInfo, TableMeta> tables = new IdentityHashMap<>();
    private TableMeta lastTable;

    public OpenProtocolEncoder(OpenProtocolOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    public OpenProtocolOptions options() {
        return options;
    }

    /** Rows in the open batch. */
    public int pendingRows() {
        return batchRows;
    }

    /**
     * Adds a row to the open batch.
     *
     * @return the batches this row closed (none, the previous one when the row did not fit, and/or the new one when
     *         it reached max-batch-size), in order
     * @throws CodecException when a value does not fit its column, or the row alone exceeds max-message-bytes and
     *                        the large-message handle cannot shrink it
     */
    public List<EncodedMessage> append(RowChange row) {
        TableMeta meta = meta(row.table());
        boolean keysOnly = row.op() == RowChange.Op.DELETE && options.deleteOnlyHandleKeyColumns();
        Entry e = entry(row, meta, keysOnly, false, null);
        int single = e.keyLength + e.valueLength() + MessageSize.RECORD_OVERHEAD + ENTRY_FRAMING + 8;
        if (single > options.maxMessageBytes()) {
            LargeMessageHandle handle = options.largeMessageHandle();
            if (handle == LargeMessageHandle.NONE) {
                throw tooLarge(row, single, "");
            }
            byte[][] whole = null;
            String location = null;
            if (handle == LargeMessageHandle.CLAIM_CHECK) {
                // the row as a message of its own, as TiCDC stores it: the framed key and the framed value
                whole = singleMessage(e);
                location = options.claimCheck().newLocation();
            }
            e = entry(row, meta, true, handle == LargeMessageHandle.HANDLE_KEY_ONLY, location);
            single = e.keyLength + e.valueLength() + MessageSize.RECORD_OVERHEAD + ENTRY_FRAMING + 8;
            if (single > options.maxMessageBytes()) {
                throw tooLarge(row, single, " even with only the handle-key columns");
            }
            if (whole != null) {
                options.claimCheck().write(location, whole[0], whole[1]);
            }
        }
        List<EncodedMessage> closed = List.of();
        if (batchRows > 0 && batchKey.size() + batchValue.size() + MessageSize.RECORD_OVERHEAD
                + e.keyLength + e.valueLength() + ENTRY_FRAMING > options.maxMessageBytes()) {
            closed = new ArrayList<>(2);
            closed.add(closeBatch());
        }
        if (batchRows == 0) {
            batchKey.writeLongBE(BATCH_VERSION);
        }
        // the entry is still in the scratch buffer: copy it into the batch once
        batchKey.writeLongBE(e.keyLength);
        batchKey.write(scratch.buffer(), 0, e.keyLength);
        batchValue.writeLongBE(e.valueLength());
        if (e.compressed != null) {
            batchValue.write(e.compressed, 0, e.compressed.length);
        } else {
            batchValue.write(scratch.buffer(), e.keyLength, e.valueLength());
        }
        scratch.reset();
        scratch.trim(RETAINED_BUFFER);
        text.trim();
        batchRows++;
        batchLastTs = row.commitTs();
        if (batchRows >= options.maxBatchSize()) {
            if (closed.isEmpty()) closed = new ArrayList<>(1);
            closed.add(closeBatch());
        }
        return closed;
    }

    /** Closes the open batch: returns it as one message, or an empty list when no row is pending. */
    public List<EncodedMessage> flush() {
        return batchRows == 0 ? List.of() : Collections.singletonList(closeBatch());
    }

    private EncodedMessage closeBatch() {
        EncodedMessage m = new EncodedMessage(batchKey.toByteArray(), batchValue.toByteArray(),
                EncodedMessage.Kind.ROW, batchRows, batchRows, batchLastTs);
        batchKey.reset();
        batchValue.reset();
        batchKey.trim(RETAINED_BUFFER);
        batchValue.trim(RETAINED_BUFFER);
        batchRows = 0;
        return m;
    }

    private CodecException tooLarge(RowChange row, int length, String how) {
        return new CodecException("open-protocol message for " + row.table() + " at commitTs "
                + Long.toUnsignedString(row.commitTs()) + " is " + length + " bytes" + how
                + ", over max-message-bytes " + options.maxMessageBytes());
    }

    /** The entry in the scratch buffer as a one-row message: {version, key length, key} and {value length, value}. */
    private byte[][] singleMessage(Entry e) {
        ByteSink key = new ByteSink(16 + e.keyLength);
        key.writeLongBE(BATCH_VERSION);
        key.writeLongBE(e.keyLength);
        key.write(scratch.buffer(), 0, e.keyLength);
        ByteSink value = new ByteSink(8 + e.valueLength());
        value.writeLongBE(e.valueLength());
        if (e.compressed != null) {
            value.write(e.compressed, 0, e.compressed.length);
        } else {
            value.write(scratch.buffer(), e.keyLength, e.valueLength());
        }
        return new byte[][] {key.toByteArray(), value.toByteArray()};
    }

    /** Where the entry just written into the scratch buffer lies: key [0, keyLength), value after it or compressed. */
    private static final class Entry {
        int keyLength;
        int valueEnd;
        byte[] compressed;

        int valueLength() {
            return compressed != null ? compressed.length : valueEnd - keyLength;
        }
    }

    private Entry entry(RowChange row, TableMeta meta, boolean keysOnly, boolean markKeysOnly,
                        String claimCheckLocation) {
        try {
            scratch.reset();
            (claimCheckLocation != null ? OpenKey.claimCheckRow(row.commitTs(), meta.schema, meta.table,
                    claimCheckLocation) : OpenKey.row(row.commitTs(), meta.schema, meta.table, markKeysOnly)).write(gen);
            gen.flush();
            int keyEnd = scratch.size();
            gen.writeStartObject();
            switch (row.op()) {
                case INSERT -> writeColumns(F_U, meta, row.after(), keysOnly, null);
                case DELETE -> writeColumns(F_D, meta, row.before(), keysOnly, null);
                default -> {
                    writeColumns(F_U, meta, row.after(), keysOnly, null);
                    if (options.outputOldValue()) {
                        writeColumns(F_P, meta, row.before(), keysOnly,
                                options.onlyOutputUpdatedColumns() ? row.after() : null);
                    }
                }
            }
            gen.writeEndObject();
            gen.flush();
            Entry e = new Entry();
            e.keyLength = keyEnd;
            e.valueEnd = scratch.size();
            if (options.compression() != Compression.NONE) {
                e.compressed = options.compression().compress(scratch.toByteArray(keyEnd, e.valueEnd));
            }
            return e;
        } catch (ColumnException ce) {
            recover();
            throw new CodecException("open-protocol: cannot encode " + row + " at commitTs "
                    + Long.toUnsignedString(row.commitTs()) + ", column `" + meta.columns.get(ce.column).name()
                    + "`: " + ce.getCause().getMessage(), ce.getCause());
        } catch (IOException | RuntimeException ex) {
            recover();
            throw new CodecException("open-protocol: cannot encode " + row + ": " + ex, ex);
        }
    }

    /** Writes {@code "u":{…}} with columns in name order; leaves the map out when it would be empty (omitempty). */
    private void writeColumns(SerializedString field, TableMeta meta, Object[] image, boolean keysOnly,
                              Object[] newer) throws IOException {
        boolean any = false;
        for (int k = 0; k < meta.order.length; k++) {
            int i = meta.order[k];
            if (keysOnly && !meta.handleKey[i]) continue;
            if (newer != null && Objects.deepEquals(image[i], newer[i])) continue;
            if (!any) {
                gen.writeFieldName(field);
                gen.writeStartObject();
                any = true;
            }
            ColumnInfo c = meta.columns.get(i);
            gen.writeFieldName(meta.names[i]);
            gen.writeStartObject();
            gen.writeFieldName(F_T);
            gen.writeNumber(c.type().code());
            if (c.handleKey()) {
                gen.writeFieldName(F_H);
                gen.writeBoolean(true);
            }
            gen.writeFieldName(F_F);
            gen.writeNumber(c.flags());
            gen.writeFieldName(F_V);
            try {
                OpenValues.write(gen, text, c, image[i]);
            } catch (RuntimeException e) {
                throw new ColumnException(i, e);
            }
            gen.writeEndObject();
        }
        if (any) {
            gen.writeEndObject();
        }
    }

    /** A DDL message of its own: key {@code t} 2, value {@code {"q":…,"t":actionType}}. TiCDC sends it to every partition. */
    public EncodedMessage encode(DdlChange ddl) {
        return encode(ddl, DdlActionType.of(ddl));
    }

    /** A DDL message with an explicit TiDB action type. */
    public EncodedMessage encode(DdlChange ddl, int actionType) {
        try {
            scratch.reset();
            new OpenKey(ddl.commitTs(), ddl.schema(), ddl.table(), 0, null, OpenKey.DDL, false, null).write(gen);
            gen.flush();
            int keyEnd = scratch.size();
            gen.writeStartObject();
            gen.writeFieldName(F_Q);
            gen.writeString(ddl.query());
            gen.writeFieldName(F_T);
            gen.writeNumber(actionType);
            gen.writeEndObject();
            gen.flush();
            byte[] value = options.compression().compress(scratch.toByteArray(keyEnd, scratch.size()));
            return single(scratch.toByteArray(0, keyEnd), value, EncodedMessage.Kind.DDL, ddl.commitTs());
        } catch (IOException | RuntimeException e) {
            recover();
            throw new CodecException("open-protocol: cannot encode DDL on " + ddl.schema() + "." + ddl.table()
                    + ": " + e, e);
        }
    }

    /** A resolved-ts message: key {@code {"ts":N,"t":3}}, value one zero length. TiCDC sends it to every partition. */
    public EncodedMessage encode(Watermark watermark) {
        try {
            scratch.reset();
            new OpenKey(watermark.ts(), "", "", 0, null, OpenKey.RESOLVED, false, null).write(gen);
            gen.flush();
            byte[] key = scratch.toByteArray();
            scratch.reset();
            return single(key, null, EncodedMessage.Kind.WATERMARK, watermark.ts());
        } catch (IOException | RuntimeException e) {
            recover();
            throw new CodecException("open-protocol: cannot encode resolved ts " + watermark.ts() + ": " + e, e);
        }
    }

    /** Frames one key/value pair as a whole message; a null value is written as a zero length. */
    private static EncodedMessage single(byte[] key, byte[] value, EncodedMessage.Kind kind, long ts) {
        ByteSink k = new ByteSink(16 + key.length);
        k.writeLongBE(BATCH_VERSION);
        k.writeLongBE(key.length);
        k.write(key, 0, key.length);
        int vlen = value == null ? 0 : value.length;
        ByteSink v = new ByteSink(8 + vlen);
        v.writeLongBE(vlen);
        if (value != null) v.write(value, 0, vlen);
        return new EncodedMessage(k.toByteArray(), v.toByteArray(), kind, 0, 1, ts);
    }

    private void recover() {
        scratch.reset();
        gen = GoJson.generator(scratch);
    }

    private TableMeta meta(TableInfo table) {
        TableMeta m = lastTable;
        if (m != null && m.info == table) return m;
        m = tables.get(table);
        if (m == null) {
            if (tables.size() >= MAX_CACHED_TABLES) tables.clear();
            m = new TableMeta(table);
            tables.put(table, m);
        }
        lastTable = m;
        return m;
    }

    private static final class ColumnException extends RuntimeException {
        final int column;

        ColumnException(int column, RuntimeException cause) {
            super(cause);
            this.column = column;
        }
    }

    /** Per table version: names, their sort order (Go sorts map keys by UTF-8 bytes), handle-key columns. */
    private static final class TableMeta {
        final TableInfo info;
        final String schema;
        final String table;
        final List<ColumnInfo> columns;
        final SerializableString[] names;
        final int[] order;
        final boolean[] handleKey;

        TableMeta(TableInfo t) {
            info = t;
            schema = t.schema();
            table = t.table();
            columns = t.columns();
            int n = columns.size();
            names = new SerializableString[n];
            byte[][] utf8 = new byte[n][];
            Integer[] idx = new Integer[n];
            for (int i = 0; i < n; i++) {
                names[i] = GoText.name(columns.get(i).name());
                utf8[i] = columns.get(i).name().getBytes(StandardCharsets.UTF_8);
                idx[i] = i;
            }
            Arrays.sort(idx, (a, b) -> Arrays.compareUnsigned(utf8[a], utf8[b]));
            order = new int[n];
            for (int i = 0; i < n; i++) order[i] = idx[i];
            handleKey = HandleKeys.columns(t);
        }
    }
}
