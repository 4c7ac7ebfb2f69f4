package io.cdcconnect.verify;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code cdc-verify}: compares source and target tables and exits 0 when they are equal, 1 when a row or a table's
 * columns differ, 2 when something could not be compared (a bad option, a connection refused, a table without key).
 * Passwords come from an environment variable, a file or a prompt, never from the command line, and are never
 * printed. The command line is parsed by picocli; {@link #run} is the whole command without {@code System.exit}.
 */
@Command(name = "cdc-verify", mixinStandardHelpOptions = true, versionProvider = VerifyCommand.Version.class,
        sortOptions = false, usageHelpWidth = 118, exitCodeOnInvalidInput = VerifyReport.ERROR,
        exitCodeOnExecutionException = VerifyReport.ERROR,
        description = "Compares the tables of a source (MySQL, MariaDB, TiDB) with their copies in a target (MySQL "
                + "family or PostgreSQL) chunk by chunk, and names every row that differs.",
        footer = {"", "Passwords: --SIDE-password-file, --SIDE-password-env, --SIDE-password (a prompt), else the "
                + "variable CDC_VERIFY_SOURCE_PASSWORD / CDC_VERIFY_TARGET_PASSWORD when set. A password is never "
                + "accepted on the command line.",
                "Exit status: 0 equal, 1 different, 2 error."})
public final class VerifyCommand implements Callable<Integer> {

    /** Reads a password the user types; {@code null} when there is nothing to read. */
    @FunctionalInterface
    public interface Prompt {
        char[] readPassword(String prompt);
    }

    public enum Output { text, json }

    @Option(names = "--source-url", required = true, paramLabel = "URL", order = 1,
            description = "jdbc:mysql://host:3306/ (MySQL, MariaDB, TiDB) or jdbc:postgresql://host/db")
    String sourceUrl;

    @Option(names = "--source-user", paramLabel = "USER", order = 2, description = "the user on the source")
    String sourceUser;

    @Option(names = "--source-password-env", paramLabel = "VAR", order = 3,
            description = "the source's password is in environment variable VAR (default: CDC_VERIFY_SOURCE_PASSWORD when set)")
    String sourcePasswordEnv;

    @Option(names = "--source-password-file", paramLabel = "FILE", order = 4,
            description = "the source's password is the first line of FILE")
    String sourcePasswordFile;

    @Option(names = "--source-password", arity = "0", order = 5,
            description = "prompt for the source's password (not echoed; without a terminal, one line of standard input)")
    boolean sourcePasswordPrompt;

    @Option(names = "--target-url", required = true, paramLabel = "URL", order = 6,
            description = "the target, as --source-url")
    String targetUrl;

    @Option(names = "--target-user", paramLabel = "USER", order = 7, description = "the user on the target")
    String targetUser;

    @Option(names = "--target-password-env", paramLabel = "VAR", order = 8,
            description = "the target's password is in environment variable VAR (default: CDC_VERIFY_TARGET_PASSWORD when set)")
    String targetPasswordEnv;

    @Option(names = "--target-password-file", paramLabel = "FILE", order = 9,
            description = "the target's password is the first line of FILE")
    String targetPasswordFile;

    @Option(names = "--target-password", arity = "0", order = 10, description = "prompt for the target's password")
    boolean targetPasswordPrompt;

    @Option(names = "--tables", required = true, split = ",", paramLabel = "LIST", order = 11,
            description = "source tables as schema.table, comma-separated, the option may repeat; * and ? are "
                    + "wildcards (shop.*, shop.order?)")
    List<String> tables = new ArrayList<>();

    @Option(names = "--schema-map", paramLabel = "SRC=DST,...", order = 12,
            description = "the target schema of each source schema (default: the same name), like the sink's "
                    + "schema.map; on PostgreSQL a schema of the URL's database")
    String schemaMap;

    @Option(names = "--chunk-size", paramLabel = "N", order = 13, description = "rows per chunk (default ${DEFAULT-VALUE})")
    int chunkSize = VerifyRequest.DEFAULT_CHUNK_SIZE;

    @Option(names = "--threads", paramLabel = "N", order = 14,
            description = "chunks compared at once, two connections each (default ${DEFAULT-VALUE})")
    int threads = VerifyRequest.DEFAULT_THREADS;

    @Option(names = "--where", paramLabel = "COND", order = 15,
            description = "compare only rows matching COND (SQL both sides understand)")
    String where;

    @Option(names = "--show", paramLabel = "N", order = 16,
            description = "differing keys listed per kind and table (default ${DEFAULT-VALUE})")
    int show = VerifyRequest.DEFAULT_SHOWN;

    @Option(names = "--progress-seconds", paramLabel = "N", order = 17,
            description = "a progress line (stderr) per table in progress every N seconds, 0 for none (default ${DEFAULT-VALUE})")
    int progressSeconds = (int) (VerifyRequest.DEFAULT_PROGRESS_MILLIS / 1000);

    @Option(names = "--output", paramLabel = "FORMAT", order = 18,
            description = "text (default) or json: one JSON document on standard output (tables, rows, differences "
                    + "by key and column, exit status)")
    Output output = Output.text;

    private final Map<String, String> env;
    private final PrintStream out;
    private final PrintStream err;
    private final Prompt prompt;

    private VerifyCommand(Map<String, String> env, PrintStream out, PrintStream err, Prompt prompt) {
        this.env = env;
        this.out = out;
        this.err = err;
        this.prompt = prompt;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err, terminalPrompt(System.err)));
    }

    /** The command without System.exit: the exit status it would give. Prompts read standard input. */
    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        return run(args, env, out, err, terminalPrompt(err));
    }

    /** As {@link #run(String[], Map, PrintStream, PrintStream)}, with the prompt for {@code --SIDE-password}. */
    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err, Prompt prompt) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            for (String side : List.of("source", "target")) {
                String name = "--" + side + "-password";
                boolean withValue = a.startsWith(name + "=") || a.equals(name) && i + 1 < args.length && !args[i + 1].startsWith("-");
                if (withValue) {
                    return usageError(err, name + " does not take a value: a password on the command line shows "
                            + "in ps and in shell history; use " + name + "-env VAR or " + name + "-file FILE, or "
                            + name + " alone to be prompted");
                }
            }
        }
        VerifyCommand command = new VerifyCommand(env, out, err, prompt);
        CommandLine cl = new CommandLine(command);
        cl.setOverwrittenOptionsAllowed(true);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        // before picocli, which reports a missing required option first: --source-urll is a typo, not a missing URL
        String unknown = unknownOption(cl.getCommandSpec(), args);
        if (unknown != null) return usageError(err, unknown);
        cl.setParameterExceptionHandler((e, arguments) -> usageError(err, e.getMessage()));
        return cl.execute(args);
    }

    /** What a mistake prints: the message, one usage line and where the rest is; the exit status of an error. */
    static int usageError(PrintStream err, String message) {
        err.println("cdc-verify: " + message);
        err.println(USAGE);
        err.println("See 'cdc-verify --help' for every option.");
        return VerifyReport.ERROR;
    }

    /** The short usage a mistake prints (the whole help is --help's). */
    static final String USAGE = "Usage: cdc-verify --source-url URL --target-url URL --tables LIST [OPTION...]";

    /**
     * The first option of {@code args} the command does not have, as a message naming the nearest one it has (by
     * edit distance, when it is near enough to be a typo), or null. An option's value is skipped, never taken for
     * an option; so is everything after {@code --}.
     */
    static String unknownOption(CommandSpec spec, String[] args) {
        Map<String, CommandLine.Model.OptionSpec> options = spec.optionsMap();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--")) return null;
            if (!a.startsWith("-") || a.equals("-")) continue;
            int eq = a.indexOf('=');
            String name = eq < 0 ? a : a.substring(0, eq);
            CommandLine.Model.OptionSpec option = options.get(name);
            if (option == null && !a.startsWith("--") && a.length() > 2) {
                // clustered short options (-hV)
                boolean all = true;
                for (char c : a.substring(1).toCharArray()) all &= spec.posixOptionsMap().containsKey(c);
                if (all) continue;
            }
            if (option == null) {
                String nearest = null;
                int best = Integer.MAX_VALUE;
                for (String known : options.keySet()) {
                    int d = distance(name, known);
                    if (d < best) {
                        best = d;
                        nearest = known;
                    }
                }
                boolean typo = nearest != null && best <= Math.max(2, name.length() / 3);
                return "unknown option '" + name + "'" + (typo ? "; did you mean " + nearest + "?" : "");
            }
            if (eq < 0 && option.arity().min() > 0) i++; // its value
        }
        return null;
    }

    /** Levenshtein distance: one insertion, deletion or substitution of a character costs 1. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) previous[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }

    @Override
    public Integer call() {
        VerifyRequest request;
        Endpoint source, target;
        try {
            // decided from the text, before a password is asked for or a connection tried
            checkUrl("--source-url", sourceUrl);
            checkUrl("--target-url", targetUrl);
            source = new Endpoint(sourceUrl, sourceUser, password("source", sourcePasswordFile, sourcePasswordEnv, sourcePasswordPrompt));
            target = new Endpoint(targetUrl, targetUser, password("target", targetPasswordFile, targetPasswordEnv, targetPasswordPrompt));
            List<String> names = new ArrayList<>();
            for (String t : tables) {
                if (!t.isBlank()) names.add(t.trim());
            }
            if (names.isEmpty()) throw new IllegalArgumentException("--tables is required");
            request = new VerifyRequest(source, target, names, schemaMap(schemaMap), atLeast("chunk-size", chunkSize, 1),
                    atLeast("threads", threads, 1), where, atLeast("show", show, 0),
                    atLeast("progress-seconds", progressSeconds, 0) * 1000L);
        } catch (IllegalArgumentException e) {
            return usageError(err, e.getMessage());
        }
        boolean json = output == Output.json;
        if (!json) {
            out.println("cdc-verify: " + String.join(",", request.tables()) + " from " + source + " to " + target
                    + (request.schemaMap().isEmpty() ? "" : ", schemas " + request.schemaMap()) + "; chunks of "
                    + request.chunkSize() + " rows, " + request.threads() + " threads"
                    + (request.where() == null ? "" : ", where " + request.where()));
        }
        try {
            VerifyReport report = Verifier.run(request, request.progressMillis() > 0 ? line -> err.println("  … " + line) : null);
            if (json) {
                out.println(JsonReport.of(version(), source, target, report));
            } else {
                out.println("source: " + report.sourceServer() + "; target: " + report.targetServer());
                for (String line : Summary.lines(report)) out.println(line);
            }
            return report.exitStatus();
        } catch (SQLException | IllegalArgumentException | IllegalStateException e) {
            err.println("cdc-verify: ERROR: " + e.getMessage());
            if (json) out.println(JsonReport.failed(version(), source, target, e.getMessage()));
            return VerifyReport.ERROR;
        }
    }

    /** Refuses a URL no shipped driver serves: not JDBC, or a database cdc-verify does not read. */
    private static void checkUrl(String option, String url) {
        String problem = SqlFamily.unsupportedUrl(url, new Endpoint(url, null, null).displayUrl());
        if (problem != null) throw new IllegalArgumentException(option + ": " + problem);
    }

    private static int atLeast(String name, int n, int min) {
        if (n < min) throw new IllegalArgumentException("--" + name + " must be at least " + min + ", got " + n);
        return n;
    }

    /** The password of {@code side} from --SIDE-password-file, --SIDE-password-env, a prompt, or CDC_VERIFY_SIDE_PASSWORD. */
    private String password(String side, String file, String var, boolean ask) {
        if ((file != null ? 1 : 0) + (var != null ? 1 : 0) + (ask ? 1 : 0) > 1) {
            throw new IllegalArgumentException("give the " + side + " password one way: --" + side
                    + "-password-file, --" + side + "-password-env or --" + side + "-password (a prompt)");
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
        if (ask) {
            char[] typed = prompt.readPassword(side + " password: ");
            if (typed == null) throw new IllegalArgumentException("--" + side + "-password: no password was entered");
            return new String(typed);
        }
        return env.get("CDC_VERIFY_" + side.toUpperCase(Locale.ROOT) + "_PASSWORD");
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

    /**
     * The terminal's password prompt (no echo) when there is a terminal; else one line of standard input per prompt,
     * read through one reader so that two prompts take two lines. The prompt goes to {@code err}, so that
     * {@code --output json} keeps standard output to the document.
     */
    static Prompt terminalPrompt(PrintStream err) {
        return new Prompt() {
            private BufferedReader stdin;

            @Override
            public synchronized char[] readPassword(String text) {
                Console console = System.console();
                if (console != null) return console.readPassword("%s", text);
                err.print(text);
                err.flush();
                try {
                    if (stdin == null) stdin = new BufferedReader(new InputStreamReader(System.in, Charset.defaultCharset()));
                    String line = stdin.readLine();
                    return line == null ? null : line.toCharArray();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }

    /** The jar's Implementation-Version (set by the build); unknown when the classes are not in the release jar. */
    static String version() {
        String v = VerifyCommand.class.getPackage().getImplementationVersion();
        return v == null ? "unknown (not run from the cdc-connect-verify jar)" : v;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"cdc-verify " + version(),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
