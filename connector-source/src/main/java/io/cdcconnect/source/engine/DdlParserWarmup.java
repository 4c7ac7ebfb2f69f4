package io.cdcconnect.source.engine;

import io.cdcconnect.source.SourceFlavor;
import io.debezium.relational.Tables;
import io.debezium.relational.ddl.DdlParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Parses a set of typical statements with Debezium's DDL parser on a thread of its own, once per JVM and flavour, while
 * a connector or task starts.
 *
 * <p>A snapshot begins with DDL: Debezium parses every captured table's {@code SHOW CREATE TABLE} (and a few {@code
 * SET}, {@code DROP}, {@code CREATE DATABASE}, {@code USE} statements) with its ANTLR grammar before it reads the first
 * row. In a fresh JVM that grammar's first statements are slow: ANTLR deserialises its state machine and fills its
 * prediction cache, both shared by every parser of the class loader. Measured in a fresh JVM on this project's
 * 2-core machine, this class's statements took 2.2 and 2.5 s the first time and about 0.1 s after. Profiled, a cold
 * snapshot's coordinator thread spent most of the time before its first row there. Started at the connector's and
 * task's start, this warm-up does that work while Connect and Debezium set up the rest (the task's checks, Debezium's
 * connections and schema history), so the snapshot's own DDL finds the grammar warm. It parses into a throwaway
 * table set and touches no server; a statement that fails to parse only ends the warm-up early.
 */
public final class DdlParserWarmup {

    private static final Logger LOG = LoggerFactory.getLogger(DdlParserWarmup.class);
    private static final Set<SourceFlavor> STARTED = ConcurrentHashMap.newKeySet();

    /**
     * The statements, shaped as a binlog server's snapshot and binlog hand them to Debezium: the common column types,
     * keys, table options, and the ALTER and TRUNCATE forms a stream brings.
     */
    static final List<String> STATEMENTS = List.of(
            "SET character_set_server=utf8mb4, collation_server=utf8mb4_general_ci",
            "DROP TABLE IF EXISTS `cdc_warmup`.`orders`",
            "DROP DATABASE IF EXISTS `cdc_warmup`",
            "CREATE DATABASE `cdc_warmup` CHARSET utf8mb4 COLLATE utf8mb4_general_ci",
            "USE `cdc_warmup`",
            "CREATE TABLE `orders` (\n"
                    + "  `id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,\n"
                    + "  `k` int(11) NOT NULL DEFAULT 0,\n"
                    + "  `small` smallint(6) DEFAULT NULL,\n"
                    + "  `tiny` tinyint(1) NOT NULL DEFAULT 1,\n"
                    + "  `medium` mediumint(8) unsigned DEFAULT NULL,\n"
                    + "  `c` char(120) NOT NULL DEFAULT '',\n"
                    + "  `name` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci DEFAULT NULL COMMENT 'n',\n"
                    + "  `price` decimal(12,2) NOT NULL DEFAULT 0.00,\n"
                    + "  `ratio` double DEFAULT NULL,\n"
                    + "  `f` float DEFAULT NULL,\n"
                    + "  `body` text DEFAULT NULL,\n"
                    + "  `blob` mediumblob DEFAULT NULL,\n"
                    + "  `bin` varbinary(16) DEFAULT NULL,\n"
                    + "  `doc` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`doc`)),\n"
                    + "  `state` enum('new','paid','sent') NOT NULL DEFAULT 'new',\n"
                    + "  `flags` set('a','b','c') DEFAULT NULL,\n"
                    + "  `bits` bit(8) DEFAULT NULL,\n"
                    + "  `day` date DEFAULT NULL,\n"
                    + "  `at` time(3) DEFAULT NULL,\n"
                    + "  `created` datetime(6) NOT NULL DEFAULT current_timestamp(6),\n"
                    + "  `updated` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),\n"
                    + "  `y` year(4) DEFAULT NULL,\n"
                    + "  PRIMARY KEY (`id`),\n"
                    + "  UNIQUE KEY `uk_name` (`name`),\n"
                    + "  KEY `k_1` (`k`),\n"
                    + "  KEY `k_2` (`state`,`created`)\n"
                    + ") ENGINE=InnoDB AUTO_INCREMENT=20001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci",
            "CREATE TABLE `sbtest1` (\n"
                    + "  `id` int(11) NOT NULL AUTO_INCREMENT,\n"
                    + "  `k` int(11) NOT NULL DEFAULT 0,\n"
                    + "  `c` char(120) NOT NULL DEFAULT '',\n"
                    + "  `pad` char(60) NOT NULL DEFAULT '',\n"
                    + "  PRIMARY KEY (`id`),\n"
                    + "  KEY `k_1` (`k`)\n"
                    + ") ENGINE=InnoDB DEFAULT CHARSET=latin1 COLLATE=latin1_swedish_ci",
            "ALTER TABLE `orders` ADD COLUMN `note` varchar(64) DEFAULT NULL AFTER `name`, ADD INDEX `k_3` (`note`)",
            "ALTER TABLE `orders` MODIFY COLUMN `note` varchar(128) NULL, DROP INDEX `k_3`",
            "TRUNCATE TABLE `orders`",
            "DROP TABLE IF EXISTS `cdc_warmup`.`orders`");

    private DdlParserWarmup() {
    }

    /** Starts the warm-up of the flavour's parser, unless it was started in this JVM before. */
    public static void start(SourceFlavor flavor) {
        if (!STARTED.add(flavor)) return;
        Thread t = new Thread(() -> {
            long t0 = System.nanoTime();
            int parsed = run(flavor);
            LOG.debug("Debezium's {} DDL parser warmed up: {} statements in {} ms", flavor.configName(), parsed,
                    (System.nanoTime() - t0) / 1_000_000);
        }, "cdc-source-ddl-warmup-" + flavor.configName());
        t.setDaemon(true);
        t.start();
    }

    /** Parses {@link #STATEMENTS} with the flavour's parser; returns how many parsed before the first failure. */
    static int run(SourceFlavor flavor) {
        int parsed = 0;
        try {
            DdlParser parser = parser(flavor);
            Tables tables = new Tables();
            for (String ddl : STATEMENTS) {
                parser.parse(ddl, tables);
                parsed++;
            }
        } catch (RuntimeException | LinkageError e) {
            // a Debezium version whose grammar or classes differ: the snapshot then parses cold, nothing else changes
            LOG.debug("DDL parser warm-up of {} ended after {} statements: {}", flavor.configName(), parsed,
                    e.toString());
        }
        return parsed;
    }

    private static DdlParser parser(SourceFlavor flavor) {
        // as Debezium's database schema builds it: errors of the tree walk thrown, no views, no comments
        return switch (flavor) {
            case MARIADB -> new io.debezium.connector.mariadb.antlr.MariaDbAntlrDdlParser(true, false, false,
                    Tables.TableFilter.includeAll(), new io.debezium.connector.mariadb.charset.MariaDbCharsetRegistry());
            case MYSQL -> new io.debezium.connector.mysql.antlr.MySqlAntlrDdlParser(true, false, false,
                    Tables.TableFilter.includeAll(), new io.debezium.connector.mysql.charset.MySqlCharsetRegistry());
        };
    }
}
