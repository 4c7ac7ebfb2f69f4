package io.cdcconnect.source.dispatch;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * Chooses topic and partition for each row. The same row key always reaches the same partition (for 'pk' and
 * 'columns'), all rows of a table do (for 'table'), all rows of a transaction do (for 'ts'); hashes are CRC-32 of
 * the values' canonical text, so the choice is stable across restarts and JVMs.
 */
public final class Dispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    /** Where one row goes. */
    public record Route(String topic, int partition, RowChange row) {
    }

    private final TopicNamer topics;
    private final PartitionRule rule;
    private final List<String> columns;
    private final int partitions;
    private final Set<String> warnedTables = new HashSet<>();

    public Dispatcher(TopicNamer topics, PartitionRule rule, List<String> columns, int partitions) {
        if (partitions < 1) throw new IllegalArgumentException("topic.partitions must be at least 1");
        this.topics = topics;
        this.rule = rule;
        this.columns = List.copyOf(columns);
        this.partitions = partitions;
    }

    public int partitions() {
        return partitions;
    }

    public String topic(String schema, String table) {
        return topics.topic(schema, table);
    }

    /**
     * Routes a row. With 'pk' or 'columns', an update whose old and new key land on different partitions becomes a
     * delete on the old partition and an insert on the new one (same commit ts), so per-key order holds on both.
     */
    public List<Route> route(RowChange row) {
        String topic = topics.topic(row.schema(), row.tableName());
        if (partitions == 1) return List.of(new Route(topic, 0, row));
        int[] keyColumns = keyColumns(row.table());
        if (keyColumns == null) {
            return List.of(new Route(topic, partition(row, row.current(), null), row));
        }
        if (row.op() == RowChange.Op.UPDATE) {
            int before = partition(row, row.before(), keyColumns);
            int after = partition(row, row.after(), keyColumns);
            if (before != after) {
                List<Route> split = new ArrayList<>(2);
                split.add(new Route(topic, before, RowChange.delete(row.table(), row.before(), row.commitTs())));
                split.add(new Route(topic, after, RowChange.insert(row.table(), row.after(), row.commitTs())));
                return split;
            }
            return List.of(new Route(topic, after, row));
        }
        return List.of(new Route(topic, partition(row, row.current(), keyColumns), row));
    }

    /** Positions of the hashed columns, or null when the rule (or its fallback) does not look at values. */
    private int[] keyColumns(TableInfo table) {
        switch (rule) {
            case PK: {
                if (!table.hasPrimaryKey()) return null;
                return table.uniqueKeys().get(0);
            }
            case COLUMNS: {
                int[] pos = new int[columns.size()];
                for (int i = 0; i < pos.length; i++) {
                    pos[i] = table.indexOf(columns.get(i));
                    if (pos[i] < 0) {
                        String name = table.toString();
                        if (warnedTables.add(name)) {
                            LOG.warn("Table {} lacks partition column '{}': its rows are partitioned by table",
                                    name, columns.get(i));
                        }
                        return null;
                    }
                }
                return pos;
            }
            default:
                return null;
        }
    }

    private int partition(RowChange row, Object[] image, int[] keyColumns) {
        CRC32 crc = new CRC32();
        switch (rule) {
            case TS:
                return (int) Long.remainderUnsigned(row.commitTs(), partitions);
            case PK:
            case COLUMNS:
                if (keyColumns != null) {
                    update(crc, row.schema());
                    update(crc, row.tableName());
                    for (int c : keyColumns) {
                        update(crc, canonical(row.table().column(c), image[c]));
                    }
                    return (int) (crc.getValue() % partitions);
                }
                // fall through: no key, partition by table
            default:
                update(crc, row.schema());
                update(crc, row.tableName());
                return (int) (crc.getValue() % partitions);
        }
    }

    /**
     * The partitions a DDL statement goes to when it travels with the rows it affects (Canal-JSON): under the 'table'
     * rule, the one partition that holds every row of its table, so that the partition's order puts the statement
     * between the rows before and after it and one consumer of that partition runs it; every partition when the
     * table's rows are spread (other rules), when it names no table (database-level statements) or when it renames
     * (the rows of the new name live elsewhere). A consumer then waits for its copy from each partition.
     */
    public int[] ddlPartitions(String schema, String table, DdlChange.Kind kind) {
        if (partitions == 1) return new int[] {0};
        if (rule == PartitionRule.TABLE && table != null && !table.isEmpty() && kind != DdlChange.Kind.RENAME) {
            return new int[] {tablePartition(schema, table)};
        }
        int[] all = new int[partitions];
        for (int p = 0; p < partitions; p++) all[p] = p;
        return all;
    }

    /** Partition of all rows of a table under the 'table' rule. */
    public int tablePartition(String schema, String table) {
        CRC32 crc = new CRC32();
        update(crc, schema);
        update(crc, table);
        return (int) (crc.getValue() % partitions);
    }

    private static void update(CRC32 crc, String s) {
        crc.update(s.getBytes(StandardCharsets.UTF_8));
        crc.update(0);
    }

    /** Text of a value that is equal for equal keys (e.g. DECIMAL 1.0 and 1.00 compare equal in MySQL). */
    static String canonical(ColumnInfo column, Object v) {
        if (v == null) return "\u0000null";
        if (v instanceof BigDecimal bd) return bd.signum() == 0 ? "0" : bd.stripTrailingZeros().toPlainString();
        if (v instanceof byte[] b) return Arrays.toString(b);
        if (v instanceof String s && !column.binary()) {
            // Most collations compare case-insensitively and ignore trailing spaces: keys equal to MySQL must hash
            // equally.
            return s.stripTrailing().toLowerCase(java.util.Locale.ROOT);
        }
        return v.toString();
    }
}
