package io.cdcconnect.sink.ddl.sql;

import io.cdcconnect.codec.model.DdlChange;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * One schema change read from a message's DDL text by {@link MySqlDdlParser}: what it is, what it names, and the
 * pieces the sink writes it out from. Nothing of the message's text reaches a server as written: keywords and
 * operators come from the grammar's own spelling, names and string values are quoted again by the sink, numbers are
 * checked, comments are dropped (TiDB's feature comments in the forms TiCDC writes are written again, for TiDB only).
 *
 * @param kind      the statement kind {@code ddl.apply} names
 * @param tables    every table it names (created, changed, dropped, renamed from or to, copied from, referenced),
 *                  schema null when unqualified (the message's database)
 * @param database  the database of a CREATE/ALTER/DROP DATABASE, else null
 * @param schemas   every database the text qualifies a name with, as written
 * @param columns   the columns it defines or changes, by name
 * @param options   the table options it sets, by the names MySQL documents (ENGINE, COMMENT, ...); a dropped ENGINE
 *                  is not among them
 * @param pieces    what the statement is written out from
 */
public record ParsedDdl(Kind kind, List<TableRef> tables, String database, Set<String> schemas,
                        List<String> columns, List<String> options, List<Piece> pieces) implements DdlChange.Checked {

    /**
     * The statement {@code ddl} carries from the sink's check (the record screen, or auto-create's policy check): what
     * everything after the check reads instead of the text. A change that did not pass the check has none, and is a
     * defect of the caller: it is refused, never parsed here.
     */
    public static ParsedDdl of(DdlChange ddl) {
        if (ddl.checked() instanceof ParsedDdl p) return p;
        throw new IllegalStateException("the DDL statement " + ddl.kind() + " of `" + ddl.schema() + "` reached the "
                + "sink's DDL path without being checked (DdlPolicy.decide): it is not run");
    }

    /** The statement kinds, by the names {@code ddl.apply} lists (the policy, {@code DdlPolicy}, allows them by these). */
    public enum Kind {
        CREATE_TABLE, ALTER_TABLE, DROP_TABLE, TRUNCATE_TABLE, RENAME_TABLE, CREATE_INDEX, DROP_INDEX,
        CREATE_DATABASE, ALTER_DATABASE, DROP_DATABASE;

        /** e.g. {@code create-table}. */
        public String settingName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** A table as the statement names it; {@code schema} null when unqualified. */
    public record TableRef(String schema, String name) {
    }

    /** A part of the statement as the sink writes it; {@code gap}: a space before it. */
    public sealed interface Piece permits Word, Name, Qualified, Text, TiDbFeature {
        boolean gap();
    }

    /** A keyword, an operator or punctuation, spelled as the grammar spells it; or a checked number. */
    public record Word(String text, boolean gap) implements Piece {
    }

    /** An identifier (column, index, partition, constraint, charset or collation name), unquoted. */
    public record Name(String name, boolean gap) implements Piece {
    }

    /** A name schema.map may requalify: a table, or a database; {@code schema} null when unqualified. */
    public record Qualified(String schema, String name, boolean database, boolean gap) implements Piece {
    }

    /** A string value, decoded; {@code introducer} a charset introducer such as {@code _utf8mb4}, or empty. */
    public record Text(String value, String introducer, boolean gap) implements Piece {
    }

    /** A TiDB feature comment in one of the forms TiCDC writes, already in its canonical spelling. */
    public record TiDbFeature(String comment, boolean gap) implements Piece {
    }

    public ParsedDdl {
        tables = List.copyOf(tables);
        schemas = Collections.unmodifiableSet(new LinkedHashSet<>(schemas));
        columns = List.copyOf(columns);
        options = List.copyOf(options);
        pieces = List.copyOf(pieces);
    }

    /**
     * The tables whose prepared statements the change makes stale, with {@code defaultSchema} for unqualified names;
     * null for a database-level statement (every table counts as changed).
     */
    public List<TableRef> changedTables() {
        return database != null ? null : tables;
    }

    /** Whether this is CREATE/ALTER/DROP DATABASE. */
    public boolean databaseLevel() {
        return database != null;
    }

    /** The statement in the sink's own spelling, names as the message wrote them: what the stream carries onwards. */
    public String canonical() {
        return mysql(UnaryOperator.identity(), false);
    }

    /**
     * The statement for a MySQL-family server: identifiers in backticks, strings in single quotes with backslash
     * escapes (the sink's session pins a {@code sql_mode} without ANSI_QUOTES and NO_BACKSLASH_ESCAPES), database
     * qualifiers through {@code mapSchema}.
     *
     * @param tidb whether TiDB's feature comments are written (a TiDB target); other servers never see them
     */
    public String mysql(UnaryOperator<String> mapSchema, boolean tidb) {
        return write(mapSchema, tidb, null);
    }

    /** A piece as {@link #canonical()} writes it, and where: {@code canonical().substring(start, end)}. */
    public record Placed(Piece piece, int start, int end) {
    }

    /** The pieces {@link #canonical()} writes, each with where it is in that text: for a translation to read. */
    public List<Placed> placed() {
        List<Placed> out = new ArrayList<>(pieces.size());
        write(UnaryOperator.identity(), false, out);
        return out;
    }

    private String write(UnaryOperator<String> mapSchema, boolean tidb, List<Placed> placed) {
        StringBuilder sb = new StringBuilder(64 + pieces.size() * 8);
        Piece previous = null;
        for (Piece p : pieces) {
            if (p instanceof TiDbFeature && !tidb) continue;
            if (previous != null && (p.gap() || needsSpace(previous, p))) sb.append(' ');
            int start = sb.length();
            if (p instanceof Word w) {
                sb.append(w.text());
            } else if (p instanceof Name n) {
                sb.append(quoteName(n.name()));
            } else if (p instanceof Qualified q) {
                if (q.database()) {
                    sb.append(quoteName(mapSchema.apply(q.name())));
                } else {
                    if (q.schema() != null) sb.append(quoteName(mapSchema.apply(q.schema()))).append('.');
                    sb.append(quoteName(q.name()));
                }
            } else if (p instanceof Text t) {
                sb.append(t.introducer()).append(quoteText(t.value()));
            } else if (p instanceof TiDbFeature f) {
                sb.append(f.comment());
            }
            if (placed != null) placed.add(new Placed(p, start, sb.length()));
            previous = p;
        }
        return sb.toString();
    }

    /**
     * Two pieces the server could read as one token when written side by side (the message's text had them apart
     * anyway, or the grammar read them as two): words, or operators that together open or close a comment.
     */
    private static boolean needsSpace(Piece a, Piece b) {
        char last = edge(a, false);
        char first = edge(b, true);
        if (isWordChar(last) && isWordChar(first)) return true;
        return (last == '-' && first == '-') || (last == '/' && first == '*') || (last == '*' && first == '/');
    }

    /** The first or last character the piece is written with. */
    private static char edge(Piece p, boolean first) {
        if (p instanceof Word w) return w.text().isEmpty() ? ' ' : w.text().charAt(first ? 0 : w.text().length() - 1);
        if (p instanceof Text t) return first && !t.introducer().isEmpty() ? t.introducer().charAt(0) : '\'';
        if (p instanceof TiDbFeature) return '/';
        return '`'; // Name, Qualified
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** An identifier in backticks. */
    public static String quoteName(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** A string in single quotes, every character the server would read otherwise escaped. */
    public static String quoteText(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 2).append('\'');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\'' -> sb.append("\\'");
                case '\0' -> sb.append("\\0");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\u001a' -> sb.append("\\Z");
                default -> sb.append(c);
            }
        }
        return sb.append('\'').toString();
    }

    /** The schemas the statement names after {@code mapSchema}, the message's own ({@code targetSchema}) included. */
    public Set<String> targetSchemas(String targetSchema, UnaryOperator<String> mapSchema) {
        Set<String> out = new LinkedHashSet<>();
        if (targetSchema != null && !targetSchema.isEmpty()) out.add(targetSchema);
        for (String s : schemas) out.add(mapSchema.apply(s));
        if (database != null) out.add(mapSchema.apply(database));
        return out;
    }

    /** For messages: the kind and the tables. */
    @Override
    public String toString() {
        List<String> names = new ArrayList<>();
        for (TableRef t : tables) names.add(t.schema() == null ? t.name() : t.schema() + "." + t.name());
        return kind.settingName() + (database != null ? " " + database : "") + (names.isEmpty() ? "" : " " + names);
    }
}
