package io.cdcconnect.sink.ddl.sql;

import io.cdcconnect.sink.ddl.sql.ParsedDdl.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sink's one reading of DDL text: what it accepts, what it writes out, and what it refuses with which reason. */
class MySqlDdlParserTest {

    @Test
    void theWarmUpsStatementsAreEveryOneReadAsTheKindTheyAre() {
        assertEquals(MySqlDdlParser.WARM_UP.size(), MySqlDdlParser.warmUp());
        assertEquals(Kind.CREATE_TABLE, MySqlDdlParser.parse(MySqlDdlParser.WARM_UP.get(1)).kind());
    }

    private static String mysql(String sql) {
        return MySqlDdlParser.parse(sql).canonical();
    }

    @Test
    void writesTheStatementOutInItsOwnSpelling() {
        assertEquals("ALTER TABLE `shop`.`or``d` ADD COLUMN `c1` VARCHAR(10) NOT NULL DEFAULT 'a\\'b' COMMENT 'x', "
                        + "ENGINE = INNODB",
                mysql("alter table shop.`or``d` add column c1 varchar(10) not null default 'a\\'b' comment \"x\", "
                        + "engine = InnoDB"));
        assertEquals("CREATE TABLE `t` (`id` BIGINT PRIMARY KEY, `ts` TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP(3))",
                mysql("CREATE TABLE t (id BIGINT PRIMARY KEY, ts TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP(3))"));
    }

    @Test
    void keywordsAndFunctionsInExpressionsAreNeverWrittenAsNames() {
        assertEquals("ALTER TABLE `t` ADD COLUMN `due` DATE DEFAULT (CURRENT_DATE + INTERVAL 30 DAY)",
                mysql("ALTER TABLE t ADD COLUMN due DATE DEFAULT (CURRENT_DATE + INTERVAL 30 DAY)"));
        assertEquals("ALTER TABLE `t` ADD COLUMN `d2` DATETIME DEFAULT (CURRENT_TIMESTAMP - INTERVAL 1 HOUR), "
                        + "ADD COLUMN `u` CHAR(36) DEFAULT (UUID()), ADD COLUMN `x` INT AS (`a` + `b`) STORED",
                mysql("ALTER TABLE t ADD COLUMN d2 DATETIME DEFAULT (current_timestamp - interval 1 hour), "
                        + "ADD COLUMN u CHAR(36) DEFAULT (uuid()), ADD COLUMN x INT AS (a + b) STORED"));
        assertEquals("CREATE TABLE `t` (`d` DATE DEFAULT (CURDATE()), `t` TIME DEFAULT (CURRENT_TIME), "
                        + "`ts` TIMESTAMP DEFAULT (LOCALTIMESTAMP), `y` INT DEFAULT (YEAR(CURRENT_DATE)))",
                mysql("CREATE TABLE t (d DATE DEFAULT (curdate()), t TIME DEFAULT (current_time), "
                        + "ts TIMESTAMP DEFAULT (localtimestamp), y INT DEFAULT (year(current_date)))"));
        // a listed built-in the grammar has no keyword for is a call of it, not a user-defined function
        assertEquals("CREATE TABLE `t` (`b` BINARY(16) DEFAULT (UUID_TO_BIN(UUID())))",
                mysql("CREATE TABLE t (b BINARY(16) DEFAULT (uuid_to_bin(uuid())))"));
        assertThrows(RefusedDdlException.class, () -> mysql("CREATE TABLE t (b INT DEFAULT (my_func(1)))"));
        assertThrows(RefusedDdlException.class, () -> mysql("CREATE TABLE t (b INT DEFAULT (`uuid_to_bin`(1)))"));
    }

    @Test
    void namesEveryTableAndSchema() {
        ParsedDdl rename = MySqlDdlParser.parse("RENAME TABLE a TO b.c, d.e TO f");
        assertEquals(Kind.RENAME_TABLE, rename.kind());
        assertEquals(List.of(new ParsedDdl.TableRef(null, "a"), new ParsedDdl.TableRef("b", "c"),
                new ParsedDdl.TableRef("d", "e"), new ParsedDdl.TableRef(null, "f")), rename.tables());
        assertEquals(java.util.Set.of("b", "d"), rename.schemas());
        ParsedDdl alter = MySqlDdlParser.parse("ALTER TABLE t RENAME TO other.x");
        assertEquals(List.of(new ParsedDdl.TableRef(null, "t"), new ParsedDdl.TableRef("other", "x")), alter.tables());
        ParsedDdl like = MySqlDdlParser.parse("CREATE TABLE l LIKE o.t");
        assertTrue(like.schemas().contains("o"));
        ParsedDdl db = MySqlDdlParser.parse("DROP DATABASE/**/shop");
        assertEquals(Kind.DROP_DATABASE, db.kind());
        assertEquals("shop", db.database());
        assertNull(db.changedTables());
    }

    @Test
    void mapsEveryQualifiedName() {
        ParsedDdl p = MySqlDdlParser.parse("ALTER TABLE shop/**/.orders ADD CONSTRAINT f FOREIGN KEY (c) "
                + "REFERENCES shop.customers (id)");
        String out = p.mysql(s -> Map.of("shop", "shop_replica").getOrDefault(s, s), false);
        assertFalse(out.contains("`shop`"), out);
        assertTrue(out.startsWith("ALTER TABLE `shop_replica`.`orders`"), out);
        assertTrue(out.contains("REFERENCES `shop_replica`.`customers`"), out);
    }

    @Test
    void leavesOtherNamesAndTextAlone() {
        UnaryOperator<String> map = s -> Map.of("shop", "shop_replica").getOrDefault(s, s);
        assertEquals("ALTER TABLE `orders` ADD COLUMN `shop_id` INT COMMENT 'from shop.orders', ADD KEY `k` (`myshop`)",
                MySqlDdlParser.parse("ALTER TABLE orders ADD COLUMN shop_id INT COMMENT 'from shop.orders', "
                        + "ADD KEY k (myshop)").mysql(map, false));
        assertEquals("ALTER TABLE `workshop`.`orders` ENGINE=INNODB",
                MySqlDdlParser.parse("ALTER TABLE workshop.orders ENGINE=InnoDB").mysql(map, false));
        assertEquals("CREATE TABLE `shop_replica`.`t2` LIKE `shop_replica`.`t1`",
                MySqlDdlParser.parse("CREATE TABLE shop . t2 LIKE shop.t1").mysql(map, false));
    }

    @Test
    void keepsTiDbFeatureCommentsOnlyForTiDb() {
        ParsedDdl p = MySqlDdlParser.parse("CREATE TABLE a.b (id BIGINT /*T![auto_rand] AUTO_RANDOM(5) */ PRIMARY KEY "
                + "/*T![clustered_index] CLUSTERED */)");
        assertEquals("CREATE TABLE `a`.`b` (`id` BIGINT PRIMARY KEY )", p.canonical());
        assertEquals("CREATE TABLE `a`.`b` (`id` BIGINT /*T![auto_rand] AUTO_RANDOM(5) */ PRIMARY KEY "
                + "/*T![clustered_index] CLUSTERED */ )", p.mysql(s -> s, true));
        ParsedDdl smuggled = MySqlDdlParser.parse(
                "/*T![clustered_index] DROP DATABASE cdc_connect #*/ CREATE TABLE x (i INT)");
        assertEquals("CREATE TABLE `x` (`i` INT)", smuggled.mysql(s -> s, true));
    }

    @Test
    void dropsAnEngineOtherThanInnoDb() {
        assertEquals("CREATE TABLE `t` (`i` INT) DEFAULT CHARSET=UTF8MB4",
                mysql("CREATE TABLE t (i INT) ENGINE=MyISAM DEFAULT CHARSET=utf8mb4"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "GRANT ALL ON *.* TO someone | not a schema change",
            "CREATE USER someone IDENTIFIED BY 'p' | not a schema change",
            "CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW SET @x = 1 | not a schema change",
            "CREATE VIEW v AS SELECT 1 | not a schema change",
            "ALTER TABLE t ADD c INT; DROP DATABASE d | a second statement",
            "/*!50100 DROP DATABASE x */ CREATE TABLE y (i int) | executable comment",
            "CREATE TABLE y (i int) /*M!100301 , DROP DATABASE x */ | executable comment",
            "CREATE TABLE t2 AS SELECT * FROM mysql.user | copies data",
            "CREATE TEMPORARY TABLE t (a int) | temporary",
            "ALTER TABLE t ENGINE=InnoDB DATA DIRECTORY='/tmp' | table option",
            "CREATE TABLE t (i int) CONNECTION='mysql://u:p@h/db/t' | table option",
            "CREATE TABLE t (i int) UNION=(a,b) | table option",
            "ALTER TABLE t EXCHANGE PARTITION p WITH TABLE other.t | not a change the sink runs",
            "ALTER TABLE t ADD c INT DEFAULT (sleep(10)) | function SLEEP",
            "ALTER TABLE t ADD c INT DEFAULT (other.f()) | user-defined",
            "ALTER TABLE t ADD c INT DEFAULT (@x) | variable",
            "CREATE TABLE t (i int, CHECK (i > (SELECT 1))) | subquery",
            "ALTER TABLE t FOO | does not parse",
    })
    void refuses(String sql, String reason) {
        RefusedDdlException e = assertThrows(RefusedDdlException.class, () -> MySqlDdlParser.parse(sql));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @Test
    void readsAControlCharacterAfterTwoDashesAsTheServerDoes() {
        ParsedDdl p = MySqlDdlParser.parse("--\u0001 CREATE TABLE x '\nDROP DATABASE cdc_connect\n-- '");
        assertEquals(Kind.DROP_DATABASE, p.kind());
        assertEquals("cdc_connect", p.database());
    }

    @Test
    void boundsNesting() {
        String deep = "CREATE TABLE t (i INT DEFAULT " + "(".repeat(500) + "1" + ")".repeat(500) + ")";
        RefusedDdlException e = assertThrows(RefusedDdlException.class, () -> MySqlDdlParser.parse(deep));
        assertTrue(e.getMessage().contains("nested"), e.getMessage());
        String comments = "ALTER TABLE t ADD c INT" + "/**/".repeat(2000);
        assertEquals("ALTER TABLE `t` ADD `c` INT", mysql(comments));
    }

    @Test
    void readsWhatOnlyMariaDbWrites() {
        assertEquals("ALTER TABLE `t` ADD COLUMN IF NOT EXISTS `x` INT",
                mysql("ALTER TABLE t ADD COLUMN IF NOT EXISTS x int"));
    }
}
