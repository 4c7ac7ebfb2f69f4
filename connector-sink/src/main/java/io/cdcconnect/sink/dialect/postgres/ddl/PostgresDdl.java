package io.cdcconnect.sink.dialect.postgres.ddl;

import io.cdcconnect.sink.dialect.postgres.types.PostgresTypes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import io.cdcconnect.sink.ddl.sql.ParsedDdl;
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
 * <h2>Expressions</h2>
 * {@code DEFAULT (expr)}, generated columns and CHECKs are translated token by token where PostgreSQL says the same:
 * columns, numbers, strings, {@code + - * % = < > <= >= <> !=}, {@code /} as {@code * 1.0 /} (MySQL divides
 * exactly), {@code ||}/{@code &&}/{@code !} as OR/AND/NOT, {@code <=>} as IS NOT DISTINCT FROM, AND OR NOT IS NULL
 * IN BETWEEN LIKE CASE; {@code INTERVAL n unit} as {@code INTERVAL 'n units'}; the clock (CURRENT_DATE,
 * CURRENT_TIMESTAMP, NOW(), CURDATE(), UTC_TIMESTAMP() ...); and the functions of {@code Parser#function}: UUID()
 * as {@code gen_random_uuid()::text}, UUID_TO_BIN(x) as bytes, IFNULL, IF, CONCAT (NULL when an argument is), LOWER,
 * UPPER, LENGTH as octet_length, YEAR()/MONTH()/... as EXTRACT, DATE_ADD/DATE_SUB, CAST, RAND(), JSON_VALID in a
 * CHECK, and the plain numeric and string ones. Anything else is unsupported, naming it ({@code ^}, {@code DIV},
 * GREATEST/LEAST, which skip NULLs in PostgreSQL, RAND(seed), JSON paths, ...).
 *
 * <h2>Statements</h2>
 * <ul>
 *   <li><b>CREATE TABLE [IF NOT EXISTS] t (...)</b>: {@code CREATE TABLE IF NOT EXISTS} with each column's type from
 *   {@link PostgresTypes#pgType(String)} ({@code CHARACTER SET binary} text types become bytea), {@code NOT NULL},
 *   and a {@code DEFAULT} that is a literal number, string ({@code E''} form when it holds a backslash; into bytea as
 *   hex, into bit as {@code B''}), {@code b''}/{@code x''} literal (bit, bytea and integer columns), {@code TRUE}/
 *   {@code FALSE}, {@code NULL} or {@code CURRENT_TIMESTAMP[(n)]} (also {@code NOW()}, {@code LOCALTIMESTAMP});
 *   a zero date default is dropped with a warning; an expression default {@code DEFAULT (expr)} is translated
 *   (see Expressions) or the statement is unsupported. {@code AUTO_INCREMENT}, {@code COMMENT},
 *   {@code CHARACTER SET}, {@code COLLATE}, {@code ON UPDATE}, TiDB's comments and the table options
 *   ({@code ENGINE}, {@code CHARSET}, {@code ROW_FORMAT}, ...) are dropped silently. A generated column
 *   ({@code [GENERATED ALWAYS] AS (expr) [VIRTUAL|STORED]}) becomes {@code GENERATED ALWAYS AS (expr) STORED}.
 *   {@code PRIMARY KEY} (table or column level) becomes a primary key, {@code UNIQUE [KEY|INDEX] [name]} a
 *   constraint {@code "t_name"}; a plain {@code KEY}/{@code INDEX} becomes a separate {@code CREATE INDEX IF NOT
 *   EXISTS}; index prefix lengths and ASC/DESC are dropped. {@code CHECK (expr)} (column or table level) becomes a
 *   constraint named as MySQL names it ({@code t_chk_<n>} when unnamed); {@code FOREIGN KEY} a constraint
 *   ({@code t_ibfk_<n>} when unnamed) {@code DEFERRABLE INITIALLY DEFERRED} (the sink writes a transaction's rows
 *   table by table); {@code REFERENCES} on a column is dropped with a warning, as MySQL ignores it. {@code PARTITION
 *   BY} RANGE/LIST [COLUMNS] and [LINEAR] HASH/KEY of columns becomes declarative partitioning, one
 *   {@code CREATE TABLE IF NOT EXISTS "t_p" PARTITION OF t FOR VALUES ...} per partition
 *   ({@code Parser#partitionBy}); partitioning by a function, subpartitions and bounds that are not literals are
 *   unsupported. A functional key part {@code ((expr))} becomes the translated expression (a unique key on one: a
 *   {@code CREATE UNIQUE INDEX}); one without a translation is refused in a unique key and dropped with its index,
 *   with a warning, otherwise. FULLTEXT and SPATIAL indexes are dropped with a warning. {@code CREATE
 *   TABLE x LIKE y} becomes {@code CREATE TABLE IF NOT EXISTS x (LIKE y INCLUDING ALL)}; {@code CREATE TABLE ...
 *   SELECT} is unsupported.</li>
 *   <li><b>ALTER TABLE t clause, ...</b>, one PostgreSQL statement (or two) per clause, in order:
 *   <ul>
 *     <li>{@code ADD [COLUMN] c def} and {@code ADD [COLUMN] (c def, ...)}: {@code ADD COLUMN IF NOT EXISTS};
 *     {@code FIRST}/{@code AFTER x} is dropped with a warning (PostgreSQL appends). A {@code NOT NULL} column
 *     without a default gets MySQL's implicit default for the rows already there (0, '', the first ENUM element,
 *     {@code \x}, JSON null, zero bits, {@code 00:00:00}) in the ADD and a {@code DROP DEFAULT} right after, as
 *     MySQL fills them; dates have no such value.</li>
 *     <li>{@code DROP [COLUMN] c}: {@code DROP COLUMN IF EXISTS}.</li>
 *     <li>{@code ADD [COLUMN] c ... AUTO_INCREMENT} (an integer column): the column, the rows already there numbered
 *     from 1 in the order of InnoDB's clustered key (primary key, else the first unique key of NOT NULL columns,
 *     else the heap's order), then {@code NOT NULL} and {@code GENERATED BY DEFAULT AS IDENTITY} after the largest
 *     value, in a {@code DO} block that numbers nothing on a replay.</li>
 *     <li>{@code MODIFY [COLUMN] c def}: {@code ALTER COLUMN c DROP IDENTITY IF EXISTS, ALTER COLUMN c DROP
 *     DEFAULT, ALTER COLUMN c TYPE t USING c::t[, ALTER COLUMN c SET NOT NULL][, ALTER COLUMN c SET DEFAULT d]}
 *     (MySQL redefines the whole column; the default is dropped first so that a default of the old type does not
 *     block the type change). Without NOT NULL, a {@code DO} block drops NOT NULL only when {@code c} is in no
 *     primary key and no identity (MySQL keeps a key column NOT NULL; PostgreSQL refuses, 42P16). With
 *     {@code AUTO_INCREMENT} the identity or sequence default stays (the DROPs are left out) and none is created.
 *     A generated column cannot be redefined (unsupported); CHECKs on it are added as below.</li>
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
 *     <li>{@code ADD [CONSTRAINT [c]] CHECK (expr)} and {@code ADD [CONSTRAINT [c]] FOREIGN KEY ...}: a {@code DO}
 *     block adding the constraint while the table has none of that name (unnamed: {@code t_chk_<hash>},
 *     {@code t_ibfk_<hash>} of the text); {@code DROP CHECK c}, {@code DROP FOREIGN KEY c}: {@code DROP CONSTRAINT
 *     IF EXISTS c}; {@code DROP CONSTRAINT c}: that and {@code DROP INDEX} as above.</li>
 *     <li>Table options ({@code ENGINE=}, {@code [DEFAULT] CHARSET=}, {@code CONVERT TO CHARACTER SET},
 *     {@code COLLATE=}, {@code COMMENT=}, {@code ROW_FORMAT=}, {@code AUTO_INCREMENT=}, {@code ALGORITHM=},
 *     {@code LOCK=}, {@code FORCE}, ...), {@code ALTER INDEX ... VISIBLE}, {@code ENABLE/DISABLE KEYS},
 *     {@code ORDER BY}, FULLTEXT/SPATIAL additions: nothing, with a warning (options only: an empty statement
 *     list).</li>
 *     <li>{@code DROP PARTITION p, ...}: the partition's table {@code "t_p"} dropped in a {@code DO} block (an error
 *     when the table is not partitioned here, rather than rows left behind); of a RANGE table, the next partition
 *     is attached again from the dropped one's lower bound, as MySQL's next partition takes its range over;
 *     {@code TRUNCATE PARTITION p, ...|ALL}:
 *     {@code TRUNCATE TABLE "t_p", ...} (or t); {@code ADD PARTITION (PARTITION p VALUES IN (...))} of a LIST
 *     table: {@code CREATE TABLE IF NOT EXISTS "t_p" PARTITION OF t FOR VALUES IN (...)}.</li>
 *     <li>{@code PARTITION BY} and {@code REMOVE PARTITIONING} of an existing table (PostgreSQL cannot do either in
 *     place), other partition maintenance ({@code ADD PARTITION} of RANGE or HASH, {@code REORGANIZE/EXCHANGE/
 *     COALESCE ... PARTITION}) and any other clause: unsupported, naming the clause.</li>
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
     * The PostgreSQL statements with the effect of {@code statement}, read where the sink checked it (never from text
     * here): the translation reads the statement's own pieces ({@link ParsedDdl#placed()}), as the sink writes them, not any text of the message.
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

    /**
     * Creates schema {@code name} only when the catalog has none of that name. PostgreSQL checks CREATE on the
     * database even for {@code CREATE SCHEMA IF NOT EXISTS} on a schema that exists, so that statement fails for a
     * least-privileged user whose schema was made for it (docs/migration-mysql-to-postgresql.md, step 2); this one
     * asks the catalog first and sends nothing the user may not do.
     */
    public static String createSchemaIfMissing(String name) {
        String literal = "'" + name.replace("'", "''") + "'";
        return "DO $cdc$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = " + literal
                + ") THEN CREATE SCHEMA IF NOT EXISTS " + q(name) + "; END IF; END $cdc$";
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
    public static String indexName(String table, String index) {
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
        String generatedExpr; // PostgreSQL expression of a generated column
        boolean primaryKey;
        boolean unique;
        /** CHECK constraints written on the column: name (null when unnamed) and PostgreSQL expression. */
        final List<String[]> checks = new ArrayList<>();
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
                out.add(createSchemaIfMissing(schemaMap.apply(db)));
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
            int fks = 0;
            int checks = 0;
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
                    List<String> cols = keyParts("unique key", true);
                    skipElement();
                    String n = keyName(name, cols, keyNames);
                    if (cols.stream().anyMatch(k -> k.startsWith("("))) {
                        // a UNIQUE constraint holds columns only: on an expression it is a unique index
                        after.add("CREATE UNIQUE INDEX IF NOT EXISTS " + q(indexName(t.table, n)) + " ON "
                                + table(t) + " (" + String.join(", ", cols) + ")");
                    } else {
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
                } else if (at("FOREIGN")) {
                    // MySQL's name for an unnamed one: <table>_ibfk_<n>
                    constraints.add(foreignKey(t, constraint != null ? constraint : t.table + "_ibfk_" + (++fks)));
                } else if (accept("CHECK")) {
                    String n = constraint != null ? constraint : t.table + "_chk_" + (++checks);
                    constraints.add("CONSTRAINT " + q(n) + " CHECK " + check("CHECK `" + n + "`"));
                } else if (at("FULLTEXT") || at("SPATIAL")) {
                    String text = skipElement();
                    warnings.add("dropped: " + cut(text, 60) + " (no PostgreSQL equivalent is created)");
                } else {
                    if (constraint != null) throw new Unsupported("expected a constraint " + where());
                    Column c = column();
                    defs.add(columnSql(c));
                    for (String[] k : c.checks) {
                        String n = k[0] != null ? k[0] : t.table + "_chk_" + (++checks);
                        constraints.add("CONSTRAINT " + q(n) + " CHECK " + k[1]);
                    }
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
            // table options are MySQL's own; a SELECT copies data
            List<String> partitions = null;
            String partitionBy = "";
            while (!atEnd()) {
                if (at("SELECT") || at("AS") || (at("IGNORE") || at("REPLACE")) && peek(1).is("SELECT")) {
                    throw new Unsupported("CREATE TABLE ... SELECT copies data no change event carries");
                }
                if (accept("PARTITION", "BY")) {
                    partitions = new ArrayList<>();
                    partitionBy = partitionBy(t, pk, partitions);
                    continue;
                }
                skipOne();
            }
            end();
            // the columns, then the primary key, then the unique constraints
            if (pk != null) defs.add("PRIMARY KEY (" + String.join(", ", pk) + ")");
            defs.addAll(constraints);
            out.add("CREATE TABLE IF NOT EXISTS " + table(t) + " (" + String.join(", ", defs) + ")" + partitionBy);
            if (partitions != null) out.addAll(partitions);
            out.addAll(after);
            out.addAll(comments);
        }

        // ---- PARTITION BY

        /**
         * MySQL's {@code PARTITION BY} (read) of a CREATE TABLE as PostgreSQL's declarative partitioning: the clause
         * for the table, and into {@code children} one {@code CREATE TABLE ... PARTITION OF} per partition, named
         * {@code <table>_<partition>} like indexes. RANGE [COLUMNS] and LIST [COLUMNS] of columns keep their bounds
         * (RANGE from the previous partition's bound, the first from MINVALUE); HASH and KEY of columns become
         * PostgreSQL's HASH with the same number of partitions (p0, p1, ... unless named; rows are spread by another
         * hash, which changes no row). A partitioning function (RANGE (YEAR(d)), HASH (expr)), bounds that are
         * expressions, and subpartitions have no translation.
         */
        String partitionBy(QName t, List<String> pk, List<String> children) {
            accept("LINEAR");
            String method;
            if (accept("RANGE")) method = "RANGE";
            else if (accept("LIST")) method = "LIST";
            else if (accept("HASH")) method = "HASH";
            else if (accept("KEY")) method = "KEY";
            else throw new Unsupported("PARTITION BY " + cut(sql.substring(peek().start), 20) + " has no PostgreSQL "
                    + "translation");
            accept("COLUMNS");
            if (method.equals("KEY") && accept("ALGORITHM")) {
                expectSym('=');
                next();
            }
            expectSym('(');
            List<String> cols = new ArrayList<>();
            if (!atSym(')')) {
                do {
                    if (peek().type != T.IDENT || !(peek(1).sym(',') || peek(1).sym(')'))) {
                        throw new Unsupported("PARTITION BY " + method + " of an expression has no PostgreSQL "
                                + "translation of the same meaning (PostgreSQL partitions by the column's values)");
                    }
                    cols.add(q(name()));
                } while (acceptSym(','));
            }
            expectSym(')');
            if (cols.isEmpty()) {
                // KEY (): the primary key's columns
                if (pk == null) throw new Unsupported("PARTITION BY KEY () of a table without a primary key");
                cols.addAll(pk);
            }
            int count = 0;
            if (accept("PARTITIONS")) count = Integer.parseInt(next().text);
            if (at("SUBPARTITION")) {
                throw new Unsupported("SUBPARTITION BY has no PostgreSQL translation (partitions of partitions "
                        + "would have to be created one by one)");
            }
            String parent = table(t);
            boolean hash = method.equals("HASH") || method.equals("KEY");
            List<String> names = new ArrayList<>();
            List<String> bounds = new ArrayList<>();
            if (acceptSym('(')) {
                String previous = null;
                do {
                    expect("PARTITION");
                    String name = name();
                    names.add(name);
                    if (hash) {
                        bounds.add(null);
                    } else if (method.equals("RANGE")) {
                        expect("VALUES");
                        expect("LESS");
                        expect("THAN");
                        String upper;
                        if (acceptSym('(')) {
                            upper = "(" + bound(cols.size(), true) + ")";
                        } else {
                            expect("MAXVALUE");
                            upper = maxValues(cols.size());
                        }
                        String lower = previous != null ? previous : minValues(cols.size());
                        bounds.add("FOR VALUES FROM " + lower + " TO " + upper);
                        previous = upper;
                    } else {
                        expect("VALUES");
                        expect("IN");
                        expectSym('(');
                        List<String> in = new ArrayList<>();
                        do {
                            if (cols.size() > 1) {
                                expectSym('(');
                                in.add("(" + bound(cols.size(), false) + ")");
                            } else {
                                in.add(literal());
                            }
                        } while (acceptSym(','));
                        expectSym(')');
                        if (cols.size() > 1) {
                            throw new Unsupported("PARTITION BY LIST COLUMNS of several columns has no PostgreSQL "
                                    + "translation (PostgreSQL lists values of one column)");
                        }
                        bounds.add("FOR VALUES IN (" + String.join(", ", in) + ")");
                    }
                    // ENGINE, COMMENT, ... of the partition are MySQL's own
                    while (!atSym(',') && !atSym(')')) {
                        if (at("SUBPARTITION") || atEnd()) {
                            throw new Unsupported("subpartitions have no PostgreSQL translation");
                        }
                        skipOne();
                    }
                } while (acceptSym(','));
                expectSym(')');
            } else if (hash) {
                if (count == 0) count = 1;
                for (int k = 0; k < count; k++) {
                    names.add("p" + k);
                    bounds.add(null);
                }
            } else {
                throw new Unsupported("PARTITION BY " + method + " without partitions");
            }
            for (int k = 0; k < names.size(); k++) {
                String bound = bounds.get(k) != null ? bounds.get(k)
                        : "FOR VALUES WITH (MODULUS " + names.size() + ", REMAINDER " + k + ")";
                children.add("CREATE TABLE IF NOT EXISTS " + partitionTable(t, names.get(k)) + " PARTITION OF "
                        + parent + " " + bound);
            }
            return " PARTITION BY " + (hash ? "HASH" : method) + " (" + String.join(", ", cols) + ")";
        }

        /** {@code p0[, p1 ...]} after DROP/TRUNCATE PARTITION: the rest of the statement. */
        List<String> partitionNames() {
            List<String> names = new ArrayList<>();
            do {
                names.add(name());
            } while (acceptSym(','));
            return names;
        }

        /** The table of MySQL partition {@code p} of {@code t}, as {@link #partitionBy} names it. */
        String partitionTable(QName t, String p) {
            return q(schemaOf(t)) + "." + q(indexName(t.table, p));
        }

        String notPartitioned(QName t) {
            return "NOT EXISTS (SELECT 1 FROM pg_catalog.pg_class WHERE oid = to_regclass(" + lit(table(t))
                    + ") AND relkind = 'p')";
        }

        /**
         * ADD PARTITION (PARTITION p VALUES IN (...), ...) (PARTITION read) of a LIST-partitioned table: one
         * {@code CREATE TABLE IF NOT EXISTS ... PARTITION OF}. A RANGE partition's lower bound is the previous
         * partition's upper one, which the statement does not carry; HASH partitions are spread anew: unsupported.
         */
        void addPartitions(QName t) {
            int start = peek().start;
            expectSym('(');
            do {
                expect("PARTITION");
                String p = name();
                if (!accept("VALUES", "IN")) {
                    throw new Unsupported("ADD PARTITION '" + cut(sql.substring(start), 60) + "' has no PostgreSQL "
                            + "translation: only LIST partitions (VALUES IN) can be added, a RANGE partition's lower "
                            + "bound is not in the statement");
                }
                expectSym('(');
                List<String> in = new ArrayList<>();
                do {
                    in.add(literal());
                } while (acceptSym(','));
                expectSym(')');
                while (!atSym(',') && !atSym(')')) {
                    if (atEnd()) throw new Unsupported("unterminated ADD PARTITION");
                    skipOne();
                }
                out.add("CREATE TABLE IF NOT EXISTS " + partitionTable(t, p) + " PARTITION OF " + table(t)
                        + " FOR VALUES IN (" + String.join(", ", in) + ")");
            } while (acceptSym(','));
            expectSym(')');
        }

        /** {@code (MINVALUE, ...)} for {@code n} columns. */
        static String minValues(int n) {
            return "(" + String.join(", ", java.util.Collections.nCopies(n, "MINVALUE")) + ")";
        }

        /** {@code (MAXVALUE, ...)} for {@code n} columns (MySQL's LESS THAN MAXVALUE, read). */
        static String maxValues(int n) {
            return "(" + String.join(", ", java.util.Collections.nCopies(n, "MAXVALUE")) + ")";
        }

        /** A bound's values after its '(' up to its ')' (read): literals, MAXVALUE in a RANGE. */
        String bound(int n, boolean range) {
            List<String> vs = new ArrayList<>();
            do {
                if (range && accept("MAXVALUE")) vs.add("MAXVALUE");
                else vs.add(literal());
            } while (acceptSym(','));
            expectSym(')');
            if (vs.size() != n) throw new Unsupported("a partition bound of " + vs.size() + " values for " + n
                    + " columns");
            return String.join(", ", vs);
        }

        /** A number, string or NULL in a partition bound. */
        String literal() {
            String sign = acceptSym('-') ? "-" : "";
            Tok t = next();
            if (t.type == T.NUMBER) return sign + t.text;
            if (sign.isEmpty() && t.type == T.STRING) return lit(t.text);
            if (sign.isEmpty() && t.is("NULL")) return "NULL";
            throw new Unsupported("a partition bound that is not a literal ('" + cut(sql.substring(t.start), 30)
                    + "') has no PostgreSQL translation");
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
            // MySQL's name for an unnamed functional key: functional_index
            String base = first.startsWith("(") ? "functional_index"
                    : first.substring(1, first.length() - 1).replace("\"\"", "\"");
            String n = base;
            for (int k = 2; used.contains(n.toLowerCase(Locale.ROOT)); k++) n = base + "_" + k;
            used.add(n.toLowerCase(Locale.ROOT));
            return n;
        }

        List<String> keyParts(String what) {
            return keyParts(what, false);
        }

        /**
         * {@code (a, b(10) DESC, ((expr)), ...)} as quoted column names, prefix lengths and order dropped, a
         * functional key part as its PostgreSQL expression in parentheses. When an expression has no translation:
         * for a unique key unsupported (the key says which rows may exist), for another index null with a warning
         * (an index only makes lookups faster).
         */
        List<String> keyParts(String what, boolean unique) {
            expectSym('(');
            List<String> cols = new ArrayList<>();
            String untranslated = null;
            while (true) {
                if (atSym('(')) {
                    int from = i;
                    try {
                        cols.add(parenthesized("a key part of " + what));
                    } catch (Unsupported e) {
                        if (unique) throw e;
                        i = from;
                        skipOne();
                        untranslated = e.getMessage();
                    }
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
            if (untranslated != null) {
                warnings.add(what + " on an expression dropped: " + untranslated);
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
                    c.generatedExpr = parenthesized("the expression of generated column `" + c.name + "`");
                    c.generated = true;
                } else if (accept("STORED") || accept("PERSISTENT")) {
                    c.generated = true;
                } else if (accept("VIRTUAL")) {
                    c.generated = true;
                    warnings.add("generated column `" + c.name + "` is VIRTUAL in MySQL and STORED here (PostgreSQL "
                            + "computes it on write): the same values");
                } else if (at("CHECK") || at("CONSTRAINT")) {
                    String name = null;
                    if (accept("CONSTRAINT") && !at("CHECK")) name = name();
                    expect("CHECK");
                    c.checks.add(new String[] {name, check("CHECK of column `" + c.name + "`")});
                } else if (at("REFERENCES")) {
                    String text = skipElementBeforePosition();
                    warnings.add("'" + cut(text, 60) + "' of column `" + c.name + "` left out, as MySQL does: it "
                            + "ignores REFERENCES written on a column (only FOREIGN KEY makes a foreign key)");
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
            if (c.generated && c.generatedExpr == null) {
                throw new Unsupported("column `" + c.name + "`: STORED/VIRTUAL without AS (expression)");
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
                if (pgType.equals("bytea")) return lit(PostgresTypes.hex(s.getBytes(StandardCharsets.UTF_8)));
                if (pgType.startsWith("bit(")) return dropDefault(c, s);
                if ((pgType.equals("date") || pgType.startsWith("timestamp")) && zeroDate(s)) {
                    return dropDefault(c, s);
                }
                return lit(s);
            }
            if (t.type == T.HEX || t.type == T.BITS) {
                next();
                byte[] bytes = t.type == T.HEX ? hexBytes(t.text) : null;
                if (pgType.equals("bytea") && bytes != null) return lit(PostgresTypes.hex(bytes));
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
            // an expression: (expr)
            if (atSym('(')) return parenthesized("DEFAULT of column `" + c.name + "`");
            throw new Unsupported("DEFAULT " + cut(sql.substring(t.start), 40) + " of column `" + c.name
                    + "` has no PostgreSQL translation");
        }

        String dropDefault(Column c, String what) {
            warnings.add("DEFAULT " + PostgresTypes.show(what) + " of column `" + c.name + "` dropped: it has no "
                    + "PostgreSQL literal");
            return null;
        }

        // ---- expressions (DEFAULT (...), generated columns, CHECK)

        /** Whether the expression being read is a CHECK's: what only rejects a row may be written as an error. */
        boolean inCheck;

        /** {@code ( expression )} as PostgreSQL, in parentheses. */
        String parenthesized(String what) {
            expectSym('(');
            String e = expression(what);
            expectSym(')');
            return "(" + e + ")";
        }

        /** {@code CHECK ( expression ) [[NOT] ENFORCED]} after CHECK. */
        String check(String what) {
            inCheck = true;
            String e;
            try {
                e = parenthesized(what);
            } finally {
                inCheck = false;
            }
            if (at("NOT", "ENFORCED")) {
                throw new Unsupported(what + " is NOT ENFORCED: PostgreSQL has no CHECK that is not checked");
            }
            accept("ENFORCED");
            return e;
        }

        /**
         * A MySQL expression up to a ',' or ')' of its own level (not read), as a PostgreSQL expression of the same
         * meaning (the class comment's Expressions); anything else is unsupported, naming what.
         */
        String expression(String what) {
            List<String> parts = new ArrayList<>();
            while (true) {
                Tok t = peek();
                if (t.type == T.END) throw new Unsupported("unterminated expression in " + what);
                if (t.sym(',') || t.sym(')')) break;
                if (t.sym('(')) {
                    next();
                    parts.add("(" + String.join(", ", arguments(what)) + ")");
                    continue;
                }
                switch (t.type) {
                    case IDENT -> {
                        next();
                        if (atSym('(')) {
                            throw new Unsupported("the function " + t.text + " in " + what + " has no PostgreSQL "
                                    + "equivalent");
                        }
                        String col = t.text;
                        while (acceptSym('.')) col = name(); // t.c, s.t.c: the column
                        parts.add(q(col));
                    }
                    case NUMBER -> parts.add(next().text);
                    case STRING -> parts.add(lit(next().text));
                    case SYM -> parts.add(operator(what));
                    case WORD -> parts.add(word(what));
                    default -> throw new Unsupported("'" + cut(sql.substring(t.start), 30) + "' in " + what
                            + " has no PostgreSQL translation");
                }
            }
            if (parts.isEmpty()) throw new Unsupported("an empty expression in " + what);
            return String.join(" ", parts);
        }

        /** The comma-separated expressions after a '(' up to its ')' (read). */
        List<String> arguments(String what) {
            List<String> args = new ArrayList<>();
            if (acceptSym(')')) return args;
            do {
                args.add(expression(what));
            } while (acceptSym(','));
            expectSym(')');
            return args;
        }

        /** An operator: MySQL's adjacent characters read as one, as PostgreSQL writes it. */
        String operator(String what) {
            StringBuilder op = new StringBuilder(next().text);
            while (peek().type == T.SYM && peek().start == toks.get(i - 1).end && !atSym('(') && !atSym(')')
                    && !atSym(',') && OPERATORS.containsKey(op + peek().text)) {
                op.append(next().text);
            }
            String pg = OPERATORS.get(op.toString());
            if (pg == null) {
                throw new Unsupported("the operator " + op + " in " + what + " has no PostgreSQL equivalent of "
                        + "the same meaning");
            }
            return pg;
        }

        /** A keyword, a function call or an INTERVAL. */
        String word(String what) {
            Tok t = next();
            String w = t.text.toUpperCase(Locale.ROOT);
            if (atSym('(') && !KEYWORDS.contains(w) && !CLOCK.contains(w)) return function(w, what);
            switch (w) {
                case "INTERVAL" -> {
                    return interval(what, "+");
                }
                case "MOD" -> {
                    return "%";
                }
                case "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "LOCALTIME", "CURRENT_TIME" -> {
                    if (acceptSym('(')) {
                        String n = atSym(')') ? null : next().text;
                        expectSym(')');
                        return n == null ? w : w + "(" + n + ")";
                    }
                    return w;
                }
                case "CURRENT_DATE" -> {
                    if (acceptSym('(')) expectSym(')');
                    return w;
                }
                case "UTC_TIMESTAMP", "UTC_DATE", "UTC_TIME" -> {
                    if (acceptSym('(')) expectSym(')');
                    return switch (w) {
                        case "UTC_TIMESTAMP" -> "(CURRENT_TIMESTAMP AT TIME ZONE 'UTC')";
                        case "UTC_DATE" -> "(CURRENT_TIMESTAMP AT TIME ZONE 'UTC')::date";
                        default -> "(CURRENT_TIMESTAMP AT TIME ZONE 'UTC')::time";
                    };
                }
                default -> {
                    if (KEYWORDS.contains(w)) return w;
                    throw new Unsupported("'" + t.text + "' in " + what + " has no PostgreSQL equivalent of the same "
                            + "meaning");
                }
            }
        }

        /** {@code INTERVAL n UNIT} (INTERVAL read) as {@code INTERVAL 'n units'}. */
        String interval(String what, String sign) {
            String minus = acceptSym('-') ? "-" : "";
            Tok n = next();
            if (n.type != T.NUMBER && n.type != T.STRING) {
                throw new Unsupported("INTERVAL of an expression in " + what + " has no PostgreSQL translation");
            }
            String unit = next().text.toUpperCase(Locale.ROOT);
            String pg = INTERVAL_UNITS.get(unit);
            if (pg == null) {
                throw new Unsupported("INTERVAL ... " + unit + " in " + what + " has no PostgreSQL translation");
            }
            String value = minus + n.text;
            if (unit.equals("QUARTER")) {
                try {
                    value = new java.math.BigDecimal(value).multiply(java.math.BigDecimal.valueOf(3)).toPlainString();
                } catch (NumberFormatException e) {
                    throw new Unsupported("INTERVAL '" + n.text + "' QUARTER in " + what + " is not a number");
                }
            } else if (n.type == T.STRING && !NUMBER.matcher(value.startsWith("-") ? value.substring(1) : value)
                    .matches()) {
                throw new Unsupported("INTERVAL '" + n.text + "' " + unit + " in " + what + " has no PostgreSQL "
                        + "translation");
            }
            return "INTERVAL " + lit(value + " " + pg);
        }

        /** A call of a function MySQL's grammar knows ({@code name} read, at its '('). */
        String function(String name, String what) {
            next(); // (
            if (name.equals("CAST") || name.equals("CONVERT")) return cast(name, what);
            List<String> a = arguments(what);
            String fn = name + "(" + String.join(", ", a) + ")";
            switch (name) {
                case "UUID" -> {
                    if (!a.isEmpty()) break;
                    return "gen_random_uuid()::text";
                }
                case "UUID_TO_BIN" -> {
                    if (a.size() != 1) break; // the swap flag reorders the bytes
                    return "decode(replace((" + a.get(0) + ")::text, '-', ''), 'hex')";
                }
                case "NOW", "SYSDATE" -> {
                    if (a.size() > 1) break;
                    return a.isEmpty() ? "CURRENT_TIMESTAMP" : "CURRENT_TIMESTAMP(" + a.get(0) + ")";
                }
                case "CURDATE" -> {
                    if (!a.isEmpty()) break;
                    return "CURRENT_DATE";
                }
                case "CURTIME" -> {
                    if (a.size() > 1) break;
                    return a.isEmpty() ? "CURRENT_TIME" : "CURRENT_TIME(" + a.get(0) + ")";
                }
                case "IFNULL" -> {
                    if (a.size() != 2) break;
                    return "COALESCE(" + a.get(0) + ", " + a.get(1) + ")";
                }
                case "IF" -> {
                    if (a.size() != 3) break;
                    return "(CASE WHEN " + a.get(0) + " THEN " + a.get(1) + " ELSE " + a.get(2) + " END)";
                }
                case "CONCAT" -> {
                    // NULL if any argument is NULL, as MySQL's
                    if (a.isEmpty()) break;
                    List<String> texts = new ArrayList<>();
                    for (String x : a) texts.add("(" + x + ")::text");
                    return "(" + String.join(" || ", texts) + ")";
                }
                case "LCASE", "LOWER" -> {
                    if (a.size() != 1) break;
                    return "lower(" + a.get(0) + ")";
                }
                case "UCASE", "UPPER" -> {
                    if (a.size() != 1) break;
                    return "upper(" + a.get(0) + ")";
                }
                case "LENGTH", "OCTET_LENGTH" -> {
                    if (a.size() != 1) break;
                    return "octet_length(" + a.get(0) + ")";
                }
                case "CHAR_LENGTH", "CHARACTER_LENGTH" -> {
                    if (a.size() != 1) break;
                    return "char_length(" + a.get(0) + ")";
                }
                case "YEAR", "MONTH", "DAY", "DAYOFMONTH", "HOUR", "MINUTE", "QUARTER" -> {
                    if (a.size() != 1) break;
                    String field = name.equals("DAYOFMONTH") ? "DAY" : name;
                    return "EXTRACT(" + field + " FROM " + a.get(0) + ")::integer";
                }
                case "DATE" -> {
                    if (a.size() != 1) break;
                    return "(" + a.get(0) + ")::date";
                }
                case "DATE_ADD", "DATE_SUB", "ADDDATE", "SUBDATE" -> {
                    // the INTERVAL argument was translated as an interval already
                    if (a.size() != 2 || !a.get(1).startsWith("INTERVAL '")) break;
                    String op = name.equals("DATE_SUB") || name.equals("SUBDATE") ? " - " : " + ";
                    return "(" + a.get(0) + op + a.get(1) + ")";
                }
                case "JSON_ARRAY" -> {
                    return "jsonb_build_array(" + String.join(", ", a) + ")";
                }
                case "JSON_OBJECT" -> {
                    return "jsonb_build_object(" + String.join(", ", a) + ")";
                }
                case "ABS", "CEIL", "CEILING", "FLOOR", "SIGN", "SQRT", "EXP", "LN", "LOG10", "MD5", "REVERSE",
                     "LTRIM", "RTRIM", "TRIM" -> {
                    if (a.size() != 1) break;
                    return fn;
                }
                case "ROUND" -> {
                    if (a.isEmpty() || a.size() > 2) break;
                    return fn;
                }
                case "MOD", "POW", "POWER", "REPEAT", "LEFT", "RIGHT" -> {
                    if (a.size() != 2) break;
                    return (name.equals("POW") ? "POWER" : name) + "(" + a.get(0) + ", " + a.get(1) + ")";
                }
                case "COALESCE", "NULLIF", "REPLACE", "LPAD", "RPAD" -> {
                    return fn;
                }
                case "JSON_EXTRACT" -> {
                    // one path of object members ('$.a.b'): the value there, as jsonb (NULL where there is none)
                    String path = a.size() == 2 ? jsonMembers(a.get(1)) : null;
                    if (path == null) break;
                    return "((" + a.get(0) + ")::jsonb #> " + lit(path) + ")";
                }
                case "JSON_UNQUOTE" -> {
                    // of a JSON_EXTRACT (jsonb): a JSON string's text, any other value's JSON text ('null' for
                    // JSON's null, as MySQL writes it). Of text, MySQL unquotes only what parses: not translated
                    if (a.size() != 1 || !a.get(0).startsWith("((") || !a.get(0).contains(")::jsonb #> '{")) break;
                    String j = a.get(0);
                    return "(CASE WHEN jsonb_typeof(" + j + ") = 'string' THEN " + j + " #>> '{}' ELSE (" + j
                            + ")::text END)";
                }
                case "JSON_VALID" -> {
                    // in a CHECK (MariaDB writes one on every JSON column, which is a LONGTEXT there): a row with
                    // text that is not JSON is refused, as a cast error (22P02) rather than a false CHECK
                    if (a.size() != 1 || !inCheck) break;
                    return "((" + a.get(0) + ")::json IS NOT NULL OR (" + a.get(0) + ") IS NULL)";
                }
                case "RAND" -> {
                    // [0, 1), as random(); RAND(seed) repeats a sequence PostgreSQL's random() does not
                    if (!a.isEmpty()) break;
                    return "random()";
                }
                case "PI" -> {
                    if (!a.isEmpty()) break;
                    return fn;
                }
                default -> {
                }
            }
            throw new Unsupported("the function " + name + "(" + a.size() + " argument" + (a.size() == 1 ? "" : "s")
                    + ") in " + what + " has no PostgreSQL equivalent of the same meaning");
        }

        /**
         * The PostgreSQL path ({@code {a,b}}) of a MySQL JSON path literal of object members only ({@code '$.a.b'},
         * as the translated literal {@code '$.a.b'}), or null for any other path (array cells, wildcards, quoted
         * member names, an expression).
         */
        static String jsonMembers(String literal) {
            java.util.regex.Matcher m = JSON_MEMBERS.matcher(literal);
            if (!m.matches()) return null;
            return "{" + String.join(",", m.group(1).substring(1).split("\\.")) + "}";
        }

        private static final java.util.regex.Pattern JSON_MEMBERS = java.util.regex.Pattern.compile("'\\$((?:\\.[A-Za-z_][A-Za-z0-9_]*)+)'");

        /** CAST(x AS type) / CONVERT(x, type) ('(' read). */
        String cast(String name, String what) {
            String x = expression(what);
            if (name.equals("CAST")) expect("AS");
            else expectSym(',');
            Tok t = next();
            String type = t.text.toUpperCase(Locale.ROOT);
            String pg;
            switch (type) {
                case "SIGNED" -> {
                    accept("INTEGER");
                    accept("INT");
                    pg = "bigint";
                }
                case "UNSIGNED" -> {
                    accept("INTEGER");
                    accept("INT");
                    pg = "numeric(20,0)";
                }
                case "DATE" -> pg = "date";
                case "DATETIME" -> pg = "timestamp";
                case "CHAR" -> {
                    pg = "text";
                    if (acceptSym('(')) {
                        pg = "varchar(" + next().text + ")";
                        expectSym(')');
                    }
                }
                case "DECIMAL" -> {
                    StringBuilder sb = new StringBuilder("numeric");
                    if (acceptSym('(')) {
                        sb.append('(').append(next().text);
                        if (acceptSym(',')) sb.append(',').append(next().text);
                        expectSym(')');
                        sb.append(')');
                    } else {
                        sb.append("(10,0)");
                    }
                    pg = sb.toString();
                }
                default -> throw new Unsupported("CAST to " + type + " in " + what + " has no PostgreSQL translation");
            }
            expectSym(')');
            return "CAST(" + x + " AS " + pg + ")";
        }

        // ---- constraints: CHECK and FOREIGN KEY

        /**
         * {@code FOREIGN KEY [index] (cols) REFERENCES t (cols) [ON DELETE a] [ON UPDATE a]} (at FOREIGN) as a
         * PostgreSQL table constraint named {@code name}: DEFERRABLE INITIALLY DEFERRED, because the sink writes a
         * source transaction's rows table by table, in another order than the source did, and the constraint holds
         * when the transaction commits, as it did on the source.
         */
        String foreignKey(QName t, String name) {
            expect("FOREIGN");
            expect("KEY");
            if (!atSym('(')) name(); // the index MySQL creates for it: PostgreSQL's constraint needs none
            List<String> cols = keyParts("foreign key");
            if (cols == null) throw new Unsupported("foreign key on an expression has no PostgreSQL translation");
            expect("REFERENCES");
            QName ref = qname();
            List<String> refCols = keyParts("foreign key");
            if (refCols == null) throw new Unsupported("foreign key on an expression has no PostgreSQL translation");
            StringBuilder sb = new StringBuilder("CONSTRAINT ").append(q(name)).append(" FOREIGN KEY (")
                    .append(String.join(", ", cols)).append(") REFERENCES ").append(table(ref)).append(" (")
                    .append(String.join(", ", refCols)).append(")");
            while (!atElementEnd()) {
                if (accept("MATCH")) {
                    if (accept("FULL")) sb.append(" MATCH FULL");
                    else if (!accept("SIMPLE")) {
                        throw new Unsupported("foreign key `" + name + "` MATCH " + cut(sql.substring(peek().start),
                                20) + " has no PostgreSQL translation");
                    }
                } else if (accept("ON")) {
                    String event = next().text.toUpperCase(Locale.ROOT);
                    if (!event.equals("DELETE") && !event.equals("UPDATE")) {
                        throw new Unsupported("foreign key `" + name + "`: ON " + event);
                    }
                    String action;
                    if (accept("CASCADE")) action = "CASCADE";
                    else if (accept("RESTRICT")) action = "RESTRICT";
                    else if (accept("SET", "NULL")) action = "SET NULL";
                    else if (accept("SET", "DEFAULT")) action = "SET DEFAULT";
                    else if (accept("NO", "ACTION")) action = "NO ACTION";
                    else throw new Unsupported("foreign key `" + name + "`: ON " + event + " " + where());
                    sb.append(" ON ").append(event).append(' ').append(action);
                } else {
                    throw new Unsupported("foreign key `" + name + "`: unexpected " + where());
                }
            }
            return sb.append(" DEFERRABLE INITIALLY DEFERRED").toString();
        }

        /** A name MySQL would choose for an unnamed constraint added by ALTER TABLE: stable for the same text. */
        String constraintName(QName t, String kind, String text) {
            return t.table + "_" + kind + "_" + String.format("%08x", text.hashCode());
        }

        /** ALTER TABLE t ADD CONSTRAINT ... when the table has no constraint of that name (a replay does nothing). */
        void addConstraint(QName t, String name, String constraint) {
            String rel = lit(table(t));
            out.add(doBlock("BEGIN IF to_regclass(" + rel + ") IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
                    + "pg_catalog.pg_constraint WHERE conrelid = to_regclass(" + rel + ") AND conname = " + lit(name)
                    + ") THEN ALTER TABLE " + table(t) + " ADD " + constraint + "; END IF; END"));
        }

        // ---- CREATE/DROP INDEX

        void createIndexStatement(boolean unique) {
            String name = name();
            if (accept("USING")) next();
            expect("ON");
            QName t = qname();
            List<String> cols = keyParts("index `" + name + "`", unique);
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
                    throw new Unsupported("'" + partitionWords(clauseStart) + "' of an existing table has no "
                            + "PostgreSQL translation: PostgreSQL cannot partition a table, or stop partitioning it, "
                            + "in place");
                } else if (accept("TRUNCATE", "PARTITION")) {
                    if (accept("ALL")) {
                        out.add("TRUNCATE TABLE " + table(t));
                    } else {
                        List<String> children = new ArrayList<>();
                        for (String p : partitionNames()) children.add(partitionTable(t, p));
                        // no IF EXISTS: a partition the table does not have here is an error, not a silent no-op
                        out.add("TRUNCATE TABLE " + String.join(", ", children));
                    }
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
            if (!column && accept("PARTITION")) {
                addPartitions(t);
                return;
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
            if (Boolean.TRUE.equals(c.notNull) && c.defaultExpr == null && !c.autoIncrement && !c.primaryKey
                    && !c.generated) {
                implicit = implicitDefault(c);
            }
            boolean numbered = c.autoIncrement && c.defaultExpr == null && !c.generated
                    && Set.of("smallint", "integer", "bigint").contains(c.pgType);
            if (numbered) {
                // MySQL numbers the rows already there, in the order of InnoDB's clustered key (the primary key,
                // else the first unique key of NOT NULL columns, else the order of insertion): added without NOT
                // NULL, numbered so, then made NOT NULL and an identity (the sink's rows carry their own values)
                out.add(alter + " ADD COLUMN IF NOT EXISTS " + q(c.name) + " " + c.pgType);
                columnOf.put(out.size() - 1, c.name);
                adds.add(out.size() - 1);
                out.add(numberRows(t, c.name));
                return;
            }
            out.add(alter + " ADD COLUMN IF NOT EXISTS " + def + (implicit != null ? " DEFAULT " + implicit : ""));
            columnOf.put(out.size() - 1, c.name);
            adds.add(out.size() - 1);
            if (implicit != null) {
                out.add(alter + " ALTER COLUMN " + q(c.name) + " DROP DEFAULT");
                columnOf.put(out.size() - 1, c.name);
            }
            if (c.primaryKey) addPrimaryKey(t, List.of(q(c.name)));
            addChecks(t, c);
            if (c.unique) {
                out.add("CREATE UNIQUE INDEX IF NOT EXISTS " + q(indexName(t.table, c.name)) + " ON " + table(t)
                        + " (" + q(c.name) + ")");
            }
        }

        /**
         * A DO block that numbers the rows of {@code t} whose {@code col} is NULL from 1 in the order of the key InnoDB
         * clusters by (the primary key, else the first unique index of NOT NULL columns, else the heap's order), then
         * makes {@code col} NOT NULL and an identity whose next value follows the largest: a replay numbers nothing.
         */
        String numberRows(QName t, String col) {
            String rel = "to_regclass(" + lit(table(t)) + ")";
            String order = "SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY x.ord) FROM (SELECT i.indkey "
                    + "FROM pg_catalog.pg_index i WHERE i.indrelid = " + rel + " AND i.indisunique AND i.indpred IS "
                    + "NULL AND i.indexprs IS NULL AND NOT EXISTS (SELECT 1 FROM unnest(i.indkey::int2[]) k JOIN "
                    + "pg_catalog.pg_attribute n ON n.attrelid = i.indrelid AND n.attnum = k WHERE NOT n.attnotnull "
                    + "OR n.attname = " + lit(col) + ") ORDER BY i.indisprimary DESC, i.indexrelid LIMIT 1) ix CROSS "
                    + "JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS x(attnum, ord) JOIN "
                    + "pg_catalog.pg_attribute a ON a.attrelid = " + rel + " AND a.attnum = x.attnum";
            String tq = table(t);
            String cq = q(col);
            return doBlock("DECLARE cdc_order text; BEGIN " + order + " INTO cdc_order; "
                    + "EXECUTE " + lit("UPDATE " + tq + " SET " + cq + " = n.rn FROM (SELECT ctid AS c, row_number() "
                    + "OVER (ORDER BY ") + " || COALESCE(cdc_order, 'ctid') || " + lit(") AS rn FROM " + tq + ") n WHERE "
                    + tq + ".ctid = n.c AND " + tq + "." + cq + " IS NULL") + "; "
                    + "IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = " + rel + " AND attname = "
                    + lit(col) + " AND attidentity <> '') THEN ALTER TABLE " + tq + " ALTER COLUMN " + cq
                    + " SET NOT NULL, ALTER COLUMN " + cq + " ADD GENERATED BY DEFAULT AS IDENTITY; PERFORM "
                    + "setval(pg_get_serial_sequence(" + lit(tq) + ", " + lit(col) + "), (SELECT COALESCE(max(" + cq
                    + "), 0) + 1 FROM " + tq + "), false); END IF; END");
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
                List<String> cols = keyParts("unique key", true);
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
            } else if (at("FOREIGN")) {
                String n = constraint != null ? constraint : constraintName(t, "ibfk", sql.substring(start));
                addConstraint(t, n, foreignKey(t, n));
            } else if (accept("CHECK")) {
                String e = check("CHECK " + (constraint == null ? "" : "`" + constraint + "`"));
                String n = constraint != null ? constraint : constraintName(t, "chk", e);
                addConstraint(t, n, "CONSTRAINT " + q(n) + " CHECK " + e);
            } else {
                skipElement();
                warnings.add("dropped: ADD " + cut(sql.substring(start, toks.get(i - 1).end), 60)
                        + " (no PostgreSQL equivalent is created)");
            }
        }

        /** The CHECKs written on a column added or redefined by ALTER TABLE. */
        void addChecks(QName t, Column c) {
            for (String[] k : c.checks) {
                String n = k[0] != null ? k[0] : constraintName(t, "chk", k[1]);
                addConstraint(t, n, "CONSTRAINT " + q(n) + " CHECK " + k[1]);
            }
        }

        void alterDrop(QName t, String alter, int clauseStart) {
            if (at("PRIMARY", "KEY")) {
                i += 2;
                dropPrimaryKey(t);
            } else if (accept("INDEX") || accept("KEY")) {
                accept("IF", "EXISTS");
                dropIndex(t, name());
            } else if (accept("FOREIGN", "KEY") || accept("CHECK")) {
                accept("IF", "EXISTS");
                out.add(alter + " DROP CONSTRAINT IF EXISTS " + q(name()));
            } else if (accept("CONSTRAINT")) {
                accept("IF", "EXISTS");
                String n = name();
                // a CHECK or a foreign key (named as in MySQL), or a unique key (named as an index)
                out.add(alter + " DROP CONSTRAINT IF EXISTS " + q(n));
                dropIndex(t, n);
            } else if (accept("PARTITION")) {
                accept("IF", "EXISTS");
                // DROP PARTITION deletes the partition's rows (no row event says so): its table goes. Of a RANGE
                // table, MySQL's next partition then starts where the dropped one started (its rows go there): the
                // partition whose lower bound was the dropped one's upper bound is attached again from that start
                for (String p : partitionNames()) {
                    String child = partitionTable(t, p);
                    String parent = table(t);
                    String lower = "substring(%s from 'FROM \\((.*)\\) TO')";
                    String upper = "substring(%s from ' TO \\((.*)\\)$')";
                    out.add(doBlock("DECLARE b text; nxt regclass; nb text; BEGIN IF to_regclass(" + lit(child)
                            + ") IS NOT NULL THEN SELECT pg_catalog.pg_get_expr(relpartbound, oid) INTO b FROM "
                            + "pg_catalog.pg_class WHERE oid = to_regclass(" + lit(child) + "); "
                            + "SELECT c.oid::regclass, pg_catalog.pg_get_expr(c.relpartbound, c.oid) INTO nxt, nb FROM "
                            + "pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid WHERE "
                            + "i.inhparent = to_regclass(" + lit(parent) + ") AND b LIKE 'FOR VALUES FROM %' AND "
                            + String.format(lower, "pg_catalog.pg_get_expr(c.relpartbound, c.oid)") + " = "
                            + String.format(upper, "b") + "; DROP TABLE " + child + "; IF nxt IS NOT NULL THEN "
                            + "EXECUTE " + lit("ALTER TABLE " + parent + " DETACH PARTITION ") + " || nxt; EXECUTE "
                            + lit("ALTER TABLE " + parent + " ATTACH PARTITION ") + " || nxt || ' FOR VALUES FROM (' || "
                            + String.format(lower, "b") + " || ') TO (' || " + String.format(upper, "nb")
                            + " || ')'; END IF; ELSIF " + notPartitioned(t) + " THEN RAISE EXCEPTION "
                            + lit("table " + parent + " is not partitioned here: DROP PARTITION " + p
                            + " cannot delete that partition's rows") + "; END IF; END"));
                }
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
            if (c.generated) {
                throw new Unsupported("redefining generated column `" + c.name + "` has no PostgreSQL translation "
                        + "(ALTER COLUMN ... TYPE cannot change a generation expression): drop and add it");
            }
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
            addChecks(current, c);
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
            if (c.generatedExpr != null) {
                sb.append(" GENERATED ALWAYS AS ").append(c.generatedExpr).append(" STORED");
            } else if (c.defaultExpr != null && !c.defaultExpr.equals("NULL")) {
                sb.append(" DEFAULT ").append(c.defaultExpr);
            }
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

    /**
     * MySQL operators as PostgreSQL writes them, for those of the same meaning: {@code ||} and {@code &&} are OR
     * and AND in MySQL's default sql_mode, {@code <=>} is IS NOT DISTINCT FROM; {@code /} divides exactly in MySQL
     * (integers too), so it is written {@code * 1.0 /}. XOR ({@code ^}), JSON paths ({@code ->}) and the rest have
     * none.
     */
    private static final java.util.Map<String, String> OPERATORS = java.util.Map.ofEntries(
            java.util.Map.entry("+", "+"), java.util.Map.entry("-", "-"), java.util.Map.entry("*", "*"),
            java.util.Map.entry("/", "* 1.0 /"), java.util.Map.entry("%", "%"), java.util.Map.entry("=", "="),
            java.util.Map.entry("<", "<"), java.util.Map.entry(">", ">"), java.util.Map.entry("<=", "<="),
            java.util.Map.entry(">=", ">="), java.util.Map.entry("<>", "<>"), java.util.Map.entry("!=", "<>"),
            java.util.Map.entry("<=>", "IS NOT DISTINCT FROM"), java.util.Map.entry("|", "|"),
            java.util.Map.entry("||", "OR"), java.util.Map.entry("&", "&"), java.util.Map.entry("&&", "AND"),
            java.util.Map.entry("!", "NOT"), java.util.Map.entry("<<", "<<"), java.util.Map.entry(">>", ">>"));

    /** The clock, with or without parentheses. */
    private static final Set<String> CLOCK = Set.of("CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "LOCALTIME",
            "CURRENT_TIME", "CURRENT_DATE", "UTC_TIMESTAMP", "UTC_DATE", "UTC_TIME");

    /** Words of an expression PostgreSQL reads the same. */
    private static final Set<String> KEYWORDS = Set.of("AND", "OR", "NOT", "IS", "NULL", "TRUE", "FALSE",
            "UNKNOWN", "IN", "BETWEEN", "LIKE", "CASE", "WHEN", "THEN", "ELSE", "END", "ESCAPE");

    /** MySQL's INTERVAL units and PostgreSQL's (QUARTER becomes months, three each). */
    private static final java.util.Map<String, String> INTERVAL_UNITS = java.util.Map.of("MICROSECOND",
            "microseconds", "SECOND", "seconds", "MINUTE", "minutes", "HOUR", "hours", "DAY", "days", "WEEK",
            "weeks", "MONTH", "months", "QUARTER", "months", "YEAR", "years");

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
