package io.cdcconnect.source.dispatch;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.source.ddl.TableRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Chooses topic and partition for each row, as TiCDC's event router does: the first {@link DispatchRule} whose matcher
 * selects the table gives its topic pattern and partition rule, and topic.pattern / partition.rule are the rule of
 * every other table. The same key always reaches the same partition ('index-value', 'pk', 'columns'), all rows of a
 * table do ('table'), all rows of a transaction do ('ts'); hashes are TiCDC's ({@link PartitionHash}), so a key lands
 * on the partition a TiCDC changefeed with the same dispatchers and partition count puts it on.
 *
 * <p>An update that changes a primary- or unique-key value is sent as a delete of the old row and an insert of the
 * new one, as TiCDC's Kafka sink does unless output-raw-change-event is set; an update whose old and new values land
 * on different partitions is split so in any case, so that per-key order holds on both partitions.
 */
public final class Dispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    /** Where one row goes. */
    public record Route(String topic, int partition, RowChange row) {
    }

    /** What one table gets: its topic namer and partition rule. */
    private record Target(TopicNamer topics, PartitionRule rule, List<String> columns) {
    }

    private final Target fallback;
    private final List<DispatchRule> rules;
    private final List<Target> ruleTargets;
    private final int partitions;
    private final boolean rawChangeEvents;
    private final Map<String, Map<String, Target>> targets = new HashMap<>();
    /** Per table, what route() would otherwise work out again for each row. */
    private final Map<String, Map<String, TableRoute>> tableRoutes = new HashMap<>();
    private final Set<String> warnedTables = new HashSet<>();

    /** One rule for every table; key updates split as TiCDC splits them. */
    public Dispatcher(TopicNamer topics, PartitionRule rule, List<String> columns, int partitions) {
        this(topics, rule, columns, partitions, List.of(), false);
    }

    /**
     * @param topics          topic.pattern: the topics of tables no rule matches, and of rules without a topic
     * @param rule            partition.rule, likewise
     * @param columns         partition.columns, for {@code rule} = columns
     * @param rules           the dispatchers, first match wins
     * @param rawChangeEvents TiCDC's output-raw-change-event: an update that changes a key stays one update unless it
     *                        moves to another partition
     */
    public Dispatcher(TopicNamer topics, PartitionRule rule, List<String> columns, int partitions,
                      List<DispatchRule> rules, boolean rawChangeEvents) {
        if (partitions < 1) throw new IllegalArgumentException("topic.partitions must be at least 1");
        this.fallback = new Target(topics, rule, List.copyOf(columns));
        this.rules = List.copyOf(rules);
        this.ruleTargets = this.rules.stream().map(r -> new Target(r.topic() == null ? topics
                : topics.withPattern(r.topic()), r.partition() == null ? rule : r.partition(),
                r.partition() == null ? fallback.columns : r.columns())).toList();
        this.partitions = partitions;
        this.rawChangeEvents = rawChangeEvents;
    }

    public int partitions() {
        return partitions;
    }

    public String topic(String schema, String table) {
        return target(schema, table).topics.topic(schema, table);
    }

    /** Whether some table may get a topic of its own (then database-level DDL goes to each of its tables' topics). */
    public boolean topicsPerTable() {
        if (fallback.topics.perTable()) return true;
        for (Target t : ruleTargets) {
            if (t.topics.perTable()) return true;
        }
        return false;
    }

    private Target target(String schema, String table) {
        return targets.computeIfAbsent(schema, s -> new HashMap<>()).computeIfAbsent(table, t -> {
            for (int i = 0; i < rules.size(); i++) {
                if (rules.get(i).matcher().matches(schema, t)) return ruleTargets.get(i);
            }
            return fallback;
        });
    }

    /**
     * A table's target, topic and hash, and the positions of its hashed columns in the last version of the table
     * seen (worked out again when a DDL gives the table's rows a new {@link TableInfo}).
     */
    private static final class TableRoute {
        final Target target;
        final String topic;
        final PartitionHash tableHash;
        TableInfo table;
        int[] hashed;

        TableRoute(Target target, String topic, PartitionHash tableHash) {
            this.target = target;
            this.topic = topic;
            this.tableHash = tableHash;
        }
    }

    private TableRoute tableRoute(RowChange row) {
        TableRoute r = tableRoutes.computeIfAbsent(row.schema(), s -> new HashMap<>()).computeIfAbsent(
                row.tableName(), t -> new TableRoute(target(row.schema(), t), topic(row.schema(), t),
                        PartitionHash.ofTable(row.schema(), t)));
        if (r.table != row.table()) {
            r.hashed = hashedColumns(r.target, row.table());
            r.table = row.table();
        }
        return r;
    }

    /** Routes a row: one route, or two (delete, then insert, same commit ts) for a split update. */
    public List<Route> route(RowChange row) {
        TableRoute route = tableRoute(row);
        String topic = route.topic;
        if (row.op() == RowChange.Op.UPDATE) {
            int before = partition(route, row, row.before());
            int after = partition(route, row, row.after());
            if (before != after || (!rawChangeEvents && keyChanged(row))) {
                return List.of(new Route(topic, before, RowChange.delete(row.table(), row.before(), row.commitTs())),
                        new Route(topic, after, RowChange.insert(row.table(), row.after(), row.commitTs())));
            }
            return List.of(new Route(topic, after, row));
        }
        return List.of(new Route(topic, partition(route, row, row.current()), row));
    }

    /**
     * TiCDC's ShouldSplitUpdateEvent: some primary-key, handle-key or unique-key column's value, as TiCDC prints it,
     * differs between the old and the new row.
     */
    static boolean keyChanged(RowChange row) {
        TableInfo t = row.table();
        for (int i = 0; i < t.columnCount(); i++) {
            ColumnInfo c = t.column(i);
            if (!(c.primaryKey() || c.handleKey() || c.uniqueKey())) continue;
            Object before = row.before()[i];
            Object after = row.after()[i];
            if (java.util.Objects.deepEquals(before, after)) continue; // the common case, without printing
            if (!Arrays.equals(PartitionHash.ticdcText(c, before), PartitionHash.ticdcText(c, after))) return true;
        }
        return false;
    }

    /** Positions of the hashed columns; empty when the rule hashes the table alone (or falls back to it). */
    private int[] hashedColumns(Target target, TableInfo table) {
        switch (target.rule) {
            case INDEX_VALUE, PK -> {
                int[] pos = flagged(table, true);
                return pos.length > 0 ? pos : flagged(table, false);
            }
            case COLUMNS -> {
                int[] pos = new int[target.columns.size()];
                for (int i = 0; i < pos.length; i++) {
                    pos[i] = indexOfIgnoreCase(table, target.columns.get(i));
                    if (pos[i] < 0) {
                        if (warnedTables.add(table.toString())) {
                            LOG.warn("Table {} lacks partition column '{}': its rows are partitioned by table", table,
                                    target.columns.get(i));
                        }
                        return new int[0];
                    }
                }
                return pos;
            }
            default -> {
                return new int[0];
            }
        }
    }

    /** Positions of the handle-key columns (or, for a table built without that flag, the primary key's). */
    private static int[] flagged(TableInfo table, boolean handle) {
        int[] pos = new int[table.columnCount()];
        int n = 0;
        for (int i = 0; i < table.columnCount(); i++) {
            ColumnInfo c = table.column(i);
            if (handle ? c.handleKey() : c.primaryKey()) pos[n++] = i;
        }
        return Arrays.copyOf(pos, n);
    }

    /** TiCDC finds the columns of a 'columns' rule case-insensitively. */
    private static int indexOfIgnoreCase(TableInfo table, String name) {
        int exact = table.indexOf(name);
        if (exact >= 0) return exact;
        for (int i = 0; i < table.columnCount(); i++) {
            if (table.column(i).name().equalsIgnoreCase(name)) return i;
        }
        return -1;
    }

    private int partition(TableRoute route, RowChange row, Object[] image) {
        if (partitions == 1) return 0;
        if (route.target.rule == PartitionRule.TS) return (int) Long.remainderUnsigned(row.commitTs(), partitions);
        if (route.hashed.length == 0) return route.tableHash.partition(partitions);
        PartitionHash h = route.tableHash.copy();
        boolean folded = route.target.rule == PartitionRule.PK;
        for (int c : route.hashed) h.column(row.table().column(c), image[c], folded);
        return h.partition(partitions);
    }

    /**
     * Where the copies of a DDL statement go: for each topic (in the order the statement names its tables), the
     * partitions that hold the rows of the statement's tables on that topic ({@link #ddlPartitions}), and the first of
     * those tables, which that topic's copy names. A statement about a renamed table so reaches the rows of its old
     * name and those of its new one; two tables on one topic make one copy per partition, not two.
     *
     * @param tables the tables the statement touches; not empty
     */
    public List<DdlRoute> ddlRoutes(List<TableRef> tables) {
        Map<String, TableRef> named = new LinkedHashMap<>();
        Map<String, TreeSet<Integer>> onTopic = new HashMap<>();
        for (TableRef t : tables) {
            String topic = topic(t.schema(), t.table());
            named.putIfAbsent(topic, t);
            TreeSet<Integer> parts = onTopic.computeIfAbsent(topic, k -> new TreeSet<>());
            for (int p : ddlPartitions(t.schema(), t.table())) parts.add(p);
        }
        List<DdlRoute> out = new ArrayList<>(named.size());
        named.forEach((topic, t) -> out.add(new DdlRoute(topic, t,
                onTopic.get(topic).stream().mapToInt(Integer::intValue).toArray())));
        return out;
    }

    /** The copies of a DDL statement on one topic: its partitions, and the table the copy names. */
    public record DdlRoute(String topic, TableRef table, int[] partitions) {
    }

    /**
     * The partitions that hold the rows of a table, where a DDL statement about it goes when it travels with the rows
     * it affects (Canal-JSON): under the 'table' rule, the one partition that holds every row of the table, so that the
     * partition's order puts the statement between the rows before and after it and one consumer of that partition runs
     * it; every partition when the table's rows are spread (other rules) or when no table is named (database-level
     * statements). A consumer then waits for its copy from each partition.
     */
    public int[] ddlPartitions(String schema, String table) {
        if (partitions == 1) return new int[] {0};
        if (table != null && !table.isEmpty() && target(schema, table).rule == PartitionRule.TABLE) {
            return new int[] {tablePartition(schema, table)};
        }
        int[] all = new int[partitions];
        for (int p = 0; p < partitions; p++) all[p] = p;
        return all;
    }

    /** Partition of all rows of a table under the 'table' rule (TiCDC's table dispatcher). */
    public int tablePartition(String schema, String table) {
        return PartitionHash.ofTable(schema, table).partition(partitions);
    }
}
