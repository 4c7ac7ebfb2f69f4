package io.cdcconnect.codec.avro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.TableInfo;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the key and value schemas of a table as TiCDC does: record name = sanitised table, namespace =
 * sanitised namespace + "." + sanitised database, one field per column with {@code connect.parameters.tidb_type},
 * and optionally TiCDC's extension fields. The JSON keeps TiCDC's key order, so the registered text matches theirs.
 * Pure and stateless: the caller caches the result per table version.
 */
public final class AvroSchemaBuilder {

    static final String TIDB_OP = "_tidb_op";
    static final String TIDB_COMMIT_TS = "_tidb_commit_ts";
    static final String TIDB_PHYSICAL_TIME = "_tidb_commit_physical_time";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int MYSQL_DEFAULT_DECIMAL_PRECISION = 10;
    private static final int MYSQL_DEFAULT_BIT_LENGTH = 1;

    private final AvroOptions options;
    private final ColumnDefaults defaults;

    public AvroSchemaBuilder(AvroOptions options) {
        this(options, ColumnDefaults.NONE);
    }

    public AvroSchemaBuilder(AvroOptions options, ColumnDefaults defaults) {
        this.options = options;
        this.defaults = defaults;
    }

    /** Builds both schemas of a table; throws {@link CodecException} naming the table and column on bad input. */
    public AvroTableSchema build(TableInfo table) {
        String recordName = AvroNames.sanitize(table.table());
        if (recordName.isEmpty()) {
            throw new CodecException("table " + table + " has an empty name, which Avro cannot use as a record name");
        }
        String namespace = AvroNames.namespace(options.namespace(), table.schema());

        List<AvroColumn> valueColumns = new ArrayList<>(table.columnCount());
        ArrayNode valueFields = JSON.arrayNode();
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < table.columnCount(); i++) {
            ColumnInfo c = table.column(i);
            AvroColumn col = column(table, i);
            String clash = seen.putIfAbsent(col.fieldName(), c.name());
            if (clash != null) {
                throw new CodecException("columns '" + clash + "' and '" + c.name() + "' of " + table
                        + " both become Avro field '" + col.fieldName() + "'");
            }
            if (options.enableTidbExtension() && col.fieldName().startsWith("_tidb_")
                    && (col.fieldName().equals(TIDB_OP) || col.fieldName().equals(TIDB_COMMIT_TS)
                    || col.fieldName().equals(TIDB_PHYSICAL_TIME))) {
                throw new CodecException("column '" + c.name() + "' of " + table
                        + " has the name of a TiDB extension field; turn the TiDB extension off for this table");
            }
            valueColumns.add(col);
            valueFields.add(field(table, col));
        }

        List<AvroColumn> keyColumns = new ArrayList<>();
        ArrayNode keyFields = JSON.arrayNode();
        for (int i : keyPositions(table)) {
            keyColumns.add(valueColumns.get(i));
            keyFields.add(valueFields.get(i));
        }

        if (options.enableTidbExtension()) {
            valueFields.add(extensionField(TIDB_OP, "string", JSON.textNode("")));
            valueFields.add(extensionField(TIDB_COMMIT_TS, "long", JSON.numberNode(0)));
            valueFields.add(extensionField(TIDB_PHYSICAL_TIME, "long", JSON.numberNode(0)));
        }

        String valueJson = record(recordName, namespace, valueFields);
        Schema valueSchema = parse(valueJson, table, "value");
        String keyJson = null;
        Schema keySchema = null;
        if (!keyColumns.isEmpty()) {
            keyJson = record(recordName, namespace, keyFields);
            keySchema = parse(keyJson, table, "key");
        }
        return new AvroTableSchema(table, List.copyOf(keyColumns), keySchema, keyJson, List.copyOf(valueColumns),
                valueSchema, valueJson, options.enableTidbExtension());
    }

    /**
     * The columns of the Kafka key: those flagged HANDLE_KEY, else the table's first unique key (the primary key when
     * it has one), else none.
     */
    static int[] keyPositions(TableInfo table) {
        List<Integer> handle = new ArrayList<>();
        for (int i = 0; i < table.columnCount(); i++) {
            if (table.column(i).handleKey()) handle.add(i);
        }
        if (!handle.isEmpty()) return handle.stream().mapToInt(Integer::intValue).toArray();
        if (!table.uniqueKeys().isEmpty()) return table.uniqueKeys().get(0).clone();
        return new int[0];
    }

    private AvroColumn column(TableInfo table, int index) {
        ColumnInfo c = table.column(index);
        AvroColumnKind kind;
        try {
            kind = AvroColumnKind.of(c, options);
        } catch (IllegalArgumentException e) {
            throw new CodecException("column " + c.name() + " of " + table + ": " + e.getMessage());
        }
        int precision = c.length() > 0 ? c.length() : MYSQL_DEFAULT_DECIMAL_PRECISION;
        int scale = c.scale() >= 0 ? c.scale() : 0;
        Object dflt = kind == AvroColumnKind.DECIMAL_BYTES ? null : defaults.defaultValue(table, c);
        boolean nullFirst = c.nullable() && dflt == null;
        return new AvroColumn(index, AvroNames.sanitize(c.name()), c, kind, c.nullable(), nullFirst, precision, scale,
                c.elements());
    }

    private ObjectNode field(TableInfo table, AvroColumn col) {
        ColumnInfo c = col.column();
        ObjectNode type = JSON.objectNode();
        type.put("type", col.kind().avroType);
        ObjectNode params = type.putObject("connect.parameters");
        // Go marshals the parameter map with sorted keys: allowed, length, tidb_type.
        if (col.kind() == AvroColumnKind.ENUM || col.kind() == AvroColumnKind.SET) {
            params.put("allowed", AvroNames.joinElements(c.elements()));
        }
        if (col.kind() == AvroColumnKind.BIT) {
            params.put("length", Integer.toString(c.length() > 0 ? c.length() : MYSQL_DEFAULT_BIT_LENGTH));
        }
        params.put("tidb_type", AvroColumnKind.tidbType(c));
        if (col.kind() == AvroColumnKind.DECIMAL_BYTES) {
            type.put("logicalType", "decimal");
            type.put("precision", col.precision());
            type.put("scale", col.scale());
        }

        Object dflt = col.kind() == AvroColumnKind.DECIMAL_BYTES ? null : defaults.defaultValue(table, c);
        JsonNode dfltJson = null;
        if (dflt != null) {
            try {
                dfltJson = MAPPER.valueToTree(col.defaultJson(dflt));
            } catch (RuntimeException e) {
                throw new CodecException("the default of column " + c.name() + " of " + table
                        + " cannot be written as Avro " + col.kind().avroType, e);
            }
        }
        // Go marshals the field map with sorted keys: default, name, type.
        ObjectNode field = JSON.objectNode();
        if (col.nullable()) {
            field.set("default", dfltJson == null ? JSON.nullNode() : dfltJson);
            field.put("name", col.fieldName());
            ArrayNode union = field.putArray("type");
            if (col.nullFirst()) {
                union.add("null");
                union.add(type);
            } else {
                union.add(type);
                union.add("null");
            }
        } else {
            if (dfltJson != null) field.set("default", dfltJson);
            field.put("name", col.fieldName());
            field.set("type", type);
        }
        return field;
    }

    private static ObjectNode extensionField(String name, String type, JsonNode dflt) {
        ObjectNode f = JSON.objectNode();
        f.set("default", dflt);
        f.put("name", name);
        f.put("type", type);
        return f;
    }

    private static String record(String name, String namespace, ArrayNode fields) {
        ObjectNode top = JSON.objectNode();
        top.put("type", "record");
        top.put("name", name);
        top.put("namespace", namespace);
        top.set("fields", fields);
        return top.toString();
    }

    private static Schema parse(String json, TableInfo table, String what) {
        try {
            return new Schema.Parser().parse(json);
        } catch (SchemaParseException e) {
            throw new CodecException("the Avro " + what + " schema of " + table + " is invalid: " + e.getMessage(), e);
        }
    }
}
