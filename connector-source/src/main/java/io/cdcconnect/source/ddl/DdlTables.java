package io.cdcconnect.source.ddl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The one place that decides which tables a DDL statement is about, read from the statement's own text (Debezium's
 * {@code source.table} is not used: it is empty for {@code CREATE INDEX} and {@code DROP INDEX}, and joins the names
 * with commas for a statement about several tables).
 *
 * <p>A statement about several tables that MySQL runs as one independent step per table is cut into one statement per
 * step, each with the tables it touches, as TiCDC cuts a TiDB {@code RENAME TABLE a TO b, c TO d} job into one DDL
 * event per table pair:
 * <ul>
 *   <li>{@code RENAME TABLE a TO b, c TO d}: {@code RENAME TABLE a TO b} about a and b, then
 *       {@code RENAME TABLE c TO d} about c and d;</li>
 *   <li>{@code DROP TABLE a, b}: {@code DROP TABLE a} about a, then {@code DROP TABLE b} about b (each with the
 *       statement's own {@code TEMPORARY}, {@code IF EXISTS} and what follows the names).</li>
 * </ul>
 * Every other statement stays whole: {@code ALTER TABLE a ... RENAME TO b} is about a and b; {@code CREATE TABLE t},
 * {@code CREATE TABLE t LIKE o} (o only read), {@code ALTER TABLE t}, {@code TRUNCATE [TABLE] t},
 * {@code CREATE INDEX i ON t}, {@code DROP INDEX i ON t} are about t; statements about a database or a view name no
 * table.
 */
public final class DdlTables {

    /** One statement to send and the tables it touches, in the order the statement names them. */
    public record Part(String query, List<TableRef> tables) {
        public Part {
            tables = List.copyOf(tables);
        }
    }

    /** Objects whose statements name no table: the statement concerns a database (views have no rows of their own). */
    private static final Set<String> NO_TABLE = Set.of("DATABASE", "SCHEMA", "VIEW");
    private static final Set<String> OBJECTS = Set.of("TABLE", "TABLES", "INDEX", "VIEW", "DATABASE", "SCHEMA");

    private DdlTables() {
    }

    /**
     * The statement as the statements to send, each with its tables.
     *
     * @param schema    the database the statement ran in: the database of its unqualified names
     * @param statement one statement, without leading comments or a trailing semicolon
     * @return the parts (one, unless the statement is cut as the class comment says), each naming no table when the
     *         statement is about a database or a view; empty when the statement is about a table that cannot be read
     *         from its text
     */
    public static Optional<List<Part>> of(String schema, String statement) {
        Cursor c = new Cursor(statement, schema == null ? "" : schema);
        String verb = c.word(0);
        String object = c.objectWord();
        if (NO_TABLE.contains(object)) return whole(statement, List.of());
        List<Part> parts = switch (verb) {
            case "CREATE" -> object.equals("INDEX") ? index(c, statement) : created(c, statement, object);
            case "ALTER" -> object.equals("TABLE") ? altered(c, statement) : null;
            case "DROP" -> object.equals("INDEX") ? index(c, statement)
                    : object.startsWith("TABLE") ? dropped(c, statement) : null;
            case "RENAME" -> object.startsWith("TABLE") ? renamed(c, statement) : null;
            case "TRUNCATE" -> truncated(c, statement);
            default -> null;
        };
        return Optional.ofNullable(parts);
    }

    private static Optional<List<Part>> whole(String statement, List<TableRef> tables) {
        return Optional.of(List.of(new Part(statement, tables)));
    }

    /** {@code CREATE [OR REPLACE] [TEMPORARY] TABLE [IF NOT EXISTS] t ...}: t (a LIKE or SELECT source is only read). */
    private static List<Part> created(Cursor c, String statement, String object) {
        if (!object.equals("TABLE")) return null;
        c.to(c.objectIndex() + 1);
        c.accept("IF", "NOT", "EXISTS");
        TableRef t = c.table();
        return t == null ? null : List.of(new Part(statement, List.of(t)));
    }

    /** {@code CREATE [UNIQUE|...] INDEX [IF NOT EXISTS] i [USING ...] ON t (...)}, {@code DROP INDEX i ON t}: t. */
    private static List<Part> index(Cursor c, String statement) {
        c.to(c.objectIndex() + 1);
        if (!c.accept("IF", "NOT", "EXISTS")) c.accept("IF", "EXISTS");
        if (c.table() == null) return null; // the index's name
        if (!c.skipToWord("ON")) return null;
        TableRef t = c.table();
        return t == null ? null : List.of(new Part(statement, List.of(t)));
    }

    /**
     * {@code ALTER [ONLINE] [IGNORE] TABLE [IF EXISTS] t spec, spec...}: t, and the new name of a {@code RENAME [TO|AS]
     * n} specification (not {@code RENAME COLUMN|INDEX|KEY}).
     */
    private static List<Part> altered(Cursor c, String statement) {
        c.to(c.objectIndex() + 1);
        c.accept("IF", "EXISTS");
        TableRef t = c.table();
        if (t == null) return null;
        List<TableRef> tables = new ArrayList<>(List.of(t));
        int depth = 0;
        boolean specStart = true;
        while (!c.done()) {
            if (depth == 0 && specStart && c.isWord("RENAME")) {
                c.next();
                if (c.isWord("COLUMN") || c.isWord("INDEX") || c.isWord("KEY")) continue;
                if (!c.accept("TO")) c.accept("AS");
                TableRef to = c.table();
                if (to == null) return null;
                if (!tables.contains(to)) tables.add(to);
                specStart = false;
                continue;
            }
            specStart = false;
            if (c.isPunct('(')) depth++;
            else if (c.isPunct(')')) depth--;
            else if (depth == 0 && c.isPunct(',')) specStart = true;
            c.next();
        }
        return List.of(new Part(statement, tables));
    }

    /** {@code DROP [TEMPORARY] TABLE [IF EXISTS] a, b [RESTRICT|CASCADE]}: one statement per table. */
    private static List<Part> dropped(Cursor c, String statement) {
        c.to(c.objectIndex() + 1);
        c.accept("IF", "EXISTS");
        List<int[]> spans = new ArrayList<>();
        List<TableRef> tables = new ArrayList<>();
        do {
            int start = c.start();
            TableRef t = c.table();
            if (t == null) return null;
            spans.add(new int[] {start, c.previousEnd()});
            tables.add(t);
        } while (c.acceptPunct(','));
        if (tables.size() == 1) return List.of(new Part(statement, tables));
        String head = statement.substring(0, spans.get(0)[0]);
        String tail = statement.substring(spans.get(spans.size() - 1)[1]);
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            parts.add(new Part(head + statement.substring(spans.get(i)[0], spans.get(i)[1]) + tail,
                    List.of(tables.get(i))));
        }
        return parts;
    }

    /** {@code RENAME TABLE[S] [IF EXISTS] a [WAIT n|NOWAIT] TO b, c TO d}: one statement per pair. */
    private static List<Part> renamed(Cursor c, String statement) {
        c.to(c.objectIndex() + 1);
        c.accept("IF", "EXISTS");
        List<int[]> spans = new ArrayList<>();
        List<List<TableRef>> pairs = new ArrayList<>();
        do {
            int start = c.start();
            TableRef from = c.table();
            if (from == null) return null;
            if (!c.accept("NOWAIT") && c.accept("WAIT")) c.next();
            if (!c.accept("TO")) return null;
            TableRef to = c.table();
            if (to == null) return null;
            spans.add(new int[] {start, c.previousEnd()});
            pairs.add(from.equals(to) ? List.of(from) : List.of(from, to));
        } while (c.acceptPunct(','));
        if (pairs.size() == 1) return List.of(new Part(statement, pairs.get(0)));
        String head = statement.substring(0, spans.get(0)[0]);
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i++) {
            parts.add(new Part(head + statement.substring(spans.get(i)[0], spans.get(i)[1]), pairs.get(i)));
        }
        return parts;
    }

    /** {@code TRUNCATE [TABLE] t}: t. */
    private static List<Part> truncated(Cursor c, String statement) {
        c.to(1);
        c.accept("TABLE");
        TableRef t = c.table();
        return t == null ? null : List.of(new Part(statement, List.of(t)));
    }

    /**
     * A token: an unquoted word ({@code word} upper-cased, {@code name} as written), a quoted identifier ({@code name}
     * unquoted, {@code word} null), a string literal or a punctuation character ({@code punct}).
     */
    private record Token(int start, int end, String word, String name, char punct) {
    }

    /** The statement's tokens (comments and white space left out) and a position among them. */
    private static final class Cursor {
        private final String schema;
        private final List<Token> tokens;
        private int i;

        Cursor(String sql, String schema) {
            this.schema = schema;
            this.tokens = tokens(sql);
        }

        boolean done() {
            return i >= tokens.size();
        }

        void to(int index) {
            i = index;
        }

        void next() {
            i++;
        }

        /** Where the current token starts (the text's end when none is left). */
        int start() {
            return done() ? (tokens.isEmpty() ? 0 : tokens.get(tokens.size() - 1).end) : tokens.get(i).start;
        }

        /** Where the token before the current one ends. */
        int previousEnd() {
            return tokens.get(i - 1).end;
        }

        /** The upper-cased unquoted word at {@code index}, or "". */
        String word(int index) {
            if (index >= tokens.size() || tokens.get(index).word == null) return "";
            return tokens.get(index).word;
        }

        boolean isWord(String w) {
            return word(i).equals(w);
        }

        boolean isPunct(char p) {
            return !done() && tokens.get(i).punct == p;
        }

        /** Takes the words {@code words} if they come next. */
        boolean accept(String... words) {
            for (int k = 0; k < words.length; k++) {
                if (!word(i + k).equals(words[k])) return false;
            }
            i += words.length;
            return true;
        }

        boolean acceptPunct(char p) {
            if (!isPunct(p)) return false;
            i++;
            return true;
        }

        /** The position of the first word naming what the statement acts on, passing over modifiers; -1 if none. */
        int objectIndex() {
            for (int k = 1; k < tokens.size(); k++) {
                if (OBJECTS.contains(word(k))) return k;
            }
            return -1;
        }

        String objectWord() {
            int k = objectIndex();
            return k < 0 ? "" : word(k);
        }

        /** Moves past the next word {@code w} outside parentheses; false when there is none. */
        boolean skipToWord(String w) {
            int depth = 0;
            for (; !done(); i++) {
                if (isPunct('(')) depth++;
                else if (isPunct(')')) depth--;
                else if (depth == 0 && isWord(w)) {
                    i++;
                    return true;
                }
            }
            return false;
        }

        private boolean isName(int index) {
            return index < tokens.size() && tokens.get(index).name != null;
        }

        /** A table name, {@code name} or {@code db.name}, taken; null (nothing taken) when none comes next. */
        TableRef table() {
            if (!isName(i)) return null;
            if (i + 2 < tokens.size() && tokens.get(i + 1).punct == '.' && isName(i + 2)) {
                TableRef t = new TableRef(tokens.get(i).name, tokens.get(i + 2).name);
                i += 3;
                return t;
            }
            return new TableRef(schema, tokens.get(i++).name);
        }
    }

    private static boolean wordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c >= 0x80;
    }

    private static List<Token> tokens(String s) {
        List<Token> out = new ArrayList<>();
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int e = s.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 2;
            } else if (c == '#' || (c == '-' && s.startsWith("--", i)
                    && (i + 2 == n || Character.isWhitespace(s.charAt(i + 2))))) {
                int e = s.indexOf('\n', i);
                i = e < 0 ? n : e + 1;
            } else if (c == '`' || c == '"' || c == '\'') {
                StringBuilder name = new StringBuilder();
                int j = i + 1;
                while (j < n) {
                    char d = s.charAt(j);
                    if (d == '\\' && c == '\'' && j + 1 < n) {
                        name.append(s.charAt(j + 1));
                        j += 2;
                    } else if (d == c && j + 1 < n && s.charAt(j + 1) == c) {
                        name.append(c);
                        j += 2;
                    } else if (d == c) {
                        break;
                    } else {
                        name.append(d);
                        j++;
                    }
                }
                int end = Math.min(j + 1, n);
                // a string literal is no name; "..." is one under ANSI_QUOTES
                out.add(new Token(i, end, null, c == '\'' ? null : name.toString(), c == '\'' ? '\'' : 0));
                i = end;
            } else if (wordChar(c)) {
                int j = i;
                while (j < n && wordChar(s.charAt(j))) j++;
                String w = s.substring(i, j);
                out.add(new Token(i, j, w.toUpperCase(Locale.ROOT), w, (char) 0));
                i = j;
            } else {
                out.add(new Token(i, i + 1, null, null, c));
                i++;
            }
        }
        return out;
    }
}
