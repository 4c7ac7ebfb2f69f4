package io.cdcconnect.codec;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A table with a column of every MySQL type the codecs carry, and random rows for it (seeded, reproducible). */
public final class RandomRows {

    private static final int PK = ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY;
    private static final int N = ColumnFlags.NULLABLE;
    private static final int U = ColumnFlags.UNSIGNED | ColumnFlags.NULLABLE;
    private static final int B = ColumnFlags.BINARY | ColumnFlags.NULLABLE;
    private static final List<String> ENUM = List.of("a", "b", "c", "d");
    private static final List<String> SET = List.of("x", "y", "z");

    public static final TableInfo ALL_TYPES = TableInfo.of("prop_db", "all_types", List.of(
            ColumnInfo.of("id", MySqlType.LONGLONG, PK),
            ColumnInfo.of("c_tiny", MySqlType.TINY, N),
            ColumnInfo.of("c_tiny_u", MySqlType.TINY, U),
            ColumnInfo.of("c_small", MySqlType.SHORT, N),
            ColumnInfo.of("c_small_u", MySqlType.SHORT, U),
            ColumnInfo.of("c_medium", MySqlType.INT24, N),
            ColumnInfo.of("c_medium_u", MySqlType.INT24, U),
            ColumnInfo.of("c_int", MySqlType.LONG, N),
            ColumnInfo.of("c_int_u", MySqlType.LONG, U),
            ColumnInfo.of("c_big", MySqlType.LONGLONG, N),
            ColumnInfo.of("c_big_u", MySqlType.LONGLONG, U),
            ColumnInfo.of("c_float", MySqlType.FLOAT, N),
            ColumnInfo.of("c_double", MySqlType.DOUBLE, N),
            new ColumnInfo("c_decimal", MySqlType.NEWDECIMAL, N, null, 65, 30, -1, List.of(), "decimal(65,30)"),
            new ColumnInfo("c_bit1", MySqlType.BIT, U, null, 1, -1, -1, List.of(), "bit(1)"),
            new ColumnInfo("c_bit64", MySqlType.BIT, U, null, 64, -1, -1, List.of(), "bit(64)"),
            ColumnInfo.of("c_date", MySqlType.DATE, N),
            new ColumnInfo("c_time", MySqlType.TIME, N, null, -1, -1, 6, List.of(), "time(6)"),
            new ColumnInfo("c_datetime", MySqlType.DATETIME, N, null, -1, -1, 6, List.of(), "datetime(6)"),
            new ColumnInfo("c_timestamp", MySqlType.TIMESTAMP, N, null, -1, -1, 3, List.of(), "timestamp(3)"),
            ColumnInfo.of("c_year", MySqlType.YEAR, N),
            ColumnInfo.of("c_char", MySqlType.STRING, N),
            ColumnInfo.of("c_varchar", MySqlType.VARCHAR, N),
            ColumnInfo.of("c_tinytext", MySqlType.TINY_BLOB, N),
            ColumnInfo.of("c_text", MySqlType.BLOB, N),
            ColumnInfo.of("c_mediumtext", MySqlType.MEDIUM_BLOB, N),
            ColumnInfo.of("c_longtext", MySqlType.LONG_BLOB, N),
            ColumnInfo.of("c_binary", MySqlType.STRING, B),
            ColumnInfo.of("c_varbinary", MySqlType.VARCHAR, B),
            ColumnInfo.of("c_tinyblob", MySqlType.TINY_BLOB, B),
            ColumnInfo.of("c_blob", MySqlType.BLOB, B),
            ColumnInfo.of("c_mediumblob", MySqlType.MEDIUM_BLOB, B),
            ColumnInfo.of("c_longblob", MySqlType.LONG_BLOB, B),
            new ColumnInfo("c_enum", MySqlType.ENUM, N, null, -1, -1, -1, ENUM, "enum('a','b','c','d')"),
            new ColumnInfo("c_set", MySqlType.SET, N, null, -1, -1, -1, SET, "set('x','y','z')"),
            ColumnInfo.of("c_json", MySqlType.JSON, N),
            ColumnInfo.of("c_utf8mb4 名前", MySqlType.VARCHAR, N)));

    private final Random rnd;

    public RandomRows(long seed) {
        rnd = new Random(seed);
    }

    public Random random() {
        return rnd;
    }

    /** A random insert, update or delete of {@link #ALL_TYPES}. */
    public RowChange change(long commitTs) {
        switch (rnd.nextInt(3)) {
            case 0: return RowChange.insert(ALL_TYPES, row(), commitTs);
            case 1: return RowChange.update(ALL_TYPES, row(), row(), commitTs);
            default: return RowChange.delete(ALL_TYPES, row(), commitTs);
        }
    }

    public Object[] row() {
        List<ColumnInfo> cols = ALL_TYPES.columns();
        Object[] r = new Object[cols.size()];
        for (int i = 0; i < r.length; i++) {
            ColumnInfo c = cols.get(i);
            r[i] = i > 0 && rnd.nextInt(8) == 0 ? null : value(c);
        }
        return r;
    }

    private Object value(ColumnInfo c) {
        boolean u = c.unsigned();
        switch (c.type()) {
            case TINY: return u ? (long) rnd.nextInt(256) : (long) (rnd.nextInt(256) - 128);
            case SHORT: return u ? (long) rnd.nextInt(65536) : (long) (rnd.nextInt(65536) - 32768);
            case INT24: return u ? (long) rnd.nextInt(1 << 24) : (long) (rnd.nextInt(1 << 24) - (1 << 23));
            case LONG: return u ? rnd.nextLong() & 0xFFFFFFFFL : (long) rnd.nextInt();
            case LONGLONG: return edge(rnd.nextLong(), -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0L);
            case FLOAT: {
                float f = Float.intBitsToFloat(rnd.nextInt());
                return Float.isNaN(f) || Float.isInfinite(f) ? (float) rnd.nextGaussian() : f;
            }
            case DOUBLE: {
                double d = Double.longBitsToDouble(rnd.nextLong());
                return Double.isNaN(d) || Double.isInfinite(d) ? edge(rnd.nextGaussian(), 1e-7, 1e21, -0.0, 0.1) : d;
            }
            case NEWDECIMAL: {
                int digits = 1 + rnd.nextInt(65);
                BigInteger unscaled = new BigInteger(digits * 4, rnd).mod(BigInteger.TEN.pow(digits));
                if (rnd.nextBoolean()) unscaled = unscaled.negate();
                return new BigDecimal(unscaled, Math.min(30, rnd.nextInt(digits + 1)));
            }
            case BIT: return c.length() == 64 ? rnd.nextLong() : (long) rnd.nextInt(2);
            case DATE: return String.format("%04d-%02d-%02d", 1000 + rnd.nextInt(9000), 1 + rnd.nextInt(12), 1 + rnd.nextInt(28));
            case TIME: return String.format("%s%02d:%02d:%02d.%06d", rnd.nextBoolean() ? "-" : "", rnd.nextInt(839),
                    rnd.nextInt(60), rnd.nextInt(60), rnd.nextInt(1_000_000));
            case DATETIME: return String.format("%04d-%02d-%02d %02d:%02d:%02d.%06d", 1000 + rnd.nextInt(9000),
                    1 + rnd.nextInt(12), 1 + rnd.nextInt(28), rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60),
                    rnd.nextInt(1_000_000));
            case TIMESTAMP: return String.format("%04d-%02d-%02d %02d:%02d:%02d.%03d", 1970 + rnd.nextInt(68),
                    1 + rnd.nextInt(12), 1 + rnd.nextInt(28), rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60),
                    rnd.nextInt(1000));
            case YEAR: return rnd.nextInt(10) == 0 ? 0L : (long) (1901 + rnd.nextInt(255));
            case ENUM: return (long) (1 + rnd.nextInt(c.elements().size()));
            case SET: return (long) rnd.nextInt(1 << c.elements().size());
            case JSON: return "{\"k\":" + rnd.nextInt() + ",\"s\":\"" + "<&>\\\"" + "\",\"a\":[1,2.5,null,true]}";
            default:
                return c.binary() ? bytes() : text();
        }
    }

    @SafeVarargs
    private <T> T edge(T normal, T... edges) {
        return rnd.nextInt(4) == 0 ? edges[rnd.nextInt(edges.length)] : normal;
    }

    private byte[] bytes() {
        byte[] b = new byte[rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(300)];
        rnd.nextBytes(b);
        return b;
    }

    private static final int[] SPECIAL = {0, 1, 8, 9, 10, 12, 13, 0x1F, '"', '\\', '<', '>', '&', '\'', 0x7F, 0x80,
        0xA0, 0xAD, 0xFF, 0x2028, 0x2029, 0xFEFF, 0xFFFD, 0x1F600, 0x10FFFF, 0x20000, 0xE000};

    private String text() {
        int n = rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(80);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(6);
            int cp;
            if (kind == 0) cp = SPECIAL[rnd.nextInt(SPECIAL.length)];
            else if (kind == 1) cp = 0x10000 + rnd.nextInt(0x10FFFF - 0x10000); // 4-byte UTF-8
            else if (kind == 2) {
                do {
                    cp = rnd.nextInt(0x10000);
                } while (cp >= 0xD800 && cp <= 0xDFFF);
            } else cp = 0x20 + rnd.nextInt(0x5F);
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    /** Values equal as the model means them (arrays by content, BigDecimal by value and scale). */
    public static boolean sameValues(Object[] a, Object[] b) {
        return java.util.Arrays.deepEquals(a, b);
    }

    public static List<String> describeDifferences(Object[] a, Object[] b) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            if (!java.util.Objects.deepEquals(a[i], b[i])) {
                out.add(ALL_TYPES.column(i).name() + ": " + show(a[i]) + " != " + show(b[i]));
            }
        }
        return out;
    }

    private static String show(Object o) {
        if (o instanceof byte[] b) return "bytes" + java.util.Arrays.toString(b);
        return o == null ? "null" : o.getClass().getSimpleName() + "(" + o + ")";
    }
}
