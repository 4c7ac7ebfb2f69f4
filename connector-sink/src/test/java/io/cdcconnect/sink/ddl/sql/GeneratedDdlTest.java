package io.cdcconnect.sink.ddl.sql;

import io.cdcconnect.sink.ddl.DdlPolicy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random DDL texts built from the statement kinds the sink runs, with random comments, quoting, control characters,
 * Unicode and database qualifiers between and inside their tokens. For every text the policy accepts, the text the
 * sink executes must read, with the same parser, as the statement the policy approved (the same text again: nothing
 * of the message's spelling, no comment, survives), and must name only databases the allow-list permits.
 * {@code -Dgen.seeds=N} runs more.
 */
class GeneratedDdlTest {

    private static final Map<String, String> MAP = Map.of("shop", "shop_replica");
    private static final Set<String> PERMITTED = Set.of("shop_replica", "crm");
    private static final UnaryOperator<String> MAPPER = s -> MAP.getOrDefault(s, s);
    private static final String[] SCHEMAS = {"shop", "crm", "other", "mysql", "cdc_connect", "SHOP", "shop_replica"};
    private static final String[] NAMES = {"t", "orders", "a b", "we`ird", "naïve", "日本", "x\"y", "select", "status",
            "t--1", "t/*x*/", "c#1"};
    private static final String[] TYPES = {"INT", "BIGINT UNSIGNED", "VARCHAR(20)", "DECIMAL(10,2)", "TEXT",
            "DATETIME(3)", "ENUM('a','b''c','d\\\\e')", "JSON", "BLOB", "TIMESTAMP(6)"};
    private static final String[] DEFAULTS = {"", " DEFAULT NULL", " DEFAULT 1", " DEFAULT -1.5", " DEFAULT 'x'",
            " DEFAULT 'it''s'", " DEFAULT 'back\\\\slash\\n'", " DEFAULT _utf8mb4'é'", " NOT NULL",
            " DEFAULT CURRENT_TIMESTAMP", " COMMENT 'a -- b /* c */ # d'", " DEFAULT (sleep(1))",
            " DEFAULT (@x)", " DEFAULT (abs(-3))"};
    private static final String[] NOISE = {" ", "  ", "\t", "\n", "/**/", "/* c */", "-- note\n", "# note\n",
            "/*T![clustered_index] CLUSTERED */", "/*T! DROP DATABASE shop_replica */", "/*!50100 DROP TABLE x */",
            "--\u0001 x\n", "/*M! , DROP TABLE x */", "\u00a0"};

    @Test
    void whatTheSinkRunsReadsAsTheStatementItApprovedAndNamesOnlyPermittedDatabases() {
        DdlPolicy policy = DdlPolicy.parse(List.of("all"), "cdc_connect");
        int seeds = Integer.getInteger("gen.seeds", 3000);
        int applied = 0;
        int refused = 0;
        for (int seed = 0; seed < seeds; seed++) {
            Random r = new Random(seed);
            String sql = statement(r);
            DdlPolicy.Decision d = policy.decide(sql, "shop_replica", MAPPER, PERMITTED::contains);
            if (d.verdict() != DdlPolicy.Verdict.APPLY) {
                refused++;
                assertTrue(d.reason() != null && !d.reason().isBlank(), "seed " + seed + ": " + sql);
                continue;
            }
            applied++;
            for (boolean tidb : new boolean[]{false, true}) {
                String executed = d.statement().mysql(MAPPER, tidb);
                ParsedDdl again;
                try {
                    again = MySqlDdlParser.parse(executed);
                } catch (RefusedDdlException e) {
                    fail("seed " + seed + ": the sink wrote what it cannot read: " + executed + " (from " + sql + "): "
                            + e.getMessage());
                    return;
                }
                assertEquals(d.statement().kind(), again.kind(), "seed " + seed + ": " + sql);
                // read again, it writes itself out unchanged: no comment, no spelling of the message is left
                assertEquals(executed, again.mysql(UnaryOperator.identity(), tidb), "seed " + seed + ": " + sql);
                for (String db : again.targetSchemas("shop_replica", UnaryOperator.identity())) {
                    assertTrue(PERMITTED.contains(db), "seed " + seed + ": " + executed + " names " + db
                            + " (from " + sql + ")");
                }
                assertEquals(d.statement().tables().size(), again.tables().size(), "seed " + seed + ": " + sql);
            }
            // the PostgreSQL translation reads the same statement: it translates it or says why not, nothing else
            io.cdcconnect.sink.dialect.postgres.ddl.PostgresDdl.Translation pg =
                    io.cdcconnect.sink.dialect.postgres.ddl.PostgresDdl.translate(d.statement(), "shop_replica", MAPPER);
            assertTrue(pg.supported() || !pg.unsupported().isBlank(), "seed " + seed + ": " + sql + " -> " + pg);

        }
        System.out.printf("generated DDL: %d texts, %d applied, %d refused%n", seeds, applied, refused);
        assertTrue(applied > seeds / 10, "too few accepted texts to prove anything: " + applied);
        assertTrue(refused > seeds / 10, "too few refused texts to prove anything: " + refused);
    }

    static String statement(Random r) {
        List<String> t = new ArrayList<>();
        switch (r.nextInt(8)) {
            case 0 -> {
                t.add("CREATE");
                t.add("TABLE");
                if (r.nextBoolean()) t.add("IF NOT EXISTS");
                t.add(table(r));
                t.add("(");
                int n = 1 + r.nextInt(3);
                for (int i = 0; i < n; i++) {
                    if (i > 0) t.add(",");
                    t.add(name(r));
                    t.add(pick(r, TYPES) + pick(r, DEFAULTS));
                }
                if (r.nextBoolean()) {
                    t.add(",");
                    t.add("PRIMARY KEY (" + name(r) + ")");
                }
                t.add(")");
                if (r.nextInt(3) == 0) t.add(pick(r, new String[]{"ENGINE=InnoDB", "ENGINE=MyISAM",
                        "DEFAULT CHARSET=utf8mb4", "COMMENT='c'", "DATA DIRECTORY='/tmp'", "CONNECTION='x'"}));
            }
            case 1 -> {
                t.add("ALTER TABLE");
                t.add(table(r));
                t.add(pick(r, new String[]{"ADD COLUMN", "MODIFY COLUMN", "ADD"}));
                t.add(name(r));
                t.add(pick(r, TYPES) + pick(r, DEFAULTS));
                if (r.nextBoolean()) {
                    t.add(",");
                    t.add(pick(r, new String[]{"DROP COLUMN " + name(r), "ADD INDEX " + name(r) + " (" + name(r) + ")",
                            "RENAME TO " + table(r), "ENGINE=InnoDB", "ALGORITHM=INPLACE"}));
                }
            }
            case 2 -> {
                t.add("DROP TABLE");
                if (r.nextBoolean()) t.add("IF EXISTS");
                t.add(table(r));
            }
            case 3 -> {
                t.add("TRUNCATE TABLE");
                t.add(table(r));
            }
            case 4 -> {
                t.add("RENAME TABLE");
                t.add(table(r));
                t.add("TO");
                t.add(table(r));
            }
            case 5 -> {
                t.add("CREATE INDEX");
                t.add(name(r));
                t.add("ON");
                t.add(table(r));
                t.add("(" + name(r) + ")");
            }
            case 6 -> {
                t.add(pick(r, new String[]{"CREATE DATABASE", "DROP DATABASE", "ALTER DATABASE"}));
                t.add(schema(r));
                if (r.nextBoolean()) t.add("CHARACTER SET utf8mb4");
            }
            default -> {
                t.add(pick(r, new String[]{"CREATE TABLE c LIKE", "CREATE TABLE c AS SELECT * FROM",
                        "CREATE TABLE c (i INT) UNION=(", "GRANT ALL ON *.* TO x; ALTER TABLE"}));
                t.add(table(r));
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String token : t) {
            if (sb.length() > 0) sb.append(r.nextInt(4) == 0 ? pick(r, NOISE) : " ");
            sb.append(token);
        }
        if (r.nextInt(5) == 0) sb.append(pick(r, new String[]{";", "; ", ";\n", "; DROP DATABASE crm"}));
        if (r.nextInt(10) == 0) sb.insert(0, pick(r, NOISE));
        return sb.toString();
    }

    private static String table(Random r) {
        return r.nextBoolean() ? name(r) : schemaName(r) + (r.nextBoolean() ? "." : pick(r, new String[]{" . ", "/**/."}))
                + name(r);
    }

    private static String schema(Random r) {
        return schemaName(r);
    }

    private static String schemaName(Random r) {
        String s = pick(r, SCHEMAS);
        return r.nextBoolean() ? "`" + s + "`" : s;
    }

    private static String name(Random r) {
        String n = pick(r, NAMES);
        boolean plain = n.matches("[A-Za-z_][A-Za-z0-9_]*") && !n.equals("select");
        return plain && r.nextBoolean() ? n : "`" + n.replace("`", "``") + "`";
    }

    private static String pick(Random r, String[] from) {
        return from[r.nextInt(from.length)];
    }
}
