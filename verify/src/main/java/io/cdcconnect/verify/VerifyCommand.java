package io.cdcconnect.verify;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code cdc-verify}: compares source and target tables and exits 0 when they are equal, 1 when a row or a table's
 * columns differ, 2 when something could not be compared (a bad option, a connection refused, a table without key).
 * Passwords come from an environment variable or a file, never from the command line, and are never printed.
 */
public final class VerifyCommand {
    static final String USAGE = """
            usage: cdc-verify --source-url URL --target-url URL --tables schema.table[,schema.*...] [options]
              --source-url URL            jdbc:mysql://host:3306/ (MySQL, MariaDB, TiDB) or jdbc:postgresql://host/db
              --source-user USER
              --source-password-env VAR   the source's password is in environment variable VAR
                                          (default: CDC_VERIFY_SOURCE_PASSWORD when set)
              --source-password-file F    the source's password is the first line of file F
              --target-url, --target-user, --target-password-env, --target-password-file   the same for the target
                                          (default variable: CDC_VERIFY_TARGET_PASSWORD)
              --tables LIST               source tables, comma-separated; * and ? are wildcards (shop.*, shop.order?)
              --schema-map SRC=DST,...    the target schema of each source schema (default: the same name),
                                          like the sink's schema.map; on PostgreSQL a schema of the URL's database
              --chunk-size N              rows per chunk (default 10000)
              --threads N                 chunks compared at once, two connections each (default 4)
              --where COND                compare only rows matching COND (SQL both sides understand)
              --show N                    differing keys listed per kind and table (default 20)
              --progress-seconds N        progress line per table in progress every N seconds (default 10, 0 = none)
            exit status: 0 equal, 1 different, 2 error""";

    private static final java.util.Set<String> OPTIONS = java.util.Set.of("source-url", "source-user",
            "source-password-env", "source-password-file", "target-url", "target-user", "target-password-env",
            "target-password-file", "tables", "schema-map", "chunk-size", "threads", "where", "show", "progress-seconds");

    private VerifyCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    /** The command without System.exit: the exit status it would give. */
    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        VerifyRequest request;
        String sourceUrl, targetUrl;
        try {
            Map<String, String> o = options(args);
            if (o.containsKey("help")) {
                out.println(USAGE);
                return 0;
            }
            sourceUrl = required(o, "source-url");
            targetUrl = required(o, "target-url");
            Endpoint source = new Endpoint(sourceUrl, o.get("source-user"), password(o, env, "source"));
            Endpoint target = new Endpoint(targetUrl, o.get("target-user"), password(o, env, "target"));
            List<String> tables = new ArrayList<>();
            for (String t : required(o, "tables").split(",")) {
                if (!t.isBlank()) tables.add(t.trim());
            }
            request = new VerifyRequest(source, target, tables, schemaMap(o.get("schema-map")),
                    integer(o, "chunk-size", VerifyRequest.DEFAULT_CHUNK_SIZE, 1),
                    integer(o, "threads", VerifyRequest.DEFAULT_THREADS, 1), o.get("where"),
                    integer(o, "show", VerifyRequest.DEFAULT_SHOWN, 0),
                    integer(o, "progress-seconds", (int) (VerifyRequest.DEFAULT_PROGRESS_MILLIS / 1000), 0) * 1000L);
            out.println("cdc-verify: " + String.join(",", tables) + " from " + source + " to " + target
                    + (request.schemaMap().isEmpty() ? "" : ", schemas " + request.schemaMap()) + "; chunks of "
                    + request.chunkSize() + " rows, " + request.threads() + " threads"
                    + (request.where() == null ? "" : ", where " + request.where()));
        } catch (IllegalArgumentException e) {
            err.println("cdc-verify: " + e.getMessage());
            err.println(USAGE);
            return VerifyReport.ERROR;
        }
        try {
            VerifyReport report = Verifier.run(request, request.progressMillis() > 0 ? line -> err.println("  … " + line) : null);
            out.println("source: " + report.sourceServer() + "; target: " + report.targetServer());
            for (String line : Summary.lines(report)) out.println(line);
            return report.exitStatus();
        } catch (SQLException | IllegalArgumentException | IllegalStateException e) {
            err.println("cdc-verify: ERROR: " + e.getMessage());
            return VerifyReport.ERROR;
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                o.put("help", "");
                continue;
            }
            if (!a.startsWith("--")) throw new IllegalArgumentException("unexpected argument '" + a + "'");
            String name = a.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else {
                if (i + 1 >= args.length) throw new IllegalArgumentException("--" + name + " needs a value");
                value = args[++i];
            }
            if (name.equals("source-password") || name.equals("target-password")) {
                throw new IllegalArgumentException("--" + name + " is not accepted: a password on the command line shows "
                        + "in ps and in shell history; use --" + name + "-env VAR or --" + name + "-file FILE");
            }
            if (!OPTIONS.contains(name)) throw new IllegalArgumentException("unknown option --" + name);
            if (name.equals("tables") && o.containsKey("tables")) value = o.get("tables") + "," + value;
            o.put(name, value);
        }
        return o;
    }

    private static String required(Map<String, String> o, String name) {
        String v = o.get(name);
        if (v == null || v.isBlank()) throw new IllegalArgumentException("--" + name + " is required");
        return v;
    }

    private static int integer(Map<String, String> o, String name, int dflt, int min) {
        String v = o.get(name);
        if (v == null) return dflt;
        try {
            int n = Integer.parseInt(v.trim());
            if (n < min) throw new IllegalArgumentException("--" + name + " must be at least " + min + ", got " + v);
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, got '" + v + "'");
        }
    }

    /** The password of {@code side} from --SIDE-password-file, --SIDE-password-env, or CDC_VERIFY_SIDE_PASSWORD. */
    private static String password(Map<String, String> o, Map<String, String> env, String side) {
        String file = o.get(side + "-password-file");
        String var = o.get(side + "-password-env");
        if (file != null && var != null) {
            throw new IllegalArgumentException("give the " + side + " password either by --" + side
                    + "-password-file or by --" + side + "-password-env, not both");
        }
        if (file != null) {
            try {
                List<String> lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
                return lines.isEmpty() ? "" : lines.get(0);
            } catch (IOException e) {
                throw new IllegalArgumentException("--" + side + "-password-file: cannot read " + file + " ("
                        + e.getClass().getSimpleName() + ")");
            }
        }
        if (var != null) {
            String v = env.get(var);
            if (v == null) {
                throw new IllegalArgumentException("--" + side + "-password-env: environment variable " + var + " is not set");
            }
            return v;
        }
        return env.get("CDC_VERIFY_" + side.toUpperCase(java.util.Locale.ROOT) + "_PASSWORD");
    }

    static Map<String, String> schemaMap(String spec) {
        Map<String, String> m = new LinkedHashMap<>();
        if (spec == null || spec.isBlank()) return m;
        for (String pair : spec.split(",")) {
            String[] kv = pair.split("=", -1);
            if (kv.length != 2 || kv[0].isBlank() || kv[1].isBlank()) {
                throw new IllegalArgumentException("--schema-map: '" + pair + "' is not SOURCE=TARGET (e.g. shop=shop_replica)");
            }
            m.put(kv[0].trim(), kv[1].trim());
        }
        return m;
    }
}
