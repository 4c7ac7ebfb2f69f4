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

    private Schema schema;

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
        Struct s = new Struct(schema)
                .put(TS_MS, (ts == null ? Instant.now() : ts).toEpochMilli())
                .put(DB, db == null ? "" : db);
        SnapshotRecord snapshot = info.snapshot();
        if (snapshot != null) snapshot.toSource(s);
        String table = table(info, ids);
        if (table != null) s.put(TABLE, table);
        String gtid = info.getCurrentGtid();
        if (gtid != null) s.put(GTID, gtid);
        s.put(FILE, info.getCurrentBinlogFilename());
        s.put(POS, info.getCurrentBinlogPosition());
        s.put(ROW, info.getCurrentRowNumber());
        return s;
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
