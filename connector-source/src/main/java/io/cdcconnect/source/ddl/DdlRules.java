package io.cdcconnect.source.ddl;

import io.cdcconnect.codec.model.DdlChange;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides which of Debezium's schema-change statements a downstream should run, and as what.
 *
 * <p>The rule:
 * <ul>
 *   <li>Session statements ({@code SET}, {@code USE}, ...) are never forwarded: they are Debezium's bookkeeping.</li>
 *   <li>During the snapshot, Debezium writes {@code DROP TABLE IF EXISTS}, {@code DROP DATABASE IF EXISTS},
 *       {@code CREATE DATABASE} and {@code CREATE TABLE} for its schema history. Only the creating statements are
 *       forwarded, rewritten to {@code CREATE ... IF NOT EXISTS}, so a downstream that already has the tables (and
 *       their rows) keeps them. Every snapshot {@code DROP} is held back: replaying it would wipe downstream data.</li>
 *   <li>While streaming, every statement that changes a table, index, view or database ({@code CREATE},
 *       {@code ALTER}, {@code DROP}, {@code RENAME TABLE}, {@code TRUNCATE}) is forwarded unchanged: the source
 *       really ran it.</li>
 *   <li>Anything else is not forwarded: triggers, routines and events (run downstream they would act a second time
 *       on rows the binlog already carries), users and roles, {@code GRANT}, {@code FLUSH}, {@code ANALYZE}.</li>
 * </ul>
 * Which tables a forwarded statement is about, and how a statement about several tables is cut, {@link DdlTables}
 * decides.
 */
public final class DdlRules {
    private static final Logger LOG = LoggerFactory.getLogger(DdlRules.class);

    private static final Pattern LEADING_COMMENTS = Pattern.compile("^(\\s+|/\\*.*?\\*/|--[^\\n]*\\n|#[^\\n]*\\n)+",
            Pattern.DOTALL);
    private static final Pattern CREATE_TABLE = Pattern.compile(
            "^CREATE\\s+(?:(?:TEMPORARY)\\s+)?TABLE\\s+(?!IF\\s+NOT\\s+EXISTS\\b)", Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE_DATABASE = Pattern.compile(
            "^CREATE\\s+(DATABASE|SCHEMA)\\s+(?!IF\\s+NOT\\s+EXISTS\\b)", Pattern.CASE_INSENSITIVE);
    private static final Pattern WORDS = Pattern.compile("[A-Za-z_]+");
    private static final java.util.Set<String> OBJECT_KEYWORDS = java.util.Set.of("TABLE", "INDEX", "VIEW",
            "DATABASE", "SCHEMA", "TRIGGER", "PROCEDURE", "FUNCTION", "EVENT", "USER", "ROLE", "SERVER", "SEQUENCE",
            "TABLESPACE", "LOGFILE", "PACKAGE", "SPATIAL_REFERENCE_SYSTEM", "RESOURCE", "AGGREGATE");
    private static final java.util.Set<String> SCHEMA_OBJECTS = java.util.Set.of("TABLE", "INDEX", "VIEW", "DATABASE",
            "SCHEMA");

    private DdlRules() {
    }

    /**
     * What to forward for one statement: nothing when it must not be forwarded, else the statements to send with the
     * tables each touches ({@link DdlTables}: one, or one per table pair of a multi-table RENAME and one per table of a
     * multi-table DROP TABLE).
     *
     * @param schema   database the statement ran in (Debezium's databaseName)
     * @param ddl      statement text
     * @param snapshot whether Debezium emitted it while taking its snapshot
     * @param commitTs the statement's commit ts
     */
    public static List<DdlStatement> forward(String schema, String ddl, boolean snapshot, long commitTs) {
        String stmt = stripLeadingComments(ddl).trim();
        if (stmt.endsWith(";")) stmt = stmt.substring(0, stmt.length() - 1).trim();
        return forwarded(stmt, snapshot).map(s -> statements(schema, s, commitTs)).orElse(List.of());
    }

    /** The text to forward for a statement, or empty when it must not be forwarded. */
    private static Optional<String> forwarded(String stmt, boolean snapshot) {
        if (stmt.isEmpty()) return Optional.empty();
        String[] words = firstWords(stmt, 16);
        String first = words[0];
        if (snapshot) {
            if (!"CREATE".equals(first)) return Optional.empty();
            Matcher t = CREATE_TABLE.matcher(stmt);
            if (t.find()) return Optional.of(stmt.substring(0, t.end()) + "IF NOT EXISTS " + stmt.substring(t.end()));
            Matcher d = CREATE_DATABASE.matcher(stmt);
            if (d.find()) return Optional.of(stmt.substring(0, d.end()) + "IF NOT EXISTS " + stmt.substring(d.end()));
            // Already "IF NOT EXISTS".
            if (words[1].equals("TABLE") || words[1].equals("DATABASE") || words[1].equals("SCHEMA")) {
                return Optional.of(stmt);
            }
            return Optional.empty();
        }
        switch (first) {
            case "CREATE": case "ALTER": case "DROP":
                // Tables, indexes, views and databases only: a trigger, routine or event run downstream would act a
                // second time on rows the binlog already carries, and users/roles are the target's own business.
                return SCHEMA_OBJECTS.contains(objectWord(words)) ? Optional.of(stmt) : Optional.empty();
            case "RENAME":
                return objectWord(words).equals("TABLE") ? Optional.of(stmt) : Optional.empty();
            case "TRUNCATE":
                return Optional.of(stmt);
            default:
                return Optional.empty();
        }
    }

    /** The statements to send for a forwarded one, with their tables. */
    private static List<DdlStatement> statements(String schema, String stmt, long commitTs) {
        Optional<List<DdlTables.Part>> parts = DdlTables.of(schema, stmt);
        if (parts.isEmpty()) {
            LOG.warn("Cannot read which table this DDL is about: sending it as a statement about database '{}' (to "
                    + "every topic of that database written so far): {}", schema, stmt);
            return List.of(new DdlStatement(new DdlChange(schema, "", stmt, kind(stmt), commitTs), List.of()));
        }
        List<DdlStatement> out = new ArrayList<>(parts.get().size());
        for (DdlTables.Part p : parts.get()) {
            // Debezium reports no database for a statement run outside one (no USE) whose tables the parser does not
            // follow (CREATE INDEX): a statement whose names are all qualified then runs in its first table's
            String runIn = schema == null || schema.isEmpty() ? qualifiedIn(p.tables()) : schema;
            DdlChange change = new DdlChange(runIn, DdlStatement.tableIn(runIn, p.tables()), p.query(),
                    kind(p.query()), commitTs);
            out.add(new DdlStatement(change, p.tables()));
        }
        return out;
    }

    /** The database of the first table when every table is named with its database, else "". */
    private static String qualifiedIn(List<TableRef> tables) {
        for (TableRef t : tables) {
            if (t.schema().isEmpty()) return "";
        }
        return tables.isEmpty() ? "" : tables.get(0).schema();
    }

    /** Canal-JSON's event type for a statement, as TiCDC maps TiDB's DDL actions. */
    public static DdlChange.Kind kind(String statement) {
        String stmt = stripLeadingComments(statement).trim();
        return kind(firstWords(stmt, 16), stmt);
    }

    private static DdlChange.Kind kind(String[] w, String stmt) {
        String object = objectWord(w);
        switch (w[0]) {
            case "CREATE":
                if (object.equals("TABLE") || object.equals("VIEW")) return DdlChange.Kind.CREATE;
                if (object.equals("INDEX")) return DdlChange.Kind.CINDEX;
                return DdlChange.Kind.QUERY;
            case "DROP":
                if (object.equals("TABLE") || object.equals("VIEW")) return DdlChange.Kind.ERASE;
                if (object.equals("INDEX")) return DdlChange.Kind.DINDEX;
                return DdlChange.Kind.QUERY;
            case "RENAME":
                return object.equals("TABLE") ? DdlChange.Kind.RENAME : DdlChange.Kind.QUERY;
            case "TRUNCATE":
                return DdlChange.Kind.TRUNCATE;
            case "ALTER":
                if (!object.equals("TABLE")) return DdlChange.Kind.QUERY;
                return alterKind(stmt);
            default:
                return DdlChange.Kind.QUERY;
        }
    }

    /**
     * The word naming what a CREATE/ALTER/DROP/RENAME acts on: the first object keyword after the verb, so modifiers
     * (OR REPLACE, UNIQUE, TEMPORARY, ALGORITHM=..., DEFINER=`u`@`h`, SQL SECURITY ...) are passed over.
     */
    private static String objectWord(String[] w) {
        for (int i = 1; i < w.length; i++) {
            if (OBJECT_KEYWORDS.contains(w[i])) return w[i];
        }
        return "";
    }

    private static final Pattern ALTER_HEAD = Pattern.compile(
            "^ALTER\\s+(?:ONLINE\\s+|IGNORE\\s+)*TABLE\\s+(?:IF\\s+EXISTS\\s+)?(`(?:[^`]|``)+`|[^\\s.`]+)"
                    + "(?:\\s*\\.\\s*(`(?:[^`]|``)+`|[^\\s.`]+))?\\s+", Pattern.CASE_INSENSITIVE);
    private static final Pattern ADD_INDEX = Pattern.compile(
            "^ADD\\s+(UNIQUE|INDEX|KEY|FULLTEXT|SPATIAL|PRIMARY\\s+KEY|CONSTRAINT)\\b", Pattern.CASE_INSENSITIVE);
    /** A CHECK constraint (MySQL 8.0.16+ enforces it) is no index, though it is added with ADD [CONSTRAINT [name]]. */
    private static final Pattern ADD_CHECK = Pattern.compile(
            "^ADD\\s+(?:CONSTRAINT\\s+(?:(?:`(?:[^`]|``)+`|[^\\s(`]+)\\s*)?)?CHECK\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern DROP_INDEX = Pattern.compile("^DROP\\s+(INDEX|KEY|PRIMARY\\s+KEY)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern RENAME_TABLE = Pattern.compile("^RENAME\\s+(TO|AS)?\\s*[^\\s]",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern RENAME_OTHER = Pattern.compile("^RENAME\\s+(COLUMN|INDEX|KEY)\\b",
            Pattern.CASE_INSENSITIVE);

    private static DdlChange.Kind alterKind(String stmt) {
        Matcher h = ALTER_HEAD.matcher(stmt);
        if (!h.find()) return DdlChange.Kind.ALTER;
        String spec = stmt.substring(h.end()).trim();
        // A single specification decides; several (comma-separated) are a general ALTER.
        if (hasTopLevelComma(spec)) return DdlChange.Kind.ALTER;
        if (ADD_CHECK.matcher(spec).find()) return DdlChange.Kind.ALTER;
        if (ADD_INDEX.matcher(spec).find()) return DdlChange.Kind.CINDEX;
        if (DROP_INDEX.matcher(spec).find()) return DdlChange.Kind.DINDEX;
        if (!RENAME_OTHER.matcher(spec).find() && RENAME_TABLE.matcher(spec).find()) return DdlChange.Kind.RENAME;
        return DdlChange.Kind.ALTER;
    }

    private static boolean hasTopLevelComma(String s) {
        int depth = 0;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                return true;
            }
        }
        return false;
    }

    static String stripLeadingComments(String ddl) {
        Matcher m = LEADING_COMMENTS.matcher(ddl);
        return m.find() ? ddl.substring(m.end()) : ddl;
    }

    private static String[] firstWords(String stmt, int n) {
        String[] out = new String[n];
        java.util.Arrays.fill(out, "");
        Matcher m = WORDS.matcher(stmt);
        int i = 0;
        while (i < n && m.find()) {
            out[i++] = m.group().toUpperCase(Locale.ROOT);
        }
        return out;
    }
}
