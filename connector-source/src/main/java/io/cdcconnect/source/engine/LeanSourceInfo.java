package io.cdcconnect.source.engine;

import io.debezium.config.CommonConnectorConfig;
import io.debezium.connector.AbstractSourceInfo;
import io.debezium.connector.SnapshotRecord;
import io.debezium.connector.SourceInfoStructMaker;
import io.debezium.connector.binlog.BinlogSourceInfo;
import io.debezium.relational.TableId;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Instant;
import java.util.Set;

/**
 * Debezium's {@code source} block of a change event, cut to the fields that are read.
 *
 * <p>Debezium builds a {@code source} struct for every event it dispatches, on the thread that reads the snapshot or
 * the binlog: seventeen fields, each value checked against its schema as it is put, the table's name joined
 * through a stream twice, three timestamps. Profiled in a cold snapshot (JFR, 2026-11-29), that took 35% of the
 * samples of Debezium's reading thread, the thread that bounds a snapshot and a catch-up. Our connector builds records
 * of its own and reads only {@code db}, {@code table}, {@code ts_ms}, {@code snapshot}, {@code file} and {@code pos}
 * ({@code RecordConverter}, {@code ChangeCapture}); Debezium itself reads {@code ts_ms}, {@code file}, {@code pos} and
 * {@code row} (its metrics' event positions and transaction times) and {@code gtid} (read-only incremental
 * snapshots). This maker, set as Debezium's {@code sourceinfo.struct.maker}, writes those eight with Debezium's names,
 * types and values, and leaves out {@code version}, {@code connector}, {@code name}, {@code ts_us}, {@code ts_ns},
 * {@code sequence}, {@code server_id}, {@code thread} and {@code query}, which nothing downstream of Debezium's
 * records sees: our messages are built anew from the row and the table.
 *
 * <p>Two of the values Debezium keeps behind protected accessors ({@code timestamp()}, {@code database()}) and the
 * table behind a private set; they are read through method handles of Debezium 3.3. When a Debezium version differs
 * there, {@link #available()} is false and {@code DebeziumSettings} leaves Debezium's own maker in place.
 * {@code LeanSourceInfoTest} compares each kept field with Debezium's own maker's.
 *
 * <p>The values go into the struct's array directly rather than through {@code Struct.put}, whose check builds a
 * message string for each field it is handed (Connect 4.1's {@code ConnectSchema.validateValue}); the types are the
 * schema's by construction, and the test validates every struct it compares. Debezium's envelope checks the whole
 * struct once more when it puts it. A missing binlog file is refused as Debezium's maker refuses it.
 */
public final class LeanSourceInfo implements SourceInfoStructMaker<BinlogSourceInfo> {

    private static final Logger LOG = LoggerFactory.getLogger(LeanSourceInfo.class);

    static final String DB = AbstractSourceInfo.DATABASE_NAME_KEY;
    static final String TABLE = AbstractSourceInfo.TABLE_NAME_KEY;
    static final String TS_MS = AbstractSourceInfo.TIMESTAMP_KEY;
    static final String SNAPSHOT = AbstractSourceInfo.SNAPSHOT_KEY;
    static final String FILE = BinlogSourceInfo.BINLOG_FILENAME_OFFSET_KEY;
    static final String POS = BinlogSourceInfo.BINLOG_POSITION_OFFSET_KEY;
    static final String ROW = BinlogSourceInfo.BINLOG_ROW_IN_EVENT_OFFSET_KEY;
    static final String GTID = BinlogSourceInfo.GTID_KEY;

    private static final MethodHandle TIMESTAMP;
    private static final MethodHandle DATABASE;
    private static final MethodHandle TABLE_IDS;
    /** {@code Struct}'s array of values, or null when this Connect's {@code Struct} keeps them otherwise. */
    private static final MethodHandle VALUES = valuesOfStruct();

    static {
        MethodHandle ts = null;
        MethodHandle db = null;
        MethodHandle ids = null;
        try {
            MethodHandles.Lookup abstractInfo = MethodHandles.privateLookupIn(AbstractSourceInfo.class,
                    MethodHandles.lookup());
            ts = abstractInfo.findVirtual(AbstractSourceInfo.class, "timestamp", MethodType.methodType(Instant.class));
            db = abstractInfo.findVirtual(AbstractSourceInfo.class, "database", MethodType.methodType(String.class));
            ids = MethodHandles.privateLookupIn(BinlogSourceInfo.class, MethodHandles.lookup())
                    .findGetter(BinlogSourceInfo.class, "tableIds", Set.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("Debezium's source info is not that of 3.3: its own source struct stays ({})", e.toString());
            ts = null;
            db = null;
            ids = null;
        }
        TIMESTAMP = ts;
        DATABASE = db;
        TABLE_IDS = ids;
    }

    private final boolean inPlace;
    private Schema schema;
    private int tsIndex;
    private int snapshotIndex;
    private int dbIndex;
    private int tableIndex;
    private int gtidIndex;
    private int fileIndex;
    private int posIndex;
    private int rowIndex;
    /** What {@link SnapshotRecord#toSource} writes for each of its values, by ordinal (null: nothing). */
    private String[] snapshotNames;

    /** Debezium makes it by its public constructor: values in place wherever Connect's Struct allows. */
    public LeanSourceInfo() {
        this(true);
    }

    /** With {@code inPlace} false, every value goes through {@code Struct.put} (tests: the path of another Connect). */
    LeanSourceInfo(boolean inPlace) {
        this.inPlace = inPlace && VALUES != null;
    }

    /** True when structs are written in place (Connect's {@code Struct} keeps its values in an array). */
    static boolean writesInPlace() {
        return VALUES != null;
    }

    /** True when this Debezium's source info can be read: only then may Debezium be told to use this maker. */
    public static boolean available() {
        return TIMESTAMP != null && DATABASE != null && TABLE_IDS != null;
    }

    @Override
    public void init(String connector, String version, CommonConnectorConfig config) {
        schema = SchemaBuilder.struct()
                .name("io.cdcconnect.source." + connector + ".Source")
                .field(TS_MS, Schema.INT64_SCHEMA)
                .field(SNAPSHOT, io.debezium.schema.SchemaFactory.get().snapshotRecordSchema())
                .field(DB, Schema.STRING_SCHEMA)
                .field(TABLE, Schema.OPTIONAL_STRING_SCHEMA)
                .field(GTID, Schema.OPTIONAL_STRING_SCHEMA)
                .field(FILE, Schema.STRING_SCHEMA)
                .field(POS, Schema.INT64_SCHEMA)
                .field(ROW, Schema.INT32_SCHEMA)
                .build();
        tsIndex = schema.field(TS_MS).index();
        snapshotIndex = schema.field(SNAPSHOT).index();
        dbIndex = schema.field(DB).index();
        tableIndex = schema.field(TABLE).index();
        gtidIndex = schema.field(GTID).index();
        fileIndex = schema.field(FILE).index();
        posIndex = schema.field(POS).index();
        rowIndex = schema.field(ROW).index();
        SnapshotRecord[] kinds = SnapshotRecord.values();
        snapshotNames = new String[kinds.length];
        for (SnapshotRecord kind : kinds) {
            Struct scratch = new Struct(schema);
            kind.toSource(scratch);
            snapshotNames[kind.ordinal()] = (String) scratch.getWithoutDefault(SNAPSHOT); // FALSE writes nothing
        }
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Struct struct(BinlogSourceInfo info) {
        Instant ts;
        String db;
        Set<?> ids;
        try {
            ts = (Instant) TIMESTAMP.invokeExact((AbstractSourceInfo) info);
            db = (String) DATABASE.invokeExact((AbstractSourceInfo) info);
            ids = (Set<?>) TABLE_IDS.invokeExact(info);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        // as Debezium's AbstractSourceInfoStructMaker: a missing time is the time of reading, a missing database ""
        long millis = (ts == null ? Instant.now() : ts).toEpochMilli();
        String database = db == null ? "" : db;
        SnapshotRecord snapshot = info.snapshot();
        String table = table(info, ids);
        String gtid = info.getCurrentGtid();
        String file = info.getCurrentBinlogFilename();
        long pos = info.getCurrentBinlogPosition();
        int row = info.getCurrentRowNumber();
        Struct s = new Struct(schema);
        Object[] values = inPlace ? values(s) : null;
        set(s, values, tsIndex, millis);
        set(s, values, dbIndex, database);
        if (snapshot != null) set(s, values, snapshotIndex, snapshotNames[snapshot.ordinal()]);
        set(s, values, tableIndex, table);
        set(s, values, gtidIndex, gtid);
        set(s, values, fileIndex, file);
        set(s, values, posIndex, pos);
        set(s, values, rowIndex, row);
        // the one value that may be missing (Debezium's maker refuses it the same way, with Connect's message)
        if (file == null) s.validate();
        return s;
    }

    /**
     * Writes one value in place when this Connect's {@code Struct} keeps an array (the types are the schema's by
     * construction; LeanSourceInfoTest validates them), else through {@code Struct.put}, which checks it.
     */
    private void set(Struct s, Object[] values, int index, Object value) {
        if (values != null) {
            values[index] = value;
        } else if (value != null) {
            s.put(schema.fields().get(index), value);
        }
    }

    private static Object[] values(Struct s) {
        try {
            return (Object[]) VALUES.invokeExact(s);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static MethodHandle valuesOfStruct() {
        try {
            return MethodHandles.privateLookupIn(Struct.class, MethodHandles.lookup())
                    .findGetter(Struct.class, "values", Object[].class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("Connect's Struct keeps its values otherwise: the source struct is built with put ({})",
                    e.toString());
            return null;
        }
    }

    /** {@link BinlogSourceInfo#table()} without its stream for the one table of a row event. */
    private static String table(BinlogSourceInfo info, Set<?> ids) {
        if (ids != null && ids.size() == 1) {
            Object id = ids.iterator().next();
            if (id instanceof TableId t) return t.table();
        }
        return info.table();
    }
}
