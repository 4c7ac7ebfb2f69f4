package io.cdcconnect.codec.canal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.cdcconnect.codec.ClaimCheck;
import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.CodecOptions;
import io.cdcconnect.codec.Compression;
import io.cdcconnect.codec.json.FlatObjectScan;
import io.cdcconnect.codec.json.GoJson;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.Watermark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Canal-JSON written by TiCDC (or by {@link CanalJsonEncoder}) into the model.
 *
 * <p>A value may hold several messages separated by {@code "\n"} (TiCDC's terminator). Columns come in the order of
 * the {@code data} object; their types from {@code mysqlType} (short names such as "int unsigned" or full
 * definitions such as "decimal(10,4)"), falling back to {@code sqlType}. {@code pkNames} columns get
 * PRIMARY_KEY|HANDLE_KEY. One {@link TableInfo} is built per distinct (schema, table, columns, types, pkNames) and
 * reused. Without {@code _tidb.commitTs} the commit ts is {@code es << 18}. An update's {@code old} may leave out
 * unchanged columns (only-output-updated-columns / content-compatible); they are taken from {@code data}.
 *
 * <p>A claim-check message ({@code _tidb.claimCheckLocation}) is replaced by the whole message read back from the
 * claim-check store, when one is configured; without one it is an error naming the location. A message with
 * {@code onlyHandleKey} is an error: the rest of the row is only in the upstream database.
 *
 * <p>Not thread-safe (it caches tables); use one decoder per thread.
 */
public final class CanalJsonDecoder {

    private static final int MAX_CACHED_TABLES = 4096;

    private final Compression compression;
    private final ClaimCheck claimCheck;
    private final long maxDecodedBytes;
    private final Map<TableKey, CachedTable> tables = new HashMap<>();
    private final Map<ShapeKey, Shape> shapes = new HashMap<>();

    public CanalJsonDecoder() {
        this(Compression.NONE);
    }

    /** @param compression how the producer compressed each value (TiCDC's large-message-handle-compression) */
    public CanalJsonDecoder(Compression compression) {
        this(compression, null);
    }

    /**
     * @param compression how the producer compressed each value (TiCDC's large-message-handle-compression)
     * @param claimCheck  the producer's claim-check store, or null
     */
    public CanalJsonDecoder(Compression compression, ClaimCheck claimCheck) {
        this(compression, claimCheck, CodecOptions.DEFAULT_MAX_DECODED_BYTES);
    }

    /**
     * @param maxDecodedBytes the most bytes one value may decompress to (a larger one is a {@link CodecException}
     *                        naming the limit); the claim-check store bounds what it reads back itself
     */
    public CanalJsonDecoder(Compression compression, ClaimCheck claimCheck, long maxDecodedBytes) {
        this.compression = compression;
        this.claimCheck = claimCheck;
        this.maxDecodedBytes = maxDecodedBytes;
    }

    /** Number of distinct table versions seen (for tests and metrics). */
    public int cachedTables() {
        return tables.size();
    }

    /**
     * Decodes every message in the value, in order.
     *
     * @throws CodecException naming the message number (1-based) and, for a bad value, the table and column
     */
    public List<ChangeEvent> decode(byte[] value) {
        if (value == null) {
            throw new CodecException("canal-json: null value (a tombstone is not a Canal-JSON message)");
        }
        List<ChangeEvent> out = new ArrayList<>(1);
        // what this record reads back through claim-check pointers, all of them together
        decode(value, out, null, claimCheck == null ? null : claimCheck.budget());
        return out;
    }

    /**
     * @param claimedFrom where the value was read back from in the claim-check store (it must not point there again),
     *                    or null for the record's own value
     * @param budget      the record's claim-check budget, or null without a store
     */
    private void decode(byte[] value, List<ChangeEvent> out, String claimedFrom, ClaimCheck.Budget budget) {
        boolean claimed = claimedFrom != null;
        byte[] data = claimed ? budget.decompress(compression, value, maxDecodedBytes, claimedFrom)
                : compression.decompress(value, maxDecodedBytes);
        int index = 0;
        Input in = null;
        try {
            in = new Input(data);
            JsonToken t;
            while ((t = in.parser.nextToken()) != null) {
                index++;
                if (t != JsonToken.START_OBJECT) {
                    throw new CodecException("canal-json message #" + index + ": expected a JSON object, found " + t);
                }
                Message m = readMessage(in);
                if (m.claimCheckLocation != null) {
                    if (claimed) {
                        throw new CodecException("canal-json message #" + index + ": points to the claim-check store"
                                + " again (" + m.claimCheckLocation + ")");
                    }
                    readClaimed(m.claimCheckLocation, index, out, budget);
                } else {
                    toEvents(m, index, out);
                }
            }
        } catch (JsonProcessingException e) {
            throw new CodecException("canal-json message #" + Math.max(index, 1) + ": malformed JSON: "
                    + e.getOriginalMessage()
                    // a limit of the parser (nesting depth, number or string length) comes without a location
                    + (e.getLocation() == null || in == null ? ""
                            : " at byte " + (e.getLocation().getByteOffset() + in.shift)), e);
        } catch (IOException e) {
            throw new CodecException("canal-json: cannot read value: " + e, e);
        } finally {
            if (in != null) in.close();
        }
        if (index == 0) {
            throw new CodecException("canal-json: value holds no message (" + value.length + " bytes)");
        }
    }

    /**
     * The parser over a value, and the bytes it reads. Skipping a message's type objects by {@link FlatObjectScan}
     * moves the parser past them: it is replaced by one over a copy of the rest of the value, which starts with
     * {@code {"":0} so that the new parser stands inside a message object as the old one did.
     */
    private static final class Input implements AutoCloseable {
        private static final byte[] RESUME = "{\"\":0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

        JsonParser parser;
        byte[] buf;
        /** Added to an offset in {@code buf} gives the offset in the value (for error messages). */
        long shift;

        Input(byte[] data) throws IOException {
            buf = data;
            parser = GoJson.parser(data, 0, data.length);
        }

        /** Goes on parsing at {@code buf[at]}, inside the current message object, after a member's value. */
        void resumeAt(int at) throws IOException {
            byte[] rest = new byte[RESUME.length + buf.length - at];
            System.arraycopy(RESUME, 0, rest, 0, RESUME.length);
            System.arraycopy(buf, at, rest, RESUME.length, buf.length - at);
            JsonParser next = GoJson.parser(rest, 0, rest.length);
            parser.close();
            shift += at - RESUME.length;
            buf = rest;
            parser = next;
            // {"":0 → START_OBJECT, FIELD_NAME, VALUE_NUMBER_INT: then the message's next member, as before
            next.nextToken();
            next.nextToken();
            next.nextToken();
        }

        @Override
        public void close() {
            try {
                parser.close();
            } catch (IOException e) {
                // a parser over a byte array holds nothing to release
            }
        }
    }

    /** Replaces a claim-check message by the whole message it points to. */
    private void readClaimed(String location, int index, List<ChangeEvent> out, ClaimCheck.Budget budget) {
        String where = "canal-json message #" + index;
        if (claimCheck == null) {
            throw new CodecException(where + ": the row is in the claim-check store at " + location + "; set "
                    + ClaimCheck.STORAGE_URI_OPTION + " to the producer's store to read it");
        }
        byte[] whole;
        try {
            whole = claimCheck.read(location, budget).value();
        } catch (CodecException e) {
            throw new CodecException(where + ": " + e.getMessage(), e);
        }
        try {
            decode(whole, out, location, budget);
        } catch (CodecException e) {
            throw new CodecException(where + ", read back from claim-check location " + location + ": "
                    + e.getMessage(), e);
        }
    }

    /** The fields of one message, as sent. */
    private static final class Message {
        String database = "";
        String table = "";
        List<String> pkNames;
        boolean isDdl;
        String type;
        long es;
        String sql;
        LinkedHashMap<String, Integer> sqlType;
        LinkedHashMap<String, String> mysqlType;
        /** The bytes that hold the sqlType / mysqlType objects, and where they lie in them (-1: absent or null). */
        byte[] sqlTypeRaw;
        int sqlTypeFrom = -1;
        int sqlTypeTo = -1;
        byte[] mysqlTypeRaw;
        int mysqlTypeFrom = -1;
        int mysqlTypeTo = -1;
        List<RawRow> data;
        List<RawRow> old;
        Long commitTs;
        Long watermarkTs;
        boolean onlyHandleKey;
        String claimCheckLocation;
    }

    /** One row image as names and texts, in message order. */
    private static final class RawRow {
        final ArrayList<String> names;
        final ArrayList<String> values;

        RawRow(int columns) {
            names = new ArrayList<>(columns);
            values = new ArrayList<>(columns);
        }
    }

    /**
     * Columns of the last row read: the next row's lists are made that large (a 60-column row grew them 4 times). At
     * most a MySQL table's 4,096 columns, so that one huge message does not make every later row reserve as much.
     */
    private int columnHint = 10;
    private static final int MAX_COLUMN_HINT = 4096;

    /** Type objects shorter than this are skipped by the parser: resuming costs a new parser and a copy of the rest. */
    static final int MIN_RESUME_BYTES = 512;

    private static final byte[] QUOTED_MYSQL_TYPE = "\"mysqlType\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private Message readMessage(Input in) throws IOException {
        Message m = new Message();
        JsonParser p = in.parser;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "database": m.database = v == JsonToken.VALUE_NULL ? "" : p.getText(); break;
                case "table": m.table = v == JsonToken.VALUE_NULL ? "" : p.getText(); break;
                case "pkNames": m.pkNames = readStrings(p, v); break;
                case "isDdl": m.isDdl = v == JsonToken.VALUE_TRUE; break;
                case "type": m.type = v == JsonToken.VALUE_NULL ? null : p.getText(); break;
                case "es": m.es = v == JsonToken.VALUE_NULL ? 0 : p.getValueAsLong(); break;
                case "sql": m.sql = v == JsonToken.VALUE_NULL ? null : p.getText(); break;
                case "sqlType":
                    // Only located here: the same bytes as the table's last message mean the same table (below).
                    if (v == JsonToken.START_OBJECT) {
                        p = locateTypes(in, m, true);
                    } else {
                        expectNull(v, "sqlType");
                    }
                    break;
                case "mysqlType":
                    if (v == JsonToken.START_OBJECT) {
                        p = locateTypes(in, m, false);
                    } else {
                        expectNull(v, "mysqlType");
                    }
                    break;
                case "data": m.data = readRows(p, v); break;
                case "old": m.old = readRows(p, v); break;
                case "_tidb": readTidb(p, v, m); break;
                default: p.skipChildren(); // id, ts and anything newer
            }
        }
        return m;
    }

    /**
     * The parser stands on the opening of sqlType (or mysqlType): notes where the object lies and moves past it, and
     * past a mysqlType right after a sqlType. Flat objects are skipped by their bytes ({@link FlatObjectScan}) and
     * the parser resumes after them; anything else the parser skips itself.
     *
     * @return the parser to go on with
     */
    private static JsonParser locateTypes(Input in, Message m, boolean sqlType) throws IOException {
        JsonParser p = in.parser;
        int from = (int) p.currentTokenLocation().getByteOffset();
        int end = FlatObjectScan.end(in.buf, from, in.buf.length);
        if (end < 0) {
            p.skipChildren();
            setTypes(m, sqlType, in.buf, from, (int) p.currentTokenLocation().getByteOffset() + 1);
            return p;
        }
        if (end - from < MIN_RESUME_BYTES) {
            // a few columns: the parser steps over them for less than a new parser costs
            p.skipChildren();
            setTypes(m, sqlType, in.buf, from, (int) p.currentTokenLocation().getByteOffset() + 1);
            return p;
        }
        setTypes(m, sqlType, in.buf, from, end);
        if (sqlType) {
            int next = FlatObjectScan.nextMemberObject(in.buf, end, in.buf.length, QUOTED_MYSQL_TYPE);
            int nextEnd = next < 0 ? -1 : FlatObjectScan.end(in.buf, next, in.buf.length);
            if (nextEnd > 0) {
                setTypes(m, false, in.buf, next, nextEnd);
                end = nextEnd;
            }
        }
        in.resumeAt(end);
        return in.parser;
    }

    private static void setTypes(Message m, boolean sqlType, byte[] raw, int from, int to) {
        if (sqlType) {
            m.sqlTypeRaw = raw;
            m.sqlTypeFrom = from;
            m.sqlTypeTo = to;
        } else {
            m.mysqlTypeRaw = raw;
            m.mysqlTypeFrom = from;
            m.mysqlTypeTo = to;
        }
    }

    private static List<String> readStrings(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NULL) return null;
        expect(t, JsonToken.START_ARRAY, "pkNames");
        List<String> out = new ArrayList<>(2);
        while (p.nextToken() != JsonToken.END_ARRAY) {
            out.add(p.getText());
        }
        return out;
    }

    private static LinkedHashMap<String, Integer> readIntMap(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NULL) return null;
        expect(t, JsonToken.START_OBJECT, "sqlType");
        LinkedHashMap<String, Integer> out = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            out.put(name, p.getValueAsInt());
        }
        return out;
    }

    private static LinkedHashMap<String, String> readStringMap(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NULL) return null;
        expect(t, JsonToken.START_OBJECT, "mysqlType");
        LinkedHashMap<String, String> out = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            out.put(name, p.getText());
        }
        return out;
    }

    private List<RawRow> readRows(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NULL) return null;
        expect(t, JsonToken.START_ARRAY, "data/old");
        List<RawRow> rows = new ArrayList<>(1);
        JsonToken r;
        while ((r = p.nextToken()) != JsonToken.END_ARRAY) {
            expect(r, JsonToken.START_OBJECT, "a row of data/old");
            RawRow row = new RawRow(columnHint);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                row.names.add(p.currentName());
                JsonToken v = p.nextToken();
                if (v == JsonToken.VALUE_NULL) {
                    row.values.add(null);
                } else if (v.isScalarValue()) {
                    row.values.add(p.getText()); // hand-made messages sometimes send numbers unquoted
                } else {
                    throw new CodecException("column `" + row.names.get(row.names.size() - 1)
                            + "` holds a JSON " + v + ", expected a string or null");
                }
            }
            rows.add(row);
            columnHint = Math.max(1, Math.min(MAX_COLUMN_HINT, row.names.size()));
        }
        return rows;
    }

    private static void readTidb(JsonParser p, JsonToken t, Message m) throws IOException {
        if (t == JsonToken.VALUE_NULL) return;
        expect(t, JsonToken.START_OBJECT, "_tidb");
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "commitTs": m.commitTs = unsigned(p, v, "_tidb.commitTs"); break;
                case "watermarkTs": m.watermarkTs = unsigned(p, v, "_tidb.watermarkTs"); break;
                case "onlyHandleKey": m.onlyHandleKey = v == JsonToken.VALUE_TRUE; break;
                case "claimCheckLocation": m.claimCheckLocation = v == JsonToken.VALUE_NULL ? null : p.getText(); break;
                default: p.skipChildren();
            }
        }
    }

    /** TSOs exceed 2^53 and, in principle, 2^63: read them from the digits, never through a double. */
    private static Long unsigned(JsonParser p, JsonToken v, String what) throws IOException {
        if (v == JsonToken.VALUE_NULL) return null;
        try {
            return Long.parseUnsignedLong(p.getText());
        } catch (NumberFormatException e) {
            throw new CodecException(what + " is not an unsigned 64-bit integer: " + p.getText());
        }
    }

    private static void expectNull(JsonToken got, String what) {
        if (got != JsonToken.VALUE_NULL) {
            throw new CodecException(what + ": expected an object or null, found " + got);
        }
    }

    /** Parses the located sqlType / mysqlType objects (only when the table is not recognised from them). */
    private static void materialize(Message m) {
        try {
            if (m.sqlTypeFrom >= 0) {
                try (JsonParser p = GoJson.parser(m.sqlTypeRaw, m.sqlTypeFrom, m.sqlTypeTo - m.sqlTypeFrom)) {
                    m.sqlType = readIntMap(p, p.nextToken());
                }
            }
            if (m.mysqlTypeFrom >= 0) {
                try (JsonParser p = GoJson.parser(m.mysqlTypeRaw, m.mysqlTypeFrom, m.mysqlTypeTo - m.mysqlTypeFrom)) {
                    m.mysqlType = readStringMap(p, p.nextToken());
                }
            }
        } catch (IOException e) {
            throw new CodecException("sqlType/mysqlType: " + e.getMessage(), e);
        }
    }

    private static void expect(JsonToken got, JsonToken want, String what) {
        if (got != want) {
            throw new CodecException(what + ": expected " + want + ", found " + got);
        }
    }

    private void toEvents(Message m, int index, List<ChangeEvent> out) {
        String where = "canal-json message #" + index;
        if (m.type == null) {
            throw new CodecException(where + ": no \"type\"");
        }
        if (m.isDdl) {
            DdlChange.Kind kind;
            try {
                kind = DdlChange.Kind.valueOf(m.type);
            } catch (IllegalArgumentException e) {
                kind = DdlChange.Kind.QUERY; // Canal knows more DDL types than TiCDC writes; all are statements
            }
            out.add(new DdlChange(m.database, m.table, m.sql == null ? "" : m.sql, kind, commitTs(m)));
            return;
        }
        if (CanalJsonEncoder.WATERMARK_TYPE.equals(m.type)) {
            out.add(new Watermark(m.watermarkTs != null ? m.watermarkTs : m.es << 18));
            return;
        }
        RowChange.Op op;
        switch (m.type) {
            case "INSERT": op = RowChange.Op.INSERT; break;
            case "UPDATE": op = RowChange.Op.UPDATE; break;
            case "DELETE": op = RowChange.Op.DELETE; break;
            default: throw new CodecException(where + " (" + m.database + "." + m.table + "): unknown type '"
                    + m.type + "'");
        }
        where = where + " (" + op + " " + m.database + "." + m.table + ")";
        if (m.onlyHandleKey) {
            // The row is incomplete: applying it would write only the key columns. The full row must be read back
            // from the upstream TiDB at the commit ts, which a Kafka consumer cannot do.
            throw new CodecException(where + ": the message carries only the handle-key columns (onlyHandleKey);"
                    + " the producer's max-message-bytes was too small for this row (claim-check keeps such rows"
                    + " whole)");
        }
        if (m.data == null || m.data.isEmpty()) {
            throw new CodecException(where + ": no \"data\"");
        }
        CachedTable table = table(m, where);
        long ts = commitTs(m);
        for (int r = 0; r < m.data.size(); r++) {
            Object[] image = image(table, m.data.get(r), null, where + " data[" + r + "]");
            switch (op) {
                case INSERT -> out.add(RowChange.insert(table.info, image, ts));
                case DELETE -> out.add(RowChange.delete(table.info, image, ts));
                default -> {
                    RawRow oldRow = m.old != null && r < m.old.size() ? m.old.get(r) : null;
                    Object[] before = oldRow == null ? image.clone()
                            : image(table, oldRow, image, where + " old[" + r + "]");
                    out.add(RowChange.update(table.info, before, image, ts));
                }
            }
        }
    }

    private static long commitTs(Message m) {
        return m.commitTs != null ? m.commitTs : m.es << 18;
    }

    /** Converts one raw row; columns missing from it are taken from {@code fill} (or fail when there is none). */
    private static Object[] image(CachedTable t, RawRow row, Object[] fill, String where) {
        int n = t.info.columnCount();
        Object[] out = new Object[n];
        boolean[] seen = fill != null || row.names.size() != n ? new boolean[n] : null;
        for (int i = 0; i < row.names.size(); i++) {
            String name = row.names.get(i);
            int pos = i < n && t.names[i].equals(name) ? i : t.positions.getOrDefault(name, -1);
            if (pos < 0) {
                throw new CodecException(where + ": column `" + name + "` is not in the table's first row");
            }
            String text = row.values.get(i);
            if (text != null) {
                ColumnInfo c = t.info.column(pos);
                try {
                    out[pos] = CanalValues.parse(c, text);
                } catch (IllegalArgumentException e) {
                    throw new CodecException(where + ": column `" + name + "` (" + CanalTypes.mysqlType(c, true)
                            + "): " + e.getMessage(), e);
                }
            }
            if (seen != null) seen[pos] = true;
        }
        if (seen != null) {
            for (int i = 0; i < n; i++) {
                if (!seen[i]) {
                    if (fill == null) {
                        throw new CodecException(where + ": column `" + t.names[i] + "` is missing");
                    }
                    out[i] = fill[i];
                }
            }
        }
        return out;
    }

    /**
     * The table of a row message. Fast path: the table's previous message had byte-identical sqlType and mysqlType
     * objects, the same pkNames and the same columns in data, so it is the same table version; nothing is parsed or
     * built. Otherwise the type objects are parsed and the table looked up (or built) by its full description.
     */
    private CachedTable table(Message m, String where) {
        RawRow first = m.data.get(0);
        List<String> pk = m.pkNames == null ? List.of() : m.pkNames;
        ShapeKey sk = new ShapeKey(m.database, m.table);
        Shape last = shapes.get(sk);
        if (last != null && last.matches(m, first, pk)) {
            return last.table;
        }
        materialize(m);
        List<String> types = new ArrayList<>(first.names.size());
        boolean allFromMysqlType = true;
        for (String name : first.names) {
            String mt = m.mysqlType == null ? null : m.mysqlType.get(name);
            Integer st = m.sqlType == null ? null : m.sqlType.get(name);
            types.add(mt != null ? mt : st != null ? "#" + st : "");
            allFromMysqlType &= mt != null;
        }
        TableKey key = new TableKey(m.database, m.table, first.names, types, pk);
        CachedTable t = tables.get(key);
        if (t == null) {
            t = build(m, first, where);
            if (tables.size() >= MAX_CACHED_TABLES) {
                tables.clear();
            }
            // copy the lists: the key must not share the message's mutable ones
            tables.put(new TableKey(m.database, m.table, List.copyOf(first.names), List.copyOf(types),
                    List.copyOf(pk)), t);
        }
        if (shapes.size() >= MAX_CACHED_TABLES) {
            shapes.clear();
        }
        shapes.put(sk, new Shape(m, first, pk, t, allFromMysqlType));
        return t;
    }

    private record ShapeKey(String schema, String table) {
    }

    /** The exact bytes of a table's last type objects, and what they resolved to. */
    private static final class Shape {
        final byte[] sqlType;
        final byte[] mysqlType;
        final List<String> names;
        final List<String> pk;
        final CachedTable table;
        /** Every column's type came from mysqlType: sqlType (which varies with unsigned values) does not matter. */
        final boolean sqlTypeIrrelevant;

        Shape(Message m, RawRow first, List<String> pk, CachedTable table, boolean sqlTypeIrrelevant) {
            this.sqlTypeIrrelevant = sqlTypeIrrelevant;
            this.sqlType = m.sqlTypeFrom < 0 || sqlTypeIrrelevant ? null
                    : Arrays.copyOfRange(m.sqlTypeRaw, m.sqlTypeFrom, m.sqlTypeTo);
            this.mysqlType = m.mysqlTypeFrom < 0 ? null
                    : Arrays.copyOfRange(m.mysqlTypeRaw, m.mysqlTypeFrom, m.mysqlTypeTo);
            this.names = List.copyOf(first.names);
            this.pk = List.copyOf(pk);
            this.table = table;
        }

        boolean matches(Message m, RawRow first, List<String> msgPk) {
            return (sqlTypeIrrelevant || same(sqlType, m.sqlTypeRaw, m.sqlTypeFrom, m.sqlTypeTo))
                    && same(mysqlType, m.mysqlTypeRaw, m.mysqlTypeFrom, m.mysqlTypeTo)
                    && names.equals(first.names) && pk.equals(msgPk);
        }

        private static boolean same(byte[] kept, byte[] raw, int from, int to) {
            if (kept == null || from < 0) {
                return kept == null && from < 0;
            }
            return Arrays.equals(kept, 0, kept.length, raw, from, to);
        }
    }

    private static CachedTable build(Message m, RawRow first, String where) {
        List<ColumnInfo> columns = new ArrayList<>(first.names.size());
        List<String> pk = m.pkNames == null ? List.of() : m.pkNames;
        for (String name : first.names) {
            String mt = m.mysqlType == null ? null : m.mysqlType.get(name);
            Integer st = m.sqlType == null ? null : m.sqlType.get(name);
            try {
                columns.add(CanalTypes.parseColumn(name, mt, st, pk.contains(name)));
            } catch (IllegalArgumentException e) {
                throw new CodecException(where + ": column `" + name + "`: " + e.getMessage(), e);
            }
        }
        return new CachedTable(TableInfo.of(m.database, m.table, columns));
    }

    private record TableKey(String schema, String table, List<String> names, List<String> types, List<String> pk) {
    }

    private static final class CachedTable {
        final TableInfo info;
        final String[] names;
        final Map<String, Integer> positions;

        CachedTable(TableInfo info) {
            this.info = info;
            this.names = info.columns().stream().map(ColumnInfo::name).toArray(String[]::new);
            this.positions = info.positions();
        }
    }
}
