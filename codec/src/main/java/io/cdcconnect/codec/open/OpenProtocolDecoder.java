package io.cdcconnect.codec.open;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.cdcconnect.codec.ClaimCheck;
import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.CodecOptions;
import io.cdcconnect.codec.Compression;
import io.cdcconnect.codec.json.GoJson;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.Watermark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Open-protocol messages (TiCDC's or {@link OpenProtocolEncoder}'s) into the model.
 *
 * <p>Every key entry pairs with the value entry at the same position; all of them are read (TiCDC's Java example
 * reader does; its Go decoder reads only the first DDL or resolved event of a message). Columns come in the
 * message's order (sorted by name); types from {@code t}, flags from {@code f} (0 when an older producer left it
 * out) plus HANDLE_KEY from {@code h}. One {@link TableInfo} per distinct column set is built and reused. An
 * update's {@code p} may leave out unchanged columns; they are taken from {@code u}. A value that is a JSON string
 * in a numeric column and does not parse is kept as the string, as TiCDC's decoder does.
 *
 * <p>A claim-check entry ({@code "ccl"} in its key) is replaced by the one-row message read back from the claim-check
 * store, when one is configured; without one it is an error naming the location. An entry with {@code "ohk"} is an
 * error: the rest of the row is only in the upstream database.
 *
 * <p>Not thread-safe (it caches tables).
 */
public final class OpenProtocolDecoder {

    private static final int MAX_CACHED_TABLES = 4096;

    private final Compression compression;
    private final ClaimCheck claimCheck;
    private final long maxDecodedBytes;
    private final Map<TableKey, TableInfo> tables = new HashMap<>();

    public OpenProtocolDecoder() {
        this(Compression.NONE);
    }

    /** @param compression how the producer compressed each value entry */
    public OpenProtocolDecoder(Compression compression) {
        this(compression, null);
    }

    /**
     * @param compression how the producer compressed each value entry
     * @param claimCheck  the producer's claim-check store, or null
     */
    public OpenProtocolDecoder(Compression compression, ClaimCheck claimCheck) {
        this(compression, claimCheck, CodecOptions.DEFAULT_MAX_DECODED_BYTES);
    }

    /**
     * @param maxDecodedBytes the most bytes one value may decompress to (a larger one is a {@link CodecException}
     *                        naming the limit); the claim-check store bounds what it reads back itself
     */
    public OpenProtocolDecoder(Compression compression, ClaimCheck claimCheck, long maxDecodedBytes) {
        this.compression = compression;
        this.claimCheck = claimCheck;
        this.maxDecodedBytes = maxDecodedBytes;
    }

    public int cachedTables() {
        return tables.size();
    }

    /** One key entry with its value entry (decompressed), before interpretation. */
    public record Entry(OpenKey key, byte[] keyJson, byte[] valueJson) {
    }

    /**
     * Splits a message into its entries, checking the framing.
     *
     * @throws CodecException when the version is not 1, a length runs past the end, or the counts differ
     */
    public List<Entry> entries(byte[] key, byte[] value) {
        return entries(key, value, null, null);
    }

    /** @param claimedFrom the claim-check location the message was read back from (then {@code budget} counts it) */
    private List<Entry> entries(byte[] key, byte[] value, String claimedFrom, ClaimCheck.Budget budget) {
        if (key == null || key.length < 8) {
            throw new CodecException("open-protocol key of " + (key == null ? "null" : key.length + " bytes")
                    + " is too short for the 8-byte version");
        }
        long version = readLong(key, 0);
        if (version != OpenProtocolEncoder.BATCH_VERSION) {
            throw new CodecException("open-protocol key has batch version " + version + ", expected 1");
        }
        List<byte[]> keys = split(key, 8, "key");
        List<byte[]> values = value == null ? List.of() : split(value, 0, "value");
        if (keys.size() != values.size()) {
            throw new CodecException("open-protocol message holds " + keys.size() + " key entries but "
                    + values.size() + " value entries");
        }
        List<Entry> out = new ArrayList<>(keys.size());
        long decoded = 0;
        for (int i = 0; i < keys.size(); i++) {
            byte[] kj = keys.get(i);
            OpenKey k;
            try (JsonParser p = GoJson.parser(kj, 0, kj.length)) {
                p.nextToken();
                k = OpenKey.read(p);
            } catch (IOException e) {
                throw new CodecException("open-protocol key entry #" + (i + 1) + " is not valid JSON: " + e.getMessage(), e);
            }
            byte[] v = values.get(i);
            if (v.length > 0 && k.type() != OpenKey.RESOLVED && compression != Compression.NONE) {
                // the limit holds for the whole message, not per entry: a batch of small bombs is one large value
                try {
                    long limit = Math.max(0, maxDecodedBytes - decoded);
                    v = budget == null ? compression.decompress(v, limit)
                            : budget.decompress(compression, v, limit, claimedFrom);
                } catch (CodecException e) {
                    throw new CodecException("open-protocol value entry #" + (i + 1) + ": " + e.getMessage(), e);
                }
                decoded += v.length;
            }
            out.add(new Entry(k, kj, v));
        }
        return out;
    }

    private static List<byte[]> split(byte[] b, int from, String what) {
        List<byte[]> out = new ArrayList<>();
        int pos = from;
        while (pos < b.length) {
            if (b.length - pos < 8) {
                throw new CodecException("open-protocol " + what + " ends with " + (b.length - pos)
                        + " stray bytes at offset " + pos);
            }
            long len = readLong(b, pos);
            pos += 8;
            if (len < 0 || len > b.length - pos) {
                throw new CodecException("open-protocol " + what + " entry #" + (out.size() + 1) + " claims " + len
                        + " bytes at offset " + pos + " but only " + (b.length - pos) + " remain");
            }
            byte[] e = new byte[(int) len];
            System.arraycopy(b, pos, e, 0, (int) len);
            out.add(e);
            pos += (int) len;
        }
        return out;
    }

    static long readLong(byte[] b, int pos) {
        long v = 0;
        for (int i = 0; i < 8; i++) v = (v << 8) | (b[pos + i] & 0xFF);
        return v;
    }

    /**
     * Decodes every event of a message, in order.
     *
     * @throws CodecException naming the entry (1-based), table and column of what could not be read
     */
    public List<ChangeEvent> decode(byte[] key, byte[] value) {
        List<Entry> entries = entries(key, value);
        List<ChangeEvent> out = new ArrayList<>(entries.size());
        // what this record reads back through claim-check pointers, all of them together
        ClaimCheck.Budget budget = claimCheck == null ? null : claimCheck.budget();
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            String where = "open-protocol entry #" + (i + 1);
            try {
                switch (e.key().type()) {
                    case OpenKey.ROW -> out.add(e.key().claimCheckLocation() != null ? claimed(e, where, budget)
                            : row(e, where + " (" + e.key().schema() + "." + e.key().table() + ")"));
                    case OpenKey.DDL -> out.add(ddl(e));
                    case OpenKey.RESOLVED -> out.add(new Watermark(e.key().ts()));
                    default -> throw new CodecException(where + ": unknown event type t=" + e.key().type());
                }
            } catch (JsonParseException ex) {
                throw new CodecException(where + ": value is not valid JSON: " + ex.getOriginalMessage(), ex);
            } catch (IOException ex) {
                throw new CodecException(where + ": " + ex, ex);
            }
        }
        return out;
    }

    /** The row a claim-check entry points to, read back from the store (a one-row message of its own). */
    private RowChange claimed(Entry e, String where, ClaimCheck.Budget budget) throws IOException {
        String location = e.key().claimCheckLocation();
        where = where + " (" + e.key().schema() + "." + e.key().table() + ")";
        if (claimCheck == null) {
            throw new CodecException(where + ": the row is in the claim-check store at " + location + "; set "
                    + ClaimCheck.STORAGE_URI_OPTION + " to the producer's store to read it");
        }
        ClaimCheck.Stored stored;
        try {
            stored = claimCheck.read(location, budget);
        } catch (CodecException ex) {
            throw new CodecException(where + ": " + ex.getMessage(), ex);
        }
        String from = where + ", read back from claim-check location " + location;
        List<Entry> whole;
        try {
            whole = entries(stored.key(), stored.value(), location, budget);
        } catch (CodecException ex) {
            throw new CodecException(from + ": " + ex.getMessage(), ex);
        }
        if (whole.size() != 1 || whole.get(0).key().type() != OpenKey.ROW
                || whole.get(0).key().claimCheckLocation() != null) {
            throw new CodecException(from + ": expected one row entry, found " + whole.size() + " entries"
                    + (whole.isEmpty() ? "" : " starting with type t=" + whole.get(0).key().type()));
        }
        return row(whole.get(0), from);
    }

    /** DDL value {@code {"q":…,"t":…}} with its TiDB action type. */
    public record DdlValue(String query, int actionType) {
    }

    public static DdlValue readDdl(byte[] json) throws IOException {
        String q = null;
        int t = 0;
        try (JsonParser p = GoJson.parser(json, 0, json.length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new CodecException("DDL value is not a JSON object");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                if ("q".equals(f)) q = v == JsonToken.VALUE_NULL ? null : p.getText();
                else if ("t".equals(f)) t = v == JsonToken.VALUE_NULL ? 0 : p.getIntValue();
                else p.skipChildren();
            }
        }
        if (q == null) throw new CodecException("DDL value has no \"q\"");
        return new DdlValue(q, t);
    }

    private static DdlChange ddl(Entry e) throws IOException {
        DdlValue v = readDdl(e.valueJson());
        return new DdlChange(e.key().schema(), e.key().table(), v.query(), DdlActionType.kind(v.actionType()),
                e.key().ts());
    }

    /** One column as sent. */
    private record RawColumn(String name, int type, int flags, JsonToken token, String text) {
    }

    private RowChange row(Entry e, String where) throws IOException {
        if (e.key().onlyHandleKey()) {
            throw new CodecException(where + ": the message carries only the handle-key columns (ohk); the"
                    + " producer's max-message-bytes was too small for this row (claim-check keeps such rows whole)");
        }
        List<RawColumn> u = null;
        List<RawColumn> p = null;
        List<RawColumn> d = null;
        byte[] json = e.valueJson();
        try (JsonParser parser = GoJson.parser(json, 0, json.length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new CodecException(where + ": row value is not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String f = parser.currentName();
                JsonToken t = parser.nextToken();
                switch (f) {
                    case "u" -> u = columns(parser, t, where);
                    case "p" -> p = columns(parser, t, where);
                    case "d" -> d = columns(parser, t, where);
                    default -> parser.skipChildren();
                }
            }
        }
        long ts = e.key().ts();
        if (d != null && !d.isEmpty()) {
            TableInfo table = table(e.key(), d);
            return RowChange.delete(table, image(table, d, null, where + " d"), ts);
        }
        if (u == null || u.isEmpty()) {
            throw new CodecException(where + ": row value has neither \"u\" nor \"d\"");
        }
        TableInfo table = table(e.key(), u);
        Object[] after = image(table, u, null, where + " u");
        if (p != null && !p.isEmpty()) {
            return RowChange.update(table, image(table, p, after, where + " p"), after, ts);
        }
        return RowChange.insert(table, after, ts);
    }

    private static List<RawColumn> columns(JsonParser p, JsonToken t, String where) throws IOException {
        if (t == JsonToken.VALUE_NULL) return null;
        if (t != JsonToken.START_OBJECT) throw new CodecException(where + ": column map is a " + t);
        List<RawColumn> out = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new CodecException(where + ": column `" + name + "` is not a JSON object");
            }
            int type = -1;
            int flags = 0;
            boolean handle = false;
            JsonToken vt = JsonToken.VALUE_NULL;
            String text = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                switch (f) {
                    case "t" -> type = p.getIntValue();
                    case "f" -> flags = v == JsonToken.VALUE_NULL ? 0 : p.getIntValue();
                    case "h" -> handle = v == JsonToken.VALUE_TRUE;
                    case "v" -> {
                        vt = v;
                        if (v.isStructStart()) {
                            throw new CodecException(where + ": column `" + name + "` value is a JSON " + v);
                        }
                        text = v == JsonToken.VALUE_NULL ? null : p.getText();
                    }
                    default -> p.skipChildren();
                }
            }
            if (type < 0) throw new CodecException(where + ": column `" + name + "` has no type \"t\"");
            if (handle) flags |= ColumnFlags.HANDLE_KEY;
            out.add(new RawColumn(name, type, flags, vt, text));
        }
        return out;
    }

    private TableInfo table(OpenKey key, List<RawColumn> cols) {
        int n = cols.size();
        String[] names = new String[n];
        int[] types = new int[2 * n];
        for (int i = 0; i < n; i++) {
            RawColumn c = cols.get(i);
            names[i] = c.name();
            types[2 * i] = c.type();
            types[2 * i + 1] = c.flags();
        }
        TableKey k = new TableKey(key.schema(), key.table(), List.of(names), intList(types));
        TableInfo t = tables.get(k);
        if (t == null) {
            List<ColumnInfo> infos = new ArrayList<>(n);
            for (RawColumn c : cols) {
                MySqlType type;
                try {
                    type = MySqlType.fromCode(c.type());
                } catch (IllegalArgumentException e) {
                    throw new CodecException("open-protocol " + key.schema() + "." + key.table() + ": column `"
                            + c.name() + "` has unknown type code " + c.type());
                }
                boolean bin = ColumnFlags.has(c.flags(), ColumnFlags.BINARY);
                infos.add(new ColumnInfo(c.name(), type, c.flags(), bin && type.isStringFamily() ? "binary" : null,
                        -1, -1, -1, List.of(), null));
            }
            t = TableInfo.of(key.schema(), key.table(), infos);
            if (tables.size() >= MAX_CACHED_TABLES) tables.clear();
            tables.put(k, t);
        }
        return t;
    }

    private static List<Integer> intList(int[] a) {
        List<Integer> l = new ArrayList<>(a.length);
        for (int v : a) l.add(v);
        return l;
    }

    private static Object[] image(TableInfo t, List<RawColumn> cols, Object[] fill, String where) {
        int n = t.columnCount();
        Object[] out = fill != null ? fill.clone() : new Object[n];
        boolean aligned = cols.size() == n;
        for (int i = 0; i < cols.size(); i++) {
            RawColumn c = cols.get(i);
            int pos = aligned && t.column(i).name().equals(c.name()) ? i : t.indexOf(c.name());
            if (pos < 0) {
                throw new CodecException(where + ": column `" + c.name() + "` is not among the row's columns");
            }
            try {
                out[pos] = OpenValues.parse(t.column(pos), c.token(), c.text());
            } catch (IllegalArgumentException e) {
                throw new CodecException(where + ": column `" + c.name() + "` (type " + c.type() + "): "
                        + e.getMessage(), e);
            }
        }
        if (fill == null && !aligned) {
            throw new CodecException(where + ": holds " + cols.size() + " of the " + n + " columns");
        }
        return out;
    }

    private record TableKey(String schema, String table, List<String> names, List<Integer> typesAndFlags) {
    }
}
