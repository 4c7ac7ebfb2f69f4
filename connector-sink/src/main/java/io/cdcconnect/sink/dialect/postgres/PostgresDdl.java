package io.cdcconnect.sink.dialect.postgres;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import io.cdcconnect.sink.ddl.sql.MySqlDdlParser;
import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import io.cdcconnect.sink.ddl.sql.RefusedDdlException;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Translates one MySQL DDL statement, as TiCDC and our source deliver it (Canal-JSON, Open-protocol, Debezium
 * messages; the statement already accepted by {@code DdlPolicy}), into PostgreSQL statements.
 *
 * <h2>Names</h2>
 * Identifiers are written in double quotes with embedded double quotes doubled, their case preserved, whether MySQL
 * wrote them in backticks or bare. An unqualified table goes to {@code defaultSchema}, {@code db.t} to
 * {@code schemaMap.apply(db)}; a database of CREATE/DROP DATABASE to {@code schemaMap.apply(db)}. In the MySQL text a
 * double-quoted token is a string (MySQL's default {@code sql_mode}), a backticked one a name.
 * <p>MySQL index names are per table, PostgreSQL's per schema, so index {@code k} of table {@code t} is named
 * {@code "t_k"} (a name over 63 bytes is cut to 54 bytes plus {@code _} and 8 hex digits of its hash, the same each
 * time). A key without a name gets MySQL's default name, its first column. A table's names are fixed when created: a
 * {@code DROP INDEX} after a {@code RENAME TABLE} looks for the name under the new table's name and finds nothing
 * (harmlessly).
 *
 * <h2>Replays</h2>
 * The sink may run the statements of one translation twice (a crash between running them and recording it), so each
 * is harmless when run again: {@code IF [NOT] EXISTS} forms, and for what PostgreSQL has no such form for (ADD/DROP
 * PRIMARY KEY, RENAME COLUMN, several renames in one RENAME TABLE), a {@code DO} block that looks at the catalog
 * first. The statements of one translation are meant to be run in one transaction (PostgreSQL's DDL is
 * transactional). TRUNCATE is emitted as it is: running it again truncates an already empty table.
 *
 * <h2>Statements</h2>
 * <ul>
 *   <li><b>CREATE TABLE [IF NOT EXISTS] t (...)</b>: {@code CREATE TABLE IF NOT EXISTS} with each column's type from
 *   {@link PostgresTypes#pgType(String)} ({@code CHARACTER SET binary} text types become bytea), {@code NOT NULL},
 *   and a {@code DEFAULT} that is a literal number, string ({@code E''} form when it holds a backslash; into bytea as
 *   hex, into bit as {@code B''}), {@code b''}/{@code x''} literal (bit, bytea and integer columns), {@code TRUE}/
 *   {@code FALSE}, {@code NULL} or {@code CURRENT_TIMESTAMP[(n)]} (also {@code NOW()}, {@code LOCALTIMESTAMP});
 *   any other default (expressions, zero dates) is dropped with a warning. {@code AUTO_INCREMENT}, {@code COMMENT},
 *   {@code CHARACTER SET}, {@code COLLATE}, {@code ON UPDATE}, TiDB's comments and the table options
 *   ({@code ENGINE}, {@code CHARSET}, {@code ROW_FORMAT}, {@code PARTITION BY}, ...) are dropped silently. A
 *   generated column becomes a plain nullable column (warning). {@code PRIMARY KEY} (table or column level) becomes
 *   a primary key, {@code UNIQUE [KEY|INDEX] [name]} a constraint {@code "t_name"}; a plain {@code KEY}/{@code INDEX}
 *   becomes a separate {@code CREATE INDEX IF NOT EXISTS}; index prefix lengths and ASC/DESC are dropped. FULLTEXT
 *   and SPATIAL indexes, functional key parts, FOREIGN KEY, REFERENCES and CHECK are dropped with a warning.
 *   {@code CREATE TABLE ... LIKE} and {@code CREATE TABLE ... SELECT} are unsupported.</li>
 *   <li><b>ALTER TABLE t clause, ...</b>, one PostgreSQL statement (or two) per clause, in order:
 *   <ul>
 *     <li>{@code ADD [COLUMN] c def} and {@code ADD [COLUMN] (c def, ...)}: {@code ADD COLUMN IF NOT EXISTS};
 *     {@code FIRST}/{@code AFTER x} is dropped with a warning (PostgreSQL appends). A {@code NOT NULL} column
 *     without a default gets MySQL's implicit default for the rows already there (0, '', the first ENUM element,
 *     {@code \x}, JSON null, zero bits, {@code 00:00:00}) in the ADD and a {@code DROP DEFAULT} right after, as
 *     MySQL fills them; dates have no such value.</li>
 *     <li>{@code DROP [COLUMN] c}: {@code DROP COLUMN IF EXISTS}.</li>
 *     <li>{@code MODIFY [COLUMN] c def}: one statement {@code ALTER COLUMN c DROP DEFAULT, ALTER COLUMN c TYPE t
 *     USING c::t, ALTER COLUMN c SET|DROP NOT NULL[, ALTER COLUMN c SET DEFAULT d]} (MySQL redefines the whole
 *     column; the default is dropped first so that a default of the old type does not block the type change).</li>
 *     <li>{@code CHANGE [COLUMN] old new def}: when the names differ, a rename in a {@code DO} block that renames
 *     only while {@code old} exists and {@code new} does not (RENAME COLUMN has no IF EXISTS), then the MODIFY part
 *     on {@code new}. {@code RENAME COLUMN a TO b} is the same rename.</li>
 *     <li>{@code ALTER [COLUMN] c SET DEFAULT d | DROP DEFAULT}: the same.</li>
 *     <li>In an ALTER TABLE that renames columns (CHANGE, RENAME COLUMN), the statements of its other clauses on
 *     a renamed column's old name are wrapped in a {@code DO} block that runs them only while that column exists (an
 *     ADD of it only while the new name does not), so that a replay after the rename does not fail.</li>
 *     <li>{@code RENAME [TO|AS] n}: {@code ALTER TABLE IF EXISTS t RENAME TO n} (and {@code SET SCHEMA} when
 *     {@code n} is in another database), emitted after the other clauses' statements.</li>
 *     <li>{@code ADD [CONSTRAINT [s]] PRIMARY KEY (cols)}: a {@code DO} block adding it when the table has none;
 *     {@code DROP PRIMARY KEY}: a {@code DO} block dropping the table's primary key whatever its name.</li>
 *     <li>{@code ADD UNIQUE [KEY|INDEX] [name] (cols)}: {@code CREATE UNIQUE INDEX IF NOT EXISTS "t_name"};
 *     {@code ADD KEY|INDEX [name] (cols)}: {@code CREATE INDEX IF NOT EXISTS "t_name"}.</li>
 *     <li>{@code DROP INDEX|KEY name} (also {@code DROP CONSTRAINT name}): {@code ALTER TABLE IF EXISTS t DROP
 *     CONSTRAINT IF EXISTS "t_name"} (a unique key made by CREATE TABLE) then {@code DROP INDEX IF EXISTS
 *     s."t_name"}; {@code RENAME INDEX|KEY a TO b}: {@code ALTER INDEX s."t_a" RENAME TO "t_b"} in a {@code DO}
 *     block that runs only while {@code t_a} exists and {@code t_b} does not.</li>
 *     <li>Table options ({@code ENGINE=}, {@code [DEFAULT] CHARSET=}, {@code CONVERT TO CHARACTER SET},
 *     {@code COLLATE=}, {@code COMMENT=}, {@code ROW_FORMAT=}, {@code AUTO_INCREMENT=}, {@code ALGORITHM=},
 *     {@code LOCK=}, {@code FORCE}, ...), {@code PARTITION BY}, {@code REMOVE PARTITIONING}, {@code ALTER INDEX ...
 *     VISIBLE}, {@code ENABLE/DISABLE KEYS}, {@code ORDER BY}, FULLTEXT/SPATIAL/FOREIGN KEY/CHECK additions and
 *     {@code DROP FOREIGN KEY|CHECK}: nothing, with a warning (options only: an empty statement list).</li>
 *     <li>Partition maintenance ({@code ADD/DROP/TRUNCATE/REORGANIZE/EXCHANGE/COALESCE ... PARTITION}) and any
 *     other clause: unsupported, naming the clause.</li>
 *   </ul></li>
 *   <li><b>TRUNCATE [TABLE] t</b>: {@code TRUNCATE TABLE t}.</li>
 *   <li><b>DROP TABLE [IF EXISTS] t1[, t2]</b>: {@code DROP TABLE IF EXISTS t1, t2}.</li>
 *   <li><b>RENAME TABLE a TO b</b>: {@code ALTER TABLE IF EXISTS a RENAME TO b}; when {@code b} is in another schema,
 *   then {@code ALTER TABLE IF EXISTS sa.b SET SCHEMA sb} (only the SET SCHEMA when the name stays). With several
 *   pairs ({@code a TO b, c TO d}, e.g. a swap {@code t TO t_old, t_new TO t}), one {@code DO} block runs all the
 *   renames only while every initial source (a source no earlier pair produced) exists: after a run one of them is
 *   always gone, so a replay does not rename the table a later pair created.</li>
 *   <li><b>CREATE DATABASE|SCHEMA [IF NOT EXISTS] d</b>: {@code CREATE SCHEMA IF NOT EXISTS mapped(d)};
 *   <b>DROP DATABASE|SCHEMA [IF EXISTS] d</b>: {@code DROP SCHEMA IF EXISTS mapped(d) CASCADE}.</li>
 *   <li><b>CREATE [UNIQUE] INDEX name ON t (cols)</b>: {@code CREATE [UNIQUE] INDEX IF NOT EXISTS "t_name" ON t
 *   (cols)} (FULLTEXT/SPATIAL: nothing, with a warning); <b>DROP INDEX name ON t</b>: as {@code DROP INDEX} above
 *   ({@code DROP INDEX `PRIMARY`} as {@code DROP PRIMARY KEY}).</li>
 *   <li>Everything else (CREATE VIEW/TRIGGER/PROCEDURE/FUNCTION/EVENT, ALTER DATABASE, GRANT, ...): unsupported with
 *   a reason.</li>
 * </ul>
 */
public final class PostgresDdl {

    /**
     * The outcome of {@link #translate}: the PostgreSQL statements to run in order (possibly none) and warnings about
     * what was dropped; or, when the statement has no translation, {@code unsupported} is the reason (else null) and
     * there are no statements.
     */
    public record Translation(List<String> statements, List<String> warnings, String unsupported) {

        public Translation {
            statements = List.copyOf(statements);
            warnings = List.copyOf(warnings);
        }

        public static Translation of(List<String> statements, List<String> warnings) {
            return new Translation(statements, warnings, null);
        }

        public static Translation unsupported(String reason) {
            return new Translation(List.of(), List.of(), Objects.requireNonNull(reason, "reason"));
        }

        public boolean supported() {
            return unsupported == null;
        }
    }

    private static final int MAX_NAME_BYTES = 63;

    /**
     * The start of the comment in which a translated ENUM or SET column keeps its MySQL definition
     * ({@code cdc-connect mysql type: enum('a','b')}); {@link PostgresDialect} reads it back for the elements.
     */
    public static final String ELEMENTS_COMMENT = "cdc-connect mysql type: ";

    private PostgresDdl() {
    }

    /**
     * @param mysqlDdl      one MySQL DDL statement (a trailing {@code ;} is allowed)
     * @param defaultSchema the PostgreSQL schema of unqualified tables
     * @param schemaMap     MySQL database name to PostgreSQL schema name, for qualified names and DATABASE DDL
     */
    public static Translation translate(String mysqlDdl, String defaultSchema, UnaryOperator<String> schemaMap) {
        ParsedDdl parsed;
        try {
            parsed = MySqlDdlParser.parse(mysqlDdl == null ? "" : mysqlDdl);
        } catch (RefusedDdlException e) {
            return Translation.unsupported(e.getMessage());
        }
        return translate(parsed, defaultSchema, schemaMap);
    }

    /**
     * As {@link #translate(String, String, UnaryOperator)} for a statement already read: the translation reads the
     * statement's own pieces ({@link ParsedDdl#placed()}), as the sink writes them, not any text of the message.
     */
    public static Translation translate(ParsedDdl statement, String defaultSchema, UnaryOperator<String> schemaMap) {
        Objects.requireNonNull(defaultSchema, "defaultSchema");
        Objects.requireNonNull(schemaMap, "schemaMap");
        try {
            String sql = statement.canonical();
            Parser p = new Parser(sql, tokens(statement.placed()), defaultSchema, schemaMap);
            p.statement();
            return Translation.of(p.out, p.warnings);
        } catch (Unsupported e) {
            return Translation.unsupported(e.getMessage());
        }
    }

    // ---------------------------------------------------------------------------------------------------- tokens

    private enum T { WORD, IDENT, STRING, NUMBER, HEX, BITS, SYM, END }

    /** A token; {@code text} is the word, the unquoted name, the resolved string, the number or the literal digits. */
    private record Tok(T type, String text, int start, int end) {
        boolean is(String keyword) {
            return type == T.WORD && text.equalsIgnoreCase(keyword);
        }

        boolean sym(char c) {
            return type == T.SYM && text.charAt(0) == c;
        }
    }

    private static final class Unsupported extends RuntimeException {
        Unsupported(String message) {
            super(message, null, false, false);
        }
    }

    private static final java.util.regex.Pattern WORD = java.util.regex.Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");
    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile(
            "(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?");

    /**
     * The statement's pieces as this translation's tokens, each placed where {@link ParsedDdl#canonical()} writes it:
     * keywords, names, strings and numbers as read by the sink's one parser; operators one character each; charset
     * introducers dropped (PostgreSQL strings carry no charset).
     */
    private static List<Tok> tokens(List<ParsedDdl.Placed> placed) {
        List<Tok> out = new ArrayList<>();
        int end = 0;
        for (int k = 0; k < placed.size(); k++) {
            ParsedDdl.Placed pl = placed.get(k);
            ParsedDdl.Piece p = pl.piece();
            int a = pl.start();
            int b = pl.end();
            end = b;
            if (p instanceof ParsedDdl.Name n) {
                out.add(new Tok(T.IDENT, n.name(), a, b));
            } else if (p instanceof ParsedDdl.Qualified q) {
                if (q.database() || q.schema() == null) {
                    out.add(new Tok(T.IDENT, q.name(), a, b));
                } else {
                    int dot = a + ParsedDdl.quoteName(q.schema()).length();
                    out.add(new Tok(T.IDENT, q.schema(), a, dot));
                    out.add(new Tok(T.SYM, ".", dot, dot + 1));
                    out.add(new Tok(T.IDENT, q.name(), dot + 1, b));
                }
            } else if (p instanceof ParsedDdl.Text t) {
                out.add(new Tok(T.STRING, t.value(), a, b));
            } else if (p instanceof ParsedDdl.Word w) {
                String text = w.text();
                String lower = text.toLowerCase(Locale.ROOT);
                if (lower.startsWith("_") && k + 1 < placed.size() && placed.get(k + 1).piece() instanceof ParsedDdl.Text) {
                    continue; // _utf8mb4'...'
                } else if (WORD.matcher(text).matches() || (Character.isDigit(text.charAt(0))
                        && !NUMBER.matcher(text).matches() && !lower.startsWith("0x") && !lower.startsWith("0b"))) {
                    out.add(new Tok(T.WORD, text, a, b));
                } else if (NUMBER.matcher(text).matches()) {
                    out.add(new Tok(T.NUMBER, text, a, b));
                } else if (lower.startsWith("x'") || lower.startsWith("0x")) {
                    out.add(new Tok(T.HEX, lower.startsWith("0x") ? text.substring(2)
                            : text.substring(2, text.length() - 1), a, b));
                } else if (lower.startsWith("b'") || lower.startsWith("0b")) {
                    out.add(new Tok(T.BITS, lower.startsWith("0b") ? text.substring(2)
                            : text.substring(2, text.length() - 1), a, b));
                } else {
                    for (int c = 0; c < text.length(); c++) {
                        out.add(new Tok(T.SYM, String.valueOf(text.charAt(c)), a + c, a + c + 1));
                    }
                }
            }
        }
        out.add(new Tok(T.END, "", end, end));
        return out;
    }

    static String q(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** A PostgreSQL string literal: {@code 'x'}, or {@code E'x'} when it holds a backslash. */
    static String lit(String s) {
        String body = s.replace("'", "''");
        if (s.indexOf('\\') >= 0) return "E'" + body.replace("\\", "\\\\") + "'";
        return "'" + body + "'";
    }

    /**
     * The PostgreSQL name of MySQL index {@code index} of table {@code table}: {@code table_index}, cut to 54 bytes
     * plus {@code _} and 8 hex digits of the full name's hash when longer than 63 bytes.
     */
    static String indexName(String table, String index) {
        String full = table + "_" + index;
        if (full.getBytes(StandardCharsets.UTF_8).length <= MAX_NAME_BYTES) return full;
        String hash = String.format("%08x", full.hashCode());
        StringBuilder sb = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < full.length(); ) {
            int cp = full.codePointAt(i);
            int len = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + len > MAX_NAME_BYTES - 9) break;
            sb.appendCodePoint(cp);
            bytes += len;
            i += Character.charCount(cp);
        }
        return sb + "_" + hash;
    }

    /** A dollar-quoted DO block around {@code body}, with a tag the body does not contain. */
    private static String doBlock(String body) {
        String tag = "$cdc$";
        for (int i = 1; body.contains(tag); i++) tag = "$cdc" + i + "$";
        return "DO " + tag + body + tag;
    }

    // ---------------------------------------------------------------------------------------------------- parser

    private record QName(String db, String table) {
    }

    /** One parsed column definition. */
    private static final class Column {
        String name;
        String mysqlType;
        String pgType;
        String firstElement; // ENUM's first element, for the implicit default
        Boolean notNull;     // null when neither NULL nor NOT NULL was written
        String defaultExpr;  // PostgreSQL default expression, null for none
        boolean autoIncrement;
        boolean generated;
        boolean primaryKey;
        boolean unique;
    }

    private static final class Parser {
        final String sql;
        final List<Tok> toks;
        final String defaultSchema;
        final UnaryOperator<String> schemaMap;
        final List<String> out = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        /** COMMENT ON COLUMN statements that record ENUM/SET definitions ({@link #ELEMENTS_COMMENT}). */
        final List<String> comments = new ArrayList<>();
        /** In an ALTER TABLE: the column each column statement works on (by index in out), and the renames. */
        final java.util.Map<Integer, String> columnOf = new java.util.HashMap<>();
        final Set<Integer> adds = new HashSet<>();
        final java.util.Map<String, String> renamedColumns = new java.util.HashMap<>();
        int i;

        Parser(String sql, List<Tok> toks, String defaultSchema, UnaryOperator<String> schemaMap) {
            this.sql = sql;
            this.toks = toks;
            this.defaultSchema = defaultSchema;
            this.schemaMap = schemaMap;
        }

        // ---- cursor

        Tok peek() {
            return toks.get(i);
        }

        Tok peek(int k) {
            return toks.get(Math.min(i + k, toks.size() - 1));
        }

        Tok next() {
            Tok t = toks.get(i);
            if (t.type != T.END) i++;
            return t;
        }

        boolean at(String... words) {
            for (int k = 0; k < words.length; k++) {
                if (!peek(k).is(words[k])) return false;
            }
            return true;
        }

        boolean accept(String... words) {
            if (!at(words)) return false;
            i += words.length;
            return true;
        }

        void expect(String word) {
            if (!accept(word)) throw new Unsupported("expected " + word + " " + where());
        }

        boolean atSym(char c) {
            return peek().sym(c);
        }

        boolean acceptSym(char c) {
            if (!atSym(c)) return false;
            i++;
            return true;
        }

        void expectSym(char c) {
            if (!acceptSym(c)) throw new Unsupported("expected '" + c + "' " + where());
        }

        boolean atEnd() {
            return peek().type == T.END || (atSym(';') && peek(1).type == T.END);
        }

        /** At the end of a list element: a top-level ',' or ')', or the statement's end. */
        boolean atElementEnd() {
            return atEnd() || atSym(',') || atSym(')');
        }

        String where() {
            Tok t = peek();
            if (t.type == T.END) return "at the end of the statement";
            return "at '" + cut(sql.substring(t.start), 30) + "'";
        }

        void end() {
            acceptSym(';');
            if (peek().type != T.END) {
                throw new Unsupported("unexpected text " + where());
            }
        }

        /** Skips one token, or a balanced parenthesized group. */
        void skipOne() {
            if (atSym('(')) {
                int depth = 0;
                do {
                    Tok t = next();
                    if (t.type == T.END) throw new Unsupported("unbalanced parentheses");
                    if (t.sym('(')) depth++;
                    if (t.sym(')')) depth--;
                } while (depth > 0);
            } else {
                next();
            }
        }

        /** Skips to the end of the current list element; returns the skipped text. */
        String skipElement() {
            int from = peek().start;
            int to = from;
            while (!atElementEnd()) {
                skipOne();
                to = toks.get(i - 1).end;
            }
            return sql.substring(from, Math.max(from, to));
        }

        String name() {
            Tok t = peek();
            if (t.type == T.IDENT || t.type == T.WORD) {
                i++;
                return t.text;
            }
            throw new Unsupported("expected a name " + where());
        }

        QName qname() {
            String first = name();
            if (atSym('.')) {
                i++;
                return new QName(first, name());
            }
            return new QName(null, first);
        }

        String schemaOf(QName n) {
            return n.db == null ? defaultSchema : schemaMap.apply(n.db);
        }

        String table(QName n) {
            return q(schemaOf(n)) + "." + q(n.table);
        }

        // ---- statements

        void statement() {
            if (peek().type == T.END) throw new Unsupported("no statement");
            if (accept("CREATE")) {
                create();
            } else if (accept("ALTER")) {
                while (accept("ONLINE") || accept("IGNORE")) {
                    // modifiers
                }
                if (accept("TABLE")) {
                    alterTable();
                } else {
                    throw unsupportedKind("ALTER");
                }
            } else if (accept("DROP")) {
                if (accept("TABLE")) {
                    dropTable();
                } else if (accept("INDEX")) {
                    dropIndexStatement();
                } else if (accept("DATABASE") || accept("SCHEMA")) {
                    accept("IF", "EXISTS");
                    String db = name();
                    end();
                    out.add("DROP SCHEMA IF EXISTS " + q(schemaMap.apply(db)) + " CASCADE");
                } else {
                    throw unsupportedKind("DROP");
                }
            } else if (accept("TRUNCATE")) {
                accept("TABLE");
                QName t = qname();
                end();
                out.add("TRUNCATE TABLE " + table(t));
            } else if (accept("RENAME")) {
                if (!accept("TABLE")) throw unsupportedKind("RENAME");
                renameTable();
            } else {
                throw unsupportedKind(null);
            }
        }

        Unsupported unsupportedKind(String head) {
            StringBuilder words = new StringBuilder(head == null ? "" : head);
            for (int k = 0; k < (head == null ? 2 : 1) && peek(k).type == T.WORD; k++) {
                if (words.length() > 0) words.append(' ');
                words.append(peek(k).text.toUpperCase(Locale.ROOT));
            }
            return new Unsupported(words + " has no PostgreSQL translation (only CREATE/ALTER/DROP/TRUNCATE/RENAME "
                    + "TABLE, CREATE/DROP INDEX and CREATE/DROP DATABASE are translated)");
        }

        void create() {
            if (at("TABLE")) {
                createTable();
            } else if (at("DATABASE") || at("SCHEMA")) {
                next();
                accept("IF", "NOT", "EXISTS");
                String db = name();
                // CHARACTER SET, COLLATE, ENCRYPTION ... are MySQL's own
                out.add("CREATE SCHEMA IF NOT EXISTS " + q(schemaMap.apply(db)));
            } else if (at("UNIQUE", "INDEX") || at("UNIQUE", "KEY") || at("INDEX")) {
                boolean unique = accept("UNIQUE");
                next();
                createIndexStatement(unique);
            } else if (at("FULLTEXT") || at("SPATIAL")) {
                String kind = next().text.toUpperCase(Locale.ROOT);
                accept("INDEX");
                String name = name();
                warnings.add(kind + " index `" + name + "` dropped: PostgreSQL has no equivalent index");
            } else {
                throw unsupportedKind("CREATE");
            }
        }

        // ---- CREATE TABLE

        void createTable() {
            expect("TABLE");
            accept("IF", "NOT", "EXISTS");
            QName t = qname();
            if (at("LIKE") || (atSym('(') && peek(1).is("LIKE"))) {
                boolean paren = acceptSym('(');
                expect("LIKE");
                QName from = qname();
                if (paren) expectSym(')');
                end();
                // columns, defaults, NOT NULL, keys, indexes, CHECKs, generated columns and comments (the ENUM
                // elements) as the source table has them here; the indexes get PostgreSQL's own names
                out.add("CREATE TABLE IF NOT EXISTS " + table(t) + " (LIKE " + table(from) + " INCLUDING ALL)");
                return;
            }
            if (!atSym('(')) {
                throw new Unsupported("CREATE TABLE without column definitions (CREATE TABLE ... SELECT) copies "
                        + "data no change event carries");
            }
            next();
            List<String> defs = new ArrayList<>();
            List<String> constraints = new ArrayList<>();
            List<String> after = new ArrayList<>();
            List<String> pk = null;
            Set<String> keyNames = new HashSet<>();
            while (true) {
                String constraint = null;
                if (accept("CONSTRAINT")) {
                    if (!at("PRIMARY") && !at("UNIQUE") && !at("FOREIGN") && !at("CHECK")) constraint = name();
                }
                if (at("PRIMARY", "KEY")) {
                    i += 2;
                    List<String> cols = keyParts("the primary key");
                    skipElement();
                    if (cols != null) pk = cols;
                } else if (at("UNIQUE")) {
                    next();
                    if (!accept("KEY")) accept("INDEX");
                    String name = optionalIndexName();
                    if (name == null) name = constraint;
                    List<String> cols = keyParts("unique key");
                    skipElement();
                    if (cols != null) {
                        String n = keyName(name, cols, keyNames);
                        constraints.add("CONSTRAINT " + q(indexName(t.table, n)) + " UNIQUE ("
                                + String.join(", ", cols) + ")");
                    }
                } else if (at("KEY") || at("INDEX")) {
                    next();
                    String name = optionalIndexName();
                    List<String> cols = keyParts("index");
                    skipElement();
                    if (cols != null) {
                        String n = keyName(name, cols, keyNames);
                        after.add("CREATE INDEX IF NOT EXISTS " + q(indexName(t.table, n)) + " ON " + table(t)
                                + " (" + String.join(", ", cols) + ")");
                    }
                } else if (at("FULLTEXT") || at("SPATIAL") || at("FOREIGN") || at("CHECK")) {
                    String text = skipElement();
                    warnings.add("dropped: " + cut(text, 60) + " (no PostgreSQL equivalent is created)");
                } else {
                    if (constraint != null) throw new Unsupported("expected a constraint " + where());
                    Column c = column();
                    defs.add(columnSql(c));
                    recordElements(t, c);
                    if (c.primaryKey) pk = List.of(q(c.name));
                    if (c.unique) {
                        String n = keyName(null, List.of(q(c.name)), keyNames);
                        constraints.add("CONSTRAINT " + q(indexName(t.table, n)) + " UNIQUE (" + q(c.name) + ")");
                    }
                }
                if (acceptSym(',')) continue;
                expectSym(')');
                break;
            }
            // table options and partitioning are MySQL's own; a SELECT copies data
            while (!atEnd()) {
                if (at("SELECT") || at("AS") || (at("IGNORE") || at("REPLACE")) && peek(1).is("SELECT")) {
                    throw new Unsupported("CREATE TABLE ... SELECT copies data no change event carries");
                }
                skipOne();
            }
            end();
            // the columns, then the primary key, then the unique constraints
            if (pk != null) defs.add("PRIMARY KEY (" + String.join(", ", pk) + ")");
            defs.addAll(constraints);
            out.add("CREATE TABLE IF NOT EXISTS " + table(t) + " (" + String.join(", ", defs) + ")");
            out.addAll(after);
            out.addAll(comments);
        }

        /** An index name before the key parts, if any; skips USING BTREE|HASH. */
        String optionalIndexName() {
            String name = null;
            if (!atSym('(') && !at("USING")) name = name();
            if (accept("USING")) next();
            return name;
        }

        /** MySQL's name for a key: the given one, else its first column, made unique with _2, _3 ... */
        static String keyName(String given, List<String> quotedCols, Set<String> used) {
            if (given != null) {
                used.add(given.toLowerCase(Locale.ROOT));
                return given;
            }
            String first = quotedCols.get(0);
            String base = first.substring(1, first.length() - 1).replace("\"\"", "\"");
            String n = base;
            for (int k = 2; used.contains(n.toLowerCase(Locale.ROOT)); k++) n = base + "_" + k;
            used.add(n.toLowerCase(Locale.ROOT));
            return n;
        }

        /**
         * {@code (a, b(10) DESC, ...)} as quoted column names, prefix lengths and order dropped; null (with a
         * warning) when a key part is an expression.
         */
        List<String> keyParts(String what) {
            expectSym('(');
            List<String> cols = new ArrayList<>();
            boolean expression = false;
            while (true) {
                if (atSym('(')) {
                    expression = true;
                    skipOne();
                } else {
                    cols.add(q(name()));
                    if (atSym('(')) skipOne(); // prefix length
                }
                while (!atSym(',') && !atSym(')')) {
                    if (atEnd()) throw new Unsupported("unterminated key part list");
                    skipOne(); // ASC, DESC
                }
                if (acceptSym(',')) continue;
                expectSym(')');
                break;
            }
            if (expression) {
                warnings.add(what + " on an expression dropped: functional key parts are not translated");
                return null;
            }
            return cols;
        }

        // ---- columns

        Column column() {
            Column c = new Column();
            c.name = name();
            c.mysqlType = type(c);
            String charset = null;
            boolean sawDefault = false;
            while (!atElementEnd() && !at("FIRST") && !at("AFTER")) {
                if (accept("NOT", "NULL")) {
                    c.notNull = true;
                } else if (accept("NULL")) {
                    c.notNull = false;
                } else if (accept("DEFAULT")) {
                    sawDefault = true;
                    c.defaultExpr = defaultValue(c, pgTypeOf(c, charset));
                } else if (accept("AUTO_INCREMENT")) {
                    c.autoIncrement = true;
                } else if (accept("COMMENT")) {
                    next();
                } else if (accept("CHARACTER", "SET") || accept("CHARSET")) {
                    acceptSym('=');
                    charset = name();
                } else if (accept("COLLATE")) {
                    acceptSym('=');
                    next();
                } else if (accept("ON", "UPDATE")) {
                    next();
                    if (atSym('(')) skipOne();
                } else if (accept("PRIMARY", "KEY") || accept("KEY")) {
                    c.primaryKey = true;
                } else if (accept("UNIQUE")) {
                    accept("KEY");
                    c.unique = true;
                } else if (at("GENERATED") || at("AS")) {
                    accept("GENERATED", "ALWAYS");
                    expect("AS");
                    skipOne();
                    c.generated = true;
                } else if (accept("VIRTUAL") || accept("STORED") || accept("PERSISTENT")) {
                    c.generated = true;
                } else if (at("REFERENCES") || at("CHECK") || at("CONSTRAINT")) {
                    String text = skipElementBeforePosition();
                    warnings.add("dropped from column `" + c.name + "`: " + cut(text, 60));
                } else if (accept("VISIBLE") || accept("INVISIBLE") || accept("BINARY") || accept("ASCII")
                        || accept("UNICODE") || accept("SERIAL", "DEFAULT", "VALUE")) {
                    // MySQL's own
                } else if (accept("COLUMN_FORMAT") || accept("STORAGE") || accept("SRID")) {
                    next();
                } else if (accept("AUTO_RANDOM")) {
                    if (atSym('(')) skipOne();
                } else {
                    Tok t = next();
                    if (atSym('=')) {
                        next();
                        next();
                    } else if (atSym('(')) {
                        skipOne();
                    }
                    warnings.add("ignored '" + cut(sql.substring(t.start, toks.get(i - 1).end), 40)
                            + "' in the definition of column `" + c.name + "`");
                }
            }
            c.pgType = pgTypeOf(c, charset);
            if (c.defaultExpr != null && c.defaultExpr.equals("NULL") && sawDefault && c.notNull == null) {
                c.notNull = false;
            }
            if (c.generated) {
                warnings.add("generated column `" + c.name + "` becomes a plain nullable column: its expression is "
                        + "not translated");
                c.notNull = false;
                c.defaultExpr = null;
            }
            return c;
        }

        /** Skips an attribute clause (REFERENCES ..., CHECK (...)) up to the element's end or a column position. */
        String skipElementBeforePosition() {
            int from = peek().start;
            int to = from;
            while (!atElementEnd() && !at("FIRST") && !at("AFTER")) {
                skipOne();
                to = toks.get(i - 1).end;
            }
            return sql.substring(from, Math.max(from, to));
        }

        String pgTypeOf(Column c, String charset) {
            String pg;
            try {
                pg = PostgresTypes.pgType(c.mysqlType);
            } catch (IllegalArgumentException e) {
                throw new Unsupported("column `" + c.name + "`: " + e.getMessage());
            }
            if (charset != null && charset.equalsIgnoreCase("binary")
                    && (pg.equals("text") || pg.startsWith("char(") || pg.startsWith("varchar("))) {
                return "bytea";
            }
            return pg;
        }

        /** The column type as MySQL text, "int(11) unsigned", "enum('a','b')". */
        String type(Column c) {
            Tok t = peek();
            if (t.type != T.WORD) throw new Unsupported("expected the type of column `" + c.name + "` " + where());
            next();
            StringBuilder sb = new StringBuilder(t.text.toLowerCase(Locale.ROOT));
            String base = sb.toString();
            if ((base.equals("double") && at("PRECISION")) || ((base.equals("character") || base.equals("char"))
                    && at("VARYING")) || base.equals("national")
                    || (base.equals("long") && (at("VARCHAR") || at("VARBINARY")))) {
                sb.append(' ').append(next().text.toLowerCase(Locale.ROOT));
                if (base.equals("national") && at("VARYING")) sb.append(' ').append(next().text);
            }
            if (acceptSym('(')) {
                sb.append('(');
                boolean first = true;
                while (!acceptSym(')')) {
                    if (!first) {
                        expectSym(',');
                        sb.append(',');
                    }
                    first = false;
                    Tok a = next();
                    switch (a.type) {
                        case STRING -> {
                            sb.append(lit(a.text));
                            if (c.firstElement == null) c.firstElement = a.text;
                        }
                        case NUMBER -> sb.append(a.text);
                        default -> throw new Unsupported("unexpected '" + a.text + "' in the type of column `"
                                + c.name + "`");
                    }
                }
                sb.append(')');
            }
            while (at("UNSIGNED") || at("SIGNED") || at("ZEROFILL")) {
                sb.append(' ').append(next().text.toLowerCase(Locale.ROOT));
            }
            return sb.toString();
        }

        /** The PostgreSQL default for {@code DEFAULT ...} (already consumed), or null when dropped. */
        String defaultValue(Column c, String pgType) {
            Tok t = peek();
            boolean numericType = isNumericType(pgType);
            if (accept("NULL")) return "NULL";
            if (accept("TRUE") || accept("FALSE")) {
                boolean b = toks.get(i - 1).is("TRUE");
                return pgType.startsWith("bit(") ? bits(b ? 1 : 0, pgType) : b ? "1" : "0";
            }
            if (at("CURRENT_TIMESTAMP") || at("NOW") || at("LOCALTIMESTAMP") || at("LOCALTIME")) {
                next();
                String n = null;
                if (acceptSym('(')) {
                    if (peek().type == T.NUMBER) n = next().text;
                    expectSym(')');
                }
                return n == null ? "CURRENT_TIMESTAMP" : "CURRENT_TIMESTAMP(" + n + ")";
            }
            if (t.sym('-') || t.sym('+') || t.type == T.NUMBER) {
                String sign = "";
                if (t.type == T.SYM) {
                    next();
                    sign = t.text.equals("-") ? "-" : "";
                }
                Tok num = next();
                if (num.type != T.NUMBER) {
                    throw new Unsupported("unexpected default of column `" + c.name + "` " + where());
                }
                String v = sign + num.text;
                if (numericType) return v;
                if (pgType.startsWith("bit(")) {
                    try {
                        return bits(Long.parseLong(v), pgType);
                    } catch (NumberFormatException e) {
                        return dropDefault(c, v);
                    }
                }
                return lit(v);
            }
            if (t.type == T.STRING) {
                next();
                String s = t.text;
                if (s.indexOf('\0') >= 0) return dropDefault(c, s);
                if (pgType.equals("bytea")) return lit(PostgresValues.hex(s.getBytes(StandardCharsets.UTF_8)));
                if (pgType.startsWith("bit(")) return dropDefault(c, s);
                if ((pgType.equals("date") || pgType.startsWith("timestamp")) && zeroDate(s)) {
                    return dropDefault(c, s);
                }
                return lit(s);
            }
            if (t.type == T.HEX || t.type == T.BITS) {
                next();
                byte[] bytes = t.type == T.HEX ? hexBytes(t.text) : null;
                if (pgType.equals("bytea") && bytes != null) return lit(PostgresValues.hex(bytes));
                try {
                    long v = t.type == T.HEX ? (t.text.isEmpty() ? 0 : Long.parseUnsignedLong(t.text, 16))
                            : (t.text.isEmpty() ? 0 : Long.parseUnsignedLong(t.text, 2));
                    if (pgType.startsWith("bit(")) return bits(v, pgType);
                    if (numericType) return Long.toUnsignedString(v);
                } catch (NumberFormatException e) {
                    // too long: dropped below
                }
                return dropDefault(c, sql.substring(t.start, t.end));
            }
            // an expression: (expr), a function call, a name
            int from = t.start;
            if (atSym('(')) {
                skipOne();
            } else {
                next();
                if (atSym('(')) skipOne();
            }
            return dropDefault(c, sql.substring(from, toks.get(i - 1).end));
        }

        String dropDefault(Column c, String what) {
            warnings.add("DEFAULT " + PostgresValues.show(what) + " of column `" + c.name + "` dropped: it has no "
                    + "PostgreSQL literal");
            return null;
        }

        // ---- CREATE/DROP INDEX

        void createIndexStatement(boolean unique) {
            String name = name();
            if (accept("USING")) next();
            expect("ON");
            QName t = qname();
            List<String> cols = keyParts("index `" + name + "`");
            // index options, ALGORITHM=, LOCK= are MySQL's own
            while (!atEnd()) skipOne();
            end();
            if (cols == null) return;
            out.add("CREATE " + (unique ? "UNIQUE " : "") + "INDEX IF NOT EXISTS " + q(indexName(t.table, name))
                    + " ON " + table(t) + " (" + String.join(", ", cols) + ")");
        }

        void dropIndexStatement() {
            accept("IF", "EXISTS");
            String name = name();
            expect("ON");
            QName t = qname();
            while (!atEnd()) skipOne(); // ALGORITHM=, LOCK=
            end();
            dropIndex(t, name);
        }

        void dropIndex(QName t, String name) {
            if (name.equalsIgnoreCase("PRIMARY")) {
                dropPrimaryKey(t);
                return;
            }
            String idx = q(indexName(t.table, name));
            out.add("ALTER TABLE IF EXISTS " + table(t) + " DROP CONSTRAINT IF EXISTS " + idx);
            out.add("DROP INDEX IF EXISTS " + q(schemaOf(t)) + "." + idx);
        }

        void addPrimaryKey(QName t, List<String> cols) {
            String rel = lit(table(t));
            out.add(doBlock("BEGIN IF to_regclass(" + rel + ") IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
                    + "pg_catalog.pg_constraint WHERE conrelid = to_regclass(" + rel + ") AND contype = 'p') THEN "
                    + "ALTER TABLE " + table(t) + " ADD PRIMARY KEY (" + String.join(", ", cols) + "); END IF; END"));
        }

        void dropPrimaryKey(QName t) {
            String rel = lit(table(t));
            out.add(doBlock("DECLARE c name; BEGIN SELECT conname INTO c FROM pg_catalog.pg_constraint WHERE "
                    + "conrelid = to_regclass(" + rel + ") AND contype = 'p'; IF c IS NOT NULL THEN EXECUTE "
                    + "format(" + lit("ALTER TABLE " + table(t).replace("%", "%%") + " DROP CONSTRAINT %I")
                    + ", c); END IF; END"));
        }

        // ---- DROP TABLE, RENAME TABLE

        void dropTable() {
            accept("IF", "EXISTS");
            List<String> names = new ArrayList<>();
            do {
                names.add(table(qname()));
            } while (acceptSym(','));
            accept("RESTRICT");
            accept("CASCADE");
            end();
            out.add("DROP TABLE IF EXISTS " + String.join(", ", names));
        }

        void renameTable() {
            List<QName[]> pairs = new ArrayList<>();
            do {
                QName from = qname();
                expect("TO");
                QName to = qname();
                pairs.add(new QName[] {from, to});
            } while (acceptSym(','));
            end();
            if (pairs.size() == 1) {
                renameTo(pairs.get(0)[0], pairs.get(0)[1]);
                return;
            }
            // one block for all pairs, run only while every initial source (one no earlier pair produced)
            // exists: after a run at least one of them is gone, so a replay does nothing
            Set<String> produced = new HashSet<>();
            List<String> conditions = new ArrayList<>();
            StringBuilder renames = new StringBuilder();
            for (QName[] p : pairs) {
                QName from = p[0];
                QName to = p[1];
                String fromSchema = schemaOf(from);
                String toSchema = schemaOf(to);
                if (!produced.remove(table(from))) {
                    conditions.add("to_regclass(" + lit(table(from)) + ") IS NOT NULL");
                }
                produced.add(table(to));
                if (!from.table.equals(to.table)) {
                    renames.append("ALTER TABLE ").append(table(from)).append(" RENAME TO ").append(q(to.table))
                            .append("; ");
                }
                if (!fromSchema.equals(toSchema)) {
                    renames.append("ALTER TABLE ").append(q(fromSchema)).append('.').append(q(to.table))
                            .append(" SET SCHEMA ").append(q(toSchema)).append("; ");
                }
            }
            out.add(doBlock("BEGIN IF " + String.join(" AND ", conditions) + " THEN " + renames + "END IF; END"));
        }

        /** ALTER TABLE IF EXISTS a RENAME TO b, then SET SCHEMA when b's schema differs. */
        void renameTo(QName from, QName to) {
            String fromSchema = schemaOf(from);
            String toSchema = schemaOf(to);
            if (!from.table.equals(to.table)) {
                out.add("ALTER TABLE IF EXISTS " + table(from) + " RENAME TO " + q(to.table));
            }
            if (!fromSchema.equals(toSchema)) {
                out.add("ALTER TABLE IF EXISTS " + q(fromSchema) + "." + q(to.table) + " SET SCHEMA "
                        + q(toSchema));
            }
        }

        // ---- ALTER TABLE

        void alterTable() {
            QName t = qname();
            current = t;
            String alter = "ALTER TABLE IF EXISTS " + table(t);
            int first = out.size();
            List<String> options = new ArrayList<>();
            QName renamedTo = null;
            if (atEnd()) {
                end();
                warnings.add("ALTER TABLE " + t.table + " without clauses: nothing to do");
                return;
            }
            do {
                int clauseStart = peek().start;
                if (accept("ADD")) {
                    alterAdd(t, alter);
                } else if (accept("DROP")) {
                    alterDrop(t, alter, clauseStart);
                } else if (accept("MODIFY")) {
                    accept("COLUMN");
                    accept("IF", "EXISTS");
                    Column c = column();
                    position(c);
                    modify(alter, c);
                } else if (accept("CHANGE")) {
                    accept("COLUMN");
                    accept("IF", "EXISTS");
                    String old = name();
                    Column c = column();
                    position(c);
                    if (!old.equals(c.name)) renameColumn(t, old, c.name);
                    modify(alter, c);
                } else if (at("RENAME", "COLUMN")) {
                    i += 2;
                    String old = name();
                    expect("TO");
                    String nu = name();
                    if (!old.equals(nu)) renameColumn(t, old, nu);
                } else if (at("RENAME", "INDEX") || at("RENAME", "KEY")) {
                    i += 2;
                    String old = name();
                    expect("TO");
                    String nu = name();
                    renameIndex(t, old, nu);
                } else if (accept("RENAME")) {
                    if (!accept("TO")) accept("AS");
                    renamedTo = qname();
                } else if (at("ALTER", "INDEX")) {
                    String text = skipElement();
                    warnings.add("'" + cut(text, 60) + "' ignored: PostgreSQL indexes have no visibility");
                } else if (accept("ALTER")) {
                    accept("COLUMN");
                    String col = name();
                    if (accept("SET", "DEFAULT")) {
                        Column c = new Column();
                        c.name = col;
                        String d = defaultValue(c, "");
                        if (d != null) {
                            out.add(alter + " ALTER COLUMN " + q(col) + " SET DEFAULT " + d);
                            columnOf.put(out.size() - 1, col);
                        }
                    } else if (accept("DROP", "DEFAULT")) {
                        out.add(alter + " ALTER COLUMN " + q(col) + " DROP DEFAULT");
                        columnOf.put(out.size() - 1, col);
                    } else if (accept("SET", "VISIBLE") || accept("SET", "INVISIBLE")) {
                        warnings.add("column visibility of `" + col + "` ignored: PostgreSQL has none");
                    } else {
                        throw clause(clauseStart);
                    }
                } else if (at("PARTITION", "BY") || at("REMOVE", "PARTITIONING")) {
                    skipElement();
                    options.add(partitionWords(clauseStart));
                } else if (at("ADD", "PARTITION") || at("DROP", "PARTITION") || at("TRUNCATE", "PARTITION")
                        || at("COALESCE") || at("REORGANIZE") || at("EXCHANGE") || at("DISCARD")
                        || at("IMPORT") || at("REBUILD") || at("REPAIR") || at("OPTIMIZE") || at("ANALYZE")
                        || at("CHECK", "PARTITION")) {
                    throw new Unsupported("partition maintenance '" + cut(sql.substring(clauseStart), 60)
                            + "' has no PostgreSQL translation");
                } else if (at("ENABLE", "KEYS") || at("DISABLE", "KEYS") || at("ORDER", "BY") || at("FORCE")
                        || at("WITH", "VALIDATION") || at("WITHOUT", "VALIDATION")) {
                    skipElement();
                    options.add(cut(sql.substring(clauseStart, toks.get(i - 1).end), 40));
                } else if (tableOption()) {
                    options.add(cut(sql.substring(clauseStart, toks.get(i - 1).end), 40));
                } else {
                    throw clause(clauseStart);
                }
                while (!atSym(',') && !atEnd()) {
                    // table options may follow each other without commas
                    int optionStart = peek().start;
                    if (!tableOption()) throw clause(optionStart);
                    options.add(cut(sql.substring(optionStart, toks.get(i - 1).end), 40));
                }
            } while (acceptSym(','));
            end();
            guardRenamedColumns(t, first);
            out.addAll(comments);
            if (renamedTo != null) renameTo(t, renamedTo);
            if (!options.isEmpty()) {
                warnings.add("MySQL table options ignored: " + String.join(", ", options));
            }
        }

        String partitionWords(int start) {
            return cut(sql.substring(start, toks.get(i - 1).end), 40);
        }

        Unsupported clause(int start) {
            int from = start;
            // the clause: up to the next top-level comma
            while (!atElementEnd()) skipOne();
            int to = toks.get(Math.max(0, i - 1)).end;
            String text = to > from ? sql.substring(from, to) : sql.substring(from);
            return new Unsupported("ALTER TABLE clause '" + cut(text.trim(), 60) + "' has no PostgreSQL translation");
        }

        /** A table option (ENGINE=InnoDB, DEFAULT CHARSET=x, COMMENT='x', CONVERT TO CHARACTER SET x ...). */
        boolean tableOption() {
            int save = i;
            if (accept("CONVERT", "TO", "CHARACTER", "SET") || accept("CONVERT", "TO", "CHARSET")) {
                next();
                if (accept("COLLATE")) next();
                return true;
            }
            accept("DEFAULT");
            if (accept("CHARACTER", "SET") || accept("CHARSET") || accept("COLLATE")) {
                acceptSym('=');
                next();
                return true;
            }
            Tok w = peek();
            if (w.type == T.WORD && TABLE_OPTIONS.contains(w.text.toUpperCase(Locale.ROOT))) {
                next();
                acceptSym('=');
                if (atSym('(')) {
                    skipOne();
                } else if (!atElementEnd()) {
                    next();
                }
                return true;
            }
            i = save;
            return false;
        }

        void alterAdd(QName t, String alter) {
            boolean column = accept("COLUMN");
            if (!column && (at("CONSTRAINT") || at("PRIMARY") || at("UNIQUE") || at("KEY") || at("INDEX")
                    || at("FULLTEXT") || at("SPATIAL") || at("FOREIGN") || at("CHECK"))) {
                alterAddKey(t);
                return;
            }
            if (!column && at("PARTITION")) {
                throw new Unsupported("partition maintenance 'ADD PARTITION' has no PostgreSQL translation");
            }
            accept("IF", "NOT", "EXISTS");
            if (acceptSym('(')) {
                do {
                    addColumn(t, alter, column());
                } while (acceptSym(','));
                expectSym(')');
            } else {
                Column c = column();
                position(c);
                addColumn(t, alter, c);
            }
        }

        void addColumn(QName t, String alter, Column c) {
            recordElements(t, c);
            String def = columnSql(c);
            String implicit = null;
            if (Boolean.TRUE.equals(c.notNull) && c.defaultExpr == null && !c.autoIncrement && !c.primaryKey) {
                implicit = implicitDefault(c);
            }
            out.add(alter + " ADD COLUMN IF NOT EXISTS " + def + (implicit != null ? " DEFAULT " + implicit : ""));
            columnOf.put(out.size() - 1, c.name);
            adds.add(out.size() - 1);
            if (implicit != null) {
                out.add(alter + " ALTER COLUMN " + q(c.name) + " DROP DEFAULT");
                columnOf.put(out.size() - 1, c.name);
            }
            if (c.primaryKey) addPrimaryKey(t, List.of(q(c.name)));
            if (c.unique) {
                out.add("CREATE UNIQUE INDEX IF NOT EXISTS " + q(indexName(t.table, c.name)) + " ON " + table(t)
                        + " (" + q(c.name) + ")");
            }
        }

        void alterAddKey(QName t) {
            String constraint = null;
            int start = peek().start;
            if (accept("CONSTRAINT")) {
                if (!at("PRIMARY") && !at("UNIQUE") && !at("FOREIGN") && !at("CHECK")) constraint = name();
            }
            if (accept("PRIMARY", "KEY")) {
                if (accept("USING")) next();
                List<String> cols = keyParts("the primary key");
                skipElement();
                if (cols != null) addPrimaryKey(t, cols);
            } else if (accept("UNIQUE")) {
                if (!accept("KEY")) accept("INDEX");
                String name = optionalIndexName();
                if (name == null) name = constraint;
                List<String> cols = keyParts("unique key");
                skipElement();
                if (cols != null) {
                    String n = keyName(name, cols, new HashSet<>());
                    out.add("CREATE UNIQUE INDEX IF NOT EXISTS " + q(indexName(t.table, n)) + " ON " + table(t)
                            + " (" + String.join(", ", cols) + ")");
                }
            } else if (accept("KEY") || accept("INDEX")) {
                String name = optionalIndexName();
                List<String> cols = keyParts("index");
                skipElement();
                if (cols != null) {
                    String n = keyName(name, cols, new HashSet<>());
                    out.add("CREATE INDEX IF NOT EXISTS " + q(indexName(t.table, n)) + " ON " + table(t) + " ("
                            + String.join(", ", cols) + ")");
                }
            } else {
                skipElement();
                warnings.add("dropped: ADD " + cut(sql.substring(start, toks.get(i - 1).end), 60)
                        + " (no PostgreSQL equivalent is created)");
            }
        }

        void alterDrop(QName t, String alter, int clauseStart) {
            if (at("PRIMARY", "KEY")) {
                i += 2;
                dropPrimaryKey(t);
            } else if (accept("INDEX") || accept("KEY")) {
                accept("IF", "EXISTS");
                dropIndex(t, name());
            } else if (at("FOREIGN", "KEY") || at("CHECK")) {
                skipElement();
                warnings.add("'" + cut(sql.substring(clauseStart, toks.get(i - 1).end), 60) + "' ignored: "
                        + "foreign keys and checks are not created in PostgreSQL");
            } else if (accept("CONSTRAINT")) {
                accept("IF", "EXISTS");
                dropIndex(t, name());
            } else if (at("PARTITION")) {
                throw new Unsupported("partition maintenance 'DROP PARTITION' has no PostgreSQL translation");
            } else {
                accept("COLUMN");
                accept("IF", "EXISTS");
                String col = name();
                accept("RESTRICT");
                accept("CASCADE");
                out.add(alter + " DROP COLUMN IF EXISTS " + q(col));
            }
        }

        /** The table of the ALTER TABLE being read. */
        QName current;

        /**
         * Records an ENUM or SET column's MySQL definition in its comment ({@link #ELEMENTS_COMMENT}), so that values
         * of messages that name only the type (Canal-JSON's default mode sends "enum" and the index) can be named. A
         * column redefined to another type keeps a stale comment, which is harmless: only ENUM and SET values read it.
         */
        void recordElements(QName t, Column c) {
            String type = c.mysqlType == null ? "" : c.mysqlType.toLowerCase(Locale.ROOT);
            if (!type.startsWith("enum(") && !type.startsWith("set(")) return;
            comments.add("COMMENT ON COLUMN " + table(t) + "." + q(c.name) + " IS "
                    + lit(ELEMENTS_COMMENT + c.mysqlType));
        }

        /** FIRST / AFTER x: dropped with a warning. */
        void position(Column c) {
            if (accept("FIRST")) {
                warnings.add("FIRST dropped for column `" + c.name + "`: PostgreSQL adds columns at the end");
            } else if (accept("AFTER")) {
                String after = name();
                warnings.add("AFTER `" + after + "` dropped for column `" + c.name + "`: PostgreSQL adds columns "
                        + "at the end");
            }
        }

        void modify(String alter, Column c) {
            recordElements(current, c);
            String col = q(c.name);
            StringBuilder sb = new StringBuilder(alter);
            if (!c.autoIncrement) {
                // MySQL redefines the whole column: no AUTO_INCREMENT, no DEFAULT written means none
                sb.append(" ALTER COLUMN ").append(col).append(" DROP IDENTITY IF EXISTS, ALTER COLUMN ").append(col)
                        .append(" DROP DEFAULT,");
            }
            // with AUTO_INCREMENT the column keeps its identity or sequence default (the type change retypes an
            // identity's sequence too); none is created (see the class comment)
            sb.append(" ALTER COLUMN ").append(col).append(" TYPE ").append(c.pgType).append(" USING ")
                    .append(col).append("::").append(c.pgType);
            boolean notNull = Boolean.TRUE.equals(c.notNull) || c.primaryKey;
            if (notNull) sb.append(", ALTER COLUMN ").append(col).append(" SET NOT NULL");
            if (c.defaultExpr != null && !c.defaultExpr.equals("NULL") && !c.autoIncrement) {
                sb.append(", ALTER COLUMN ").append(col).append(" SET DEFAULT ").append(c.defaultExpr);
            }
            out.add(sb.toString());
            columnOf.put(out.size() - 1, c.name);
            if (!notNull) {
                // MySQL keeps a primary key's columns NOT NULL whatever MODIFY says (and PostgreSQL refuses to drop
                // it there, 42P16); an identity column is NOT NULL by definition
                out.add(doBlock("BEGIN IF " + columnExists(current, c.name) + " AND NOT EXISTS (SELECT 1 FROM "
                        + "pg_catalog.pg_index i JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND "
                        + "a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass(" + lit(table(current)) + ") AND "
                        + "i.indisprimary AND a.attname = " + lit(c.name) + ") AND NOT EXISTS (SELECT 1 FROM "
                        + "pg_catalog.pg_attribute WHERE attrelid = to_regclass(" + lit(table(current)) + ") AND "
                        + "attname = " + lit(c.name) + " AND attidentity <> '') THEN " + alter + " ALTER COLUMN "
                        + col + " DROP NOT NULL; END IF; END"));
            }
            if (c.primaryKey) {
                warnings.add("PRIMARY KEY in the redefinition of column `" + c.name + "` ignored: use ADD PRIMARY "
                        + "KEY");
            }
            if (c.unique) {
                warnings.add("UNIQUE in the redefinition of column `" + c.name + "` ignored: use ADD UNIQUE");
            }
        }

        void renameIndex(QName t, String old, String nu) {
            String from = q(schemaOf(t)) + "." + q(indexName(t.table, old));
            String to = q(schemaOf(t)) + "." + q(indexName(t.table, nu));
            out.add(doBlock("BEGIN IF to_regclass(" + lit(from) + ") IS NOT NULL AND to_regclass(" + lit(to)
                    + ") IS NULL THEN ALTER INDEX " + from + " RENAME TO " + q(indexName(t.table, nu))
                    + "; END IF; END"));
        }

        void renameColumn(QName t, String old, String nu) {
            renamedColumns.put(old, nu);
            out.add(doBlock("BEGIN IF " + columnExists(t, old) + " AND NOT " + columnExists(t, nu)
                    + " THEN ALTER TABLE " + table(t) + " RENAME COLUMN " + q(old) + " TO " + q(nu)
                    + "; END IF; END"));
        }

        String columnExists(QName t, String column) {
            return "EXISTS (SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = to_regclass(" + lit(table(t))
                    + ") AND attname = " + lit(column) + " AND NOT attisdropped)";
        }

        /**
         * In an ALTER TABLE that renames columns, a statement on a column's old name would fail when replayed after
         * the rename: it runs only while the column exists (an ADD only while the new name does not).
         */
        void guardRenamedColumns(QName t, int first) {
            if (renamedColumns.isEmpty()) return;
            for (int k = first; k < out.size(); k++) {
                String col = columnOf.get(k);
                if (col == null || !renamedColumns.containsKey(col)) continue;
                String cond = adds.contains(k) ? "NOT " + columnExists(t, renamedColumns.get(col))
                        : columnExists(t, col);
                out.set(k, doBlock("BEGIN IF " + cond + " THEN " + out.get(k) + "; END IF; END"));
            }
        }

        static String columnSql(Column c) {
            StringBuilder sb = new StringBuilder(q(c.name)).append(' ').append(c.pgType);
            if (Boolean.TRUE.equals(c.notNull)) sb.append(" NOT NULL");
            if (c.defaultExpr != null && !c.defaultExpr.equals("NULL")) sb.append(" DEFAULT ").append(c.defaultExpr);
            return sb.toString();
        }

        /** MySQL's value for existing rows when a NOT NULL column without DEFAULT is added; null for none. */
        static String implicitDefault(Column c) {
            String pg = c.pgType;
            if (isNumericType(pg)) return "0";
            if (pg.equals("text") && c.firstElement != null
                    && c.mysqlType.startsWith("enum")) {
                return lit(c.firstElement);
            }
            if (pg.equals("text") || pg.startsWith("char(") || pg.startsWith("varchar(")) return "''";
            if (pg.equals("bytea")) return "'\\x'";
            if (pg.equals("jsonb")) return "'null'";
            if (pg.equals("interval")) return "'00:00:00'";
            if (pg.startsWith("bit(")) return bits(0, pg);
            return null;
        }
    }

    private static final Set<String> TABLE_OPTIONS = Set.of("ENGINE", "AUTO_INCREMENT", "AVG_ROW_LENGTH",
            "CHECKSUM", "COMMENT", "COMPRESSION", "CONNECTION", "DELAY_KEY_WRITE", "ENCRYPTION",
            "INSERT_METHOD", "KEY_BLOCK_SIZE", "MAX_ROWS", "MIN_ROWS", "PACK_KEYS", "PASSWORD", "ROW_FORMAT",
            "STATS_AUTO_RECALC", "STATS_PERSISTENT", "STATS_SAMPLE_PAGES", "TABLESPACE", "UNION", "ALGORITHM",
            "LOCK", "SHARD_ROW_ID_BITS", "PRE_SPLIT_REGIONS", "AUTO_ID_CACHE", "AUTO_RANDOM_BASE", "TTL",
            "TTL_ENABLE", "TTL_JOB_INTERVAL", "PLACEMENT", "SECONDARY_ENGINE", "ENGINE_ATTRIBUTE",
            "SECONDARY_ENGINE_ATTRIBUTE", "PAGE_CHECKSUM", "TRANSACTIONAL", "IETF_QUOTES", "SEQUENCE");

    private static boolean isNumericType(String pg) {
        return pg.equals("smallint") || pg.equals("integer") || pg.equals("bigint") || pg.startsWith("numeric")
                || pg.equals("real") || pg.equals("double precision");
    }

    private static boolean zeroDate(String s) {
        return s.startsWith("0000-00-00") || (s.length() >= 10 && (s.startsWith("00", 5) || s.startsWith("00", 8)));
    }

    /** B'0101' of the width of bit(n), or the value's own width. */
    private static String bits(long v, String pgType) {
        int w = PostgresTypes.lengthOf(pgType);
        String b = Long.toBinaryString(v);
        if (w > 0 && b.length() < w) b = "0".repeat(w - b.length()) + b;
        return "B'" + b + "'";
    }

    private static byte[] hexBytes(String hex) {
        String h = hex.length() % 2 == 1 ? "0" + hex : hex;
        byte[] b = new byte[h.length() / 2];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) Integer.parseInt(h.substring(2 * k, 2 * k + 2), 16);
        }
        return b;
    }

    private static String cut(String s, int max) {
        String one = s.replaceAll("\\s+", " ").trim();
        return one.length() > max ? one.substring(0, max) + "..." : one;
    }
}
