package io.cdcconnect.sink.dml;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.sink.dialect.ForeignKeyChecks;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.table.TargetTable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns the rows one transaction wrote to one table into a few multi-row statements.
 *
 * <p>Safe mode (idempotent, harmless on replay): the net effect of the transaction per row key, as deletes by key
 * followed by upserts ({@code REPLACE} when the table has unique keys beside its identity key, because an upsert could
 * otherwise update the row found through the other key). A key-changing update becomes delete-old + upsert-new.
 * Without safe mode: the rows in order, as inserts, updates by key and deletes by key, so that a duplicate key fails.
 * Tables without a usable key are always written in order, matching rows on every column.
 *
 * <p>Multi-row statements use only the row counts in {@link #BATCH_SIZES}, so each table needs at most a few distinct
 * statement texts; the 65,535-placeholder limit and {@code max_allowed_packet} lower the count when needed.
 *
 * <p>A statement of more than {@link #SMALL_STATEMENT_PLACEHOLDERS} placeholders (256 rows of more than 16 columns) is
 * used for a table only once the table has written {@link #LARGE_STATEMENT_AFTER_ROWS} rows. Preparing one costs the
 * driver and the server far more than it saves per execution until then: measured on MariaDB with
 * mysql-connector-j, a 256-row statement of 60 columns took 20 to 180 ms of client CPU to prepare (warm to cold JIT)
 * against 5 to 21 ms for 64 rows, while writing 2,048 rows through it saved 13% of the client CPU (61 against 70 ms).
 * Every connection prepares its own, so a sink starting on wide tables paid seconds for statements it would use a few
 * times. The count is of rows, not time: the choice depends only on what the table has written.
 */
public final class DmlBuilder {

    /** The only row counts a multi-row statement may carry, largest first. */
    public static final int[] BATCH_SIZES = {256, 64, 8, 1};
    /** The server's limit on placeholders in one prepared statement. */
    public static final int MAX_PLACEHOLDERS = 65_535;
    /** Placeholders a statement may carry before its table has written {@link #LARGE_STATEMENT_AFTER_ROWS} rows. */
    public static final int SMALL_STATEMENT_PLACEHOLDERS = 4_096;
    /** Rows a table writes (inserts and upserts, through this builder) before it may use larger statements. */
    public static final long LARGE_STATEMENT_AFTER_ROWS = 16_384;
    /** Tables whose written rows are counted; past it the counts start again (they only ever delay large statements). */
    private static final int MAX_COUNTED_TABLES = 4_096;

    private final SqlDialect dialect;
    private final long maxPacketBytes;
    /**
     * Whether DELETE and UPDATE statements switch the target's foreign key checks on for themselves, in sessions that
     * run with them off ({@link ForeignKeyChecks#REPLICA}): the target's ON DELETE and ON UPDATE actions then do what
     * the source's did without logging it, while inserts, upserts and REPLACE neither wait for a parent row nor fire a
     * cascade.
     */
    private final boolean checkedDeletesAndUpdates;
    private final Map<TextKey, String> texts = new ConcurrentHashMap<>();
    /** Rows written per table, until it reaches {@link #LARGE_STATEMENT_AFTER_ROWS}. */
    private final Map<TargetTable, java.util.concurrent.atomic.AtomicLong> written = new ConcurrentHashMap<>();

    private record TextKey(TargetTable table, List<String> columns, SqlBatch.Kind kind, int rows) {
    }

    /**
     * @param dialect        the target's SQL dialect
     * @param maxPacketBytes the server's {@code max_allowed_packet}; statements are kept well below it
     */
    public DmlBuilder(SqlDialect dialect, long maxPacketBytes) {
        this(dialect, maxPacketBytes, ForeignKeyChecks.SERVER);
    }

    /** As above, with {@code foreignKeyChecks} as the target gives it ({@link ForeignKeyChecks#on}). */
    public DmlBuilder(SqlDialect dialect, long maxPacketBytes, ForeignKeyChecks foreignKeyChecks) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.maxPacketBytes = maxPacketBytes;
        this.checkedDeletesAndUpdates = foreignKeyChecks.actionsOnDeleteAndUpdate();
    }

    /** {@code dml}, a DELETE or an UPDATE, as it runs under {@link #checkedDeletesAndUpdates}. */
    private String checked(String dml) {
        return checkedDeletesAndUpdates ? dialect.withForeignKeyChecks(dml) : dml;
    }

    public SqlDialect dialect() {
        return dialect;
    }

    /** Appends to {@code out} the statements that apply {@code rows} (all of one table, in source order). */
    public void build(RowShape shape, List<RowChange> rows, boolean safe, List<SqlBatch> out) {
        if (safe && shape.hasIdentity()) {
            buildSafe(java.util.Collections.nCopies(rows.size(), shape), rows, out);
        } else {
            buildOrdered(shape, rows, out);
        }
    }

    /** Whether rows of these shapes (all of one target table) may be written together by {@link #buildSafe}. */
    public static boolean canMergeShapes(List<RowShape> shapes) {
        TargetTable table = shapes.get(0).target();
        for (RowShape s : shapes) {
            if (!s.hasIdentity() || !s.target().equals(table)
                    || !s.identityNames().equals(shapes.get(0).identityNames())) {
                return false;
            }
        }
        return true;
    }

    /** One image and the shape it is read through. */
    private record Image(RowShape shape, Object[] values) {
    }

    /**
     * In safe mode, the statements for {@code rows} of one target table that arrive through several shapes (Avro
     * deletes carry only the key columns, so a table's rows alternate between two shapes): {@code shapes.get(i)} is
     * row {@code i}'s. Every shape must have the table's identity key ({@link #canMergeShapes}). The net effect per
     * identity is taken over all the rows, whatever their shape, so a change of shape does not end a multi-row
     * statement: the deletes go by key in one family of statements, the upserts in one family per shape.
     */
    public void buildSafe(List<RowShape> shapes, List<RowChange> rows, List<SqlBatch> out) {
        LinkedHashMap<Object, Image> deletes = new LinkedHashMap<>();
        LinkedHashMap<Object, Image> upserts = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            RowChange row = rows.get(i);
            RowShape shape = shapes.get(i);
            switch (row.op()) {
                case INSERT -> {
                    Object k = shape.identityOf(row.after());
                    deletes.remove(k);
                    upserts.put(k, new Image(shape, row.after()));
                }
                case DELETE -> {
                    Object k = shape.identityOf(row.before());
                    upserts.remove(k);
                    deletes.put(k, new Image(shape, row.before()));
                }
                case UPDATE -> {
                    Object kb = shape.identityOf(row.before());
                    Object ka = shape.identityOf(row.after());
                    if (!kb.equals(ka)) {
                        upserts.remove(kb);
                        deletes.put(kb, new Image(shape, row.before()));
                    }
                    deletes.remove(ka);
                    upserts.put(ka, new Image(shape, row.after()));
                }
            }
        }
        if (!deletes.isEmpty()) emitDeletesByKey(new ArrayList<>(deletes.values()), out);
        if (upserts.isEmpty()) return;
        RowShape first = upserts.values().iterator().next().shape();
        SqlBatch.Kind kind = first.target().needsReplace() && dialect.hasReplace() ? SqlBatch.Kind.REPLACE
                : SqlBatch.Kind.UPSERT;
        // upserts of different keys commute: one family of multi-row statements per shape, in order of first use
        LinkedHashMap<RowShape, List<Object[]>> byShape = new LinkedHashMap<>(2);
        for (Image image : upserts.values()) {
            byShape.computeIfAbsent(image.shape(), s -> new ArrayList<>()).add(image.values());
        }
        for (Map.Entry<RowShape, List<Object[]>> e : byShape.entrySet()) emitWrites(e.getKey(), e.getValue(), kind, out);
    }

    private void buildOrdered(RowShape shape, List<RowChange> rows, List<SqlBatch> out) {
        rows = joinSplitUpdates(shape, rows);
        int i = 0;
        while (i < rows.size()) {
            RowChange.Op op = rows.get(i).op();
            int j = i;
            while (j < rows.size() && rows.get(j).op() == op) j++;
            List<RowChange> run = rows.subList(i, j);
            switch (op) {
                case INSERT -> {
                    List<Object[]> images = new ArrayList<>(run.size());
                    for (RowChange r : run) images.add(r.after());
                    emitWrites(shape, images, SqlBatch.Kind.INSERT, out);
                }
                case DELETE -> {
                    if (shape.hasIdentity()) {
                        List<Image> images = new ArrayList<>(run.size());
                        for (RowChange r : run) images.add(new Image(shape, r.before()));
                        emitDeletesByKey(images, out);
                    } else {
                        for (RowChange r : run) out.add(deleteByRow(shape, r.before()));
                    }
                }
                case UPDATE -> {
                    for (RowChange r : run) out.add(update(shape, r));
                }
            }
            i = j;
        }
    }

    /**
     * {@code rows} with each delete that is followed at once by an insert of the same identity key joined into the
     * update it was: the source sends an update that changes a unique key as a delete and an insert, in the binlog's
     * order (docs/source.md). Written as a delete and an insert, it would fire the target's {@code ON DELETE} actions
     * (children deleted, or refused under RESTRICT) where the source ran an UPDATE; as an UPDATE it fires only the
     * {@code ON UPDATE} actions the source fired too. Safe mode takes the net effect per key, the same upsert.
     */
    static List<RowChange> joinSplitUpdates(RowShape shape, List<RowChange> rows) {
        if (!shape.hasIdentity()) return rows;
        List<RowChange> joined = null;
        for (int i = 0; i < rows.size(); i++) {
            RowChange r = rows.get(i);
            RowChange next = i + 1 < rows.size() ? rows.get(i + 1) : null;
            if (r.op() == RowChange.Op.DELETE && next != null && next.op() == RowChange.Op.INSERT
                    && shape.identityOf(r.before()).equals(shape.identityOf(next.after()))) {
                if (joined == null) joined = new ArrayList<>(rows.subList(0, i));
                joined.add(RowChange.update(next.table(), r.before(), next.after(), next.commitTs()));
                i++;
            } else if (joined != null) {
                joined.add(r);
            }
        }
        return joined == null ? rows : joined;
    }

    private void emitWrites(RowShape shape, List<Object[]> images, SqlBatch.Kind kind, List<SqlBatch> out) {
        int cols = shape.columnCount();
        int done = 0;
        long rowBytes = maxRowBytes(shape, images);
        int placeholders = placeholderCap(shape.target(), images.size());
        while (done < images.size()) {
            int n = chooseSize(images.size() - done, cols, rowBytes, placeholders);
            Object[] params = new Object[n * cols];
            int p = 0;
            for (int r = 0; r < n; r++) {
                Object[] image = images.get(done + r);
                for (int c = 0; c < cols; c++) params[p++] = shape.value(image, c);
            }
            out.add(new SqlBatch(text(shape, kind, n), params, n, kind, shape.target().quotedName(), n * rowBytes));
            done += n;
        }
    }

    /** Deletes by identity key; the images may come through different shapes of one table (same identity key). */
    private void emitDeletesByKey(List<Image> images, List<SqlBatch> out) {
        RowShape textShape = images.get(0).shape();
        int keyCols = textShape.identityNames().size();
        int done = 0;
        while (done < images.size()) {
            int n = chooseSize(images.size() - done, keyCols, 16L * keyCols);
            Object[] params = new Object[n * keyCols];
            int p = 0;
            for (int r = 0; r < n; r++) {
                Image image = images.get(done + r);
                for (int k = 0; k < keyCols; k++) params[p++] = image.shape().identityValue(image.values(), k);
            }
            out.add(new SqlBatch(deleteText(textShape, n), params, n, SqlBatch.Kind.DELETE,
                    textShape.target().quotedName()));
            done += n;
        }
    }

    private SqlBatch update(RowShape shape, RowChange r) {
        int cols = shape.columnCount();
        String table = shape.target().quotedName();
        if (shape.hasIdentity()) {
            int keyCols = shape.identityNames().size();
            Object[] params = new Object[cols + keyCols];
            for (int c = 0; c < cols; c++) params[c] = shape.value(r.after(), c);
            for (int k = 0; k < keyCols; k++) params[cols + k] = shape.identityValue(r.before(), k);
            String sql = texts.computeIfAbsent(new TextKey(shape.target(), shape.columns(), SqlBatch.Kind.UPDATE, 1),
                    k -> checked(dialect.updateByKey(table, shape.columns(), shape.identityNames())));
            return new SqlBatch(sql, params, 1, SqlBatch.Kind.UPDATE, table);
        }
        Object[] params = new Object[cols * 2];
        for (int c = 0; c < cols; c++) {
            params[c] = shape.value(r.after(), c);
            params[cols + c] = shape.value(r.before(), c);
        }
        String sql = texts.computeIfAbsent(new TextKey(shape.target(), shape.columns(), SqlBatch.Kind.UPDATE, 0),
                k -> checked(dialect.updateByRow(table, shape.columns())));
        return new SqlBatch(sql, params, 1, SqlBatch.Kind.UPDATE, table);
    }

    private SqlBatch deleteByRow(RowShape shape, Object[] before) {
        int cols = shape.columnCount();
        Object[] params = new Object[cols];
        for (int c = 0; c < cols; c++) params[c] = shape.value(before, c);
        String table = shape.target().quotedName();
        String sql = texts.computeIfAbsent(new TextKey(shape.target(), shape.columns(), SqlBatch.Kind.DELETE, 0),
                k -> checked(dialect.deleteByRow(table, shape.columns())));
        return new SqlBatch(sql, params, 1, SqlBatch.Kind.DELETE, table);
    }

    /** A multi-row delete by key depends on the identity key alone: every shape of a table shares its text. */
    private String deleteText(RowShape shape, int rows) {
        return texts.computeIfAbsent(new TextKey(shape.target(), shape.identityNames(), SqlBatch.Kind.DELETE, rows),
                k -> checked(dialect.deleteByKey(shape.target().quotedName(), shape.identityNames(), rows)));
    }

    private String text(RowShape shape, SqlBatch.Kind kind, int rows) {
        return texts.computeIfAbsent(new TextKey(shape.target(), shape.columns(), kind, rows), k -> {
            String table = shape.target().quotedName();
            return switch (kind) {
                case INSERT -> dialect.insert(table, shape.columns(), rows);
                case UPSERT -> dialect.upsert(table, shape.columns(), shape.identityNames(), rows);
                case REPLACE -> dialect.replace(table, shape.columns(), rows);
                case DELETE -> throw new IllegalStateException("deletes by key take deleteText");
                case UPDATE -> throw new IllegalStateException("updates are single-row");
            };
        });
    }

    /**
     * The most placeholders a statement of {@code table} may carry now, counting {@code rows} more rows as written by
     * it: {@link #SMALL_STATEMENT_PLACEHOLDERS} until the table has written {@link #LARGE_STATEMENT_AFTER_ROWS}.
     */
    int placeholderCap(TargetTable table, int rows) {
        java.util.concurrent.atomic.AtomicLong count = written.get(table);
        if (count == null) {
            if (written.size() >= MAX_COUNTED_TABLES) written.clear();
            count = written.computeIfAbsent(table, t -> new java.util.concurrent.atomic.AtomicLong());
        }
        long before = count.get();
        if (before >= LARGE_STATEMENT_AFTER_ROWS) return MAX_PLACEHOLDERS;
        count.addAndGet(rows);
        return SMALL_STATEMENT_PLACEHOLDERS;
    }

    /** The largest allowed row count for a statement, given what is left and the server's limits. */
    int chooseSize(int remaining, int paramsPerRow, long rowBytes) {
        return chooseSize(remaining, paramsPerRow, rowBytes, MAX_PLACEHOLDERS);
    }

    /** As {@link #chooseSize(int, int, long)}, with at most {@code placeholders} placeholders. */
    int chooseSize(int remaining, int paramsPerRow, long rowBytes, int placeholders) {
        int byParams = Math.min(Math.min(MAX_PLACEHOLDERS, placeholders), dialect.maxParameters())
                / Math.max(1, paramsPerRow);
        // keep a quarter of the packet for the statement's framing and per-value headers
        long byPacket = Math.max(1, (maxPacketBytes * 3 / 4) / Math.max(1, rowBytes));
        for (int s : BATCH_SIZES) {
            if (s <= remaining && s <= byParams && s <= byPacket) return s;
        }
        return 1;
    }

    private static long maxRowBytes(RowShape shape, List<Object[]> images) {
        long max = 1;
        for (Object[] image : images) {
            long b = 0;
            for (int c = 0; c < shape.columnCount(); c++) b += estimate(shape.value(image, c));
            max = Math.max(max, b);
        }
        return max;
    }

    /** {@link #estimate(Object)} of every value. */
    static long estimate(Object[] values) {
        long b = 0;
        for (Object v : values) b += estimate(v);
        return b;
    }

    /** Bytes a value takes on the wire, pessimistic for text (3 bytes per UTF-16 unit). */
    static long estimate(Object v) {
        if (v == null) return 1;
        if (v instanceof String s) return 9L + 3L * s.length();
        if (v instanceof byte[] b) return 9L + b.length;
        if (v instanceof BigDecimal) return 48;
        return 9;
    }

    /** Number of distinct statement texts produced so far (for tests). */
    public int distinctTexts() {
        return texts.size();
    }

    /** Drops cached texts of a table whose definition changed. */
    public void forget(TargetTable table) {
        written.remove(table);
        for (Iterator<TextKey> it = texts.keySet().iterator(); it.hasNext(); ) {
            if (it.next().table().equals(table)) it.remove();
        }
    }
}
