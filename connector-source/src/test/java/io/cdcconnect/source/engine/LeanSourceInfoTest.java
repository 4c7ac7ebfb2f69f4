package io.cdcconnect.source.engine;

import io.debezium.config.Configuration;
import io.debezium.connector.SnapshotRecord;
import io.debezium.connector.mariadb.MariaDbConnectorConfig;
import io.debezium.connector.mariadb.MariaDbSourceInfoStructMaker;
import io.debezium.connector.mariadb.SourceInfo;
import io.debezium.relational.TableId;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LeanSourceInfo} against Debezium's own MariaDB struct maker, both fed the same real {@link SourceInfo}: every
 * field it keeps has Debezium's value and type, in the states a snapshot, a row event, a multi-table event and a
 * database-level DDL leave the source info in.
 */
class LeanSourceInfoTest {

    private static final List<String> KEPT = List.of("db", "file", "gtid", "pos", "row", "snapshot", "table", "ts_ms");

    private MariaDbConnectorConfig config;
    private LeanSourceInfo lean;
    /** The same maker with every value put through Struct.put, as on a Connect whose Struct it cannot write into. */
    private LeanSourceInfo checked;
    private MariaDbSourceInfoStructMaker debezium;

    @BeforeEach
    void makers() {
        config = new MariaDbConnectorConfig(Configuration.from(Map.of("topic.prefix", "shop",
                "database.hostname", "localhost", "database.user", "u", "database.server.id", "5")));
        lean = new LeanSourceInfo();
        lean.init("mariadb", "3.3.0.Final", config);
        checked = new LeanSourceInfo(false);
        checked.init("mariadb", "3.3.0.Final", config);
        debezium = new MariaDbSourceInfoStructMaker();
        debezium.init("mariadb", "3.3.0.Final", config);
    }

    private void assertSameAsDebezium(SourceInfo info, String state) {
        Struct theirs = debezium.struct(info);
        for (LeanSourceInfo maker : List.of(lean, checked)) {
            Struct ours = maker.struct(info);
            ours.validate();
            for (String name : KEPT) {
                Field f = ours.schema().field(name);
                assertNotNull(f, name);
                assertEquals(theirs.schema().field(name).schema().type(), f.schema().type(),
                        state + ": type of " + name);
                assertEquals(theirs.schema().field(name).schema().isOptional(), f.schema().isOptional(),
                        state + ": optionality of " + name);
                assertEquals(theirs.get(name), ours.get(name), state + ": " + name);
            }
        }
    }

    /** A source info at a binlog position, with an event time (null: none). */
    private SourceInfo at(String file, long pos, Long millis) {
        SourceInfo info = new SourceInfo(config);
        info.setBinlogPosition(file, pos);
        if (millis != null) info.setSourceTime(Instant.ofEpochMilli(millis));
        return info;
    }

    @Test
    void available() {
        assertTrue(LeanSourceInfo.available(), "Debezium 3.3's source info is readable");
        assertTrue(LeanSourceInfo.writesInPlace(), "Connect's Struct keeps its values in an array");
    }

    @Test
    void aMissingBinlogFileIsRefusedAsDebeziumRefusesIt() {
        SourceInfo info = new SourceInfo(config);
        info.setSourceTime(Instant.ofEpochMilli(1_700_000_000_000L));
        org.apache.kafka.connect.errors.DataException theirs = org.junit.jupiter.api.Assertions.assertThrows(
                org.apache.kafka.connect.errors.DataException.class, () -> debezium.struct(info));
        for (LeanSourceInfo maker : List.of(lean, checked)) {
            org.apache.kafka.connect.errors.DataException ours = org.junit.jupiter.api.Assertions.assertThrows(
                    org.apache.kafka.connect.errors.DataException.class, () -> maker.struct(info));
            assertTrue(ours.getMessage().contains("file"), ours.getMessage());
        }
        assertTrue(theirs.getMessage().contains("file"), theirs.getMessage());
    }

    @Test
    void keepsExactlyTheFieldsThatAreRead() {
        assertEquals(new TreeSet<>(KEPT), lean.schema().fields().stream().map(Field::name)
                .collect(Collectors.toCollection(TreeSet::new)));
    }

    @Test
    void snapshotRowsCarryDebeziumsValues() {
        SourceInfo info = at("mariadb-bin.000003", 4_711, 1_764_000_000_123L);
        info.setSnapshot(SnapshotRecord.TRUE);
        info.tableEvent(new TableId("shop", null, "orders"));
        assertSameAsDebezium(info, "snapshot row");
        info.setSnapshot(SnapshotRecord.LAST);
        assertSameAsDebezium(info, "last snapshot row");
        assertEquals("last", lean.struct(info).getString("snapshot"));
        for (SnapshotRecord kind : SnapshotRecord.values()) {
            info.setSnapshot(kind);
            assertSameAsDebezium(info, "snapshot " + kind);
        }
    }

    @Test
    void binlogRowsCarryDebeziumsValues() {
        SourceInfo info = at("mariadb-bin.000004", 1_024, 1_764_000_123_456L);
        info.setEventPosition(2_048);
        info.setRowNumber(3);
        info.startGtid("0-1-42");
        info.setBinlogServerId(7);
        info.setBinlogThread(99);
        info.setSnapshot(SnapshotRecord.FALSE);
        info.tableEvent(new TableId("shop", null, "order lines"));
        assertSameAsDebezium(info, "binlog row");
        assertEquals("order lines", lean.struct(info).getString("table"));
    }

    @Test
    void eventsOfSeveralTablesOrOfADatabaseAsDebeziumDoes() {
        SourceInfo info = at("mariadb-bin.000004", 1_024, 1_764_000_200_000L);
        LinkedHashSet<TableId> two = new LinkedHashSet<>(List.of(new TableId("shop", null, "a"),
                new TableId("shop", null, "b")));
        info.tableEvent(two);
        assertSameAsDebezium(info, "two tables");
        info.tableEvent(java.util.Set.of());
        info.databaseEvent("warehouse");
        assertSameAsDebezium(info, "database event");
        assertNull(lean.struct(info).getString("table"));
        assertEquals("warehouse", lean.struct(info).getString("db"));
    }

    @Test
    void aMissingTimeIsTheTimeOfReadingAsInDebezium() {
        SourceInfo info = at("mariadb-bin.000001", 4, null);
        info.tableEvent(new TableId("shop", null, "orders"));
        long before = System.currentTimeMillis();
        long ts = lean.struct(info).getInt64("ts_ms");
        assertTrue(ts >= before && ts <= System.currentTimeMillis(), "ts_ms " + ts);
    }
}
