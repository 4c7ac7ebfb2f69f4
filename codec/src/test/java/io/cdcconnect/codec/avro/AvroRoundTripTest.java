package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Property: random tables of every MySQL type, random rows and options; encode, decode, and the row comes back
 * equal (values in the model's Java types; column types as the protocol collapses them). The registry is
 * test-support's {@link StandInSchemaRegistry}; the decoder has a client of its own, so it reads each writer schema
 * back from the registry's text.
 */
class AvroRoundTripTest {

    private static final MySqlType[] TYPES = {
            MySqlType.TINY, MySqlType.SHORT, MySqlType.INT24, MySqlType.LONG, MySqlType.LONGLONG, MySqlType.FLOAT,
            MySqlType.DOUBLE, MySqlType.BIT, MySqlType.NEWDECIMAL, MySqlType.VARCHAR, MySqlType.VAR_STRING,
            MySqlType.STRING, MySqlType.TINY_BLOB, MySqlType.MEDIUM_BLOB, MySqlType.BLOB, MySqlType.LONG_BLOB,
            MySqlType.ENUM, MySqlType.SET, MySqlType.JSON, MySqlType.DATE, MySqlType.DATETIME, MySqlType.TIMESTAMP,
            MySqlType.TIME, MySqlType.YEAR, MySqlType.GEOMETRY};

    @Test
    void randomRowsOfEveryTypeSurviveEncodeAndDecode() throws IOException {
        long seed = Long.getLong("avro.roundtrip.seed", System.nanoTime());
        Random rnd = new Random(seed);
        int rows = 0;
        try (StandInSchemaRegistry standIn = StandInSchemaRegistry.start()) {
            for (int t = 0; t < 60; t++) {
                AvroOptions options = AvroOptions.defaults()
                        .withTidbExtension(rnd.nextBoolean())
                        .withDecimalHandling(rnd.nextBoolean() ? AvroOptions.DecimalHandling.PRECISE
                                : AvroOptions.DecimalHandling.STRING)
                        .withBigintUnsignedHandling(rnd.nextBoolean() ? AvroOptions.BigintUnsignedHandling.LONG
                                : AvroOptions.BigintUnsignedHandling.STRING);
                TableInfo table = randomTable(rnd, t);
                AvroEncoder encoder = new AvroEncoder(options, new HttpSchemaRegistryClient(standIn.url()));
                AvroDecoder decoder = new AvroDecoder(new HttpSchemaRegistryClient(standIn.url()));
                for (int r = 0; r < 40; r++, rows++) {
                    RowChange change = randomChange(rnd, table);
                    String context = "seed " + seed + ", table " + t + ", row " + r + ", " + options;
                    AvroMessage m = encoder.encode("db.topic" + t, change);
                    check(change, decoder.decode(m.key(), m.value()), options, context);
                }
            }
        }
        assertEquals(60 * 40, rows);
    }

    private static void check(RowChange in, RowChange out, AvroOptions o, String context) {
        TableInfo t = in.table();
        assertEquals(t.schema(), out.schema(), context);
        assertEquals(t.table(), out.tableName(), context);
        if (in.op() == RowChange.Op.DELETE) {
            // A delete is its key: the table comes back with the key columns only.
            assertEquals(RowChange.Op.DELETE, out.op(), context);
            int[] key = t.uniqueKeys().get(0);
            assertEquals(key.length, out.table().columnCount(), context);
            for (int k = 0; k < key.length; k++) {
                assertColumn(t.column(key[k]), out.table().column(k), true, context);
                assertValue(in.before()[key[k]], out.before()[k], context + ", key column " + k);
            }
            assertEquals(0, out.commitTs(), context);
            return;
        }
        RowChange.Op expectedOp = in.op() == RowChange.Op.UPDATE && o.enableTidbExtension()
                ? RowChange.Op.UPDATE : RowChange.Op.INSERT;
        assertEquals(expectedOp, out.op(), context);
        assertEquals(o.enableTidbExtension() ? in.commitTs() : 0, out.commitTs(), context);
        assertEquals(t.columnCount(), out.table().columnCount(), context);
        List<Integer> key = new ArrayList<>();
        for (int k : t.uniqueKeys().get(0)) key.add(k);
        for (int i = 0; i < t.columnCount(); i++) {
            assertColumn(t.column(i), out.table().column(i), key.contains(i), context);
            assertValue(in.after()[i], out.after()[i], context + ", column " + t.column(i).name());
            if (expectedOp == RowChange.Op.UPDATE) {
                if (key.contains(i)) assertValue(in.after()[i], out.before()[i], context);
                else assertNull(out.before()[i], context);
            }
        }
    }

    /** The decoded column: same name and flags, type as TiCDC's decoder collapses it (own table, not the code's). */
    private static void assertColumn(ColumnInfo in, ColumnInfo out, boolean key, String context) {
        assertEquals(in.name(), out.name(), context);
        MySqlType expected = switch (in.type()) {
            case TINY, SHORT, INT24, LONG -> MySqlType.LONG;
            case VARCHAR, VAR_STRING, STRING, TINY_BLOB, MEDIUM_BLOB, BLOB, LONG_BLOB ->
                    in.binary() ? MySqlType.LONG_BLOB : MySqlType.VARCHAR;
            case GEOMETRY -> MySqlType.LONG_BLOB;
            default -> in.type();
        };
        assertEquals(expected, out.type(), context + ", column " + in.name());
        assertEquals(in.nullable(), out.nullable(), context);
        boolean numeric = in.type().isInteger();
        assertEquals(numeric && in.unsigned(), out.unsigned(), context);
        assertEquals(in.binary() || in.type() == MySqlType.GEOMETRY, out.binary(), context);
        assertEquals(key, out.primaryKey() && out.handleKey(), context);
        if (in.type() == MySqlType.ENUM || in.type() == MySqlType.SET) {
            assertEquals(in.elements(), out.elements(), context);
        }
    }

    private static void assertValue(Object expected, Object actual, String context) {
        if (expected instanceof byte[] b) {
            assertArrayEquals(b, (byte[]) actual, context);
        } else {
            assertEquals(expected, actual, context);
        }
    }

    // ---- generators ----

    static TableInfo randomTable(Random rnd, int n) {
        int count = 1 + rnd.nextInt(24);
        List<ColumnInfo> cols = new ArrayList<>();
        int keyCols = 1 + rnd.nextInt(2);
        for (int i = 0; i < count + keyCols; i++) {
            boolean key = i < keyCols;
            MySqlType type = key ? (rnd.nextBoolean() ? MySqlType.LONGLONG : MySqlType.VARCHAR)
                    : TYPES[rnd.nextInt(TYPES.length)];
            int flags = 0;
            if (key) flags |= ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY;
            else if (rnd.nextInt(3) > 0) flags |= ColumnFlags.NULLABLE;
            if (type.isInteger() && rnd.nextBoolean()) flags |= ColumnFlags.UNSIGNED;
            if (type.isStringFamily() && !key && rnd.nextBoolean()) flags |= ColumnFlags.BINARY;
            int length = -1;
            int scale = -1;
            List<String> elements = List.of();
            if (type == MySqlType.BIT) length = 1 + rnd.nextInt(64);
            if (type == MySqlType.NEWDECIMAL) {
                length = 1 + rnd.nextInt(65);
                scale = rnd.nextInt(Math.min(length, 30) + 1);
            }
            if (type == MySqlType.ENUM) elements = List.of("a", "b,c", "it's", "Ünï", "E");
            if (type == MySqlType.SET) elements = List.of("x", "y", "z", "w-1", "v v");
            cols.add(new ColumnInfo("c" + i + "_" + type.name().toLowerCase(), type, flags, null, length, scale, -1,
                    elements, null));
        }
        return TableInfo.of("db" + (n % 3), "t_" + n, cols);
    }

    static RowChange randomChange(Random rnd, TableInfo t) {
        long ts = ((1_700_000_000_000L + rnd.nextInt(1_000_000)) << 18) | rnd.nextInt(1 << 18);
        Object[] after = randomRow(rnd, t);
        return switch (rnd.nextInt(3)) {
            case 0 -> RowChange.insert(t, after, ts);
            case 1 -> RowChange.update(t, randomRow(rnd, t), after, ts);
            default -> RowChange.delete(t, after, ts);
        };
    }

    static Object[] randomRow(Random rnd, TableInfo t) {
        Object[] row = new Object[t.columnCount()];
        for (int i = 0; i < row.length; i++) {
            ColumnInfo c = t.column(i);
            row[i] = c.nullable() && rnd.nextInt(5) == 0 ? null : randomValue(rnd, c);
        }
        return row;
    }

    static Object randomValue(Random rnd, ColumnInfo c) {
        boolean u = c.unsigned();
        switch (c.type()) {
            case TINY: return u ? (long) rnd.nextInt(256) : (long) (rnd.nextInt(256) - 128);
            case SHORT: return u ? (long) rnd.nextInt(65536) : (long) (rnd.nextInt(65536) - 32768);
            case INT24: return u ? (long) rnd.nextInt(1 << 24) : (long) (rnd.nextInt(1 << 24) - (1 << 23));
            case LONG: return u ? rnd.nextLong() >>> 32 : (long) rnd.nextInt();
            case LONGLONG: return edge(rnd, rnd.nextLong(), Long.MIN_VALUE, Long.MAX_VALUE, -1L, 0L);
            case FLOAT: return edge(rnd, rnd.nextFloat() * 1e6f - 5e5f, Float.MAX_VALUE, -Float.MIN_VALUE, 0f);
            case DOUBLE: return edge(rnd, rnd.nextGaussian() * 1e12, Double.MAX_VALUE, -Double.MIN_VALUE, 0d);
            case BIT: return c.length() == 64 ? rnd.nextLong() : rnd.nextLong() & ((1L << c.length()) - 1);
            case NEWDECIMAL: {
                BigInteger unscaled = new BigInteger(c.length() * 3, rnd);
                if (unscaled.toString().length() > c.length()) unscaled = unscaled.mod(BigInteger.TEN.pow(c.length()));
                if (rnd.nextBoolean()) unscaled = unscaled.negate();
                return new BigDecimal(unscaled, c.scale());
            }
            case ENUM: return (long) rnd.nextInt(c.elements().size() + 1);
            case SET: return (long) rnd.nextInt(1 << c.elements().size());
            case JSON: return "{\"k\": [1, \"v\", null]}";
            case DATE: return "2024-0" + (1 + rnd.nextInt(9)) + "-15";
            case DATETIME: return "2024-01-31 23:59:59." + rnd.nextInt(1_000_000);
            case TIMESTAMP: return "1973-12-30 15:30:00";
            case TIME: return rnd.nextBoolean() ? "-838:59:59" : "12:00:00.5";
            case YEAR: return rnd.nextInt(10) == 0 ? 0L : 1901L + rnd.nextInt(255);
            case GEOMETRY: return randomBytes(rnd);
            default:
                return c.binary() ? randomBytes(rnd) : randomText(rnd);
        }
    }

    @SafeVarargs
    private static <T> T edge(Random rnd, T usual, T... edges) {
        return rnd.nextInt(4) == 0 ? edges[rnd.nextInt(edges.length)] : usual;
    }

    private static byte[] randomBytes(Random rnd) {
        byte[] b = new byte[rnd.nextInt(40)];
        rnd.nextBytes(b);
        return b;
    }

    private static String randomText(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(20);
        for (int i = 0; i < n; i++) {
            switch (rnd.nextInt(4)) {
                case 0 -> sb.append((char) ('a' + rnd.nextInt(26)));
                case 1 -> sb.append("中文");
                case 2 -> sb.appendCodePoint(0x1F600 + rnd.nextInt(40));
                default -> sb.append("\"\\\n\u0000'");
            }
        }
        return sb.toString();
    }
}
