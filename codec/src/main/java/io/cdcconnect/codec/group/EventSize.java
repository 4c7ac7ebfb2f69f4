package io.cdcconnect.codec.group;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cheap estimate of the bytes an event will take once encoded, for the encoder group's in-flight bound.
 *
 * <p>Only the columns whose values can be large (character and binary strings, BLOB/TEXT, JSON, GEOMETRY) are
 * looked at; every other value counts a fixed 12 bytes. Looking at all 60 values of a wide row cost the submitting
 * thread about 370 ns per row, mostly in reaching the value objects, and on 2 cores that thread's time comes out of
 * the encoders'. Which columns to look at is worked out once per table version ({@link TableInfo} instance).
 *
 * <p>An instance is not thread-safe: one per submitting thread (the group's contract has one).
 */
public final class EventSize {

    private static final int MAX_CACHED_TABLES = 4096;
    private static final long FIXED_VALUE = 12;

    private final Map<TableInfo, int[]> variable = new IdentityHashMap<>();
    private TableInfo lastTable;
    private int[] lastVariable;

    /** The estimate for one event. */
    public long estimate(ChangeEvent e) {
        if (e instanceof RowChange r) {
            int[] cols = variableColumns(r.table());
            int n = r.table().columnCount();
            return 128 + 16L * n + image(r.before(), cols, n) + image(r.after(), cols, n);
        }
        if (e instanceof DdlChange d) {
            return 128 + d.query().length();
        }
        return 128;
    }

    /** The sum of {@link #estimate(ChangeEvent)} over the events. */
    public long estimate(List<ChangeEvent> events) {
        long size = 0;
        for (ChangeEvent e : events) size += estimate(e);
        return size;
    }

    private int[] variableColumns(TableInfo t) {
        if (t == lastTable) {
            return lastVariable;
        }
        int[] cols = variable.get(t);
        if (cols == null) {
            if (variable.size() >= MAX_CACHED_TABLES) {
                variable.clear();
            }
            List<ColumnInfo> columns = t.columns();
            cols = java.util.stream.IntStream.range(0, columns.size())
                    .filter(i -> mayBeLarge(columns.get(i).type())).toArray();
            variable.put(t, cols);
        }
        lastTable = t;
        lastVariable = cols;
        return cols;
    }

    private static boolean mayBeLarge(MySqlType type) {
        return type.isStringFamily() || type == MySqlType.JSON || type == MySqlType.GEOMETRY;
    }

    private static long image(Object[] row, int[] variableColumns, int columnCount) {
        if (row == null) return 0;
        long n = FIXED_VALUE * (columnCount - variableColumns.length);
        for (int i : variableColumns) {
            Object v = row[i];
            if (v instanceof String s) n += s.length() + 2;
            else if (v instanceof byte[] b) n += b.length + b.length / 2 + 2;
            else n += FIXED_VALUE;
        }
        return n;
    }
}
