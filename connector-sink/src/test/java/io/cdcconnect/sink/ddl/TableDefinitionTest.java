package io.cdcconnect.sink.ddl;

import io.cdcconnect.codec.canal.CanalTypes;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.TableInfo;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CREATE TABLE and ADD COLUMN text auto.create and auto.evolve build from a message's columns. */
class TableDefinitionTest {

    private static final int PK = ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY;
    private static final int N = ColumnFlags.NULLABLE;

    private static String type(String mysqlType) {
        return TableDefinition.columnType(CanalTypes.parseColumn("c", mysqlType, null, false), false);
    }

    @Test
    void fullTypeNamesKeepTheirSizes() {
        assertEquals("INT UNSIGNED", type("int(10) unsigned"));
        assertEquals("BIGINT", type("bigint(20)"));
        assertEquals("DECIMAL(10,2)", type("decimal(10,2)"));
        assertEquals("DATETIME(3)", type("datetime(3)"));
        assertEquals("TIMESTAMP(6)", type("timestamp"));
        assertEquals("TIME(6)", type("time(6)"));
        assertEquals("VARCHAR(20)", type("varchar(20)"));
        assertEquals("VARBINARY(16)", type("varbinary(16)"));
        assertEquals("CHAR(5)", type("char(5)"));
        assertEquals("BINARY(4)", type("binary(4)"));
        assertEquals("BIT(3)", type("bit(3)"));
        assertEquals("MEDIUMTEXT", type("mediumtext"));
        assertEquals("LONGBLOB", type("longblob"));
        assertEquals("JSON", type("json"));
        assertEquals("YEAR", type("year(4)"));
        assertEquals("ENUM('a','b''c','d\\\\e')", type("enum('a','b''c','d\\\\e')"));
        assertEquals("SET('x','y')", type("set('x','y')"));
    }

    @Test
    void whatAFormatDoesNotCarryIsFilledInSoThatNoValueIsCut() {
        // Canal-JSON's default type names, Open-protocol's type codes
        assertEquals("DECIMAL(65,30)", type("decimal"));
        assertEquals("TEXT", type("varchar"));
        assertEquals("VARCHAR(255)", type("char"));
        assertEquals("BIT(64)", type("bit"));
        assertEquals("DATETIME(6)", TableDefinition.columnType(ColumnInfo.of("c", MySqlType.DATETIME, N), false));
        assertEquals("VARCHAR(255)", TableDefinition.columnType(ColumnInfo.of("c", MySqlType.VARCHAR, PK), true));
        assertEquals("VARBINARY(255)", TableDefinition.columnType(ColumnInfo.of("c", MySqlType.BLOB,
                PK | ColumnFlags.BINARY), true));
        assertEquals("MEDIUMTEXT", type("varchar(20000)"));
    }

    @Test
    void enumAndSetWithoutTheirElementsCannotBeCreated() {
        TableInfo t = TableInfo.of("db", "t", List.of(ColumnInfo.of("id", MySqlType.LONG, PK),
                ColumnInfo.of("e", MySqlType.ENUM, N)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TableDefinition.createTable(t));
        assertTrue(e.getMessage().contains("column `e` of db.t")
                && e.getMessage().contains("ENUM without its elements"), e.getMessage());
    }

    @Test
    void theKeyIsThePrimaryKeyElseTheHandleKeyElseNone() {
        assertEquals("CREATE TABLE `t` (`a` INT NOT NULL, `b` VARCHAR(255) NOT NULL, `c` TEXT NULL, "
                        + "PRIMARY KEY (`a`, `b`)) DEFAULT CHARSET=utf8mb4",
                TableDefinition.createTable(TableInfo.of("db", "t", List.of(ColumnInfo.of("a", MySqlType.LONG, PK),
                        ColumnInfo.of("b", MySqlType.VAR_STRING, PK), ColumnInfo.of("c", MySqlType.BLOB, N)))));
        assertEquals("CREATE TABLE `t` (`u` BIGINT NOT NULL, `c` INT NULL, PRIMARY KEY (`u`)) DEFAULT CHARSET=utf8mb4",
                TableDefinition.createTable(TableInfo.of("db", "t", List.of(
                        ColumnInfo.of("u", MySqlType.LONGLONG, ColumnFlags.HANDLE_KEY | ColumnFlags.UNIQUE_KEY),
                        ColumnInfo.of("c", MySqlType.LONG, N)))));
        assertEquals("CREATE TABLE `t` (`c` INT NULL, `d` DOUBLE NULL) DEFAULT CHARSET=utf8mb4",
                TableDefinition.createTable(TableInfo.of("db", "t", List.of(ColumnInfo.of("c", MySqlType.LONG, 0),
                        ColumnInfo.of("d", MySqlType.DOUBLE, N)))));
    }

    @Test
    void generatedColumnsAreLeftOutAndAddedColumnsAreNullable() {
        TableInfo t = TableInfo.of("db", "t", List.of(ColumnInfo.of("id", MySqlType.LONG, PK),
                ColumnInfo.of("g", MySqlType.LONG, ColumnFlags.GENERATED | N)));
        assertEquals("CREATE TABLE `t` (`id` INT NOT NULL, PRIMARY KEY (`id`)) DEFAULT CHARSET=utf8mb4",
                TableDefinition.createTable(t));
        // a key flag on an added column changes nothing: a key is never changed
        assertEquals("ALTER TABLE `t` ADD COLUMN `k` INT NULL",
                TableDefinition.addColumn(t, ColumnInfo.of("k", MySqlType.LONG, PK)));
    }

    @Test
    void namesFromTheMessageAreQuotedNeverSpliced() {
        String hostile = "x` INT); DROP TABLE users; -- ";
        String name = hostile.trim();
        String sql = TableDefinition.createTable(TableInfo.of("db", "t`1", List.of(
                ColumnInfo.of(name, MySqlType.LONG, PK))));
        assertEquals("CREATE TABLE `t``1` (`x`` INT); DROP TABLE users; --` INT NOT NULL, PRIMARY KEY "
                + "(`x`` INT); DROP TABLE users; --`)) DEFAULT CHARSET=utf8mb4", sql);
        for (String bad : List.of("", "a\u0000b", "new\nline", "trailing ", "x".repeat(65))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TableDefinition.createTable(
                    TableInfo.of("db", "t", List.of(ColumnInfo.of(bad, MySqlType.LONG, PK)))), bad);
            assertTrue(e.getMessage().contains("column name of db.t"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> TableDefinition.createTable(TableInfo.of("db", "t\u0001",
                List.of(ColumnInfo.of("id", MySqlType.LONG, PK)))));
    }

    @Test
    void decimalSizesOutsideMySqlsAreRefused() {
        ColumnInfo wide = new ColumnInfo("d", MySqlType.NEWDECIMAL, N, null, 80, 2, -1, List.of(), null);
        assertThrows(IllegalArgumentException.class, () -> TableDefinition.columnType(wide, false));
        ColumnInfo scale = new ColumnInfo("d", MySqlType.NEWDECIMAL, N, null, 10, 12, -1, List.of(), null);
        assertThrows(IllegalArgumentException.class, () -> TableDefinition.columnType(scale, false));
    }
}
