package io.cdcconnect.it;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a DDL statement leaves of a column, read from {@code information_schema.COLUMNS} of MariaDB or MySQL in a form
 * that means the same on both, so that a MariaDB source's columns compare with a MySQL 8 target's:
 * <ul>
 *     <li>name, and type as {@code COLUMN_TYPE} lists it; MariaDB's JSON (a {@code longtext} with its column's
 *     {@code CHECK (json_valid(col))}) reads {@code json}, as MySQL's own type;</li>
 *     <li>nullability;</li>
 *     <li>the default: {@code null} (none, or NULL), {@code literal:text} (MariaDB quotes a string, MySQL does not),
 *     or {@code expr:canonical} (MariaDB lists any default that is not a literal as its expression, MySQL marks it
 *     {@code DEFAULT_GENERATED} in {@code EXTRA}), and {@code on update current_timestamp()} from {@code EXTRA};</li>
 *     <li>the generation: {@code stored:canonical} or {@code virtual:canonical}, or empty.</li>
 * </ul>
 * An expression is compared in {@linkplain #canonical canonical form}: parsed with SQL's precedence and written
 * with every operation in parentheses, so that MySQL's {@code (`w` * `h`)} and MariaDB's {@code `w` * `h`} read the
 * same and {@code (a + b) * c} never reads as {@code a + b * c}; names of one function in the two servers' spellings
 * (MariaDB lists {@code UPPER} as {@code ucase}, {@code LENGTH} as {@code octet_length}, MySQL
 * {@code CURRENT_TIMESTAMP} without parentheses) read as one; charset introducers ({@code _utf8mb4'$.a'}, which MySQL
 * adds to string literals) are dropped. MySQL 8.0.15 lists a string literal of a generation expression with its
 * quotes escaped ({@code _utf8mb4\'$.type\'}): read as the quote.
 */
final class ColumnShape {

    private ColumnShape() {
    }

    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");

    /** The table's columns, in order, each as [name, type, nullable, default, generation]. */
    static List<List<String>> read(Connection c, String db, String table) throws SQLException {
        boolean mariadb;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            rs.next();
            mariadb = rs.getString(1).toLowerCase(Locale.ROOT).contains("mariadb");
        }
        Set<String> json = mariadb ? mariaDbJsonColumns(c, db, table) : Set.of();
        List<List<String>> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, "
                + "GENERATION_EXPRESSION, EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND "
                + "TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    String type = rs.getString(2).toLowerCase(Locale.ROOT);
                    if (json.contains(name.toLowerCase(Locale.ROOT)) && type.equals("longtext")) type = "json";
                    String extra = rs.getString(6) == null ? "" : rs.getString(6).toLowerCase(Locale.ROOT);
                    String def = mariadb ? mariaDbDefault(rs.getString(4)) : mySqlDefault(rs.getString(4), extra);
                    if (extra.contains("on update current_timestamp")) {
                        def = def + " on update current_timestamp()";
                    }
                    out.add(List.of(name, type, rs.getString(3), def,
                            generation(rs.getString(5), extra, !mariadb)));
                }
            }
        }
        return out;
    }

    /** MariaDB's JSON columns: the CHECK it adds of its own, named after the column, {@code json_valid(`col`)}. */
    private static Set<String> mariaDbJsonColumns(Connection c, String db, String table) throws SQLException {
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT CONSTRAINT_NAME, CHECK_CLAUSE FROM "
                + "information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String col = rs.getString(1);
                    if (rs.getString(2).equalsIgnoreCase("json_valid(`" + col + "`)")) {
                        out.add(col.toLowerCase(Locale.ROOT));
                    }
                }
            }
        }
        return out;
    }

    /**
     * MariaDB 10.2.7+: NULL (no default) or the text NULL (DEFAULT NULL); a string literal in quotes, a number as
     * written; anything else an expression.
     */
    static String mariaDbDefault(String raw) {
        if (raw == null || raw.equals("NULL")) return "null";
        if (raw.length() >= 2 && raw.startsWith("'") && raw.endsWith("'")) {
            return "literal:" + raw.substring(1, raw.length() - 1).replace("''", "'").replace("\\\\", "\\");
        }
        if (NUMBER.matcher(raw).matches()) return "literal:" + raw;
        return "expr:" + canonical(raw, false);
    }

    /** MySQL 8: NULL (none, or DEFAULT NULL); an expression marked DEFAULT_GENERATED; else the literal, unquoted. */
    static String mySqlDefault(String raw, String extra) {
        if (raw == null) return "null";
        if (extra.contains("default_generated")) return "expr:" + canonical(raw, false);
        return "literal:" + raw;
    }

    /** {@code stored:} or {@code virtual:} and the expression ({@code EXTRA} says which, on both servers), or empty. */
    static String generation(String expression, String extra, boolean mysql) {
        String kind = extra.contains("stored generated") ? "stored:"
                : extra.contains("virtual generated") ? "virtual:" : null;
        if (kind == null) return "";
        return kind + canonical(expression == null ? "" : expression, mysql);
    }

    // ---- expressions ----

    /** Synonyms: the name each server lists, for one function. */
    private static final Map<String, String> FUNCTIONS = Map.of("ucase", "upper", "lcase", "lower",
            "octet_length", "length", "current_timestamp", "current_timestamp", "now", "current_timestamp",
            "localtimestamp", "current_timestamp", "current_date", "curdate");
    /** Words that name a function when written without parentheses. */
    private static final Set<String> NILADIC = Set.of("current_timestamp", "localtimestamp", "current_date");

    /**
     * {@code expr} parsed and written back with every operation in parentheses, names in backticks and lower case,
     * keywords and function names in lower case, no spaces but between words; text that does not parse is returned
     * with its spaces collapsed and in lower case (so that it still compares, as text).
     *
     * @param mysqlEscapedQuotes whether {@code \'} stands for a quote (MySQL 8.0.15's generation expressions)
     */
    static String canonical(String expr, boolean mysqlEscapedQuotes) {
        String text = mysqlEscapedQuotes ? expr.replace("\\'", "'") : expr;
        try {
            Parser p = new Parser(tokens(text));
            String out = p.expression(0);
            if (p.pos != p.tokens.size()) throw new IllegalArgumentException("left over: " + p.tokens.subList(p.pos, p.tokens.size()));
            return out;
        } catch (IllegalArgumentException e) {
            return "?" + text.replaceAll("\\s+", " ").trim().toLowerCase(Locale.ROOT);
        }
    }

    /** A token: kind w (word), n (name in backticks), s (string), d (number), o (operator or punctuation). */
    private record Token(char kind, String text) {
    }

    private static List<Token> tokens(String s) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char ch = s.charAt(i);
            if (Character.isWhitespace(ch)) {
                i++;
            } else if (ch == '`') {
                StringBuilder sb = new StringBuilder();
                int j = i + 1;
                for (; ; j++) {
                    if (j >= s.length()) throw new IllegalArgumentException("unterminated name");
                    if (s.charAt(j) == '`') {
                        if (j + 1 < s.length() && s.charAt(j + 1) == '`') {
                            sb.append('`');
                            j++;
                            continue;
                        }
                        break;
                    }
                    sb.append(s.charAt(j));
                }
                out.add(new Token('n', sb.toString().toLowerCase(Locale.ROOT)));
                i = j + 1;
            } else if (ch == '\'' || ch == '"') {
                StringBuilder sb = new StringBuilder();
                int j = i + 1;
                for (; ; j++) {
                    if (j >= s.length()) throw new IllegalArgumentException("unterminated string");
                    char c = s.charAt(j);
                    if (c == '\\' && j + 1 < s.length()) {
                        sb.append(s.charAt(++j));
                        continue;
                    }
                    if (c == ch) {
                        if (j + 1 < s.length() && s.charAt(j + 1) == ch) {
                            sb.append(ch);
                            j++;
                            continue;
                        }
                        break;
                    }
                    sb.append(c);
                }
                out.add(new Token('s', sb.toString()));
                i = j + 1;
            } else if (Character.isDigit(ch) || ch == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1))) {
                int j = i;
                while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '.')) j++;
                out.add(new Token('d', s.substring(i, j).toLowerCase(Locale.ROOT)));
                i = j;
            } else if (Character.isLetter(ch) || ch == '_' || ch == '$') {
                int j = i;
                while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_'
                        || s.charAt(j) == '$')) {
                    j++;
                }
                String word = s.substring(i, j).toLowerCase(Locale.ROOT);
                // a charset introducer: _utf8mb4'text'
                if (word.startsWith("_") && j < s.length() && s.charAt(j) == '\'') {
                    i = j;
                    continue;
                }
                out.add(new Token('w', word));
                i = j;
            } else {
                String two = i + 1 < s.length() ? s.substring(i, i + 2) : "";
                if (List.of("<=", ">=", "<>", "!=", "<=>", "||", "&&").contains(two)) {
                    if (two.equals("<=") && i + 2 < s.length() && s.charAt(i + 2) == '>') {
                        out.add(new Token('o', "<=>"));
                        i += 3;
                    } else {
                        out.add(new Token('o', two.equals("!=") ? "<>" : two.equals("&&") ? "and"
                                : two.equals("||") ? "or" : two));
                        i += 2;
                    }
                } else if ("+-*/%=<>(),".indexOf(ch) >= 0) {
                    out.add(new Token('o', String.valueOf(ch)));
                    i++;
                } else {
                    throw new IllegalArgumentException("unexpected '" + ch + "'");
                }
            }
        }
        return out;
    }

    /** Precedence climbing over SQL's binary operators, lowest first. */
    private static final class Parser {
        private static final List<Set<String>> LEVELS = List.of(Set.of("or", "xor"), Set.of("and"),
                Set.of("=", "<>", "<", ">", "<=", ">=", "<=>", "like", "is"), Set.of("+", "-"),
                Set.of("*", "/", "%", "div", "mod"));
        final List<Token> tokens;
        int pos;

        Parser(List<Token> tokens) {
            this.tokens = tokens;
        }

        Token peek() {
            return pos < tokens.size() ? tokens.get(pos) : null;
        }

        boolean at(String text) {
            Token t = peek();
            return t != null && (t.kind() == 'o' || t.kind() == 'w') && t.text().equals(text);
        }

        void expect(String text) {
            if (!at(text)) throw new IllegalArgumentException("expected " + text + " at " + peek());
            pos++;
        }

        String expression(int level) {
            if (level == LEVELS.size()) return unary();
            String left = expression(level + 1);
            while (peek() != null && (peek().kind() == 'o' || peek().kind() == 'w')
                    && LEVELS.get(level).contains(peek().text())) {
                String op = tokens.get(pos++).text();
                if (op.equals("is") && at("not")) {
                    pos++;
                    op = "is not";
                }
                String right = expression(level + 1);
                left = "(" + left + " " + op + " " + right + ")";
            }
            return left;
        }

        String unary() {
            if (at("-") || at("+") || at("not")) {
                String op = tokens.get(pos++).text();
                return "(" + op + " " + unary() + ")";
            }
            return primary();
        }

        String primary() {
            Token t = peek();
            if (t == null) throw new IllegalArgumentException("unexpected end");
            pos++;
            switch (t.kind()) {
                case 'n':
                    return "`" + t.text() + "`";
                case 's':
                    return "'" + t.text().replace("'", "''") + "'";
                case 'd':
                    return t.text();
                case 'o':
                    if (t.text().equals("(")) {
                        String inner = expression(0);
                        expect(")");
                        return inner;
                    }
                    throw new IllegalArgumentException("unexpected " + t.text());
                default:
                    break;
            }
            String word = t.text();
            if (word.equals("interval")) {
                String value = unary();
                Token unit = peek();
                if (unit == null || unit.kind() != 'w') throw new IllegalArgumentException("interval without a unit");
                pos++;
                return "interval(" + value + " " + unit.text() + ")";
            }
            if (at("(")) {
                pos++;
                List<String> args = new ArrayList<>();
                if (!at(")")) {
                    args.add(expression(0));
                    while (at(",")) {
                        pos++;
                        args.add(expression(0));
                    }
                }
                expect(")");
                return FUNCTIONS.getOrDefault(word, word) + "(" + String.join(",", args) + ")";
            }
            if (NILADIC.contains(word)) return FUNCTIONS.get(word) + "()";
            return word; // a keyword (NULL, TRUE) or a name written without backticks
        }
    }
}
