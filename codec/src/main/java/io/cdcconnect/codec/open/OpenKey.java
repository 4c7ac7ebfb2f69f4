package io.cdcconnect.codec.open;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import io.cdcconnect.codec.CodecException;

import java.io.IOException;

/**
 * One Open-protocol key entry: {@code {"ts":…,"scm":…,"tbl":…,"rid":…,"ptn":…,"t":…,"ohk":true,"ccl":…}},
 * fields in that order, each optional one left out when empty (Go's {@code omitempty}).
 *
 * @param ts                 commit ts (unsigned 64-bit)
 * @param schema             schema, "" when absent
 * @param table              table, "" when absent
 * @param rowId              row id, 0 when absent
 * @param partition          physical table id of a partition, or null
 * @param type               {@link #ROW}, {@link #DDL} or {@link #RESOLVED}
 * @param onlyHandleKey      the value holds only the handle-key columns
 * @param claimCheckLocation where the full message was stored, or null
 */
public record OpenKey(long ts, String schema, String table, long rowId, Long partition, int type,
                      boolean onlyHandleKey, String claimCheckLocation) {

    public static final int ROW = 1;
    public static final int DDL = 2;
    public static final int RESOLVED = 3;

    private static final SerializedString F_TS = new SerializedString("ts");
    private static final SerializedString F_SCM = new SerializedString("scm");
    private static final SerializedString F_TBL = new SerializedString("tbl");
    private static final SerializedString F_RID = new SerializedString("rid");
    private static final SerializedString F_PTN = new SerializedString("ptn");
    private static final SerializedString F_T = new SerializedString("t");
    private static final SerializedString F_OHK = new SerializedString("ohk");
    private static final SerializedString F_CCL = new SerializedString("ccl");

    public OpenKey {
        schema = schema == null ? "" : schema;
        table = table == null ? "" : table;
    }

    public static OpenKey row(long ts, String schema, String table, boolean onlyHandleKey) {
        return new OpenKey(ts, schema, table, 0, null, ROW, onlyHandleKey, null);
    }

    /** A row key pointing to the whole message in the claim-check store ({@code "ccl"}, no {@code "ohk"}). */
    public static OpenKey claimCheckRow(long ts, String schema, String table, String claimCheckLocation) {
        return new OpenKey(ts, schema, table, 0, null, ROW, false, claimCheckLocation);
    }

    /** The key entry's JSON, exactly as TiCDC writes it. */
    public byte[] toJson() {
        io.cdcconnect.codec.json.ByteSink out = new io.cdcconnect.codec.json.ByteSink(64);
        try (JsonGenerator g = io.cdcconnect.codec.json.GoJson.generator(out)) {
            write(g);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeFieldName(F_TS);
        writeUnsigned(g, ts);
        if (!schema.isEmpty()) {
            g.writeFieldName(F_SCM);
            g.writeString(schema);
        }
        if (!table.isEmpty()) {
            g.writeFieldName(F_TBL);
            g.writeString(table);
        }
        if (rowId != 0) {
            g.writeFieldName(F_RID);
            g.writeNumber(rowId);
        }
        if (partition != null) {
            g.writeFieldName(F_PTN);
            g.writeNumber(partition);
        }
        g.writeFieldName(F_T);
        g.writeNumber(type);
        if (onlyHandleKey) {
            g.writeFieldName(F_OHK);
            g.writeBoolean(true);
        }
        if (claimCheckLocation != null && !claimCheckLocation.isEmpty()) {
            g.writeFieldName(F_CCL);
            g.writeString(claimCheckLocation);
        }
        g.writeEndObject();
    }

    static void writeUnsigned(JsonGenerator g, long v) throws IOException {
        if (v >= 0) {
            g.writeNumber(v);
        } else {
            g.writeNumber(Long.toUnsignedString(v));
        }
    }

    /** Reads a key object; the parser is positioned on its START_OBJECT. */
    static OpenKey read(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new CodecException("key entry is not a JSON object");
        }
        long ts = 0;
        String schema = "";
        String table = "";
        long rowId = 0;
        Long partition = null;
        int type = 0;
        boolean ohk = false;
        String ccl = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.VALUE_NULL) continue;
            switch (f) {
                case "ts":
                    try {
                        ts = Long.parseUnsignedLong(p.getText());
                    } catch (NumberFormatException e) {
                        throw new CodecException("key field ts is not an unsigned 64-bit integer");
                    }
                    break;
                case "scm": schema = p.getText(); break;
                case "tbl": table = p.getText(); break;
                case "rid": rowId = p.getLongValue(); break;
                case "ptn": partition = p.getLongValue(); break;
                case "t": type = p.getIntValue(); break;
                case "ohk": ohk = v == JsonToken.VALUE_TRUE; break;
                case "ccl": ccl = p.getText(); break;
                default: p.skipChildren();
            }
        }
        return new OpenKey(ts, schema, table, rowId, partition, type, ohk, ccl);
    }
}
