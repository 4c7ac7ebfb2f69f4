package io.cdcconnect.sink.stmtcache;

import io.cdcconnect.sink.ddl.sql.ParsedDdl;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;

/**
 * The target tables DDL statements have changed, told by the thread that ran them to the statement caches of every
 * connection of the pool ({@link ConnectionStatementCache#evictChanged}). A statement prepared for a table's old
 * definition must not be used after the DDL: PostgreSQL keeps a prepared statement's parameter types when it re-plans
 * it after a DDL ({@code 42804: column "c" is of type jsonb but expression is of type text}), and a statement of a
 * dropped or renamed table only holds a slot of the server's budget.
 *
 * <p>The hand-off across threads: the DDL side records, for each table it changed, the epoch of the change, then
 * publishes the epoch; each cache remembers the epoch it last looked at and, when it has moved, closes on its own
 * thread the statements of the tables changed since (all of them after a statement whose tables are unknown). A
 * worker applies rows dispatched after the DDL ran, so it sees the change before it writes the table again.
 *
 * <p>One per pipeline, which hands it to the DDL side and to the workers, whose connections hold the statements. Tables are named as the dialect quotes them, {@code schema.table} ({@code SqlBatch#table}),
 * compared without case (an eviction too many costs one prepare).
 */
public final class TableChanges {

    private final AtomicLong epoch = new AtomicLong();
    /** The epoch of each table's last change. */
    private final Map<String, Long> changedAt = new ConcurrentHashMap<>();
    /** The epoch of the last change of unknown tables (every statement goes). */
    private volatile long allChangedAt;

    /** One per pipeline: its DDL side ({@code DdlApplier}) and its workers' caches share it. */
    public TableChanges() {
    }

    /** {@code tables} ({@code schema.table} as the dialect quotes them) changed. */
    public synchronized void tablesChanged(Collection<String> tables) {
        long next = epoch.get() + 1;
        for (String t : tables) changedAt.put(key(t), next);
        epoch.set(next);
    }

    /** Tables that cannot be named changed (a database-level statement, one whose tables are not known). */
    public synchronized void everythingChanged() {
        long next = epoch.get() + 1;
        allChangedAt = next;
        epoch.set(next);
    }

    /**
     * A DDL statement ran: the tables it names changed (unqualified names are in {@code targetSchema}, qualified ones
     * in their database mapped by {@code mapSchema}), or every table when they cannot be told.
     *
     * @param names   the statement's {@link ParsedDdl#changedTables()}: null for a database-level statement
     * @param qualify the dialect's {@code schema.table}, quoted
     * @return the tables recorded as changed, or null when every table was
     */
    public List<String> ddlRan(List<ParsedDdl.TableRef> names, String targetSchema, UnaryOperator<String> mapSchema,
                               BinaryOperator<String> qualify) {
        if (names == null) {
            everythingChanged();
            return null;
        }
        List<String> tables = new java.util.ArrayList<>(names.size());
        for (ParsedDdl.TableRef n : names) {
            String schema = n.schema() == null ? targetSchema : mapSchema.apply(n.schema());
            if (schema == null || schema.isEmpty()) {
                everythingChanged();
                return null;
            }
            tables.add(qualify.apply(schema, n.name()));
        }
        tablesChanged(tables);
        return tables;
    }

    /** Moves with every change; a cache compares it with the epoch it last looked at. */
    long epoch() {
        return epoch.get();
    }

    /** Whether every statement is to go: tables that cannot be named changed after {@code seen}. */
    boolean allChangedSince(long seen) {
        return allChangedAt > seen;
    }

    /** Whether {@code table} changed after {@code seen}; a statement of no known table goes with any change. */
    boolean changedSince(String table, long seen) {
        if (table == null) return true;
        Long at = changedAt.get(table);
        return at != null && at > seen;
    }

    /** How a table is compared: without case. */
    static String key(String table) {
        return table == null ? null : table.toLowerCase(Locale.ROOT);
    }
}
