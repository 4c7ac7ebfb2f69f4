package io.cdcconnect.sink.dialect.postgres.ddl;

import io.cdcconnect.sink.ddl.sql.MySqlDdlParser;
import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import io.cdcconnect.sink.ddl.sql.RefusedDdlException;
import io.cdcconnect.sink.dialect.postgres.ddl.PostgresDdl.Translation;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PostgresDdlTest {

    private static final UnaryOperator<String> MAP = db -> db.equals("shop") ? "shop_pg" : db;

    private static Translation tr(String sql) {
        return translate(sql, "app");
    }

    /** The statement read as the sink's check reads it, then translated; a statement the reading refuses as such. */
    private static Translation translate(String sql, String defaultSchema) {
        ParsedDdl parsed;
        try {
            parsed = MySqlDdlParser.parse(sql);
        } catch (RefusedDdlException e) {
            return Translation.unsupported(e.getMessage());
        }
        return PostgresDdl.translate(parsed, defaultSchema, MAP);
    }

    private static List<String> sql(String mysql) {
        Translation t = tr(mysql);
        assertNull(t.unsupported(), mysql);
        assertTrue(t.supported());
        return t.statements();
    }

    private static String unsupported(String mysql) {
        Translation t = tr(mysql);
        assertFalse(t.supported(), mysql);
        assertEquals(List.of(), t.statements());
        return t.unsupported();
    }

    private static final String ALL_TYPES = """
            CREATE TABLE IF NOT EXISTS `shop`.`all_types` (
              `id` bigint(20) unsigned NOT NULL /*T![auto_rand] AUTO_RANDOM(5) */,
              `ti` tinyint(4) DEFAULT '-1',
              `flag` tinyint(1) NOT NULL DEFAULT '0',
              `si` smallint(5) unsigned DEFAULT NULL,
              `mi` mediumint(9) DEFAULT 7,
              `i` int(11) DEFAULT -3,
              `iu` int(10) unsigned zerofill,
              `bi` bigint(20) NOT NULL,
              `d` decimal(10,4) DEFAULT '1.5000',
              `f` float DEFAULT 1.5e3,
              `db` double,
              `dt` date DEFAULT '0000-00-00',
              `dtm` datetime(3) DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
              `ts` timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
              `tm` time DEFAULT '-838:59:59',
              `y` year(4) DEFAULT '2024',
              `b` bit(5) DEFAULT b'101',
              `c` char(3) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT 'it''s',
              `vc` varchar(255) COMMENT 'a \\'comment\\'' DEFAULT 'back\\\\slash',
              `e` enum('a','b','c') NOT NULL DEFAULT 'b',
              `s` set('x','y') DEFAULT 'x,y',
              `j` json,
              `lb` longblob,
              `vb` varbinary(16) DEFAULT x'00ff',
              `g` geometry NOT NULL,
              `mt` mediumtext,
              `gen` int GENERATED ALWAYS AS (`i` + 1) VIRTUAL NOT NULL,
              `Odd "Name"` varchar(10) CHARACTER SET binary,
              PRIMARY KEY (`id`) /*T![clustered_index] CLUSTERED */,
              UNIQUE KEY (`bi`),
              UNIQUE INDEX `uk_two` (`i`, `d`),
              KEY `idx_dtm` (`dtm` DESC),
              FULLTEXT KEY `ft` (`mt`),
              CONSTRAINT `fk1` FOREIGN KEY (`i`) REFERENCES `other` (`id`) ON DELETE CASCADE,
              CHECK (`i` > 0)
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='all the types'
            PARTITION BY HASH (`id`) PARTITIONS 4;""";

    @Test
    void aTiCdcCreateTableWithAllTypesAndKeys() {
        Translation t = tr(ALL_TYPES);
        assertEquals(List.of(
                "CREATE TABLE IF NOT EXISTS \"shop_pg\".\"all_types\" (\"id\" numeric(20,0) NOT NULL, "
                        + "\"ti\" smallint DEFAULT '-1', \"flag\" smallint NOT NULL DEFAULT '0', \"si\" integer, "
                        + "\"mi\" integer DEFAULT 7, \"i\" integer DEFAULT -3, \"iu\" bigint, \"bi\" bigint NOT NULL, "
                        + "\"d\" numeric(10,4) DEFAULT '1.5000', \"f\" real DEFAULT 1.5e3, "
                        + "\"db\" double precision, \"dt\" date, "
                        + "\"dtm\" timestamp(3) without time zone DEFAULT CURRENT_TIMESTAMP(3), "
                        + "\"ts\" timestamptz(6) NOT NULL DEFAULT CURRENT_TIMESTAMP, "
                        + "\"tm\" interval DEFAULT '-838:59:59', \"y\" smallint DEFAULT '2024', "
                        + "\"b\" bit(5) DEFAULT B'00101', \"c\" char(3) DEFAULT 'it''s', "
                        + "\"vc\" varchar(255) DEFAULT E'back\\\\slash', \"e\" text NOT NULL DEFAULT 'b', "
                        + "\"s\" text DEFAULT 'x,y', \"j\" jsonb, \"lb\" bytea, \"vb\" bytea DEFAULT E'\\\\x00ff', "
                        + "\"g\" bytea NOT NULL, \"mt\" text, "
                        + "\"gen\" integer NOT NULL GENERATED ALWAYS AS (\"i\" + 1) STORED, \"Odd \"\"Name\"\"\" bytea, "
                        + "PRIMARY KEY (\"id\"), CONSTRAINT \"all_types_bi\" UNIQUE (\"bi\"), "
                        + "CONSTRAINT \"all_types_uk_two\" UNIQUE (\"i\", \"d\"), "
                        + "CONSTRAINT \"fk1\" FOREIGN KEY (\"i\") REFERENCES \"app\".\"other\" (\"id\") ON DELETE CASCADE "
                        + "DEFERRABLE INITIALLY DEFERRED, CONSTRAINT \"all_types_chk_1\" CHECK (\"i\" > 0)) "
                        + "PARTITION BY HASH (\"id\")",
                "CREATE TABLE IF NOT EXISTS \"shop_pg\".\"all_types_p0\" PARTITION OF \"shop_pg\".\"all_types\" "
                        + "FOR VALUES WITH (MODULUS 4, REMAINDER 0)",
                "CREATE TABLE IF NOT EXISTS \"shop_pg\".\"all_types_p1\" PARTITION OF \"shop_pg\".\"all_types\" "
                        + "FOR VALUES WITH (MODULUS 4, REMAINDER 1)",
                "CREATE TABLE IF NOT EXISTS \"shop_pg\".\"all_types_p2\" PARTITION OF \"shop_pg\".\"all_types\" "
                        + "FOR VALUES WITH (MODULUS 4, REMAINDER 2)",
                "CREATE TABLE IF NOT EXISTS \"shop_pg\".\"all_types_p3\" PARTITION OF \"shop_pg\".\"all_types\" "
                        + "FOR VALUES WITH (MODULUS 4, REMAINDER 3)",
                "CREATE INDEX IF NOT EXISTS \"all_types_idx_dtm\" ON \"shop_pg\".\"all_types\" (\"dtm\")",
                // ENUM and SET keep their MySQL definition, to name values that arrive as indexes
                "COMMENT ON COLUMN \"shop_pg\".\"all_types\".\"e\" IS 'cdc-connect mysql type: enum(''a'',''b'',''c'')'",
                "COMMENT ON COLUMN \"shop_pg\".\"all_types\".\"s\" IS 'cdc-connect mysql type: set(''x'',''y'')'"),
                t.statements());
        assertEquals(List.of(
                "DEFAULT '0000-00-00' of column `dt` dropped: it has no PostgreSQL literal",
                "generated column `gen` is VIRTUAL in MySQL and STORED here (PostgreSQL computes it on write): the "
                        + "same values",
                "dropped: FULLTEXT KEY `ft` (`mt`) (no PostgreSQL equivalent is created)"), t.warnings());
    }

    @Test
    void theBriefsExampleAndColumnLevelKeys() {
        assertEquals(List.of(
                "CREATE TABLE IF NOT EXISTS \"app\".\"t\" (\"id\" integer NOT NULL, \"v\" varchar(20) DEFAULT 'x', "
                        + "PRIMARY KEY (\"id\"), CONSTRAINT \"t_u\" UNIQUE (\"v\"))",
                "CREATE INDEX IF NOT EXISTS \"t_k\" ON \"app\".\"t\" (\"v\")"),
                sql("CREATE TABLE `t` (`id` int NOT NULL AUTO_INCREMENT, `v` varchar(20) DEFAULT 'x', "
                        + "PRIMARY KEY (`id`), UNIQUE KEY `u` (`v`), KEY `k` (`v`(10))) ENGINE=InnoDB "
                        + "DEFAULT CHARSET=utf8mb4"));
        assertEquals(List.of("CREATE TABLE IF NOT EXISTS \"app\".\"t2\" (\"id\" bigint, \"code\" varchar(8), "
                        + "\"code2\" char(2), \"ts\" timestamptz(0) DEFAULT CURRENT_TIMESTAMP, PRIMARY KEY (\"id\"), "
                        + "CONSTRAINT \"t2_code\" UNIQUE (\"code\"), CONSTRAINT \"t2_code_2\" UNIQUE (\"code\", \"code2\"))"),
                sql("create table t2 (id bigint primary key, code varchar(8) unique, code2 char(2), "
                        + "ts timestamp default now(), unique (code, code2))"));
    }

    @Test
    void oddIdentifiersAreQuotedWithCaseKept() {
        assertEquals(List.of("CREATE TABLE IF NOT EXISTS \"My Schema\".\"Odd \"\"T\"\" `x`\" "
                        + "(\"Col A\" integer, \"it's\" text, \"UPPER\" smallint, \"naïve\" date)"),
                translate("CREATE TABLE `Odd \"T\" ``x``` (`Col A` INT, `it's` TEXT, UPPER TINYINT, "
                        + "naïve DATE)", "My Schema").statements());
        assertEquals(List.of("ALTER TABLE IF EXISTS \"Shop\".\"Orders\" DROP COLUMN IF EXISTS \"Note\""),
                sql("ALTER TABLE Shop.Orders DROP COLUMN Note"));
    }

    @Test
    void stringDefaultsAreRequotedWithEscapesResolved() {
        assertEquals(List.of("CREATE TABLE IF NOT EXISTS \"app\".\"d\" (\"a\" varchar(9) DEFAULT E'tab\tq''\\\\', "
                        + "\"b\" text DEFAULT 'say \"hi\"', \"c\" varchar(3) DEFAULT 'x', \"n\" integer DEFAULT 1, "
                        + "\"f\" bit(1) DEFAULT B'0', \"z\" integer DEFAULT (random() * 10))"),
                sql("CREATE TABLE d (a varchar(9) DEFAULT 'tab\\tq\\'\\\\', b text DEFAULT \"say \\\"hi\\\"\", "
                        + "c varchar(3) DEFAULT _utf8mb4'x', n int DEFAULT TRUE, f bit(1) DEFAULT b'0', "
                        + "z int DEFAULT (rand() * 10))"));
        // an expression without an equivalent of the same meaning is refused, naming it
        assertEquals("the function RAND(1 argument) in DEFAULT of column `z` has no PostgreSQL equivalent of the "
                + "same meaning", unsupported("CREATE TABLE d (z int DEFAULT (rand(7) * 10))"));
    }

    @Test
    void createTableLikeIsCopiedAndSelectIsUnsupported() {
        assertEquals(List.of("CREATE TABLE IF NOT EXISTS \"app\".\"t2\" (LIKE \"app\".\"t\" INCLUDING ALL)"),
                sql("CREATE TABLE t2 LIKE t"));
        assertEquals(List.of("CREATE TABLE IF NOT EXISTS \"shop_pg\".\"t2\" (LIKE \"app\".\"t\" INCLUDING ALL)"),
                sql("CREATE TABLE IF NOT EXISTS shop.t2 (LIKE t)"));
        // refused by the sink's one reading of DDL before any translation
        assertEquals("CREATE TABLE ... SELECT copies data no change event carries",
                unsupported("CREATE TABLE t2 AS SELECT * FROM t"));
        assertTrue(unsupported("CREATE TABLE t2 (id int) SELECT id FROM t").matches(
                "CREATE TABLE \\.\\.\\. SELECT copies data no change event carries|a second statement.*"));
        assertEquals("column `v`: MySQL column type 'vector(3)' has no PostgreSQL type",
                unsupported("CREATE TABLE t (v vector(3))"));
    }

    @Test
    void alterAddColumns() {
        Translation t = tr("ALTER TABLE shop.t ADD COLUMN `n1` int NOT NULL AFTER `i`, ADD `n2` varchar(5) "
                + "DEFAULT 'q' FIRST, ADD (`n3` enum('p','q') NOT NULL, `n4` json NOT NULL, n5 date NOT NULL)");
        String a = "ALTER TABLE IF EXISTS \"shop_pg\".\"t\"";
        assertEquals(List.of(
                a + " ADD COLUMN IF NOT EXISTS \"n1\" integer NOT NULL DEFAULT 0",
                a + " ALTER COLUMN \"n1\" DROP DEFAULT",
                a + " ADD COLUMN IF NOT EXISTS \"n2\" varchar(5) DEFAULT 'q'",
                a + " ADD COLUMN IF NOT EXISTS \"n3\" text NOT NULL DEFAULT 'p'",
                a + " ALTER COLUMN \"n3\" DROP DEFAULT",
                a + " ADD COLUMN IF NOT EXISTS \"n4\" jsonb NOT NULL DEFAULT 'null'",
                a + " ALTER COLUMN \"n4\" DROP DEFAULT",
                a + " ADD COLUMN IF NOT EXISTS \"n5\" date NOT NULL",
                "COMMENT ON COLUMN \"shop_pg\".\"t\".\"n3\" IS 'cdc-connect mysql type: enum(''p'',''q'')'"),
                t.statements());
        assertEquals(List.of(
                "AFTER `i` dropped for column `n1`: PostgreSQL adds columns at the end",
                "FIRST dropped for column `n2`: PostgreSQL adds columns at the end"), t.warnings());
    }

    @Test
    void expressionsAreTranslatedWithTheirMeaningOrRefused() {
        assertEquals(List.of("CREATE TABLE IF NOT EXISTS \"app\".\"e\" (\"a\" integer, \"b\" integer, "
                        + "\"u\" char(36) DEFAULT (gen_random_uuid()::text), "
                        + "\"d\" date DEFAULT (CURRENT_DATE + INTERVAL '30 days'), "
                        + "\"t\" timestamp(0) without time zone DEFAULT ((CURRENT_TIMESTAMP - INTERVAL '3 months')), "
                        + "\"q\" numeric(10,2) GENERATED ALWAYS AS (\"a\" * 1.0 / \"b\") STORED, "
                        + "\"s\" varchar(20) GENERATED ALWAYS AS ((CASE WHEN \"a\" IS NOT DISTINCT FROM \"b\" THEN "
                        + "'same' ELSE ((\"a\")::text || ('/')::text || (COALESCE(\"b\", 0))::text) END)) STORED, "
                        + "CONSTRAINT \"e_chk_1\" CHECK (\"a\" > 0 OR \"b\" <> 2 AND NOT \"a\" IN (1, 2)))"),
                sql("CREATE TABLE e (a INT, b INT, u CHAR(36) DEFAULT (uuid()), "
                        + "d DATE DEFAULT (CURRENT_DATE + INTERVAL 30 DAY), "
                        + "t DATETIME DEFAULT (DATE_SUB(NOW(), INTERVAL 1 QUARTER)), "
                        + "q DECIMAL(10,2) AS (a / b), "
                        + "s VARCHAR(20) AS (IF(a <=> b, 'same', CONCAT(a, '/', IFNULL(b, 0)))) STORED, "
                        + "CHECK (a > 0 || b != 2 && !a IN (1, 2)))"));
        assertEquals("the operator ^ in the expression of generated column `x` has no PostgreSQL equivalent of the "
                + "same meaning", unsupported("CREATE TABLE e (a INT, x INT AS (a ^ 1))"));
        assertEquals("the function GREATEST(2 arguments) in DEFAULT of column `x` has no PostgreSQL equivalent of "
                + "the same meaning", unsupported("CREATE TABLE e (a INT, x INT DEFAULT (GREATEST(1, 2)))"));
        assertEquals("CHECK `c` is NOT ENFORCED: PostgreSQL has no CHECK that is not checked",
                unsupported("CREATE TABLE e (a INT, CONSTRAINT c CHECK (a > 0) NOT ENFORCED)"));
        assertTrue(unsupported("CREATE TABLE p (id INT, PRIMARY KEY (id)) PARTITION BY HASH (id) "
                + "SUBPARTITION BY KEY (id) SUBPARTITIONS 2 (PARTITION p0)").startsWith("SUBPARTITION BY"));
        assertTrue(unsupported("ALTER TABLE p PARTITION BY HASH (id) PARTITIONS 2").contains("in place"));
    }

    @Test
    void alterDropModifyChange() {
        String a = "ALTER TABLE IF EXISTS \"app\".\"t\"";
        assertEquals(List.of(
                a + " DROP COLUMN IF EXISTS \"n2\"",
                a + " DROP COLUMN IF EXISTS \"n3\"",
                a + " ALTER COLUMN \"i\" DROP IDENTITY IF EXISTS, ALTER COLUMN \"i\" DROP DEFAULT, ALTER COLUMN \"i\" "
                        + "TYPE bigint USING \"i\"::bigint, ALTER COLUMN \"i\" SET NOT NULL, ALTER COLUMN \"i\" SET DEFAULT 5",
                "DO $cdc$BEGIN IF EXISTS (SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = "
                        + "to_regclass('\"app\".\"t\"') AND attname = 'vc' AND NOT attisdropped) AND NOT EXISTS "
                        + "(SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = to_regclass('\"app\".\"t\"') AND "
                        + "attname = 'vc2' AND NOT attisdropped) THEN ALTER TABLE \"app\".\"t\" RENAME COLUMN "
                        + "\"vc\" TO \"vc2\"; END IF; END$cdc$",
                a + " ALTER COLUMN \"vc2\" DROP IDENTITY IF EXISTS, ALTER COLUMN \"vc2\" DROP DEFAULT, ALTER COLUMN "
                        + "\"vc2\" TYPE varchar(300) USING \"vc2\"::varchar(300)",
                // not NOT NULL: nullable, unless the column is in the primary key (MySQL keeps those NOT NULL)
                "DO $cdc$BEGIN IF EXISTS (SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = "
                        + "to_regclass('\"app\".\"t\"') AND attname = 'vc2' AND NOT attisdropped) AND NOT EXISTS "
                        + "(SELECT 1 FROM pg_catalog.pg_index i JOIN pg_catalog.pg_attribute a ON a.attrelid = "
                        + "i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass('\"app\".\"t\"') "
                        + "AND i.indisprimary AND a.attname = 'vc2') AND NOT EXISTS (SELECT 1 FROM "
                        + "pg_catalog.pg_attribute WHERE attrelid = to_regclass('\"app\".\"t\"') AND attname = 'vc2' "
                        + "AND attidentity <> '') THEN " + a + " ALTER COLUMN \"vc2\" DROP NOT NULL; END IF; END$cdc$",
                a + " ALTER COLUMN \"mt\" DROP IDENTITY IF EXISTS, ALTER COLUMN \"mt\" DROP DEFAULT, ALTER COLUMN "
                        + "\"mt\" TYPE text USING \"mt\"::text, ALTER COLUMN \"mt\" SET NOT NULL"),
                sql("ALTER TABLE t DROP COLUMN `n2`, DROP n3, MODIFY COLUMN `i` bigint NOT NULL DEFAULT 5, "
                        + "CHANGE `vc` `vc2` varchar(300), CHANGE mt mt longtext NOT NULL"));
    }

    @Test
    void statementsOnARenamedColumnsOldNameAreGuarded() {
        String exists = "EXISTS (SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = to_regclass('\"app\".\"t\"') "
                + "AND attname = '%s' AND NOT attisdropped)";
        assertEquals(List.of(
                "ALTER TABLE IF EXISTS \"app\".\"t\" ALTER COLUMN \"y\" SET DEFAULT '1999'",
                "DO $cdc$BEGIN IF " + exists.formatted("ti") + " THEN ALTER TABLE IF EXISTS \"app\".\"t\" "
                        + "ALTER COLUMN \"ti\" DROP DEFAULT; END IF; END$cdc$",
                "DO $cdc$BEGIN IF " + exists.formatted("ti") + " AND NOT " + exists.formatted("tiny")
                        + " THEN ALTER TABLE \"app\".\"t\" RENAME COLUMN \"ti\" TO \"tiny\"; END IF; END$cdc$"),
                sql("ALTER TABLE t ALTER COLUMN y SET DEFAULT 1999, ALTER ti DROP DEFAULT, RENAME COLUMN ti TO tiny"));
    }

    @Test
    void alterKeysAndIndexes() {
        assertEquals(List.of(
                "CREATE INDEX IF NOT EXISTS \"t_idx_n1\" ON \"app\".\"t\" (\"n1\")",
                "CREATE UNIQUE INDEX IF NOT EXISTS \"t_uk_n1\" ON \"app\".\"t\" (\"n1\", \"n2\")",
                "CREATE UNIQUE INDEX IF NOT EXISTS \"t_n3\" ON \"app\".\"t\" (\"n3\")",
                "ALTER TABLE IF EXISTS \"app\".\"t\" DROP CONSTRAINT IF EXISTS \"t_uk_two\"",
                "DROP INDEX IF EXISTS \"app\".\"t_uk_two\"",
                "DO $cdc$BEGIN IF to_regclass('\"app\".\"t_idx_n1\"') IS NOT NULL AND "
                        + "to_regclass('\"app\".\"t_idx_n1b\"') IS NULL THEN ALTER INDEX \"app\".\"t_idx_n1\" "
                        + "RENAME TO \"t_idx_n1b\"; END IF; END$cdc$"),
                sql("ALTER TABLE t ADD INDEX idx_n1 (n1), ADD UNIQUE KEY uk_n1 (n1, n2(4)), ADD UNIQUE (n3), "
                        + "DROP INDEX uk_two, RENAME INDEX idx_n1 TO idx_n1b"));
        assertEquals(List.of(
                "DO $cdc$DECLARE c name; BEGIN SELECT conname INTO c FROM pg_catalog.pg_constraint WHERE conrelid = "
                        + "to_regclass('\"app\".\"t\"') AND contype = 'p'; IF c IS NOT NULL THEN EXECUTE "
                        + "format('ALTER TABLE \"app\".\"t\" DROP CONSTRAINT %I', c); END IF; END$cdc$",
                "DO $cdc$BEGIN IF to_regclass('\"app\".\"t\"') IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
                        + "pg_catalog.pg_constraint WHERE conrelid = to_regclass('\"app\".\"t\"') AND contype = 'p') "
                        + "THEN ALTER TABLE \"app\".\"t\" ADD PRIMARY KEY (\"id\", \"bi\"); END IF; END$cdc$"),
                sql("ALTER TABLE t DROP PRIMARY KEY, ADD CONSTRAINT pk PRIMARY KEY (id, bi)"));
        assertEquals(List.of("DO $cdc$BEGIN IF to_regclass('\"app\".\"t\"') IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
                        + "pg_catalog.pg_constraint WHERE conrelid = to_regclass('\"app\".\"t\"') AND conname = 'fk') "
                        + "THEN ALTER TABLE \"app\".\"t\" ADD CONSTRAINT \"fk\" FOREIGN KEY (\"a\") REFERENCES "
                        + "\"app\".\"o\" (\"id\") DEFERRABLE INITIALLY DEFERRED; END IF; END$cdc$",
                        "ALTER TABLE IF EXISTS \"app\".\"t\" DROP CONSTRAINT IF EXISTS \"fk2\""),
                sql("ALTER TABLE t ADD CONSTRAINT fk FOREIGN KEY (a) REFERENCES o (id), DROP FOREIGN KEY fk2"));
    }

    @Test
    void alterTableRenameAndOptions() {
        assertEquals(List.of("ALTER TABLE IF EXISTS \"shop_pg\".\"a\" RENAME TO \"b\""),
                sql("ALTER TABLE shop.a RENAME TO shop.b"));
        assertEquals(List.of("ALTER TABLE IF EXISTS \"app\".\"t\" ADD COLUMN IF NOT EXISTS \"c\" integer",
                        "ALTER TABLE IF EXISTS \"app\".\"t\" RENAME TO \"t2\""),
                sql("ALTER TABLE t RENAME AS t2, ADD c int"));
        Translation options = tr("ALTER TABLE t ENGINE=InnoDB, CONVERT TO CHARACTER SET utf8mb4 COLLATE "
                + "utf8mb4_bin, COMMENT='x' ROW_FORMAT=DYNAMIC");
        assertTrue(options.supported());
        assertEquals(List.of(), options.statements());
        assertEquals(List.of("MySQL table options ignored: ENGINE=INNODB, CONVERT TO CHARACTER SET UTF8MB4 "
                + "COLLATE..., COMMENT='x', ROW_FORMAT=DYNAMIC"), options.warnings());
    }

    @Test
    void unsupportedAlterClausesAreNamed() {
        assertEquals("ALTER TABLE clause 'ALTER CHECK `c` NOT ENFORCED' has no PostgreSQL translation",
                unsupported("ALTER TABLE t ADD COLUMN x int, ALTER CHECK c NOT ENFORCED"));
        assertEquals("partition maintenance 'COALESCE PARTITION 2' has no PostgreSQL translation",
                unsupported("ALTER TABLE t COALESCE PARTITION 2"));
        assertTrue(unsupported("ALTER TABLE t ADD PARTITION (PARTITION p9 VALUES LESS THAN (90))")
                .contains("only LIST partitions (VALUES IN) can be added"));
        assertEquals(List.of("TRUNCATE TABLE \"app\".\"t_p0\", \"app\".\"t_p1\""),
                sql("ALTER TABLE t TRUNCATE PARTITION p0, p1"));
        // TiDB's own clause is not MySQL DDL: the sink's reading refuses it before any translation
        assertTrue(unsupported("ALTER TABLE t SET TIFLASH REPLICA 1").contains("does not parse"));
    }

    @Test
    void truncateDropAndSchemas() {
        assertEquals(List.of("TRUNCATE TABLE \"app\".\"t\""), sql("TRUNCATE TABLE t"));
        assertEquals(List.of("TRUNCATE TABLE \"shop_pg\".\"t\""), sql("truncate `shop`.`t`;"));
        assertEquals(List.of("DROP TABLE IF EXISTS \"app\".\"t\", \"shop_pg\".\"u\", \"other\".\"v\""),
                sql("DROP TABLE IF EXISTS t, shop.u, `other`.v"));
        assertEquals(List.of("DROP TABLE IF EXISTS \"app\".\"t\""), sql("DROP TABLE t /* generated by TiDB */"));
        assertEquals(List.of(PostgresDdl.createSchemaIfMissing("shop_pg")),
                sql("CREATE DATABASE IF NOT EXISTS shop DEFAULT CHARACTER SET utf8mb4"));
        assertEquals(List.of(PostgresDdl.createSchemaIfMissing("Other")), sql("CREATE SCHEMA `Other`"));
        assertEquals("DO $cdc$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = 'it''s') "
                + "THEN CREATE SCHEMA IF NOT EXISTS \"it's\"; END IF; END $cdc$", PostgresDdl.createSchemaIfMissing("it's"));
        assertEquals(List.of("DROP SCHEMA IF EXISTS \"shop_pg\" CASCADE"), sql("DROP DATABASE shop"));
        assertEquals(List.of("DROP SCHEMA IF EXISTS \"x\" CASCADE"), sql("DROP SCHEMA IF EXISTS x"));
    }

    @Test
    void renameTable() {
        assertEquals(List.of("ALTER TABLE IF EXISTS \"app\".\"a\" RENAME TO \"b\""), sql("RENAME TABLE a TO b"));
        assertEquals(List.of("ALTER TABLE IF EXISTS \"shop_pg\".\"a\" RENAME TO \"b\"",
                        "ALTER TABLE IF EXISTS \"shop_pg\".\"b\" SET SCHEMA \"app\""),
                sql("RENAME TABLE shop.a TO b"));
        assertEquals(List.of("ALTER TABLE IF EXISTS \"app\".\"a\" SET SCHEMA \"shop_pg\""),
                sql("RENAME TABLE a TO shop.a"));
        assertEquals(List.of("DO $cdc$BEGIN IF to_regclass('\"app\".\"t\"') IS NOT NULL AND "
                        + "to_regclass('\"app\".\"t_new\"') IS NOT NULL THEN ALTER TABLE \"app\".\"t\" RENAME TO "
                        + "\"t_tmp\"; ALTER TABLE \"app\".\"t_new\" RENAME TO \"t\"; ALTER TABLE \"app\".\"t_tmp\" "
                        + "RENAME TO \"t_old\"; END IF; END$cdc$"),
                sql("RENAME TABLE t TO t_tmp, t_new TO t, t_tmp TO t_old"));
    }

    @Test
    void createAndDropIndex() {
        assertEquals(List.of("CREATE UNIQUE INDEX IF NOT EXISTS \"t_uq\" ON \"app\".\"t\" (\"w\")"),
                sql("CREATE UNIQUE INDEX uq ON t (w)"));
        assertEquals(List.of("CREATE INDEX IF NOT EXISTS \"t_ix\" ON \"shop_pg\".\"t\" (\"w\", \"id\")"),
                sql("CREATE INDEX ix USING BTREE ON `shop`.`t` (`w`(5), `id` DESC) ALGORITHM=INPLACE LOCK=NONE"));
        assertEquals(List.of("ALTER TABLE IF EXISTS \"app\".\"t\" DROP CONSTRAINT IF EXISTS \"t_uq\"",
                "DROP INDEX IF EXISTS \"app\".\"t_uq\""), sql("DROP INDEX uq ON t"));
        assertEquals(List.of("DO $cdc$DECLARE c name; BEGIN SELECT conname INTO c FROM pg_catalog.pg_constraint "
                        + "WHERE conrelid = to_regclass('\"app\".\"t\"') AND contype = 'p'; IF c IS NOT NULL THEN "
                        + "EXECUTE format('ALTER TABLE \"app\".\"t\" DROP CONSTRAINT %I', c); END IF; END$cdc$"),
                sql("DROP INDEX `PRIMARY` ON t"));
        Translation ft = tr("CREATE FULLTEXT INDEX ft ON t (body)");
        assertEquals(List.of(), ft.statements());
        assertEquals(List.of("FULLTEXT index `ft` dropped: PostgreSQL has no equivalent index"), ft.warnings());
        assertEquals(List.of("CREATE INDEX IF NOT EXISTS \"t_f\" ON \"app\".\"t\" ((lower(\"v\")), \"w\")"),
                sql("CREATE INDEX f ON t ((lower(v)), w)"));
        assertEquals(List.of("CREATE TABLE IF NOT EXISTS \"app\".\"u\" (\"e\" varchar(50))",
                        "CREATE UNIQUE INDEX IF NOT EXISTS \"u_functional_index\" ON \"app\".\"u\" ((lower(\"e\")))"),
                sql("CREATE TABLE u (e VARCHAR(50), UNIQUE KEY ((LOWER(e))))"));
        // an index on an expression without a translation only makes lookups slower: left out with a warning
        Translation fn = tr("CREATE INDEX f ON t ((v ^ 1))");
        assertEquals(List.of(), fn.statements());
        assertEquals(List.of("index `f` on an expression dropped: the operator ^ in a key part of index `f` has no "
                + "PostgreSQL equivalent of the same meaning"), fn.warnings());
        // a unique one says which rows may exist: refused
        assertTrue(unsupported("CREATE UNIQUE INDEX f ON t ((v ^ 1))").contains("the operator ^"));
    }

    @Test
    void longIndexNamesAreCutWithAHash() {
        String table = "a_rather_long_table_name_of_forty_chars_x";
        String name = PostgresDdl.indexName(table, "and_an_index_name_that_is_long");
        assertEquals(63, name.length());
        assertTrue(name.startsWith("a_rather_long_table_name_of_forty_chars_x_and_an_in"), name);
        assertEquals(name, PostgresDdl.indexName(table, "and_an_index_name_that_is_long"));
        assertFalse(name.equals(PostgresDdl.indexName(table, "and_an_index_name_that_is_lonG")));
        assertEquals("t_k", PostgresDdl.indexName("t", "k"));
    }

    @Test
    void identifiersAndLiteralsAreQuoted() {
        assertEquals("\"a\"\"b\"", PostgresDdl.q("a\"b"));
        assertEquals("'it''s'", PostgresDdl.lit("it's"));
        assertEquals("E'a\\\\b'", PostgresDdl.lit("a\\b"));
        // a DO block's tag avoids the text inside it
        assertTrue(sql("RENAME TABLE `$cdc$` TO b, c TO d").get(0).startsWith("DO $cdc1$"));
    }

    @Test
    void otherStatementsAreUnsupported() {
        assertEquals("'CREATE VIEW V ...' is not a schema change the sink runs",
                unsupported("CREATE VIEW v AS SELECT 1"));
        // refused by the sink's one reading of DDL, before any translation
        for (String other : List.of("CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.v = 1",
                "CREATE PROCEDURE p() BEGIN END", "CREATE FUNCTION f() RETURNS INT RETURN 1",
                "CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT 1", "GRANT ALL ON *.* TO someone", "DROP VIEW v")) {
            String reason = unsupported(other);
            assertTrue(reason.contains("is not a schema change the sink runs") || reason.contains("does not parse"),
                    other + ": " + reason);
        }
        assertTrue(unsupported("ALTER DATABASE shop CHARACTER SET utf8mb4").startsWith("ALTER DATABASE has no"));
        assertEquals("no statement", unsupported("  /* only a comment */ "));
        assertTrue(unsupported("CREATE TABLE t (v int DEFAULT 'x)").contains("does not parse"));
        assertTrue(unsupported("TRUNCATE TABLE t garbage").contains("does not parse"));
    }
}
