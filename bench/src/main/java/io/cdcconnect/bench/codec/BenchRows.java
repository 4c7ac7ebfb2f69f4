package io.cdcconnect.bench.codec;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** The two benchmark rows of docs/benchmarks.md (bench/results/benchmarks-codec.md): the 60-column wide row (~1.2 KB) and the sysbench row. */
public final class BenchRows {

    private static final int PK = ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY;
    private static final int N = ColumnFlags.NULLABLE;
    private static final int U = ColumnFlags.UNSIGNED | ColumnFlags.NULLABLE;
    private static final int B = ColumnFlags.BINARY | ColumnFlags.NULLABLE;

    public static final TableInfo SYSBENCH = TableInfo.of("sbtest", "sbtest1", List.of(
            ColumnInfo.of("id", MySqlType.LONG, PK),
            ColumnInfo.of("k", MySqlType.LONG, ColumnFlags.MULTIPLE_KEY),
            ColumnInfo.of("c", MySqlType.STRING, 0),
            ColumnInfo.of("pad", MySqlType.STRING, 0)));

    public static final TableInfo WIDE = wideTable();

    private BenchRows() {
    }

    /** 60 columns of the common types. */
    private static TableInfo wideTable() {
        List<ColumnInfo> c = new ArrayList<>();
        c.add(ColumnInfo.of("id", MySqlType.LONGLONG, PK));
        for (int i = 0; i < 4; i++) c.add(ColumnInfo.of("c_tinyint_" + i, MySqlType.TINY, i % 2 == 0 ? N : U));
        for (int i = 0; i < 4; i++) c.add(ColumnInfo.of("c_smallint_" + i, MySqlType.SHORT, i % 2 == 0 ? N : U));
        for (int i = 0; i < 7; i++) c.add(ColumnInfo.of("c_int_" + i, MySqlType.LONG, i % 2 == 0 ? N : U));
        for (int i = 0; i < 5; i++) c.add(ColumnInfo.of("c_bigint_" + i, MySqlType.LONGLONG, i % 2 == 0 ? N : U));
        for (int i = 0; i < 3; i++) c.add(ColumnInfo.of("c_float_" + i, MySqlType.FLOAT, N));
        for (int i = 0; i < 3; i++) c.add(ColumnInfo.of("c_double_" + i, MySqlType.DOUBLE, N));
        for (int i = 0; i < 4; i++) {
            c.add(new ColumnInfo("c_decimal_" + i, MySqlType.NEWDECIMAL, N, null, 20, 6, -1, List.of(), "decimal(20,6)"));
        }
        for (int i = 0; i < 3; i++) c.add(ColumnInfo.of("c_date_" + i, MySqlType.DATE, N));
        for (int i = 0; i < 3; i++) {
            c.add(new ColumnInfo("c_datetime_" + i, MySqlType.DATETIME, N, null, -1, -1, 6, List.of(), "datetime(6)"));
        }
        for (int i = 0; i < 2; i++) c.add(ColumnInfo.of("c_timestamp_" + i, MySqlType.TIMESTAMP, N));
        c.add(ColumnInfo.of("c_time", MySqlType.TIME, N));
        c.add(ColumnInfo.of("c_year", MySqlType.YEAR, N));
        for (int i = 0; i < 7; i++) c.add(ColumnInfo.of("c_varchar_" + i, MySqlType.VARCHAR, N));
        for (int i = 0; i < 3; i++) c.add(ColumnInfo.of("c_char_" + i, MySqlType.STRING, N));
        for (int i = 0; i < 2; i++) c.add(ColumnInfo.of("c_text_" + i, MySqlType.BLOB, N));
        for (int i = 0; i < 2; i++) c.add(ColumnInfo.of("c_varbinary_" + i, MySqlType.VARCHAR, B));
        c.add(ColumnInfo.of("c_blob", MySqlType.BLOB, B));
        c.add(new ColumnInfo("c_enum", MySqlType.ENUM, N, null, -1, -1, -1, List.of("new", "paid", "sent"), null));
        c.add(new ColumnInfo("c_set", MySqlType.SET, N, null, -1, -1, -1, List.of("a", "b", "c"), null));
        c.add(new ColumnInfo("c_bit", MySqlType.BIT, U, null, 8, -1, -1, List.of(), "bit(8)"));
        c.add(ColumnInfo.of("c_json", MySqlType.JSON, N));
        if (c.size() != 60) throw new IllegalStateException("wide table has " + c.size() + " columns");
        return TableInfo.of("bench", "wide", c);
    }

    private static String letters(Random r, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) sb.append((char) ('a' + r.nextInt(26)));
        return sb.toString();
    }

    private static String digits(Random r, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            if (i > 0 && i % 12 == 11) sb.append('-');
            else sb.append((char) ('0' + r.nextInt(10)));
        }
        return sb.toString();
    }

    public static Object[] wideRow(long id, Random r) {
        List<ColumnInfo> cols = WIDE.columns();
        Object[] v = new Object[cols.size()];
        for (int i = 0; i < v.length; i++) {
            ColumnInfo c = cols.get(i);
            String n = c.name();
            switch (c.type()) {
                case TINY -> v[i] = (long) r.nextInt(c.unsigned() ? 256 : 128);
                case SHORT -> v[i] = (long) r.nextInt(c.unsigned() ? 65536 : 32768);
                case LONG -> v[i] = c.unsigned() ? r.nextLong() & 0xFFFFFFFFL : (long) r.nextInt();
                case LONGLONG -> v[i] = i == 0 ? id : r.nextLong();
                case FLOAT -> v[i] = r.nextFloat() * 1000;
                case DOUBLE -> v[i] = r.nextDouble() * 1e6;
                case NEWDECIMAL -> v[i] = BigDecimal.valueOf(r.nextLong() % 100_000_000_000_000L, 6);
                case DATE -> v[i] = String.format("20%02d-%02d-%02d", r.nextInt(30), 1 + r.nextInt(12), 1 + r.nextInt(28));
                case DATETIME -> v[i] = String.format("20%02d-%02d-%02d %02d:%02d:%02d.%06d", r.nextInt(30),
                        1 + r.nextInt(12), 1 + r.nextInt(28), r.nextInt(24), r.nextInt(60), r.nextInt(60), r.nextInt(1000000));
                case TIMESTAMP -> v[i] = String.format("20%02d-%02d-%02d %02d:%02d:%02d", r.nextInt(30),
                        1 + r.nextInt(12), 1 + r.nextInt(28), r.nextInt(24), r.nextInt(60), r.nextInt(60));
                case TIME -> v[i] = String.format("%02d:%02d:%02d", r.nextInt(24), r.nextInt(60), r.nextInt(60));
                case YEAR -> v[i] = 1990L + r.nextInt(40);
                case VARCHAR -> v[i] = c.binary() ? bytes(r, 24) : letters(r, 20 + r.nextInt(24));
                case STRING -> v[i] = letters(r, 20);
                case BLOB -> v[i] = c.binary() ? bytes(r, 64) : "Lorem <ipsum> & \"dolor\" " + letters(r, 100);
                case ENUM -> v[i] = 1L + r.nextInt(3);
                case SET -> v[i] = (long) r.nextInt(8);
                case BIT -> v[i] = (long) r.nextInt(256);
                case JSON -> v[i] = "{\"id\":" + id + ",\"tags\":[\"" + letters(r, 6) + "\",\"" + letters(r, 6)
                        + "\"],\"ok\":true}";
                default -> throw new IllegalStateException(n);
            }
        }
        return v;
    }

    private static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    public static Object[] sysbenchRow(long id, Random r) {
        return new Object[] {id, (long) r.nextInt(1_000_000), digits(r, 119), digits(r, 59)};
    }

    /** A pool of distinct inserts (one row image per message), commit ts rising. */
    public static RowChange[] changes(String which, int count, long seed) {
        Random r = new Random(seed);
        RowChange[] out = new RowChange[count];
        long ts = 1_700_000_000_000L << 18;
        for (int i = 0; i < count; i++) {
            boolean wide = which.equals("wide");
            TableInfo t = wide ? WIDE : SYSBENCH;
            Object[] before = wide ? wideRow(i, r) : sysbenchRow(i, r);
            Object[] after = wide ? wideRow(i, r) : sysbenchRow(i, r);
            after[0] = before[0];
            out[i] = RowChange.insert(t, after, ts + i);
        }
        return out;
    }

    /** Raw value bytes of a row (strings as UTF-8, numbers 8 bytes), to check the ~1.2 KB target. */
    public static int rawSize(Object[] row) {
        int n = 0;
        for (Object v : row) {
            if (v instanceof String s) n += s.getBytes(StandardCharsets.UTF_8).length;
            else if (v instanceof byte[] b) n += b.length;
            else n += 8;
        }
        return n;
    }
}
