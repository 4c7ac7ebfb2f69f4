package io.cdcconnect.source.metrics;

import io.cdcconnect.codec.metrics.Metric;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.source.emit.Message;
import io.cdcconnect.source.emit.MessageEncoder;
import io.cdcconnect.source.emit.Outgoing;
import org.junit.jupiter.api.Test;

import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SourceMetricsTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
    private static final TableInfo ORDERS = TableInfo.of("shop", "orders", List.of(
            ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY)));
    private static final TableInfo ITEMS = TableInfo.of("shop", "items", List.of(
            ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY)));

    private static long ts(long millis) {
        return millis << 18;
    }

    private static Message message(String topic, int partition, int bytes, long commitTs, int... events) {
        return new Message(topic, partition, new byte[2], new byte[bytes - 2], events, commitTs);
    }

    private static final MessageEncoder BUSY_ENCODER = new MessageEncoder() {
        @Override
        public List<Message> encode(List<Outgoing> events) {
            return List.of();
        }

        @Override
        public Traits traits() {
            return new Traits(true, true, true);
        }

        @Override
        public long queuedBytes() {
            return 4096;
        }

        @Override
        public int busyThreads() {
            return 3;
        }
    };

    @Test
    void rowsDdlAndBatchesAreCountedPerTableAndTheDdlOncePerStatement() {
        long committed = System.currentTimeMillis() - 5_000;
        DdlChange alter = new DdlChange("shop", "orders", "ALTER TABLE orders ADD c INT", DdlChange.Kind.ALTER,
                ts(committed));
        List<Outgoing> events = List.of(
                new Outgoing("t.orders", 0, RowChange.insert(ORDERS, new Object[]{1L}, ts(committed)), null),
                new Outgoing("t.orders", 0, RowChange.insert(ORDERS, new Object[]{2L}, ts(committed)), null),
                new Outgoing("t.items", 0, RowChange.insert(ITEMS, new Object[]{1L}, ts(committed)), null),
                // one DDL statement sent to two partitions (Open-protocol)
                new Outgoing("t.orders", 0, alter, null),
                new Outgoing("t.orders", 1, alter, null));
        List<Message> messages = List.of(
                message("t.orders", 0, 101, ts(committed), 0, 1), // a batch of two rows: 50 + 51 bytes
                message("t.items", 0, 40, ts(committed), 2),
                message("t.orders", 0, 30, ts(committed), 3),
                message("t.orders", 1, 30, ts(committed), 4));
        try (SourceMetrics m = SourceMetrics.inMemory("c", "0", null)) {
            m.polled(7);
            m.emitted(events, messages);
            assertEquals(7.0, m.value(SourceMetrics.RECORDS_POLLED));
            assertEquals(1.0, m.value(SourceMetrics.DDL_EMITTED));
            assertEquals(3.0, m.tableValue("shop.orders", SourceMetrics.TABLE_EVENTS), "two rows and one DDL");
            assertEquals(101.0 + 30 + 30, m.tableValue("shop.orders", SourceMetrics.TABLE_BYTES));
            assertEquals(1.0, m.tableValue("shop.items", SourceMetrics.TABLE_EVENTS));
            assertEquals(40.0, m.tableValue("shop.items", SourceMetrics.TABLE_BYTES));
            double lag = m.value(SourceMetrics.LAG);
            assertTrue(lag >= 5_000 && lag < 60_000, "lag " + lag);
            assertEquals(0.0, m.value(SourceMetrics.RESOLVED_TS), "no watermark yet");
        }
    }

    @Test
    void rowsOfEachVersionOfATableCountTowardsTheTable() {
        TableInfo altered = TableInfo.of("shop", "orders", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("c", MySqlType.LONG, 0)));
        try (SourceMetrics m = SourceMetrics.inMemory("c", "0", null)) {
            for (TableInfo version : List.of(ORDERS, altered, ORDERS, altered)) {
                m.emitted(List.of(new Outgoing("t.orders", 0, RowChange.insert(version,
                        new Object[version.columnCount()], ts(1)), null)), List.of(message("t.orders", 0, 10, ts(1), 0)));
            }
            assertEquals(4.0, m.tableValue("shop.orders", SourceMetrics.TABLE_EVENTS));
            assertEquals(40.0, m.tableValue("shop.orders", SourceMetrics.TABLE_BYTES));
        }
    }

    @Test
    void aWatermarkSetsTheResolvedTsAndBringsTheLagDown() {
        long old = System.currentTimeMillis() - 60_000;
        long now = System.currentTimeMillis();
        try (SourceMetrics m = SourceMetrics.inMemory("c", "0", null)) {
            m.emitted(List.of(new Outgoing("t.items", 0, RowChange.insert(ITEMS, new Object[]{1L}, ts(old)), null)),
                    List.of(message("t.items", 0, 10, ts(old), 0)));
            assertTrue(m.value(SourceMetrics.LAG) >= 60_000);
            m.emitted(List.of(new Outgoing("t.items", 0, new Watermark(ts(now)), null)),
                    List.of(message("t.items", 0, 10, ts(now), 0)));
            assertEquals((double) now, m.value(SourceMetrics.RESOLVED_TS));
            assertTrue(m.value(SourceMetrics.LAG) < 30_000, "lag " + m.value(SourceMetrics.LAG));
        }
    }

    @Test
    void aHeartbeatOnAnIdleSourceHoldsTheLagDownAndNeverMovesItBack() {
        long old = System.currentTimeMillis() - 60_000;
        try (SourceMetrics m = SourceMetrics.inMemory("c", "0", null)) {
            assertEquals(0.0, m.value(SourceMetrics.LAG), "nothing emitted yet");
            m.emitted(List.of(new Outgoing("t.items", 0, RowChange.insert(ITEMS, new Object[]{1L}, ts(old)), null)),
                    List.of(message("t.items", 0, 10, ts(old), 0)));
            assertTrue(m.value(SourceMetrics.LAG) >= 60_000, "a row committed a minute ago: " + m.value(SourceMetrics.LAG));
            m.heartbeat(System.currentTimeMillis());
            assertTrue(m.value(SourceMetrics.LAG) < 30_000, "read up to the heartbeat: " + m.value(SourceMetrics.LAG));
            // an older heartbeat (or one without a time) does not take it back
            m.heartbeat(old);
            m.heartbeat(0);
            assertTrue(m.value(SourceMetrics.LAG) < 30_000, "lag " + m.value(SourceMetrics.LAG));
        }
    }

    @Test
    void taskAndTableMBeansAreNamedAsKafkaConnectsAndGoneAfterClose() throws Exception {
        ObjectName task = new ObjectName("cdc-connect:type=source-task-metrics,connector=src-jmx,task=0");
        ObjectName table = new ObjectName(
                "cdc-connect:type=source-table-metrics,connector=src-jmx,task=0,table=shop.items");
        try (SourceMetrics m = SourceMetrics.jmx("src-jmx", "0", BUSY_ENCODER)) {
            assertFalse(SERVER.isRegistered(table), "a table's MBean comes with its first event");
            m.emitted(List.of(new Outgoing("t.items", 0, RowChange.insert(ITEMS, new Object[]{1L}, ts(1)), null)),
                    List.of(message("t.items", 0, 12, ts(1), 0)));
            assertEquals(1.0, SERVER.getAttribute(table, SourceMetrics.TABLE_EVENTS));
            assertEquals(12.0, SERVER.getAttribute(table, SourceMetrics.TABLE_BYTES));
            assertEquals(4096.0, SERVER.getAttribute(task, SourceMetrics.ENCODER_QUEUE_BYTES));
            assertEquals(3.0, SERVER.getAttribute(task, SourceMetrics.ENCODER_THREADS_BUSY));
            assertEquals(SourceMetrics.TASK.stream().map(Metric::name).toList(),
                    Arrays.stream(SERVER.getMBeanInfo(task).getAttributes()).map(MBeanAttributeInfo::getName).toList());
        }
        assertFalse(SERVER.isRegistered(task));
        assertFalse(SERVER.isRegistered(table));
    }

    @Test
    void aTableFirstSeenByAPollStillRunningWhenTheTaskStopsRegistersNothing() throws Exception {
        ObjectName table = new ObjectName(
                "cdc-connect:type=source-table-metrics,connector=src-late,task=0,table=shop.orders");
        SourceMetrics m = SourceMetrics.jmx("src-late", "0", null);
        m.close();
        m.emitted(List.of(new Outgoing("t.orders", 0, RowChange.insert(ORDERS, new Object[]{1L}, ts(1)), null)),
                List.of(message("t.orders", 0, 12, ts(1), 0)));
        assertFalse(SERVER.isRegistered(table));
        assertEquals(1.0, m.tableValue("shop.orders", SourceMetrics.TABLE_EVENTS), "still counted in memory");
    }
}
