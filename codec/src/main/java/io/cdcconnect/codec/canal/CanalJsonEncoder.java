package io.cdcconnect.codec.canal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.LargeMessageHandle;
import io.cdcconnect.codec.MessageSize;
import io.cdcconnect.codec.json.ByteSink;
import io.cdcconnect.codec.json.GoJson;
import io.cdcconnect.codec.json.GoText;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.Watermark;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Writes TiCDC-compatible Canal-JSON: one JSON object per row, DDL or watermark, fields in TiCDC's order
 * (see docs/protocols.md), streamed with a Jackson generator into a reused buffer.
 *
 * <p>Not thread-safe: it reuses its buffer and generator. Use one encoder per thread (the encoder group does).
 * Per-table metadata (names, type strings) is computed once per {@link TableInfo} instance and cached.
 */
public final class CanalJsonEncoder {

    private static final SerializedString F_ID = new SerializedString("id");
    private static final SerializedString F_DATABASE = new SerializedString("database");
    private static final SerializedString F_TABLE = new SerializedString("table");
    private static final SerializedString F_PK_NAMES = new SerializedString("pkNames");
    private static final SerializedString F_IS_DDL = new SerializedString("isDdl");
    private static final SerializedString F_TYPE = new SerializedString("type");
    private static final SerializedString F_ES = new SerializedString("es");
    private static final SerializedString F_TS = new SerializedString("ts");
    private static final SerializedString F_SQL = new SerializedString("sql");
    private static final SerializedString F_SQL_TYPE = new SerializedString("sqlType");
    private static final SerializedString F_MYSQL_TYPE = new SerializedString("mysqlType");
    private static final SerializedString F_OLD = new SerializedString("old");
    private static final SerializedString F_DATA = new SerializedString("data");
    private static final SerializedString F_TIDB = new SerializedString("_tidb");
    private static final SerializedString F_COMMIT_TS = new SerializedString("commitTs");
    private static final SerializedString F_WATERMARK_TS = new SerializedString("watermarkTs");
    private static final SerializedString F_ONLY_HANDLE_KEY = new SerializedString("onlyHandleKey");
    private static final SerializedString[] OP_NAMES = {
        new SerializedString("INSERT"), new SerializedString("UPDATE"), new SerializedString("DELETE")};

    /** Watermark message type (TiDB extension only). */
    public static final String WATERMARK_TYPE = "TIDB_WATERMARK";

    private static final int MAX_CACHED_TABLES = 4096;
    private static final int RETAINED_BUFFER = 1 << 20;

    private final CanalJsonOptions options;
    private final LongSupplier clock;
    private final ByteSink sink = new ByteSink(4096);
    private final GoText text = new GoText();
    private JsonGenerator gen = GoJson.generator(sink);
    private final Map<TableInfo, CanalTableMeta> tables = new IdentityHashMap<>();
    private CanalTableMeta lastTable;

    public CanalJsonEncoder(CanalJsonOptions options) {
        this(options, System::currentTimeMillis);
    }

    /** @param clock the wall clock written to {@code ts} (tests fix it) */
    public CanalJsonEncoder(CanalJsonOptions options, LongSupplier clock) {
        this.options = Objects.requireNonNull(options, "options");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public CanalJsonOptions options() {
        return options;
    }

    /** Encodes any event; a watermark gives null when the TiDB extension is off. */
    public byte[] encode(ChangeEvent event) {
        if (event instanceof RowChange r) return encode(r);
        if (event instanceof DdlChange d) return encode(d);
        return encode((Watermark) event);
    }

    /**
     * One row as one message value (compressed when configured).
     *
     * @throws CodecException when a value does not fit its column, or the message exceeds max-message-bytes and
     *                        cannot be shrunk by the large-message handle
     */
    public byte[] encode(RowChange row) {
        boolean keysOnly = row.op() == RowChange.Op.DELETE && options.deleteOnlyHandleKeyColumns();
        byte[] value = options.compression().compress(writeRow(row, keysOnly, false));
        int length = MessageSize.length(null, value);
        if (length <= options.maxMessageBytes()) {
            return value;
        }
        if (options.largeMessageHandle() == LargeMessageHandle.NONE) {
            throw tooLarge(row, length, "");
        }
        byte[] reduced = options.compression().compress(writeRow(row, true, true));
        int reducedLength = MessageSize.length(null, reduced);
        if (reducedLength > options.maxMessageBytes()) {
            throw tooLarge(row, reducedLength, " even with only the handle-key columns");
        }
        return reduced;
    }

    private CodecException tooLarge(RowChange row, int length, String how) {
        return new CodecException("canal-json message for " + row.table() + " at commitTs " + row.commitTs()
                + " is " + length + " bytes" + how + ", over max-message-bytes " + options.maxMessageBytes());
    }

    /** A DDL message; TiCDC sends it to partition 0. */
    public byte[] encode(DdlChange ddl) {
        try {
            gen.writeStartObject();
            gen.writeFieldName(F_ID);
            gen.writeNumber(0);
            gen.writeFieldName(F_DATABASE);
            gen.writeString(ddl.schema());
            gen.writeFieldName(F_TABLE);
            gen.writeString(ddl.table());
            gen.writeFieldName(F_PK_NAMES);
            gen.writeNull();
            gen.writeFieldName(F_IS_DDL);
            gen.writeBoolean(true);
            gen.writeFieldName(F_TYPE);
            gen.writeString(ddl.kind().name());
            gen.writeFieldName(F_ES);
            gen.writeNumber(ChangeEvent.physicalMillis(ddl.commitTs()));
            gen.writeFieldName(F_TS);
            gen.writeNumber(clock.getAsLong());
            gen.writeFieldName(F_SQL);
            gen.writeString(ddl.query());
            writeNullTail();
            if (options.enableTidbExtension()) {
                gen.writeFieldName(F_TIDB);
                gen.writeStartObject();
                gen.writeFieldName(F_COMMIT_TS);
                writeUnsigned(ddl.commitTs());
                gen.writeEndObject();
            }
            gen.writeEndObject();
            return options.compression().compress(finish());
        } catch (IOException | RuntimeException e) {
            throw failed("DDL on " + ddl.schema() + "." + ddl.table() + " at commitTs " + ddl.commitTs(), e);
        }
    }

    /**
     * A watermark message ({@code TIDB_WATERMARK}), or null when the TiDB extension is off: plain Canal-JSON has no
     * such message (TiCDC sends none). TiCDC sends it to every partition.
     */
    public byte[] encode(Watermark watermark) {
        if (!options.enableTidbExtension()) {
            return null;
        }
        try {
            gen.writeStartObject();
            gen.writeFieldName(F_ID);
            gen.writeNumber(0);
            gen.writeFieldName(F_DATABASE);
            gen.writeString("");
            gen.writeFieldName(F_TABLE);
            gen.writeString("");
            gen.writeFieldName(F_PK_NAMES);
            gen.writeNull();
            gen.writeFieldName(F_IS_DDL);
            gen.writeBoolean(false);
            gen.writeFieldName(F_TYPE);
            gen.writeString(WATERMARK_TYPE);
            gen.writeFieldName(F_ES);
            gen.writeNumber(ChangeEvent.physicalMillis(watermark.ts()));
            gen.writeFieldName(F_TS);
            gen.writeNumber(clock.getAsLong());
            gen.writeFieldName(F_SQL);
            gen.writeString("");
            writeNullTail();
            gen.writeFieldName(F_TIDB);
            gen.writeStartObject();
            gen.writeFieldName(F_WATERMARK_TS);
            writeUnsigned(watermark.ts());
            gen.writeEndObject();
            gen.writeEndObject();
            return options.compression().compress(finish());
        } catch (IOException | RuntimeException e) {
            throw failed("watermark " + watermark.ts(), e);
        }
    }

    /** DDL and watermark messages have no columns: Go's struct order is sqlType, mysqlType, data, old. */
    private void writeNullTail() throws IOException {
        gen.writeFieldName(F_SQL_TYPE);
        gen.writeNull();
        gen.writeFieldName(F_MYSQL_TYPE);
        gen.writeNull();
        gen.writeFieldName(F_DATA);
        gen.writeNull();
        gen.writeFieldName(F_OLD);
        gen.writeNull();
    }

    private byte[] writeRow(RowChange row, boolean keysOnly, boolean markKeysOnly) {
        CanalTableMeta meta = meta(row.table());
        int col = -1;
        try {
            gen.writeStartObject();
            gen.writeFieldName(F_ID);
            gen.writeNumber(0);
            gen.writeFieldName(F_DATABASE);
            gen.writeString(meta.schema);
            gen.writeFieldName(F_TABLE);
            gen.writeString(meta.table);
            gen.writeFieldName(F_PK_NAMES);
            gen.writeStartArray();
            for (SerializableString pk : meta.pkNames) {
                gen.writeString(pk);
            }
            gen.writeEndArray();
            gen.writeFieldName(F_IS_DDL);
            gen.writeBoolean(false);
            gen.writeFieldName(F_TYPE);
            gen.writeString(OP_NAMES[row.op().ordinal()]);
            gen.writeFieldName(F_ES);
            gen.writeNumber(ChangeEvent.physicalMillis(row.commitTs()));
            gen.writeFieldName(F_TS);
            gen.writeNumber(clock.getAsLong());
            gen.writeFieldName(F_SQL);
            gen.writeString("");

            Object[] image = row.op() == RowChange.Op.DELETE ? row.before() : row.after();
            List<ColumnInfo> columns = meta.columns;
            int n = columns.size();
            gen.writeFieldName(F_SQL_TYPE);
            if (!keysOnly && !meta.promotes(image)) {
                gen.writeRawValue(meta.sqlTypeJson); // the table's constant part, rendered once
            } else {
                boolean any = false;
                for (col = 0; col < n; col++) {
                    if (keysOnly && !meta.handleKey[col]) continue;
                    if (!any) {
                        gen.writeStartObject();
                        any = true;
                    }
                    gen.writeFieldName(meta.names[col]);
                    gen.writeNumber(CanalTypes.sqlType(columns.get(col), meta.baseSqlTypes[col], image[col]));
                }
                if (any) {
                    gen.writeEndObject();
                } else {
                    gen.writeNull();
                }
            }
            gen.writeFieldName(F_MYSQL_TYPE);
            if (!keysOnly) {
                gen.writeRawValue(meta.mysqlTypeJson);
            } else {
                gen.writeStartObject();
                for (col = 0; col < n; col++) {
                    if (!meta.handleKey[col]) continue;
                    gen.writeFieldName(meta.names[col]);
                    gen.writeString(meta.mysqlTypeNames[col]);
                }
                gen.writeEndObject();
            }
            col = -1;

            gen.writeFieldName(F_OLD);
            if (row.op() == RowChange.Op.UPDATE) {
                writeImage(meta, row.before(), keysOnly, options.onlyOutputUpdatedColumns() ? row.after() : null);
            } else {
                gen.writeNull();
            }
            gen.writeFieldName(F_DATA);
            writeImage(meta, image, keysOnly, null);

            if (options.enableTidbExtension()) {
                gen.writeFieldName(F_TIDB);
                gen.writeStartObject();
                gen.writeFieldName(F_COMMIT_TS);
                writeUnsigned(row.commitTs());
                if (markKeysOnly) {
                    gen.writeFieldName(F_ONLY_HANDLE_KEY);
                    gen.writeBoolean(true);
                }
                gen.writeEndObject();
            }
            gen.writeEndObject();
            return finish();
        } catch (ImageException e) {
            throw failed(row + ", column `" + meta.columns.get(e.column).name() + "` ("
                    + meta.mysqlTypes[e.column] + ")", e.getCause());
        } catch (IOException | RuntimeException e) {
            throw failed(row + (col >= 0 ? ", column `" + meta.columns.get(col).name() + "`" : ""), e);
        }
    }

    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    /**
     * Writes [{col: value, ...}]; with {@code newer} set, leaves out columns whose value equals the newer image.
     * The object is assembled in a byte buffer (names pre-escaped per table, values escaped straight into it) and
     * handed to the generator as one raw value: per-value generator calls cost more than the escaping itself.
     */
    private void writeImage(CanalTableMeta meta, Object[] image, boolean keysOnly, Object[] newer) throws IOException {
        List<ColumnInfo> columns = meta.columns;
        GoText t = text.reset().appendByte('{');
        boolean first = true;
        for (int col = 0; col < image.length; col++) {
            if (keysOnly && !meta.handleKey[col]) continue;
            Object v = image[col];
            if (newer != null && java.util.Objects.deepEquals(v, newer[col])) continue;
            if (!first) t.appendByte(',');
            first = false;
            t.appendRaw(meta.nameColons[col]);
            if (v == null) {
                t.appendRaw(NULL);
            } else {
                t.appendByte('"');
                // the common cases by a per-table kind; anything unusual through the general formatter
                int kind = meta.kinds[col];
                if (kind == CanalTableMeta.SIGNED && v instanceof Long l) {
                    t.appendLong(l);
                } else if (kind == CanalTableMeta.UNSIGNED && v instanceof Long l) {
                    t.appendUnsigned(l);
                } else if (kind == CanalTableMeta.TEXT && v instanceof String str) {
                    t.appendString(str);
                } else if (kind == CanalTableMeta.LATIN1 && v instanceof byte[] b) {
                    t.appendLatin1(b);
                } else {
                    try {
                        CanalValues.append(t, columns.get(col), v);
                    } catch (RuntimeException e) {
                        throw new ImageException(col, e);
                    }
                }
                t.appendByte('"');
            }
        }
        t.appendByte('}');
        gen.writeStartArray();
        gen.writeRawValue(t.asRawValue());
        gen.writeEndArray();
    }

    private void writeUnsigned(long v) throws IOException {
        if (v >= 0) {
            gen.writeNumber(v);
        } else {
            gen.writeNumber(Long.toUnsignedString(v)); // a TSO above 2^63 (not in practice, but exact anyway)
        }
    }

    private byte[] finish() throws IOException {
        gen.flush();
        byte[] out = sink.toByteArray();
        sink.reset();
        sink.trim(RETAINED_BUFFER);
        text.trim();
        return out;
    }

    private CodecException failed(String what, Throwable e) {
        recover();
        if (e instanceof CodecException ce) {
            return ce;
        }
        return new CodecException("canal-json: cannot encode " + what + ": " + e, e);
    }

    /** After a failure mid-message the generator is inside an open object: start over with a fresh one. */
    private void recover() {
        sink.reset();
        gen = GoJson.generator(sink);
    }

    private CanalTableMeta meta(TableInfo table) {
        CanalTableMeta m = lastTable;
        if (m != null && m.info == table) {
            return m;
        }
        m = tables.get(table);
        if (m == null) {
            if (tables.size() >= MAX_CACHED_TABLES) {
                tables.clear();
            }
            m = new CanalTableMeta(table, options.contentCompatible());
            tables.put(table, m);
        }
        lastTable = m;
        return m;
    }

    private static final class ImageException extends RuntimeException {
        final int column;

        ImageException(int column, RuntimeException cause) {
            super(cause);
            this.column = column;
        }
    }
}
