package io.cdcconnect.sink.ddl;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What DDL text from a Kafka message the sink may run ({@code ddl.apply}). Whoever can write to the topic must not be
 * able to run anything on the target but the schema change the message describes, so the text is checked, whatever
 * the policy, before it reaches the server:
 * <ul>
 *   <li>it is one statement (a {@code ;} may only end it) of a known kind: CREATE/ALTER/DROP/TRUNCATE/RENAME TABLE,
 *   CREATE/DROP INDEX, CREATE/ALTER/DROP DATABASE. Anything else (GRANT, CREATE USER, SET, routines, triggers, events,
 *   views, INSERT, LOAD DATA, ...) is refused;</li>
 *   <li>no executable comment ({@code /*! ... *}{@code /}, {@code /*M! ...}) that the server would run and this check
 *   would not see; TiDB's feature comments ({@code /*T![auto_rand] ...}, {@code /*T![clustered_index] ...}) are
 *   allowed, without a {@code ;} inside;</li>
 *   <li>no {@code SELECT} (CREATE TABLE ... SELECT copies data the message did not carry);</li>
 *   <li>no name in the server's own databases (mysql, information_schema, performance_schema, sys) or in the sink's
 *   DDL checkpoint database, and no statement run in one of them.</li>
 * </ul>
 * A statement that passes is then run only when its kind is in the policy; a kind left out is skipped (logged and
 * counted), a statement that fails the check is refused (dead-letter queue, or the task fails naming the record).
 */
public final class DdlPolicy {

    /** The statement kinds, by the names {@code ddl.apply} lists. */
    public enum Kind {
        CREATE_TABLE, ALTER_TABLE, DROP_TABLE, TRUNCATE_TABLE, RENAME_TABLE, CREATE_INDEX, DROP_INDEX,
        CREATE_DATABASE, ALTER_DATABASE, DROP_DATABASE;

        /** e.g. {@code create-table}. */
        public String settingName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public enum Verdict { APPLY, SKIP, REFUSE }

    /** The outcome for one statement; {@code kind} is null when it is of no known kind. */
    public record Decision(Verdict verdict, Kind kind, String reason) {
    }

    private static final Set<String> SYSTEM_DATABASES = Set.of("mysql", "information_schema", "performance_schema",
            "sys");

    private final Set<Kind> allowed;
    private final Set<String> protectedDatabases;

    private DdlPolicy(Set<Kind> allowed, Set<String> protectedDatabases) {
        this.allowed = allowed;
        this.protectedDatabases = protectedDatabases;
    }

    /**
     * @param setting             {@code all}, {@code none}, or kinds such as {@code create-table,alter-table}
     * @param checkpointDatabase  the sink's own database, which no message may touch (may be empty)
     * @throws IllegalArgumentException naming an unknown kind
     */
    public static DdlPolicy parse(List<String> setting, String checkpointDatabase) {
        return parse(setting, checkpointDatabase, Set.of());
    }

    /**
     * As {@link #parse(List, String)}; {@code targetSystemSchemas} (the target dialect's own, e.g. PostgreSQL's
     * {@code pg_catalog}) are protected as well.
     */
    public static DdlPolicy parse(List<String> setting, String checkpointDatabase, Set<String> targetSystemSchemas) {
        EnumSet<Kind> kinds = EnumSet.noneOf(Kind.class);
        for (String raw : setting) {
            String s = raw.trim().toLowerCase(Locale.ROOT);
            if (s.isEmpty()) continue;
            if (s.equals("all")) {
                kinds.addAll(EnumSet.allOf(Kind.class));
            } else if (!s.equals("none")) {
                kinds.add(kind(s));
            }
        }
        java.util.HashSet<String> prot = new java.util.HashSet<>(SYSTEM_DATABASES);
        for (String schema : targetSystemSchemas) prot.add(schema.toLowerCase(Locale.ROOT));
        if (checkpointDatabase != null && !checkpointDatabase.isBlank()) {
            prot.add(checkpointDatabase.trim().toLowerCase(Locale.ROOT));
        }
        return new DdlPolicy(kinds, Set.copyOf(prot));
    }

    static Kind kind(String settingName) {
        for (Kind k : Kind.values()) {
            if (k.settingName().equals(settingName)) return k;
        }
        List<String> names = new ArrayList<>();
        for (Kind k : Kind.values()) names.add(k.settingName());
        throw new IllegalArgumentException("unknown DDL kind '" + settingName + "': use all, none or a list of "
                + String.join(", ", names));
    }

    /** The kinds of statement that run. */
    public Set<Kind> allowed() {
        return allowed.isEmpty() ? EnumSet.noneOf(Kind.class) : EnumSet.copyOf(allowed);
    }

    /** Whether no statement may run in {@code database}: a system database or the sink's own. */
    public boolean protects(String database) {
        return database != null && protectedDatabases.contains(database.toLowerCase(Locale.ROOT));
    }

    /** The check, then the policy, for {@code sql} to be run in {@code targetDatabase} (may be empty). */
    public Decision decide(String sql, String targetDatabase) {
        return decide(sql, targetDatabase, db -> true);
    }

    /**
     * As {@link #decide(String, String)}, and every database the statement qualifies a name with, or creates, alters
     * or drops, as written (before {@code schema.map}), must pass {@code permitted} (the allow-list, after mapping).
     */
    public Decision decide(String sql, String targetDatabase, java.util.function.Predicate<String> permitted) {
        Scan scan;
        try {
            scan = Scan.of(sql);
        } catch (IllegalArgumentException e) {
            return new Decision(Verdict.REFUSE, null, e.getMessage());
        }
        if (targetDatabase != null && protectedDatabases.contains(targetDatabase.toLowerCase(Locale.ROOT))) {
            return new Decision(Verdict.REFUSE, null, "it would run in `" + targetDatabase + "`, which no message may "
                    + "change");
        }
        for (String db : scan.qualifiers) {
            if (protectedDatabases.contains(db)) {
                return new Decision(Verdict.REFUSE, null, "it names `" + db + "`, which no message may change");
            }
        }
        for (String db : scan.qualifiersAsWritten) {
            if (!permitted.test(db)) {
                return new Decision(Verdict.REFUSE, null, "it names database `" + db + "`, which no message may "
                        + "change (schema.map, schema.include)");
            }
        }
        if (scan.words.contains("SELECT")) {
            return new Decision(Verdict.REFUSE, null, "it copies data with SELECT, which no change event carries");
        }
        Kind k = classify(scan.words);
        if (k == null) {
            String head = String.join(" ", scan.words.subList(0, Math.min(3, scan.words.size())));
            return new Decision(Verdict.REFUSE, null, "'" + head + " ...' is not a schema change the sink runs");
        }
        if ((k == Kind.DROP_DATABASE || k == Kind.CREATE_DATABASE || k == Kind.ALTER_DATABASE)) {
            String named = scan.databaseName();
            if (named != null && protectedDatabases.contains(named)) {
                return new Decision(Verdict.REFUSE, k, "it names `" + named + "`, which no message may change");
            }
            String asWritten = scan.databaseNameAsWritten();
            if (asWritten != null && !permitted.test(asWritten)) {
                return new Decision(Verdict.REFUSE, k, "it names database `" + asWritten + "`, which no message may "
                        + "change (schema.map, schema.include)");
            }
        }
        if (!allowed.contains(k)) {
            return new Decision(Verdict.SKIP, k, k.settingName() + " is not in ddl.apply");
        }
        return new Decision(Verdict.APPLY, k, null);
    }

    private static Kind classify(List<String> w) {
        if (w.isEmpty()) return null;
        int i = 0;
        String first = w.get(i++);
        switch (first) {
            case "CREATE" -> {
                while (i < w.size() && (w.get(i).equals("UNIQUE") || w.get(i).equals("FULLTEXT")
                        || w.get(i).equals("SPATIAL") || w.get(i).equals("OR") || w.get(i).equals("REPLACE"))) {
                    if (w.get(i).equals("OR") || w.get(i).equals("REPLACE")) return null; // CREATE OR REPLACE ...
                    i++;
                }
                String what = i < w.size() ? w.get(i) : "";
                return switch (what) {
                    case "TABLE" -> Kind.CREATE_TABLE;
                    case "INDEX" -> Kind.CREATE_INDEX;
                    case "DATABASE", "SCHEMA" -> Kind.CREATE_DATABASE;
                    default -> null; // TEMPORARY TABLE, USER, VIEW, PROCEDURE, FUNCTION, TRIGGER, EVENT, SERVER, ...
                };
            }
            case "ALTER" -> {
                while (i < w.size() && (w.get(i).equals("ONLINE") || w.get(i).equals("IGNORE"))) i++;
                String what = i < w.size() ? w.get(i) : "";
                return switch (what) {
                    case "TABLE" -> Kind.ALTER_TABLE;
                    case "DATABASE", "SCHEMA" -> Kind.ALTER_DATABASE;
                    default -> null;
                };
            }
            case "DROP" -> {
                String what = i < w.size() ? w.get(i) : "";
                return switch (what) {
                    case "TABLE" -> Kind.DROP_TABLE;
                    case "INDEX" -> Kind.DROP_INDEX;
                    case "DATABASE", "SCHEMA" -> Kind.DROP_DATABASE;
                    default -> null; // TEMPORARY TABLE, USER, VIEW, ...
                };
            }
            case "TRUNCATE" -> {
                return Kind.TRUNCATE_TABLE;
            }
            case "RENAME" -> {
                return i < w.size() && w.get(i).equals("TABLE") ? Kind.RENAME_TABLE : null;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * The statement's bare words (upper case, outside quotes and comments), the databases it qualifies names with,
     * and its identifiers in order; fails on a second statement or an executable comment.
     */
    static final class Scan {
        final List<String> words = new ArrayList<>();
        final Set<String> qualifiers = new java.util.HashSet<>();
        /** Identifiers and words in order (identifiers unquoted, lower case), for the database of a DATABASE DDL. */
        final List<String> names = new ArrayList<>();
        /** {@link #qualifiers} and {@link #names} in the case the statement writes them (for the allow-list). */
        final Set<String> qualifiersAsWritten = new java.util.HashSet<>();
        final List<String> namesAsWritten = new ArrayList<>();

        static Scan of(String sql) {
            Scan s = new Scan();
            s.run(sql);
            return s;
        }

        String databaseName() {
            int at = databaseNameAt();
            return at < 0 ? null : names.get(at);
        }

        String databaseNameAsWritten() {
            int at = databaseNameAt();
            return at < 0 ? null : namesAsWritten.get(at);
        }

        private int databaseNameAt() {
            // CREATE/ALTER/DROP DATABASE|SCHEMA [IF [NOT] EXISTS] name
            for (int i = 0; i < names.size(); i++) {
                String n = names.get(i);
                if (n.equals("database") || n.equals("schema")) {
                    int j = i + 1;
                    while (j < names.size() && (names.get(j).equals("if") || names.get(j).equals("not")
                            || names.get(j).equals("exists"))) j++;
                    return j < names.size() ? j : -1;
                }
            }
            return -1;
        }

        private void run(String sql) {
            int n = sql.length();
            int i = 0;
            boolean ended = false;
            String lastIdent = null;
            String lastIdentAsWritten = null;
            while (i < n) {
                char c = sql.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                    continue;
                }
                if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                    int end = sql.indexOf("*/", i + 2);
                    if (end < 0) throw new IllegalArgumentException("an unterminated comment");
                    String body = sql.substring(i + 2, end);
                    if (body.startsWith("!") || body.startsWith("M!")) {
                        throw new IllegalArgumentException("an executable comment (/*!...*/) the server would run");
                    }
                    if (body.startsWith("T!")) {
                        if (body.indexOf(';') >= 0) {
                            throw new IllegalArgumentException("a second statement inside a TiDB comment");
                        }
                        if (!body.startsWith("T![")) {
                            throw new IllegalArgumentException("a TiDB executable comment without a feature id");
                        }
                    }
                    i = end + 2;
                    continue;
                }
                if (c == '#' || (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-'
                        && (i + 2 >= n || Character.isWhitespace(sql.charAt(i + 2))))) {
                    int end = sql.indexOf('\n', i);
                    i = end < 0 ? n : end + 1;
                    continue;
                }
                if (ended) throw new IllegalArgumentException("a second statement after ';'");
                if (c == ';') {
                    ended = true;
                    i++;
                    continue;
                }
                if (c == '\'' || c == '"' || c == '`') {
                    int j = i + 1;
                    StringBuilder v = new StringBuilder();
                    while (true) {
                        if (j >= n) throw new IllegalArgumentException("an unterminated quoted text");
                        char d = sql.charAt(j);
                        if (d == '\\' && c != '`' && j + 1 < n) {
                            v.append(sql.charAt(j + 1));
                            j += 2;
                            continue;
                        }
                        if (d == c) {
                            if (j + 1 < n && sql.charAt(j + 1) == c) {
                                v.append(c);
                                j += 2;
                                continue;
                            }
                            break;
                        }
                        v.append(d);
                        j++;
                    }
                    if (c == '`') {
                        lastIdentAsWritten = v.toString();
                        lastIdent = lastIdentAsWritten.toLowerCase(Locale.ROOT);
                        names.add(lastIdent);
                        namesAsWritten.add(lastIdentAsWritten);
                    } else {
                        lastIdent = null;
                    }
                    i = j + 1;
                    continue;
                }
                if (c == '.') {
                    if (lastIdent != null) {
                        qualifiers.add(lastIdent);
                        // an unquoted number before '.' is a literal (DEFAULT 1.5), not a database
                        if (lastIdentAsWritten != null) qualifiersAsWritten.add(lastIdentAsWritten);
                    }
                    lastIdent = null;
                    i++;
                    continue;
                }
                if (Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 127) {
                    int j = i;
                    while (j < n) {
                        char d = sql.charAt(j);
                        if (!(Character.isLetterOrDigit(d) || d == '_' || d == '$' || d > 127)) break;
                        j++;
                    }
                    String word = sql.substring(i, j);
                    words.add(word.toUpperCase(Locale.ROOT));
                    lastIdentAsWritten = word.chars().allMatch(Character::isDigit) ? null : word;
                    lastIdent = word.toLowerCase(Locale.ROOT);
                    names.add(lastIdent);
                    namesAsWritten.add(word);
                    i = j;
                    continue;
                }
                lastIdent = null;
                i++;
            }
            if (words.isEmpty()) throw new IllegalArgumentException("no statement");
        }
    }
}
