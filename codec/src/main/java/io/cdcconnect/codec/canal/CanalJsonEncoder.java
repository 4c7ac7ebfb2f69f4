package io.cdcconnect.codec.canal;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.LargeMessageHandle;
import io.cdcconnect.codec.MessageSize;
import io.cdcconnect.codec.json.GoText;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.Watermark;

import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Writes TiCDC-compatible Canal-JSON: one JSON object per row, DDL or watermark, fields in TiCDC's order
 * (see docs/protocols.md).
 *
 * <p>The message is written straight into one reused byte buffer: everything constant per table (the head up to
 * {@code "type"}, the column names, the {@code sqlType} and {@code mysqlType} objects) is rendered once per table,
 * and values are escaped the Go way ({@link GoText}) directly after their names. A JSON generator was the first
 * version; per-value generator calls and the copies between its buffer and ours cost more than the escaping.
 *
 * <p>Not thread-safe: it reuses its buffer. Use one encoder per thread (the encoder group does).
 * Per-table metadata is computed once per {@link TableInfo} instance and cached.
 */
public final class CanalJsonEncoder {

    /** Watermark message type (TiDB extension only). */
    public static final String WATERMARK_TYPE = "TIDB_WATERMARK";

    private static final byte[][] OP_TAILS = {
        ascii("INSERT\",\"es\":"), ascii("UPDATE\",\"es\":"), ascii("DELETE\",\"es\":")};
    private static final byte[] TS = ascii(",\"ts\":");
    private static final byte[] EMPTY_SQL_SQL_TYPE = ascii(",\"sql\":\"\",\"sqlType\":");
    private static final byte[] MYSQL_TYPE = ascii(",\"mysqlType\":");
    private static final byte[] OLD = ascii(",\"old\":");
    private static final byte[] DATA = ascii(",\"data\":");
    private static final byte[] NULL = ascii("null");
    private static final byte[] TIDB_COMMIT_TS = ascii(",\"_tidb\":{\"commitTs\":");
    private static final byte[] ONLY_HANDLE_KEY = ascii(",\"onlyHandleKey\":true");
    private static final byte[] CLAIM_CHECK_LOCATION = ascii(",\"claimCheckLocation\":");
    private static final byte[] DDL_HEAD = ascii("{\"id\":0,\"database\":");
    private static final byte[] DDL_TABLE = ascii(",\"table\":");
    private static final byte[] DDL_TYPE = ascii(",\"pkNames\":null,\"isDdl\":true,\"type\":\"");
    private static final byte[] DDL_ES = ascii("\",\"es\":");
    private static final byte[] SQL = ascii(",\"sql\":");
    /** DDL and watermark messages have no columns: Go's struct order is sqlType, mysqlType, data, old. */
    private static final byte[] NULL_TAIL = ascii(",\"sqlType\":null,\"mysqlType\":null,\"data\":null,\"old\":null");
    private static final byte[] WATERMARK_HEAD = ascii("{\"id\":0,\"database\":\"\",\"table\":\"\",\"pkNames\":null,"
            + "\"isDdl\":false,\"type\":\"" + WATERMARK_TYPE + "\",\"es\":");
    private static final byte[] EMPTY_SQL = ascii(",\"sql\":\"\"");
    private static final byte[] TIDB_WATERMARK_TS = ascii(",\"_tidb\":{\"watermarkTs\":");

    private static final int MAX_CACHED_TABLES = 4096;

    private final CanalJsonOptions options;
    private final LongSupplier clock;
    private final GoText out = new GoText();
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

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
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
        byte[] value = options.compression().compress(writeRow(row, keysOnly, false, null));
        int length = MessageSize.length(null, value);
        if (length <= options.maxMessageBytes()) {
            return value;
        }
        LargeMessageHandle handle = options.largeMessageHandle();
        if (handle == LargeMessageHandle.NONE) {
            throw tooLarge(row, length, "");
        }
        // claim-check: the whole message goes to the store, Kafka gets the handle-key columns and its location
        String location = handle == LargeMessageHandle.CLAIM_CHECK ? options.claimCheck().newLocation() : null;
        byte[] reduced = options.compression().compress(
                writeRow(row, true, handle == LargeMessageHandle.HANDLE_KEY_ONLY, location));
        int reducedLength = MessageSize.length(null, reduced);
        if (reducedLength > options.maxMessageBytes()) {
            throw tooLarge(row, reducedLength, " even with only the handle-key columns");
        }
        if (location != null) {
            options.claimCheck().write(location, null, value);
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
            GoText t = out.reset();
            t.appendRaw(DDL_HEAD).appendQuoted(ddl.schema()).appendRaw(DDL_TABLE).appendQuoted(ddl.table());
            t.appendRaw(DDL_TYPE).appendAscii(ddl.kind().name()).appendRaw(DDL_ES);
            t.appendLong(ChangeEvent.physicalMillis(ddl.commitTs())).appendRaw(TS).appendLong(clock.getAsLong());
            t.appendRaw(SQL).appendQuoted(ddl.query()).appendRaw(NULL_TAIL);
            if (options.enableTidbExtension()) {
                t.appendRaw(TIDB_COMMIT_TS).appendUnsigned(ddl.commitTs()).appendByte('}');
            }
            t.appendByte('}');
            return options.compression().compress(finish());
        } catch (RuntimeException e) {
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
            GoText t = out.reset();
            t.appendRaw(WATERMARK_HEAD).appendLong(ChangeEvent.physicalMillis(watermark.ts()));
            t.appendRaw(TS).appendLong(clock.getAsLong()).appendRaw(EMPTY_SQL).appendRaw(NULL_TAIL);
            t.appendRaw(TIDB_WATERMARK_TS).appendUnsigned(watermark.ts()).appendByte('}').appendByte('}');
            return options.compression().compress(finish());
        } catch (RuntimeException e) {
            throw failed("watermark " + watermark.ts(), e);
        }
    }

    private byte[] writeRow(RowChange row, boolean keysOnly, boolean markKeysOnly, String claimCheckLocation) {
        CanalTableMeta meta = meta(row.table());
        int col = -1;
        try {
            GoText t = out.reset();
            t.appendRaw(meta.head).appendRaw(OP_TAILS[row.op().ordinal()]);
            t.appendLong(ChangeEvent.physicalMillis(row.commitTs())).appendRaw(TS).appendLong(clock.getAsLong());
            t.appendRaw(EMPTY_SQL_SQL_TYPE);

            Object[] image = row.op() == RowChange.Op.DELETE ? row.before() : row.after();
            List<ColumnInfo> columns = meta.columns;
            int n = columns.size();
            if (!keysOnly && !meta.promotes(image)) {
                t.appendRaw(meta.sqlTypeJson); // the table's constant part, rendered once
            } else {
                boolean any = false;
                for (col = 0; col < n; col++) {
                    if (keysOnly && !meta.handleKey[col]) continue;
                    t.appendByte(any ? ',' : '{');
                    any = true;
                    t.appendRaw(meta.nameColons[col]);
                    t.appendLong(CanalTypes.sqlType(columns.get(col), meta.baseSqlTypes[col], image[col]));
                }
                if (any) {
                    t.appendByte('}');
                } else {
                    t.appendRaw(NULL);
                }
            }
            t.appendRaw(MYSQL_TYPE);
            if (!keysOnly) {
                t.appendRaw(meta.mysqlTypeJson);
            } else {
                boolean any = false;
                for (col = 0; col < n; col++) {
                    if (!meta.handleKey[col]) continue;
                    t.appendByte(any ? ',' : '{');
                    any = true;
                    t.appendRaw(meta.nameColons[col]).appendRaw(meta.mysqlTypeQuoted[col]);
                }
                if (!any) t.appendByte('{');
                t.appendByte('}');
            }
            col = -1;

            t.appendRaw(OLD);
            if (row.op() == RowChange.Op.UPDATE) {
                writeImage(t, meta, row.before(), keysOnly, options.onlyOutputUpdatedColumns() ? row.after() : null);
            } else {
                t.appendRaw(NULL);
            }
            t.appendRaw(DATA);
            writeImage(t, meta, image, keysOnly, null);

            if (options.enableTidbExtension()) {
                t.appendRaw(TIDB_COMMIT_TS).appendUnsigned(row.commitTs());
                if (markKeysOnly) {
                    t.appendRaw(ONLY_HANDLE_KEY);
                }
                if (claimCheckLocation != null) {
                    t.appendRaw(CLAIM_CHECK_LOCATION).appendQuoted(claimCheckLocation);
                }
                t.appendByte('}');
            }
            t.appendByte('}');
            return finish();
        } catch (ImageException e) {
            throw failed(row + ", column `" + meta.columns.get(e.column).name() + "` ("
                    + meta.mysqlTypes[e.column] + ")", e.getCause());
        } catch (RuntimeException e) {
            throw failed(row + (col >= 0 ? ", column `" + meta.columns.get(col).name() + "`" : ""), e);
        }
    }

    /** Writes [{col: value, ...}]; with {@code newer} set, leaves out columns whose value equals the newer image. */
    private static void writeImage(GoText t, CanalTableMeta meta, Object[] image, boolean keysOnly, Object[] newer) {
        int[] kinds = meta.kinds;
        t.appendByte('[').appendByte('{');
        boolean first = true;
        for (int col = 0; col < image.length; col++) {
            if (keysOnly && !meta.handleKey[col]) continue;
            Object v = image[col];
            if (newer != null && Objects.deepEquals(v, newer[col])) continue;
            if (v == null) {
                t.appendRaw(first ? meta.nullValue[col] : meta.nextNullValue[col]);
                first = false;
                continue;
            }
            t.appendRaw(first ? meta.valueStart[col] : meta.nextValueStart[col]);
            first = false;
            // the common cases by a per-table kind; anything unusual through the general formatter
            int kind = kinds[col];
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
                    CanalValues.append(t, meta.columns.get(col), v);
                } catch (RuntimeException e) {
                    throw new ImageException(col, e);
                }
            }
            t.appendByte('"');
        }
        t.appendByte('}').appendByte(']');
    }

    /** The message, copied out; the buffer is kept for the next one (shrunk if one huge message grew it). */
    private byte[] finish() {
        byte[] message = out.toByteArray();
        out.trim();
        return message;
    }

    private CodecException failed(String what, Throwable e) {
        out.trim();
        if (e instanceof CodecException ce) {
            return ce;
        }
        return new CodecException("canal-json: cannot encode " + what + ": " + e, e);
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
