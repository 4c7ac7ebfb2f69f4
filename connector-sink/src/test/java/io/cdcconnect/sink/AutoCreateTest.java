package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.metrics.JmxMeters;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.testutil.PartitionRecords;
import io.cdcconnect.sink.testutil.PostgresTarget;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.db.TestDatabase;
import io.cdcconnect.testsupport.registry.SchemaRegistry;
import io.cdcconnect.testsupport.servers.TestServers;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code auto.create} and {@code auto.evolve} through the task, for every input format, into an empty database of a
 * real MariaDB and a real PostgreSQL (both started by the tests; Avro with a real Apicurio Registry): the table is
 * created from the first row's columns (types, key), rows are applied, a row with an extra column adds it; with the
 * settings off the missing table still fails the task naming the record.
 */
class AutoCreateTest {

    private static SchemaRegistry registry;

    @AfterAll
    static void stopRegistry() {
        if (registry != null) registry.close();
        registry = null;
    }

    private static synchronized String registryUrl() {
        if (registry == null) registry = TestServers.schemaRegistry();
        return registry.url();
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String target : List.of("mariadb", "postgres")) {
            for (String format : List.of("canal-json", "open-protocol", "avro", "debezium")) {
                out.add(Arguments.of(target, format));
            }
        }
        return out.stream();
    }

    /** items (id BIGINT PK, name VARCHAR(20), price DECIMAL(10,2), seen DATETIME(6)), and the same plus note. */
    private static TableInfo items(String schema, boolean withNote) {
        List<ColumnInfo> cols = new ArrayList<>(List.of(
                new ColumnInfo("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY, null, -1,
                        -1, -1, List.of(), "bigint(20)"),
                new ColumnInfo("name", MySqlType.VARCHAR, ColumnFlags.NULLABLE, "utf8mb4", 20, -1, -1, List.of(),
                        "varchar(20)"),
                new ColumnInfo("price", MySqlType.NEWDECIMAL, ColumnFlags.NULLABLE, null, 10, 2, -1, List.of(),
                        "decimal(10,2)"),
                new ColumnInfo("seen", MySqlType.DATETIME, ColumnFlags.NULLABLE, null, -1, -1, 6, List.of(),
                        "datetime(6)")));
        if (withNote) {
            cols.add(new ColumnInfo("note", MySqlType.VARCHAR, ColumnFlags.NULLABLE, "utf8mb4", 30, -1, -1, List.of(),
                    "varchar(30)"));
        }
        return TableInfo.of(schema, "items", cols);
    }

    private static Object[] row(long id, String name, String price, String seen) {
        return new Object[]{id, name, new BigDecimal(price), seen};
    }

    /** The target: a database of its own, the setting that maps the source database to it, and how to name a table. */
    private record Target(TestDatabase db, Map<String, String> settings, String schema) implements AutoCloseable {
        String table(String t) {
            return schema == null ? t : schema + "." + t;
        }

        @Override
        public void close() throws Exception {
            db.close();
        }
    }

    private static Target target(String kind, String source) throws Exception {
        if (kind.equals("mariadb")) {
            TestDatabase db = SinkTarget.database("auto_dst");
            return new Target(db, Map.of("schema.map", source + "=" + db.name()), null);
        }
        TestDatabase db = PostgresTarget.database("auto_dst");
        return new Target(db, PostgresTarget.sinkSettings(db, Map.of("schema.map", source + "=dst")), "dst");
    }

    private static List<SinkRecord> records(String format, String source, boolean evolve) {
        long ts = 1_000;
        TableInfo v1 = items(source, false);
        TableInfo v2 = items(source, true);
        if (format.equals("debezium")) return Debezium.records(source, evolve);
        List<ChangeEvent> events = new ArrayList<>();
        events.add(RowChange.insert(v1, row(1, "one", "1.50", "2024-01-02 03:04:05.123456"), Rows.ts(ts++)));
        events.add(RowChange.insert(v1, row(2, "two", "2.25", "2024-01-02 03:04:06.000001"), Rows.ts(ts++)));
        events.add(RowChange.insert(v1, row(3, "three", "3.00", "2024-01-02 03:04:07.000000"), Rows.ts(ts++)));
        events.add(RowChange.update(v1, row(2, "two", "2.25", "2024-01-02 03:04:06.000001"),
                row(2, "TWO", "22.25", "2024-01-02 03:04:06.000001"), Rows.ts(ts++)));
        events.add(RowChange.delete(v1, row(3, "three", "3.00", "2024-01-02 03:04:07.000000"), Rows.ts(ts++)));
        if (evolve) {
            events.add(RowChange.insert(v2, new Object[]{4L, "four", new BigDecimal("4.75"),
                    "2024-01-02 03:04:08.500000", "added later"}, Rows.ts(ts++)));
        }
        Map<String, String> options = format.equals("avro") ? Map.of("schema-registry", registryUrl()) : Map.of();
        return PartitionRecords.of(format, options, 0, events);
    }

    private static Map<String, String> settings(Target t, String format, Map<String, String> extra) {
        Map<String, String> m = new HashMap<>(t.settings());
        m.put("input.format", format);
        if (format.equals("avro")) m.put("schema.registry.url", registryUrl());
        m.putAll(extra);
        return m;
    }

    @ParameterizedTest(name = "{1} into {0}")
    @MethodSource("cases")
    void anEmptyDatabaseGetsItsTablesAndColumnsFromTheRows(String kind, String format) throws Exception {
        String source = "auto_src_" + format.replace('-', '_');
        try (Target t = target(kind, source)) {
            List<SinkRecord> records = records(format, source, true);
            try (TaskDriver driver = new TaskDriver(settings(t, format, Map.of("auto.create", "true",
                    "auto.evolve", "true", "task.id", "auto-create")))) {
                driver.putRecords(records);
                driver.awaitApplied(records.size());
                assertEquals(1.0, JmxMeters.read(SinkMetrics.TABLES_CREATED, "driver", "auto-create"));
                assertEquals(1.0, JmxMeters.read(SinkMetrics.COLUMNS_ADDED, "driver", "auto-create"));
            }
            String schema = t.schema() != null ? t.schema() : t.db().name();
            assertEquals(List.of(List.of("id", "NO"), List.of("name", "YES"), List.of("price", "YES"),
                    List.of("seen", "YES"), List.of("note", "YES")), t.db().query("SELECT column_name, is_nullable "
                    + "FROM information_schema.columns WHERE table_schema = '" + schema + "' AND table_name = 'items' "
                    + "ORDER BY ordinal_position"));
            assertEquals(List.of(List.of("id")), t.db().query("SELECT k.column_name FROM "
                    + "information_schema.table_constraints c JOIN information_schema.key_column_usage k ON "
                    + "k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema AND k.table_name = "
                    + "c.table_name WHERE c.constraint_type = 'PRIMARY KEY' AND c.table_schema = '" + schema
                    + "' AND c.table_name = 'items'"));
            List<List<String>> types = t.db().query("SELECT data_type, numeric_precision, numeric_scale, "
                    + "datetime_precision FROM information_schema.columns WHERE table_schema = '" + schema
                    + "' AND table_name = 'items' AND column_name IN ('price', 'seen') ORDER BY ordinal_position");
            // DECIMAL(10,2) and DATETIME(6) where the format carries them (Canal-JSON's default type names and
            // Open-protocol do not: DECIMAL(65,30), and 6 digits whatever is known)
            boolean sized = format.equals("avro") || format.equals("debezium");
            assertEquals(sized ? "10" : "65", types.get(0).get(1), "precision of price: " + types);
            assertEquals(sized ? "2" : "30", types.get(0).get(2), "scale of price: " + types);
            assertEquals("6", types.get(1).get(3), "fractional digits of seen: " + types);
            List<List<String>> rows = t.db().query("SELECT id, name, price, note FROM " + t.table("items")
                    + " ORDER BY id");
            assertEquals(3, rows.size(), rows.toString());
            assertEquals(List.of("1", "one"), rows.get(0).subList(0, 2));
            assertEquals(List.of("2", "TWO"), rows.get(1).subList(0, 2));
            assertEquals(0, new BigDecimal("22.25").compareTo(new BigDecimal(rows.get(1).get(2))), rows.toString());
            assertEquals(List.of("4", "four", "added later"), List.of(rows.get(2).get(0), rows.get(2).get(1),
                    rows.get(2).get(3)));
            assertEquals(null, rows.get(0).get(3), "rows from before the column came have NULL there");
        }
    }

    @ParameterizedTest(name = "{1} into {0}")
    @MethodSource("cases")
    void withTheSettingsOffAMissingTableStillFailsTheTask(String kind, String format) throws Exception {
        String source = "auto_off_" + format.replace('-', '_');
        try (Target t = target(kind, source)) {
            List<SinkRecord> records = records(format, source, false);
            try (TaskDriver driver = new TaskDriver(settings(t, format, Map.of()))) {
                ConnectException e = assertThrows(ConnectException.class, () -> {
                    driver.putRecords(records);
                    driver.awaitApplied(records.size());
                });
                assertTrue(e.getMessage().contains("does not exist") && e.getMessage().contains("items")
                        && e.getMessage().contains("topic " + TaskDriver.TOPIC + ", partition 0, offset 0"),
                        e.getMessage());
            }
            String schema = t.schema() != null ? t.schema() : t.db().name();
            assertEquals(List.of(List.of("0")), t.db().query("SELECT COUNT(*) FROM information_schema.tables "
                    + "WHERE table_schema = '" + schema + "' AND table_name = 'items'"));
        }
    }

    @ParameterizedTest(name = "into {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"mariadb", "postgres"})
    void twoTasksCreatingAndEvolvingTheSameTableAtOnceBothSucceed(String kind) throws Exception {
        String source = "auto_race";
        try (Target t = target(kind, source)) {
            TableInfo v1 = items(source, false);
            TableInfo v2 = items(source, true);
            List<List<ChangeEvent>> perTask = new ArrayList<>();
            for (int task = 0; task < 2; task++) {
                List<ChangeEvent> events = new ArrayList<>();
                for (long id = 1; id <= 20; id++) {
                    long key = task * 100 + id;
                    events.add(RowChange.insert(v1, row(key, "t" + task, "1.00", "2024-01-01 00:00:00.000000"),
                            Rows.ts(1_000 + id)));
                }
                // then both add the same column
                for (long id = 21; id <= 30; id++) {
                    events.add(RowChange.insert(v2, new Object[]{task * 100 + id, "t" + task, new BigDecimal("2.00"),
                            "2024-01-01 00:00:00.000000", "n"}, Rows.ts(1_000 + id)));
                }
                perTask.add(events);
            }
            List<TaskDriver> drivers = new ArrayList<>();
            try {
                for (int task = 0; task < 2; task++) {
                    drivers.add(new TaskDriver(settings(t, "canal-json", Map.of("auto.create", "true",
                            "auto.evolve", "true", "task.id", "race-" + task))));
                }
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
                List<java.util.concurrent.CompletableFuture<Void>> runs = new ArrayList<>();
                for (int task = 0; task < 2; task++) {
                    TaskDriver d = drivers.get(task);
                    List<SinkRecord> records = PartitionRecords.of("canal-json", Map.of(), 0, perTask.get(task));
                    runs.add(java.util.concurrent.CompletableFuture.runAsync(() -> {
                        try {
                            start.await();
                            d.putRecords(records);
                            d.awaitApplied(records.size());
                        } catch (Exception e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    }));
                }
                for (var run : runs) run.get(60, java.util.concurrent.TimeUnit.SECONDS);
                double created = JmxMeters.read(SinkMetrics.TABLES_CREATED, "driver", "race-0")
                        + JmxMeters.read(SinkMetrics.TABLES_CREATED, "driver", "race-1");
                assertTrue(created >= 1, "created " + created);
            } finally {
                for (TaskDriver d : drivers) d.close();
            }
            assertEquals(List.of(List.of("t0", "30", "10"), List.of("t1", "30", "10")), t.db().query("SELECT name, "
                    + "COUNT(*), COUNT(note) FROM " + t.table("items") + " GROUP BY name ORDER BY name"));
        }
    }

    @ParameterizedTest(name = "into {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"mariadb", "postgres"})
    void aRowThatCannotYieldATableOrNamesAProtectedDatabaseGoesToTheDeadLetterQueue(String kind) throws Exception {
        String source = "auto_dlq";
        try (Target t = target(kind, source)) {
            // Open-protocol carries no ENUM elements: that table cannot be created; the other one can
            TableInfo colors = TableInfo.of(source, "colors", List.of(ColumnInfo.of("id", MySqlType.LONG,
                    ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY), ColumnInfo.of("c", MySqlType.ENUM,
                    ColumnFlags.NULLABLE)));
            TableInfo hostile = TableInfo.of(source, "t`; DROP TABLE x; --", List.of(ColumnInfo.of("id`)",
                    MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY)));
            List<ChangeEvent> events = List.of(
                    RowChange.insert(items(source, false), row(1, "one", "1.00", "2024-01-01 00:00:00.000000"),
                            Rows.ts(1_000)),
                    RowChange.insert(colors, new Object[]{1, 2L}, Rows.ts(1_001)),
                    RowChange.insert(hostile, new Object[]{7}, Rows.ts(1_002)),
                    // a database no message may change (not mapped by schema.map: it stays `mysql`), refused by the
                    // schema allow-list before anything is created
                    RowChange.insert(TableInfo.of("mysql", "evil", List.of(ColumnInfo.of("id", MySqlType.LONG,
                            ColumnFlags.PRIMARY_KEY))), new Object[]{1}, Rows.ts(1_003)));
            List<SinkRecord> numbered = new ArrayList<>();
            for (ChangeEvent e : events) {
                // one record per row, at offsets 0, 1, 2
                SinkRecord r = PartitionRecords.of("open-protocol", Map.of(), 0, List.of(e)).get(0);
                numbered.add(new SinkRecord(r.topic(), 0, null, r.key(), null, r.value(), numbered.size()));
            }
            io.cdcconnect.testsupport.connect.StandInSinkTaskContext context =
                    new io.cdcconnect.testsupport.connect.StandInSinkTaskContext();
            try (TaskDriver driver = new TaskDriver(settings(t, "open-protocol", Map.of("auto.create", "true",
                    "errors.tolerance", "all", "task.id", "dlq")), context)) {
                driver.putRecords(numbered);
                driver.awaitApplied(numbered.size());
            }
            List<io.cdcconnect.testsupport.connect.StandInSinkTaskContext.Report> reports;
            synchronized (context.reports) {
                reports = List.copyOf(context.reports);
            }
            assertEquals(List.of(1L, 3L), reports.stream().map(r -> r.record().kafkaOffset()).sorted().toList(),
                    reports.toString());
            String reason = reports.stream().filter(r -> r.record().kafkaOffset() == 1).findFirst().orElseThrow()
                    .error().getMessage();
            assertTrue(reason.contains("topic " + TaskDriver.TOPIC + ", partition 0, offset 1")
                    && reason.contains("ENUM without its elements"), reason);
            String refused = reports.stream().filter(r -> r.record().kafkaOffset() == 3).findFirst().orElseThrow()
                    .error().getMessage();
            assertTrue(refused.contains("offset 3")
                    && refused.contains("`mysql` is a system schema of the target, which no message may change"),
                    refused);
            assertEquals(List.of(List.of("1")), t.db().query("SELECT id FROM " + t.table("items")));
            String schema = t.schema() != null ? t.schema() : t.db().name();
            // the hostile names became one table with one column, named exactly as the message said
            assertEquals(List.of(List.of("t`; DROP TABLE x; --", "id`)")), t.db().query("SELECT table_name, "
                    + "column_name FROM information_schema.columns WHERE table_schema = '" + schema
                    + "' AND table_name NOT IN ('items')"));
        }
    }

    @org.junit.jupiter.api.Test
    void aNameLongerThanPostgresKeepsIsCreatedOnceUnderItsCutNameAndTakesTheRows() throws Exception {
        String source = "auto_long";
        try (Target t = target("postgres", source)) {
            // 64 characters: MySQL's limit, one past PostgreSQL's 63 bytes. PostgreSQL cuts it alike when the table is
            // created, looked up and written: one table, created once
            TableInfo longName = TableInfo.of(source, "t".repeat(64), List.of(ColumnInfo.of("id", MySqlType.LONG,
                    ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY)));
            List<SinkRecord> records = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                SinkRecord r = PartitionRecords.of("canal-json", Map.of(), 0, List.of(RowChange.insert(longName,
                        new Object[]{i}, Rows.ts(1_000 + i)))).get(0);
                records.add(new SinkRecord(r.topic(), 0, null, r.key(), null, r.value(), records.size()));
            }
            try (TaskDriver driver = new TaskDriver(settings(t, "canal-json", Map.of("auto.create", "true",
                    "task.id", "long")))) {
                driver.putRecords(records.subList(0, 1));
                driver.awaitApplied(1);
                driver.putRecords(records.subList(1, 3));
                driver.awaitApplied(3);
                assertEquals(1.0, JmxMeters.read(SinkMetrics.TABLES_CREATED, "driver", "long"));
            }
            assertEquals(List.of(List.of("3")), t.db().query("SELECT COUNT(*) FROM dst." + "t".repeat(63)));
        }
    }

    /** Debezium MySQL connector envelopes with the schema names and parameters Debezium uses. */
    private static final class Debezium {
        static Schema rowSchema(boolean withNote) {
            SchemaBuilder b = SchemaBuilder.struct().name("srv.db.items.Value")
                    .field("id", Schema.INT64_SCHEMA)
                    .field("name", SchemaBuilder.string().optional()
                            .parameter("__debezium.source.column.type", "VARCHAR")
                            .parameter("__debezium.source.column.length", "20").build())
                    .field("price", Decimal.builder(2).optional().parameter("connect.decimal.precision", "10").build())
                    .field("seen", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").optional().build());
            if (withNote) b.field("note", Schema.OPTIONAL_STRING_SCHEMA);
            return b.optional().build();
        }

        static final Schema KEY = SchemaBuilder.struct().name("srv.db.items.Key").field("id", Schema.INT64_SCHEMA)
                .build();
        static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.mysql.Source")
                .field("connector", Schema.STRING_SCHEMA).field("ts_ms", Schema.INT64_SCHEMA)
                .field("db", Schema.STRING_SCHEMA).field("table", Schema.OPTIONAL_STRING_SCHEMA).build();

        static Schema envelope(Schema row) {
            return SchemaBuilder.struct().name("srv.db.items.Envelope").field("before", row).field("after", row)
                    .field("source", SOURCE).field("op", Schema.STRING_SCHEMA).build();
        }

        /** 2024-01-02 03:04:05 UTC in microseconds, plus {@code micros}. */
        static long micros(long plusMicros) {
            return 1_704_164_645_000_000L + plusMicros;
        }

        static Struct row(Schema s, long id, String name, String price, long seen, String note) {
            Struct r = new Struct(s).put("id", id).put("name", name).put("price", new BigDecimal(price))
                    .put("seen", seen);
            if (note != null) r.put("note", note);
            return r;
        }

        static List<SinkRecord> records(String db, boolean evolve) {
            Schema v1 = rowSchema(false);
            Schema v2 = rowSchema(true);
            List<SinkRecord> out = new ArrayList<>();
            Struct r1 = row(v1, 1, "one", "1.50", micros(123_456), null);
            Struct r2 = row(v1, 2, "two", "2.25", micros(1_000_001), null);
            Struct r3 = row(v1, 3, "three", "3.00", micros(2_000_000), null);
            Struct r2b = row(v1, 2, "TWO", "22.25", micros(1_000_001), null);
            add(out, db, v1, "c", null, r1, 1);
            add(out, db, v1, "c", null, r2, 2);
            add(out, db, v1, "c", null, r3, 3);
            add(out, db, v1, "u", r2, r2b, 2);
            add(out, db, v1, "d", r3, null, 3);
            if (evolve) add(out, db, v2, "c", null, row(v2, 4, "four", "4.75", micros(3_500_000), "added later"), 4);
            return out;
        }

        private static void add(List<SinkRecord> out, String db, Schema row, String op, Struct before, Struct after,
                                long id) {
            Schema env = envelope(row);
            Struct source = new Struct(SOURCE).put("connector", "mysql").put("ts_ms", 1_000L + out.size())
                    .put("db", db).put("table", "items");
            Struct value = new Struct(env).put("before", before).put("after", after).put("source", source)
                    .put("op", op);
            out.add(new SinkRecord(TaskDriver.TOPIC, 0, KEY, new Struct(KEY).put("id", id), env, value, out.size()));
        }
    }
}
