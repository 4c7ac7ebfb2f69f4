package io.cdcconnect.source;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.source.dispatch.Dispatcher;
import io.cdcconnect.source.dispatch.PartitionRule;
import io.cdcconnect.source.dispatch.TopicNamer;
import io.cdcconnect.source.emit.Outgoing;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.cdcconnect.source.DebeziumRecords.column;
import static io.cdcconnect.source.DebeziumRecords.columns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The middle of the source on Debezium-shaped record sequences, as both flavours emit them. */
class ChangeCaptureTest {
    private static final long T0 = 1_700_000_000_000L;

    private static ChangeCapture capture(String pattern, int partitions, boolean ddlEverywhere) {
        Dispatcher d = new Dispatcher(new TopicNamer(pattern, "p"), PartitionRule.TABLE, List.of(), partitions);
        return new ChangeCapture(d, true, ddlEverywhere, pattern);
    }

    private static List<Outgoing> run(ChangeCapture c, List<SourceRecord> in) {
        List<Outgoing> out = new ArrayList<>();
        for (SourceRecord r : in) c.accept(r, out);
        return out;
    }

    private static DebeziumRecords.Table kv(DebeziumRecords dbz, String table) {
        return dbz.table("shop", table, columns(
                "k", column(SchemaBuilder.int32(), "k", "INT", 11, null),
                "v", column(SchemaBuilder.string().optional(), "v", "VARCHAR", 10, null)), "k");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void snapshotForwardsOnlyCreatingDdlBeforeRowsAndGivesEachTableOneTs(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table a = kv(dbz, "a");
        DebeziumRecords.Table b = kv(dbz, "b");
        List<SourceRecord> in = List.of(
                dbz.ddl("", null, "SET character_set_server=utf8mb4", T0, true),
                dbz.ddl("shop", "a", "DROP TABLE IF EXISTS `shop`.`a`", T0, true),
                dbz.ddl("shop", "b", "DROP TABLE IF EXISTS `shop`.`b`", T0, true),
                dbz.ddl("shop", null, "DROP DATABASE IF EXISTS `shop`", T0, true),
                dbz.ddl("shop", null, "CREATE DATABASE `shop` CHARSET utf8mb4", T0, true),
                dbz.ddl("shop", null, "USE `shop`", T0, true),
                dbz.ddl("shop", "a", "CREATE TABLE `a` (k int primary key, v varchar(10))", T0, true),
                dbz.ddl("shop", "b", "CREATE TABLE `b` (k int primary key, v varchar(10))", T0, true),
                dbz.data(a, "r", null, a.row(1, "x"), T0, null, true),
                dbz.data(a, "r", null, a.row(2, "y"), T0, null, true),
                dbz.data(b, "r", null, b.row(1, "z"), T0, null, true));
        List<Outgoing> out = run(capture("{prefix}.{schema}.{table}", 1, false), in);

        List<String> summary = out.stream().map(o -> o.topic() + " " + describe(o.event())).collect(Collectors.toList());
        assertEquals(List.of(
                "p.shop.a CREATE DATABASE IF NOT EXISTS `shop` CHARSET utf8mb4",
                "p.shop.a CREATE TABLE IF NOT EXISTS `a` (k int primary key, v varchar(10))",
                "p.shop.b CREATE DATABASE IF NOT EXISTS `shop` CHARSET utf8mb4",
                "p.shop.b CREATE TABLE IF NOT EXISTS `b` (k int primary key, v varchar(10))",
                "p.shop.a INSERT 1",
                "p.shop.a INSERT 2",
                "p.shop.b INSERT 1"), summary);
        long tsA = out.get(4).event().commitTs();
        assertEquals(tsA, out.get(5).event().commitTs());
        assertTrue(out.get(6).event().commitTs() > tsA);
        assertTrue(out.get(3).event().commitTs() < tsA, "DDL before the rows it precedes");
        assertSame(in.get(8), out.get(4).origin(), "each message keeps its Debezium record for the offset");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void streamingTransactionsShareTsAndDdlSitsBetweenThemInOrder(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table a = kv(dbz, "a");
        String tx1 = flavor.equals("mysql") ? "3E11FA47-71CA-11E1-9E33-C80AA9429562:23" : "0-1-23";
        String tx2 = flavor.equals("mysql") ? "3E11FA47-71CA-11E1-9E33-C80AA9429562:24" : "0-1-24";
        List<SourceRecord> in = List.of(
                dbz.transaction("BEGIN", tx1, T0),
                dbz.data(a, "c", null, a.row(1, "x"), T0, tx1, false),
                dbz.data(a, "u", a.row(1, "x"), a.row(1, "y"), T0, tx1, false),
                dbz.transaction("END", tx1, T0),
                dbz.ddl("shop", "a", "ALTER TABLE a ADD COLUMN w INT", T0, false),
                dbz.transaction("BEGIN", tx2, T0),
                dbz.data(a, "d", a.row(1, "y"), null, T0, tx2, false),
                dbz.transaction("END", tx2, T0));
        List<Outgoing> out = run(capture("{prefix}.{schema}.{table}", 3, true), in);

        assertEquals(List.of("INSERT 1", "UPDATE 1", "ALTER TABLE a ADD COLUMN w INT", "ALTER TABLE a ADD COLUMN w INT",
                "ALTER TABLE a ADD COLUMN w INT", "DELETE 1"),
                out.stream().map(o -> describe(o.event())).collect(Collectors.toList()));
        assertEquals(List.of(0, 1, 2), out.subList(2, 5).stream().map(Outgoing::partition).collect(Collectors.toList()),
                "Open-protocol DDL to every partition");
        long t1 = out.get(0).event().commitTs();
        assertEquals(t1, out.get(1).event().commitTs());
        long tDdl = out.get(2).event().commitTs();
        long t2 = out.get(5).event().commitTs();
        assertTrue(t1 < tDdl && tDdl < t2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void watermarksGoToEveryPartitionOfEveryTopicWithTheLastCompleteTransactionsTs(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table a = kv(dbz, "a");
        DebeziumRecords.Table b = kv(dbz, "b");
        ChangeCapture c = capture("{prefix}.{schema}.{table}", 2, false);
        List<Outgoing> out = new ArrayList<>();
        c.accept(dbz.data(a, "c", null, a.row(1, "x"), T0, "t1", false), out);
        c.accept(dbz.transaction("END", "t1", T0), out);
        SourceRecord open = dbz.data(b, "c", null, b.row(1, "x"), T0, "t2", false);
        c.accept(open, out);
        long t1 = out.get(0).event().commitTs();

        List<Outgoing> marks = new ArrayList<>();
        assertEquals(t1, c.watermarks(false, T0 + 5000, marks), "t2 is still open");
        assertEquals(4, marks.size());
        assertEquals(List.of("p.shop.a/0", "p.shop.a/1", "p.shop.b/0", "p.shop.b/1"),
                marks.stream().map(o -> o.topic() + "/" + o.partition()).collect(Collectors.toList()));
        assertTrue(marks.stream().allMatch(o -> o.event() instanceof Watermark w && w.ts() == t1));
        assertSame(open, marks.get(0).origin(), "watermarks carry the latest Debezium offset");

        marks.clear();
        assertEquals(t1, c.watermarks(true, T0 + 5000, marks), "idle with an open transaction: no advance");
        c.accept(dbz.transaction("END", "t2", T0), out);
        marks.clear();
        long idle = c.watermarks(true, T0 + 5000, marks);
        assertEquals(ChangeEvent.tso(T0 + 5000, 0), idle, "idle and nothing open: the wall clock");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void theSnapshotsLastRowResolvesItsTs(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table a = kv(dbz, "a");
        ChangeCapture c = capture("{prefix}.{schema}.{table}", 1, false);
        List<Outgoing> out = new ArrayList<>();
        c.accept(dbz.data(a, "r", null, a.row(1, "x"), T0, null, true), out);
        assertEquals(0, c.commitTs().resolvedTs(), "a snapshot table is open until its last row");
        SourceRecord last = dbz.data(a, "r", null, a.row(2, "y"), T0, null, true);
        ((org.apache.kafka.connect.data.Struct) last.value()).getStruct("source").put("snapshot", "last");
        c.accept(last, out);
        assertEquals(out.get(1).event().commitTs(), c.commitTs().resolvedTs());
        List<Outgoing> marks = new ArrayList<>();
        assertEquals(ChangeEvent.tso(T0 + 60_000, 0), c.watermarks(true, T0 + 60_000, marks),
                "idle after the snapshot: the watermark follows the clock");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void oneTopicForAllTablesGetsDatabaseDdlDirectly(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        List<Outgoing> out = run(capture("all", 1, false), List.of(
                dbz.ddl("shop", null, "CREATE DATABASE shop2", T0, false),
                dbz.ddl("shop", null, "DROP DATABASE shop2", T0, false)));
        assertEquals(List.of("CREATE DATABASE shop2", "DROP DATABASE shop2"),
                out.stream().map(o -> describe(o.event())).collect(Collectors.toList()));
        assertEquals("all", out.get(0).topic());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void debeziumsTruncateRecordBecomesATruncateStatementOfItsOwnTs(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table a = kv(dbz, "a");
        List<Outgoing> out = run(capture("{prefix}.{schema}.{table}", 2, false), List.of(
                dbz.data(a, "c", null, a.row(1, "x"), T0, "tx1", false),
                dbz.data(a, "t", null, null, T0, null, false)));
        assertEquals(2, out.size());
        DdlChange t = (DdlChange) out.get(1).event();
        assertEquals("TRUNCATE TABLE `shop`.`a`", t.query());
        assertEquals(DdlChange.Kind.TRUNCATE, t.kind());
        assertEquals(out.get(0).partition(), out.get(1).partition(), "the statement travels with its table's rows");
        assertTrue(t.commitTs() > out.get(0).event().commitTs());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void ddlOfTablesOutsideTheIncludeListIsNotForwarded(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        java.util.Map<String, String> props = new java.util.HashMap<>(CdcSourceConfigTest.minimal());
        props.put("table.include.list", "shop\\.a");
        CapturedTables captured = CapturedTables.of(
                DebeziumSettings.forDebezium(props, SourceFlavor.parse(flavor)), SourceFlavor.parse(flavor));
        Dispatcher d = new Dispatcher(new TopicNamer("{prefix}.{schema}.{table}", "p"), PartitionRule.TABLE,
                List.of(), 1);
        List<Outgoing> out = run(new ChangeCapture(d, true, false, "{prefix}.{schema}.{table}", captured,
                io.cdcconnect.source.convert.KeyCatalog.NONE), List.of(
                dbz.ddl("shop", "a", "CREATE TABLE a (k int)", T0, true),
                dbz.ddl("shop", "other", "CREATE TABLE other (k int)", T0, true),
                dbz.ddl("shop", "other", "ALTER TABLE other ADD c INT", T0, false),
                dbz.ddl("shop", "a", "ALTER TABLE a ADD c INT", T0, false)));
        assertEquals(List.of("CREATE TABLE IF NOT EXISTS a (k int)", "ALTER TABLE a ADD c INT"),
                out.stream().map(o -> describe(o.event())).collect(Collectors.toList()));
    }

    /** "topic/partition table: query" for DDL, "topic/partition op key" for rows. */
    private static List<String> placed(List<Outgoing> out) {
        return out.stream().map(o -> o.topic() + "/" + o.partition() + " " + (o.event() instanceof DdlChange d
                ? d.table() + ": " + d.query() : describe(o.event()))).collect(Collectors.toList());
    }

    private static ChangeCapture tableRule(Dispatcher d) {
        return new ChangeCapture(d, true, false, "{prefix}.{schema}.{table}");
    }

    private static Dispatcher perTable(PartitionRule rule, int partitions) {
        return new Dispatcher(new TopicNamer("{prefix}.{schema}.{table}", "p"), rule, List.of(), partitions);
    }

    /**
     * gh-ost's cut-over, as Debezium hands it over (one record per table pair, each with the names of both pairs'
     * new tables joined in source.table) and as one record with the whole statement: each pair reaches the topics of
     * its old and its new table, on that table's partition, naming that table, ahead of the rows after it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void ghostsCutOverReachesTheTopicOfEveryTableItRenamesAndNoJoinedTopic(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table m = kv(dbz, "m");
        String pair1 = "RENAME TABLE `m` TO `_m_del`";
        String pair2 = "RENAME TABLE `_m_gho` TO `m`";
        List<List<SourceRecord>> shapes = List.of(
                List.of(dbz.ddl("shop", "_m_del,m", pair1, T0, false), dbz.ddl("shop", "_m_del,m", pair2, T0, false)),
                List.of(dbz.ddl("shop", "_m_del,m", "RENAME TABLE `m` TO `_m_del`, `_m_gho` TO `m`", T0, false)));
        for (List<SourceRecord> cutOver : shapes) {
            Dispatcher d = perTable(PartitionRule.TABLE, 8);
            List<SourceRecord> in = new ArrayList<>();
            in.add(dbz.data(m, "c", null, m.row(1, "before"), T0, "tx1", false));
            in.addAll(cutOver);
            in.add(dbz.data(m, "c", null, m.row(2, "after"), T0, "tx2", false));
            List<Outgoing> out = run(tableRule(d), in);

            int pm = d.tablePartition("shop", "m");
            int pDel = d.tablePartition("shop", "_m_del");
            int pGho = d.tablePartition("shop", "_m_gho");
            assertEquals(List.of(
                    "p.shop.m/" + pm + " INSERT 1",
                    "p.shop.m/" + pm + " m: " + pair1,
                    "p.shop._m_del/" + pDel + " _m_del: " + pair1,
                    "p.shop._m_gho/" + pGho + " _m_gho: " + pair2,
                    "p.shop.m/" + pm + " m: " + pair2,
                    "p.shop.m/" + pm + " INSERT 2"), placed(out), cutOver.size() + " record(s)");
            assertTrue(out.stream().allMatch(o -> d.topic("shop", "m").equals(o.topic())
                    || o.topic().equals("p.shop._m_del") || o.topic().equals("p.shop._m_gho")));
            assertTrue(out.stream().filter(o -> o.event() instanceof DdlChange)
                    .allMatch(o -> ((DdlChange) o.event()).kind() == DdlChange.Kind.RENAME));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void aRenameUnderASpreadingRuleGoesToEveryPartitionOfEachTopicAndEachCopySaysHowManyOnItsTopic(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        List<Outgoing> out = run(tableRule(perTable(PartitionRule.PK, 3)), List.of(
                dbz.ddl("shop", "b", "ALTER TABLE a RENAME TO b", T0, false)));
        assertEquals(List.of("p.shop.a/0 a: ALTER TABLE a RENAME TO b", "p.shop.a/1 a: ALTER TABLE a RENAME TO b",
                "p.shop.a/2 a: ALTER TABLE a RENAME TO b", "p.shop.b/0 b: ALTER TABLE a RENAME TO b",
                "p.shop.b/1 b: ALTER TABLE a RENAME TO b", "p.shop.b/2 b: ALTER TABLE a RENAME TO b"), placed(out));
        try (io.cdcconnect.source.emit.GroupEncoder enc = new io.cdcconnect.source.emit.GroupEncoder(1, 1 << 20, 7,
                () -> io.cdcconnect.codec.EventEncoders.create(io.cdcconnect.codec.EventEncoders.CANAL_JSON,
                        java.util.Map.of()), false, false, true)) {
            List<SourceRecord> records = CdcSourceTask.toRecords(out, enc.encode(out));
            assertEquals(6, records.size());
            for (SourceRecord r : records) {
                assertEquals("3", r.headers().lastWithName(io.cdcconnect.codec.KafkaHeaders.DDL_PARTITIONS).value(),
                        "copies on " + r.topic() + ", not on every topic together");
            }
        }
    }

    /**
     * Debezium names no table for a CREATE INDEX or DROP INDEX (and names a multi-table DROP's tables joined): each
     * goes to its own table's topic only, not to every topic of the database.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void indexDropAndCreateLikeStatementsGoToTheirOwnTablesTopicsOnly(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table a = kv(dbz, "a");
        DebeziumRecords.Table b = kv(dbz, "b");
        Dispatcher d = perTable(PartitionRule.TABLE, 1);
        List<Outgoing> out = run(tableRule(d), List.of(
                dbz.data(a, "c", null, a.row(1, "x"), T0, "tx1", false),
                dbz.data(b, "c", null, b.row(1, "x"), T0, "tx2", false),
                dbz.ddl("shop", null, "CREATE INDEX i ON a (v)", T0, false),
                dbz.ddl("shop", null, "DROP INDEX i ON `b`", T0, false),
                dbz.ddl("shop", "c", "CREATE TABLE c LIKE a", T0, false),
                dbz.ddl("shop", "a", "TRUNCATE TABLE a", T0, false),
                dbz.ddl("shop", "a,b", "DROP TABLE a, `b`", T0, false)));
        assertEquals(List.of(
                "p.shop.a/0 INSERT 1",
                "p.shop.b/0 INSERT 1",
                "p.shop.a/0 a: CREATE INDEX i ON a (v)",
                "p.shop.b/0 b: DROP INDEX i ON `b`",
                "p.shop.c/0 c: CREATE TABLE c LIKE a",
                "p.shop.a/0 a: TRUNCATE TABLE a",
                "p.shop.a/0 a: DROP TABLE a",
                "p.shop.b/0 b: DROP TABLE `b`"), placed(out));
        assertEquals(List.of(DdlChange.Kind.CINDEX, DdlChange.Kind.DINDEX, DdlChange.Kind.CREATE,
                DdlChange.Kind.TRUNCATE, DdlChange.Kind.ERASE, DdlChange.Kind.ERASE), out.subList(2, out.size())
                .stream().map(o -> ((DdlChange) o.event()).kind()).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void aRenameToATableThatIsNotCapturedReachesOnlyTheCapturedTablesTopic(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        java.util.Map<String, String> props = new java.util.HashMap<>(CdcSourceConfigTest.minimal());
        props.put("table.include.list", "shop\\.m");
        CapturedTables captured = CapturedTables.of(
                DebeziumSettings.forDebezium(props, SourceFlavor.parse(flavor)), SourceFlavor.parse(flavor));
        List<Outgoing> out = run(new ChangeCapture(perTable(PartitionRule.TABLE, 1), true, false,
                "{prefix}.{schema}.{table}", captured, io.cdcconnect.source.convert.KeyCatalog.NONE), List.of(
                dbz.ddl("shop", "_m_del,m", "RENAME TABLE m TO _m_del, _m_gho TO m", T0, false),
                dbz.ddl("shop", "x,y", "RENAME TABLE x TO y", T0, false)));
        assertEquals(List.of("p.shop.m/0 m: RENAME TABLE m TO _m_del", "p.shop.m/0 m: RENAME TABLE _m_gho TO m"),
                placed(out));
    }

    private static String describe(ChangeEvent e) {
        if (e instanceof RowChange r) return r.op() + " " + r.current()[0];
        if (e instanceof DdlChange d) return d.query();
        return e.toString();
    }
}
