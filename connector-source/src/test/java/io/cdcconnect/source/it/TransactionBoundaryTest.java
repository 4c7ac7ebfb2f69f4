package io.cdcconnect.source.it;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.open.OpenProtocolDecoder;
import io.cdcconnect.source.CdcSourceConnector;
import io.cdcconnect.source.CdcSourceTask;
import io.cdcconnect.testsupport.connect.InMemorySourceTaskContext;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code transaction.boundary=connector} (exactly-once): the task asks Connect to commit at the last record of each
 * poll and nowhere else, so a transaction always ends where the records' offsets claim exactly what was sent. The
 * task against a real MariaDB 11.4, driven without a worker; Connect's transaction context is a recording stand-in
 * (the worker's own runs in integration-tests' ExactlyOnceSourceTest).
 */
class TransactionBoundaryTest {
    private static final int ROWS = 600;

    @TempDir
    Path tmp;

    /** Records what the task asks of Connect's transaction context. */
    private static final class RecordingTransactions implements TransactionContext {
        final List<SourceRecord> commitsOn = new ArrayList<>();
        int otherCalls;

        @Override
        public void commitTransaction() {
            otherCalls++;
        }

        @Override
        public void commitTransaction(SourceRecord record) {
            commitsOn.add(record);
        }

        @Override
        public void abortTransaction() {
            otherCalls++;
        }

        @Override
        public void abortTransaction(SourceRecord record) {
            otherCalls++;
        }
    }

    @Test
    void eachPollsLastRecordEndsATransaction() throws Exception {
        DatabaseServer db = TestServers.database(DatabaseSpec.mariadb("11.4"));
        String d = "eos_boundaries";
        db.execute("DROP DATABASE IF EXISTS " + d, "CREATE DATABASE " + d,
                "CREATE TABLE " + d + ".t (id INT PRIMARY KEY, v INT NOT NULL)");
        for (int batch = 0; batch < ROWS / 100; batch++) {
            StringBuilder sql = new StringBuilder("INSERT INTO " + d + ".t VALUES ");
            for (int i = 0; i < 100; i++) {
                int id = batch * 100 + i;
                sql.append(i == 0 ? "" : ", ").append("(").append(id).append(", ").append(id).append(")");
            }
            db.execute(sql.toString());
        }
        Map<String, String> p = new HashMap<>();
        p.put("name", "src-" + d);
        p.put("connector.class", CdcSourceConnector.class.getName());
        p.put("database.hostname", "127.0.0.1");
        p.put("database.port", String.valueOf(db.port()));
        p.put("database.user", db.user());
        p.put("database.password", db.password() == null ? "" : db.password());
        p.put("database.server.id", "5480");
        p.put("topic.prefix", "eosb");
        p.put("database.include.list", d);
        p.put("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
        p.put("schema.history.internal.file.filename", tmp.resolve("history.dat").toString());
        // batches across three partitions, and Debezium hands over small polls: many polls, many messages each
        p.put("output.format", "open-protocol");
        p.put("partition.rule", "pk");
        p.put("topic.partitions", "3");
        p.put("max.batch.size", "64");
        p.put("exactly.once.support", "required");
        p.put("transaction.boundary", "connector");

        RecordingTransactions transactions = new RecordingTransactions();
        InMemorySourceTaskContext offsets = new InMemorySourceTaskContext(p);
        SourceTaskContext context = new SourceTaskContext() {
            @Override
            public Map<String, String> configs() {
                return p;
            }

            @Override
            public OffsetStorageReader offsetStorageReader() {
                return offsets.offsetStorageReader();
            }

            @Override
            public PluginMetrics pluginMetrics() {
                return null;
            }

            @Override
            public TransactionContext transactionContext() {
                return transactions;
            }
        };
        CdcSourceTask task = new CdcSourceTask();
        task.initialize(context);
        task.start(p);
        OpenProtocolDecoder decoder = new OpenProtocolDecoder();
        int rows = 0;
        int polls = 0;
        int records = 0;
        try {
            long deadline = System.currentTimeMillis() + 60_000;
            while (rows < ROWS) {
                assertTrue(System.currentTimeMillis() < deadline, "only " + rows + " rows after 60 s");
                List<SourceRecord> batch = task.poll();
                if (batch == null || batch.isEmpty()) continue;
                polls++;
                records += batch.size();
                assertEquals(polls, transactions.commitsOn.size(), "one commit request per poll");
                assertSame(batch.get(batch.size() - 1), transactions.commitsOn.get(polls - 1),
                        "the request names the poll's last record");
                for (SourceRecord r : batch) {
                    if (r.key() == null) continue;
                    for (ChangeEvent e : decoder.decode((byte[]) r.key(), (byte[]) r.value())) {
                        if (e instanceof RowChange) rows++;
                    }
                }
            }
        } finally {
            task.stop();
        }
        assertEquals(ROWS, rows);
        assertTrue(polls > 3 && records > polls, polls + " polls, " + records + " records: polls of several records");
        assertEquals(0, transactions.otherCalls, "no batch commit, no abort");
    }
}
