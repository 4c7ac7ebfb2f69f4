package io.cdcconnect.source;

import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.source.convert.KeyCatalog;
import io.cdcconnect.source.convert.RecordConverter;
import io.cdcconnect.source.ddl.DdlRules;
import io.cdcconnect.source.ddl.DdlStatement;
import io.cdcconnect.source.ddl.TableRef;
import io.cdcconnect.source.dispatch.Dispatcher;
import io.cdcconnect.source.emit.Outgoing;
import io.cdcconnect.source.txn.CommitTsAllocator;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The source's middle: Debezium records in, routed row changes, DDL and watermarks out, in source order. Assigns
 * commit ts per transaction, applies the DDL forwarding rule and the dispatch rule. No I/O.
 */
public final class ChangeCapture {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeCapture.class);
    /** Database-level statements kept for topics that appear later (CREATE DATABASE before a table's first row). */
    private static final int MAX_PENDING_SCHEMA_DDL = 8;

    private final RecordConverter converter;
    private final CommitTsAllocator commitTs = new CommitTsAllocator();
    private final Dispatcher dispatcher;
    private final boolean ddlOnEveryPartition;
    private final boolean forwardDdl;
    private final boolean perTableTopics;
    private final CapturedTables captured;
    /** Topics written so far, by schema: watermarks and database-level DDL go to them. */
    private final Map<String, Set<String>> topicsBySchema = new LinkedHashMap<>();
    private final Map<String, List<DdlChange>> pendingSchemaDdl = new LinkedHashMap<>();
    private SourceRecord lastOrigin;
    private SourceRecord heartbeat;

    /**
     * @param dispatcher          topic and partition per row
     * @param forwardDdl          whether the format carries DDL
     * @param ddlOnEveryPartition DDL to every partition (Open-protocol) or where its table's rows go (Canal-JSON,
     *                            {@link Dispatcher#ddlRoutes})
     * @param topicPattern        the topic pattern: whether database-level DDL has a topic of its own
     */
    public ChangeCapture(Dispatcher dispatcher, boolean forwardDdl, boolean ddlOnEveryPartition, String topicPattern) {
        this(dispatcher, forwardDdl, ddlOnEveryPartition, topicPattern, CapturedTables.ALL, KeyCatalog.NONE);
    }

    /**
     * @param captured which tables' DDL belongs in the output (Debezium's include/exclude lists)
     * @param keys     unique keys beside the primary key
     */
    public ChangeCapture(Dispatcher dispatcher, boolean forwardDdl, boolean ddlOnEveryPartition, String topicPattern,
                         CapturedTables captured, KeyCatalog keys) {
        this.converter = new RecordConverter(keys);
        this.captured = captured;
        this.dispatcher = dispatcher;
        this.forwardDdl = forwardDdl;
        this.ddlOnEveryPartition = ddlOnEveryPartition;
        this.perTableTopics = topicPattern.contains("{table}") || dispatcher.topicsPerTable();
    }

    /** Converts one Debezium record, appending what it yields to {@code out}. */
    public void accept(SourceRecord record, List<Outgoing> out) {
        switch (RecordConverter.kindOf(record)) {
            case DATA -> data(record, out);
            case SCHEMA_CHANGE -> schemaChange(record, out);
            case TRANSACTION -> {
                Struct v = (Struct) record.value();
                if ("END".equals(v.getString("status"))) commitTs.complete(v.getString("id"));
            }
            case HEARTBEAT -> heartbeat = record;
            default -> {
                // nothing to convert
            }
        }
        if (record.sourceOffset() != null) lastOrigin = record;
    }

    private void data(SourceRecord record, List<Outgoing> out) {
        Struct source = RecordConverter.source(record);
        if ("t".equals(((Struct) record.value()).getString("op"))) {
            truncate(record, source, out);
            return;
        }
        boolean snapshot = RecordConverter.isSnapshot(source);
        String key;
        if (snapshot) {
            // A snapshot reads each table consistently: its rows share one ts, the next table gets the next.
            key = "snapshot:" + source.getString("db") + "." + source.getString("table");
        } else {
            key = RecordConverter.transactionId(record);
        }
        long ts = commitTs.assign(key, RecordConverter.eventMillis(source));
        RowChange row = converter.row(record, ts);
        for (Dispatcher.Route route : dispatcher.route(row)) {
            emitPendingSchemaDdl(row.schema(), route.topic(), record, out);
            out.add(new Outgoing(route.topic(), route.partition(), route.row(), record));
        }
        if (snapshot && "last".equals(source.getString("snapshot"))) {
            // The snapshot's last row: it is complete, and watermarks may pass it.
            commitTs.completeCurrent();
        }
    }

    /** Debezium's truncate record: the statement the source ran, a transaction of its own. */
    private void truncate(SourceRecord record, Struct source, List<Outgoing> out) {
        String schema = source.getString("db");
        String table = source.getString("table");
        long ts = commitTs.assign(null, RecordConverter.eventMillis(source));
        commitTs.completeCurrent();
        if (!forwardDdl) return;
        String stmt = "TRUNCATE TABLE `" + schema.replace("`", "``") + "`.`" + table.replace("`", "``") + "`";
        for (DdlStatement s : DdlRules.forward(schema, stmt, false, ts)) send(s, record, out);
    }

    private void schemaChange(SourceRecord record, List<Outgoing> out) {
        Struct value = (Struct) record.value();
        Struct source = RecordConverter.source(record);
        boolean snapshot = RecordConverter.isSnapshot(source);
        String ddl = value.getString("ddl");
        String schema = value.getString("databaseName");
        if ((schema == null || schema.isEmpty()) && source != null) schema = source.getString("db");
        // Debezium's source.table is not read: which tables a statement is about is DdlTables' decision
        long ts = commitTs.assign(null, RecordConverter.eventMillis(source));
        commitTs.completeCurrent();
        List<DdlStatement> forwarded = DdlRules.forward(schema, ddl, snapshot, ts);
        if (forwarded.isEmpty() || !forwardDdl) {
            LOG.debug("Not forwarding {} DDL: {}", snapshot ? "snapshot" : "binlog", ddl);
            return;
        }
        for (DdlStatement s : forwarded) send(s, record, out);
    }

    /**
     * Sends a statement where its tables' rows go: a copy to the topic of each captured table it touches (old and new
     * names of a rename alike), on the partitions that hold that table's rows, naming that topic's table; a statement
     * about a database to the database's topics.
     */
    private void send(DdlStatement statement, SourceRecord record, List<Outgoing> out) {
        DdlChange change = statement.change();
        if (change.schema().isEmpty()) {
            LOG.debug("Not forwarding DDL without a database: {}", change.query());
            return;
        }
        if (statement.databaseLevel()) {
            if (!captured.includes(change.schema(), "")) {
                LOG.debug("Not forwarding DDL of a database that is not captured: {}", change.query());
            } else if (perTableTopics) {
                schemaLevel(change, record, out);
            } else {
                String topic = dispatcher.topic(change.schema(), "");
                emitPendingSchemaDdl(change.schema(), topic, record, out);
                ddlTo(topic, change, dispatcher.ddlPartitions(change.schema(), ""), record, out);
            }
            return;
        }
        List<TableRef> tables = new ArrayList<>();
        for (TableRef t : statement.tables()) {
            if (captured.includes(t.schema(), t.table())) tables.add(t);
        }
        if (tables.isEmpty()) {
            LOG.debug("Not forwarding DDL of a table that is not captured: {}", change.query());
            return;
        }
        if (tables.size() < statement.tables().size()) {
            LOG.warn("DDL touches tables that are not captured: sent only to the topics of {} (not to those of {}), and "
                    + "a downstream may lack the others: {}", tables, statement.tables().stream()
                    .filter(t -> !tables.contains(t)).toList(), change.query());
        }
        for (Dispatcher.DdlRoute r : dispatcher.ddlRoutes(tables)) {
            emitPendingSchemaDdl(r.table().schema(), r.topic(), record, out);
            ddlTo(r.topic(), statement.on(r.table()), r.partitions(), record, out);
        }
    }

    /**
     * A database-level statement with topics per table: it goes to the topics of that database written so far, and a
     * CREATE DATABASE is also kept for tables whose topics appear later, so each topic starts with it.
     */
    private void schemaLevel(DdlChange change, SourceRecord record, List<Outgoing> out) {
        String q = change.query().trim().toUpperCase(java.util.Locale.ROOT);
        List<DdlChange> pending = pendingSchemaDdl.computeIfAbsent(change.schema(), s -> new ArrayList<>());
        if (q.startsWith("DROP")) {
            pending.clear();
        } else if (q.startsWith("CREATE") && pending.size() < MAX_PENDING_SCHEMA_DDL) {
            pending.add(change);
        }
        for (String topic : topicsBySchema.getOrDefault(change.schema(), Set.of())) {
            ddlTo(topic, change, dispatcher.ddlPartitions(change.schema(), ""), record, out);
        }
    }

    private void emitPendingSchemaDdl(String schema, String topic, SourceRecord record, List<Outgoing> out) {
        Set<String> known = topicsBySchema.computeIfAbsent(schema, s -> new LinkedHashSet<>());
        if (known.add(topic)) {
            for (DdlChange d : pendingSchemaDdl.getOrDefault(schema, List.of())) {
                ddlTo(topic, d, dispatcher.ddlPartitions(schema, ""), record, out);
            }
        }
    }

    /** Copies of a statement on {@code partitions} of {@code topic}, or on each of its partitions (Open-protocol). */
    private void ddlTo(String topic, DdlChange change, int[] partitions, SourceRecord origin, List<Outgoing> out) {
        if (ddlOnEveryPartition) {
            for (int p = 0; p < dispatcher.partitions(); p++) out.add(new Outgoing(topic, p, change, origin));
        } else {
            for (int p : partitions) out.add(new Outgoing(topic, p, change, origin));
        }
    }

    /**
     * Watermarks for every partition of every topic written so far. When {@code idle} (Debezium had nothing to hand
     * over) and no transaction is open, the watermark moves to the wall clock, and later transactions get a higher
     * ts. Returns the watermark ts, or 0 when there is nothing to send yet.
     */
    public long watermarks(boolean idle, long nowMillis, List<Outgoing> out) {
        long ts = idle ? commitTs.advanceIdle(nowMillis) : commitTs.resolvedTs();
        if (ts <= 0 || lastOrigin == null) return 0;
        Watermark w = new Watermark(ts);
        for (Set<String> topics : topicsBySchema.values()) {
            for (String topic : topics) {
                for (int p = 0; p < dispatcher.partitions(); p++) out.add(new Outgoing(topic, p, w, lastOrigin));
            }
        }
        return ts;
    }

    /**
     * The latest Debezium heartbeat since the last call, or null. When a poll yields no message, the task forwards it
     * so that Connect's offsets move on while only uncaptured tables change (Debezium's own heartbeat purpose).
     */
    public SourceRecord takeHeartbeat() {
        SourceRecord h = heartbeat;
        heartbeat = null;
        return h;
    }

    /** The most recent Debezium record with an offset (for messages that carry no row of their own). */
    public SourceRecord lastOrigin() {
        return lastOrigin;
    }

    public CommitTsAllocator commitTs() {
        return commitTs;
    }

    public RecordConverter converter() {
        return converter;
    }
}
