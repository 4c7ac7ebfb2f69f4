package io.cdcconnect.sink.dialect.postgres.types;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.sink.dialect.postgres.types.PostgresTypes.PgKind;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PostgresTypesTest {

    @Test
    void everyMySqlTypeHasItsPostgresType() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("tinyint(4)", "smallint");
        cases.put("tinyint(3) unsigned", "smallint");
        cases.put("tinyint(1)", "smallint");
        cases.put("bool", "smallint");
        cases.put("smallint(6)", "smallint");
        cases.put("smallint(5) unsigned", "integer");
        cases.put("mediumint(9)", "integer");
        cases.put("mediumint(8) unsigned", "integer");
        cases.put("int(11)", "integer");
        cases.put("INT", "integer");
        cases.put("integer", "integer");
        cases.put("int(11) unsigned", "bigint");
        cases.put("int(10) unsigned zerofill", "bigint");
        cases.put("bigint(20)", "bigint");
        cases.put("bigint(20) unsigned", "numeric(20,0)");
        cases.put("BIGINT UNSIGNED", "numeric(20,0)");
        cases.put("decimal(10,4)", "numeric(10,4)");
        cases.put("decimal(12)", "numeric(12,0)");
        cases.put("decimal", "numeric(10,0)");
        cases.put("decimal(65,30) unsigned", "numeric(65,30)");
        cases.put("numeric(5,2)", "numeric(5,2)");
        cases.put("float", "real");
        cases.put("float(10)", "real");
        cases.put("float(30)", "double precision");
        cases.put("double", "double precision");
        cases.put("double(10,2)", "double precision");
        cases.put("double precision", "double precision");
        cases.put("real", "double precision");
        cases.put("date", "date");
        cases.put("datetime", "timestamp(0) without time zone");
        cases.put("datetime(3)", "timestamp(3) without time zone");
        cases.put("timestamp", "timestamptz(0)");
        cases.put("timestamp(6)", "timestamptz(6)");
        cases.put("time", "interval");
        cases.put("time(3)", "interval");
        cases.put("year(4)", "smallint");
        cases.put("year", "smallint");
        cases.put("bit(5)", "bit(5)");
        cases.put("bit", "bit(1)");
        cases.put("bit(64)", "bit(64)");
        cases.put("char(3)", "char(3)");
        cases.put("char", "char(1)");
        cases.put("char(0)", "text");
        cases.put("national char(2)", "char(2)");
        cases.put("varchar(20)", "varchar(20)");
        cases.put("character varying(7)", "varchar(7)");
        cases.put("nvarchar(9)", "varchar(9)");
        cases.put("tinytext", "text");
        cases.put("text", "text");
        cases.put("mediumtext", "text");
        cases.put("longtext", "text");
        cases.put("long varchar", "text");
        cases.put("binary(16)", "bytea");
        cases.put("varbinary(16)", "bytea");
        cases.put("tinyblob", "bytea");
        cases.put("blob", "bytea");
        cases.put("mediumblob", "bytea");
        cases.put("longblob", "bytea");
        cases.put("geometry", "bytea");
        cases.put("point", "bytea");
        cases.put("multipolygon", "bytea");
        cases.put("json", "jsonb");
        cases.put("enum('a','b')", "text");
        cases.put("enum('a,b','c)')", "text");
        cases.put("set('x','y')", "text");
        cases.forEach((mysql, pg) -> assertEquals(pg, PostgresTypes.pgType(mysql), mysql));
    }

    @Test
    void anUnknownTypeIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PostgresTypes.pgType("vector(3)"));
        assertEquals("MySQL column type 'vector(3)' has no PostgreSQL type", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PostgresTypes.pgType(""));
        assertThrows(IllegalArgumentException.class, () -> PostgresTypes.pgType("decimal(x)"));
    }

    @Test
    void columnsWithoutColumnTypeAreMappedFromTheirMetadata() {
        assertEquals("numeric(20,0)", PostgresTypes.pgType(ColumnInfo.of("a", MySqlType.LONGLONG,
                ColumnFlags.UNSIGNED)));
        assertEquals("bigint", PostgresTypes.pgType(ColumnInfo.of("a", MySqlType.LONG, ColumnFlags.UNSIGNED)));
        assertEquals("smallint", PostgresTypes.pgType(ColumnInfo.of("a", MySqlType.TINY, 0)));
        assertEquals("bytea", PostgresTypes.pgType(ColumnInfo.of("a", MySqlType.BLOB, ColumnFlags.BINARY)));
        assertEquals("text", PostgresTypes.pgType(ColumnInfo.of("a", MySqlType.BLOB, 0)));
        assertEquals("varchar(20)", PostgresTypes.pgType(new ColumnInfo("a", MySqlType.VARCHAR, 0, "utf8mb4", 20,
                -1, -1, List.of(), null)));
        assertEquals("numeric(10,2)", PostgresTypes.pgType(new ColumnInfo("a", MySqlType.NEWDECIMAL, 0, null, 10,
                2, -1, List.of(), null)));
        assertEquals("timestamptz(3)", PostgresTypes.pgType(new ColumnInfo("a", MySqlType.TIMESTAMP, 0, null, -1,
                -1, 3, List.of(), null)));
        // columnType wins when present
        assertEquals("bigint", PostgresTypes.pgType(new ColumnInfo("a", MySqlType.LONG, 0, null, -1, -1, -1,
                List.of(), "int(10) unsigned")));
    }

    @Test
    void postgresTypeNamesGiveTheirKind() {
        Map<String, PgKind> cases = new LinkedHashMap<>();
        cases.put("int2", PgKind.INT2);
        cases.put("smallint", PgKind.INT2);
        cases.put("int4", PgKind.INT4);
        cases.put("integer", PgKind.INT4);
        cases.put("int8", PgKind.INT8);
        cases.put("numeric", PgKind.NUMERIC);
        cases.put("numeric(20,0)", PgKind.NUMERIC);
        cases.put("float4", PgKind.FLOAT4);
        cases.put("float8", PgKind.FLOAT8);
        cases.put("double precision", PgKind.FLOAT8);
        cases.put("bool", PgKind.BOOL);
        cases.put("date", PgKind.DATE);
        cases.put("timestamp", PgKind.TIMESTAMP);
        cases.put("timestamp(3)", PgKind.TIMESTAMP);
        cases.put("timestamp without time zone", PgKind.TIMESTAMP);
        cases.put("timestamptz", PgKind.TIMESTAMPTZ);
        cases.put("timestamp with time zone", PgKind.TIMESTAMPTZ);
        cases.put("time", PgKind.TIME);
        cases.put("timetz", PgKind.TIMETZ);
        cases.put("interval", PgKind.INTERVAL);
        cases.put("bit", PgKind.BIT);
        cases.put("bit(5)", PgKind.BIT);
        cases.put("varbit", PgKind.VARBIT);
        cases.put("bit varying", PgKind.VARBIT);
        cases.put("bpchar", PgKind.CHAR);
        cases.put("character", PgKind.CHAR);
        cases.put("varchar", PgKind.VARCHAR);
        cases.put("character varying", PgKind.VARCHAR);
        cases.put("text", PgKind.TEXT);
        cases.put("bytea", PgKind.BYTEA);
        cases.put("json", PgKind.JSON);
        cases.put("jsonb", PgKind.JSONB);
        cases.put("uuid", PgKind.UUID);
        cases.put("mood", PgKind.ENUM);
        cases.put("USER-DEFINED", PgKind.ENUM);
        cases.forEach((pg, kind) -> assertEquals(kind, PostgresTypes.kindOf(pg), pg));
        assertEquals(5, PostgresTypes.lengthOf("bit(5)"));
        assertEquals(10, PostgresTypes.lengthOf("numeric(10,2)"));
        assertEquals(-1, PostgresTypes.lengthOf("bit"));
    }
}
