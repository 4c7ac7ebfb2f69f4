package io.cdcconnect.bench.codec;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdcconnect.codec.canal.CanalTypes;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * The naive baseline: the same Canal-JSON message built as a Jackson ObjectMapper tree and serialized, with type
 * names worked out per row. Same content as CanalJsonEncoder, not byte-identical (Jackson's default escaping).
 */
final class TreeCanalJsonEncoder {
    private final ObjectMapper mapper = new ObjectMapper();

    byte[] encode(RowChange row) throws Exception {
        TableInfo t = row.table();
        ObjectNode root = mapper.createObjectNode();
        root.put("id", 0);
        root.put("database", t.schema());
        root.put("table", t.table());
        ArrayNode pk = root.putArray("pkNames");
        t.primaryKeyNames().forEach(pk::add);
        root.put("isDdl", false);
        root.put("type", row.op().name());
        root.put("es", row.commitTs() >>> 18);
        root.put("ts", System.currentTimeMillis());
        root.put("sql", "");
        Object[] image = row.op() == RowChange.Op.DELETE ? row.before() : row.after();
        ObjectNode sqlType = root.putObject("sqlType");
        ObjectNode mysqlType = root.putObject("mysqlType");
        for (int i = 0; i < t.columnCount(); i++) {
            ColumnInfo c = t.column(i);
            sqlType.put(c.name(), CanalTypes.sqlType(c, CanalTypes.baseSqlType(c), image[i]));
            mysqlType.put(c.name(), CanalTypes.mysqlType(c, false));
        }
        if (row.op() == RowChange.Op.UPDATE) {
            root.putArray("old").add(image(t, row.before()));
        } else {
            root.putNull("old");
        }
        root.putArray("data").add(image(t, image));
        return mapper.writeValueAsBytes(root);
    }

    private ObjectNode image(TableInfo t, Object[] values) {
        ObjectNode o = mapper.createObjectNode();
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            ColumnInfo c = t.column(i);
            if (v == null) {
                o.putNull(c.name());
            } else if (v instanceof byte[] b) {
                o.put(c.name(), new String(b, c.binary() ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8));
            } else if (v instanceof Long l) {
                o.put(c.name(), c.unsigned() ? Long.toUnsignedString(l) : Long.toString(l));
            } else if (v instanceof BigDecimal d) {
                o.put(c.name(), d.toPlainString());
            } else if (v instanceof Double || v instanceof Float) {
                o.put(c.name(), new BigDecimal(v.toString()).stripTrailingZeros().toPlainString());
            } else {
                o.put(c.name(), v.toString());
            }
        }
        return o;
    }
}
