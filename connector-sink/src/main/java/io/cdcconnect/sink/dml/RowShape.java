package io.cdcconnect.sink.dml;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.conflict.KeyHasher;
import io.cdcconnect.sink.conflict.KeyNormalizer;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.dialect.Unrepresentable;
import io.cdcconnect.sink.dialect.ValueConverter;
import io.cdcconnect.sink.table.TargetColumn;
import io.cdcconnect.sink.table.TargetTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How rows of one incoming table version map onto one target table: which incoming positions are written, in which
 * target columns, which positions form each unique key. Built once per table version, then used for every row.
 */
public final class RowShape {

    private final TableInfo source;
    private final TargetTable target;
    private final List<String> columns;
    private final int[] sourceIndex;
    private final ValueConverter[] conversion;
    private final int[][] keyIndexes;
    private final boolean[][] keyCaseInsensitive;
    private final boolean partialKeys;
    private final List<String> identityNames;
    private final int[] identityIndexes;
    private final boolean[] identityCaseInsensitive;
    private final long tableSeed;
    /** Each unique key's {@link KeyHasher#keyId}. */
    private final long[] keyIds;
    /**
     * For each foreign key whose columns the input has: their positions, case-insensitivity, and the parent's table
     * seed and key id. A row carries its parent's key hash, so that it keeps source order with the parent's row
     * (a child inserted after its parent, a parent deleted after its child's change), as MySQL's WRITESET does.
     */
    private final int[][] refIndexes;
    private final boolean[][] refCaseInsensitive;
    private final long[] refSeeds;
    private final long[] refKeyIds;

    private RowShape(TableInfo source, TargetTable target, List<String> columns, int[] sourceIndex, ValueConverter[] conversion,
                     int[][] keyIndexes, boolean[][] keyCaseInsensitive, boolean partialKeys,
                     List<String> identityNames, int[] identityIndexes) {
        this.source = source;
        this.target = target;
        this.columns = columns;
        this.sourceIndex = sourceIndex;
        this.conversion = conversion;
        this.keyIndexes = keyIndexes;
        this.keyCaseInsensitive = keyCaseInsensitive;
        this.partialKeys = partialKeys;
        this.identityNames = identityNames;
        this.identityIndexes = identityIndexes;
        this.identityCaseInsensitive = new boolean[identityNames == null ? 0 : identityNames.size()];
        for (int j = 0; j < identityCaseInsensitive.length; j++) {
            TargetColumn c = target.column(identityNames.get(j));
            identityCaseInsensitive[j] = c != null && c.caseInsensitive();
        }
        this.tableSeed = KeyHasher.tableSeed(target.schema(), target.name());
        this.keyIds = new long[target.uniqueKeys().size()];
        for (int k = 0; k < keyIds.length; k++) keyIds[k] = KeyHasher.keyId(target.uniqueKeys().get(k));
        Map<String, Integer> sourcePos = new java.util.HashMap<>();
        for (int i = 0; i < source.columnCount(); i++) sourcePos.put(source.column(i).name().toLowerCase(Locale.ROOT), i);
        List<int[]> refIdx = new ArrayList<>();
        List<boolean[]> refCi = new ArrayList<>();
        List<Long> seeds = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        for (TargetTable.ForeignKey fk : target.foreignKeys()) {
            int[] idx = new int[fk.columns().size()];
            boolean[] ci = new boolean[idx.length];
            boolean readable = true;
            for (int j = 0; j < idx.length && readable; j++) {
                Integer p = sourcePos.get(fk.columns().get(j).toLowerCase(Locale.ROOT));
                if (p == null) {
                    readable = false;
                } else {
                    idx[j] = p;
                    TargetColumn tc = target.column(fk.columns().get(j));
                    ci[j] = tc != null && tc.caseInsensitive();
                }
            }
            if (!readable) continue;
            refIdx.add(idx);
            refCi.add(ci);
            seeds.add(KeyHasher.tableSeed(fk.parentSchema(), fk.parentTable()));
            ids.add(KeyHasher.keyId(fk.parentColumns()));
        }
        this.refIndexes = refIdx.toArray(new int[0][]);
        this.refCaseInsensitive = refCi.toArray(new boolean[0][]);
        this.refSeeds = seeds.stream().mapToLong(Long::longValue).toArray();
        this.refKeyIds = ids.stream().mapToLong(Long::longValue).toArray();
    }

    /** Maps {@code source} onto {@code target}, values bound as the model holds them (tests). */
    public static RowShape of(TableInfo source, TargetTable target) {
        return of(source, target, null);
    }

    /**
     * Maps {@code source} onto {@code target}, values converted as {@code dialect} says.
     *
     * @throws IllegalArgumentException naming the column when an incoming column is missing from the target, or a
     *                                  target key column is missing from the input
     */
    public static RowShape of(TableInfo source, TargetTable target, SqlDialect dialect) {
        return build(source, target, dialect, false);
    }

    /**
     * As {@link #of(TableInfo, TargetTable, SqlDialect)}, leaving out the incoming columns the target no longer has: a
     * row re-sent from before the statement that dropped them (docs/ordering.md, "replays"), written as that statement
     * left it.
     *
     * @throws IllegalArgumentException when a target key column is missing from the input
     */
    public static RowShape projected(TableInfo source, TargetTable target, SqlDialect dialect) {
        return build(source, target, dialect, true);
    }

    private static RowShape build(TableInfo source, TargetTable target, SqlDialect dialect, boolean project) {
        Map<String, TargetColumn> byName = target.byLowerName();
        List<String> names = new ArrayList<>();
        List<Integer> idx = new ArrayList<>();
        List<ValueConverter> conv = new ArrayList<>();
        for (int i = 0; i < source.columnCount(); i++) {
            ColumnInfo c = source.column(i);
            if (c.generated()) continue;
            TargetColumn t = byName.get(c.name().toLowerCase(Locale.ROOT));
            if (t == null && project) continue;
            if (t == null) {
                throw new IllegalArgumentException("column `" + c.name() + "` of " + source + " does not exist in target table "
                        + target);
            }
            if (t.generated()) continue;
            names.add(t.name());
            idx.add(i);
            conv.add(dialect == null ? null : dialect.converter(c, t));
        }
        int[] sourceIndex = idx.stream().mapToInt(Integer::intValue).toArray();
        ValueConverter[] conversion = conv.toArray(new ValueConverter[0]);

        Map<String, Integer> sourcePos = new java.util.HashMap<>();
        for (int i = 0; i < source.columnCount(); i++) sourcePos.put(source.column(i).name().toLowerCase(Locale.ROOT), i);

        // a unique key whose columns are not all in the input cannot be hashed: such rows also take the table-wide key
        int[][] keyIndexes = new int[target.uniqueKeys().size()][];
        boolean[][] keyCi = new boolean[keyIndexes.length][];
        boolean partial = false;
        boolean anyReadable = false;
        for (int k = 0; k < keyIndexes.length; k++) {
            List<String> key = target.uniqueKeys().get(k);
            int[] keyIdx = new int[key.size()];
            boolean[] ci = new boolean[key.size()];
            boolean readable = true;
            for (int j = 0; j < key.size() && readable; j++) {
                Integer p = sourcePos.get(key.get(j).toLowerCase(Locale.ROOT));
                if (p == null) {
                    readable = false;
                } else {
                    keyIdx[j] = p;
                    TargetColumn tc = target.column(key.get(j));
                    ci[j] = tc != null && tc.caseInsensitive();
                }
            }
            if (readable) {
                keyIndexes[k] = keyIdx;
                keyCi[k] = ci;
                anyReadable = true;
            } else {
                partial = true;
            }
        }
        if (!anyReadable) {
            keyIndexes = null;
            keyCi = null;
        }

        List<String> identity = target.identityKey();
        int[] identityIndexes = null;
        if (identity != null) {
            identityIndexes = new int[identity.size()];
            for (int j = 0; j < identity.size(); j++) {
                Integer p = sourcePos.get(identity.get(j).toLowerCase(Locale.ROOT));
                if (p == null) {
                    throw new IllegalArgumentException("key column `" + identity.get(j) + "` of target table " + target
                            + " is missing from the input rows of " + source);
                }
                identityIndexes[j] = p;
            }
        }
        return new RowShape(source, target, List.copyOf(names), sourceIndex, conversion, keyIndexes, keyCi,
                partial, identity, identityIndexes);
    }

    /** True when rows of {@code table} can use this shape: same instance, or same columns in the same order. */
    public boolean fits(TableInfo table) {
        if (table == source) return true;
        if (table.columnCount() != source.columnCount()) return false;
        for (int i = 0; i < table.columnCount(); i++) {
            ColumnInfo a = table.column(i);
            ColumnInfo b = source.column(i);
            if (!a.name().equals(b.name()) || a.type() != b.type() || a.flags() != b.flags()) return false;
        }
        return true;
    }

    public TargetTable target() {
        return target;
    }

    public TableInfo source() {
        return source;
    }

    /** Target column names written, in order. */
    public List<String> columns() {
        return columns;
    }

    public int columnCount() {
        return sourceIndex.length;
    }

    /** The identity key's column names, or null when rows are matched on every written column. */
    public List<String> identityNames() {
        return identityNames;
    }

    public boolean hasIdentity() {
        return identityIndexes != null;
    }

    /**
     * The value to bind for written column {@code i} of {@code image}, converted as the dialect says. A value the
     * target cannot represent becomes an {@link Unrepresentable}, which fails when bound: the statement fails, and
     * the row is rejected like one the server refuses.
     */
    public Object value(Object[] image, int i) {
        Object v = image[sourceIndex[i]];
        ValueConverter c = conversion[i];
        if (v == null || c == null) return v;
        try {
            return c.convert(v);
        } catch (IllegalArgumentException e) {
            return new Unrepresentable(e.getMessage());
        }
    }

    /** The identity key value {@code j} of {@code image}, converted for binding. */
    public Object identityValue(Object[] image, int j) {
        int src = identityIndexes[j];
        for (int i = 0; i < sourceIndex.length; i++) {
            if (sourceIndex[i] == src) return value(image, i);
        }
        return image[src];
    }

    /** A value that is equal for two images addressing the same target row by its identity key. */
    public Object identityOf(Object[] image) {
        if (identityIndexes == null) return null;
        if (identityIndexes.length == 1) {
            return KeyNormalizer.normalize(image[identityIndexes[0]], identityCaseInsensitive[0]);
        }
        List<Object> key = new ArrayList<>(identityIndexes.length);
        for (int j = 0; j < identityIndexes.length; j++) {
            key.add(KeyNormalizer.normalize(image[identityIndexes[j]], identityCaseInsensitive[j]));
        }
        return key;
    }

    /** Whether changes to this table are ordered table-wide only (no unique key readable from the input). */
    public boolean tableWideConflicts() {
        return keyIndexes == null;
    }

    /** Adds the conflict keys of one change (every unique key of the old and the new image) to {@code out}. */
    public void conflictKeys(RowChange row, LongList out) {
        if (refIndexes.length > 0) {
            if (row.before() != null) referenceKeys(row.before(), out);
            if (row.after() != null) referenceKeys(row.after(), out);
        }
        if (keyIndexes == null) {
            out.add(KeyHasher.tableHash(tableSeed));
            return;
        }
        if (partialKeys) out.add(KeyHasher.tableHash(tableSeed));
        if (row.before() != null) imageKeys(row.before(), out);
        if (row.after() != null) imageKeys(row.after(), out);
    }

    private void imageKeys(Object[] image, LongList out) {
        for (int k = 0; k < keyIndexes.length; k++) {
            if (keyIndexes[k] != null) addKeyHash(image, keyIndexes[k], keyCaseInsensitive[k], tableSeed, keyIds[k], out);
        }
    }

    /** The parent key hashes an image's foreign keys reference (none for a NULL reference: it references no row). */
    private void referenceKeys(Object[] image, LongList out) {
        for (int r = 0; r < refIndexes.length; r++) {
            addKeyHash(image, refIndexes[r], refCaseInsensitive[r], refSeeds[r], refKeyIds[r], out);
        }
    }

    /** The hash of the key {@code cols} of {@code image} hold, unless one of them is NULL (a NULL never collides). */
    private static void addKeyHash(Object[] image, int[] cols, boolean[] caseInsensitive, long seed, long keyId,
                                   LongList out) {
        Object[] values = new Object[cols.length];
        for (int j = 0; j < cols.length; j++) {
            Object v = image[cols[j]];
            if (v == null) return;
            values[j] = KeyNormalizer.normalize(v, caseInsensitive[j]);
        }
        out.add(KeyHasher.keyHash(seed, keyId, values));
    }

    /** A growable list of longs without boxing. */
    public static final class LongList {
        private long[] items = new long[16];
        private int size;

        public void add(long v) {
            if (size == items.length) items = java.util.Arrays.copyOf(items, size * 2);
            items[size++] = v;
        }

        public long[] toArray() {
            return java.util.Arrays.copyOf(items, size);
        }

        public int size() {
            return size;
        }
    }
}
