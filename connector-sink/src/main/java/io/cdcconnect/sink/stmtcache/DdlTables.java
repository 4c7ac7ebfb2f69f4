package io.cdcconnect.sink.stmtcache;

import java.util.ArrayList;
import java.util.List;

/**
 * The tables a MySQL DDL statement changes, read from its text for {@link TableChanges}: CREATE/ALTER/DROP/TRUNCATE
 * TABLE, RENAME TABLE (old and new names), CREATE/DROP INDEX ... ON. Anything else (database-level statements, text
 * this reading does not follow, an ALTER TABLE that renames) gives null: every table counts as changed. Reading too
 * few tables would leave a stale statement in use, reading too many only costs prepares, so whatever is unclear is
 * "every table".
 */
final class DdlTables {

    /** A table name as written, unquoted; {@code schema} null when unqualified. */
    record Name(String schema, String table) {
    }

    private DdlTables() {
    }

    private enum T { WORD, IDENT, DOT, COMMA, OPEN, CLOSE, OTHER }

    private record Token(T type, String text) {
        boolean is(String word) {
            return type == T.WORD && text.equalsIgnoreCase(word);
        }
    }

    /** The tables {@code sql} changes, or null when that cannot be told. */
    static List<Name> changedBy(String sql) {
        List<Token> t;
        try {
            t = tokens(sql);
        } catch (IllegalArgumentException e) {
            return null;
        }
        Reader r = new Reader(t);
        try {
            return r.statement();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static final class Reader {
        private final List<Token> t;
        private int i;

        Reader(List<Token> t) {
            this.t = t;
        }

        List<Name> statement() {
            if (accept("CREATE")) {
                accept("TEMPORARY");
                if (accept("TABLE")) {
                    ifExists(true);
                    return List.of(name());
                }
                while (accept("UNIQUE") || accept("FULLTEXT") || accept("SPATIAL")) {
                    // index kinds
                }
                if (accept("INDEX")) return List.of(onTable());
                return null;
            }
            if (accept("ALTER")) {
                while (accept("ONLINE") || accept("IGNORE")) {
                    // modifiers
                }
                if (!accept("TABLE")) return null;
                Name n = name();
                // ALTER TABLE ... RENAME [TO|AS] ... changes a second name: not followed here
                for (int j = i; j < t.size(); j++) if (t.get(j).is("RENAME")) return null;
                return List.of(n);
            }
            if (accept("DROP")) {
                accept("TEMPORARY");
                if (accept("INDEX")) return List.of(onTable());
                if (!accept("TABLE") && !accept("TABLES")) return null;
                ifExists(false);
                List<Name> out = new ArrayList<>();
                out.add(name());
                while (acceptType(T.COMMA)) out.add(name());
                return end(out, "RESTRICT", "CASCADE");
            }
            if (accept("TRUNCATE")) {
                accept("TABLE");
                return end(new ArrayList<>(List.of(name())));
            }
            if (accept("RENAME")) {
                if (!accept("TABLE") && !accept("TABLES")) return null;
                List<Name> out = new ArrayList<>();
                do {
                    out.add(name());
                    if (!accept("TO")) return null;
                    out.add(name());
                } while (acceptType(T.COMMA));
                return end(out);
            }
            return null;
        }

        /** {@code out} when nothing but the given words (and a {@code ;}) follows; otherwise unclear. */
        private List<Name> end(List<Name> out, String... allowed) {
            while (i < t.size()) {
                Token k = t.get(i++);
                boolean ok = false;
                for (String w : allowed) ok |= k.is(w);
                if (!ok) return null;
            }
            return out;
        }

        /** {@code INDEX name [USING ...] ON table}: the table. */
        private Name onTable() {
            name();
            while (i < t.size() && !t.get(i).is("ON")) {
                if (t.get(i).type() == T.OPEN) throw new IllegalArgumentException("no ON before the column list");
                i++;
            }
            if (!accept("ON")) throw new IllegalArgumentException("no ON");
            return name();
        }

        private void ifExists(boolean not) {
            if (accept("IF")) {
                if (not && !accept("NOT")) throw new IllegalArgumentException("IF without NOT");
                if (!accept("EXISTS")) throw new IllegalArgumentException("IF without EXISTS");
            }
        }

        private Name name() {
            String first = identifier();
            if (acceptType(T.DOT)) return new Name(first, identifier());
            return new Name(null, first);
        }

        private String identifier() {
            if (i >= t.size()) throw new IllegalArgumentException("no name");
            Token k = t.get(i);
            if (k.type() != T.WORD && k.type() != T.IDENT) throw new IllegalArgumentException("not a name");
            i++;
            return k.text();
        }

        private boolean accept(String word) {
            if (i < t.size() && t.get(i).is(word)) {
                i++;
                return true;
            }
            return false;
        }

        private boolean acceptType(T type) {
            if (i < t.size() && t.get(i).type() == type) {
                i++;
                return true;
            }
            return false;
        }
    }

    /** Words, `quoted` names and punctuation, without comments, strings and a final {@code ;}. */
    private static List<Token> tokens(String sql) {
        List<Token> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) throw new IllegalArgumentException("unterminated comment");
                i = end + 2;
            } else if (c == '#' || (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-'
                    && (i + 2 >= n || Character.isWhitespace(sql.charAt(i + 2)) || sql.charAt(i + 2) < ' '))) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '`' || c == '\'' || c == '"') {
                StringBuilder v = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= n) throw new IllegalArgumentException("unterminated quote");
                    char d = sql.charAt(j);
                    if (d == '\\' && c != '`' && j + 1 < n) {
                        v.append(sql.charAt(j + 1));
                        j += 2;
                    } else if (d == c && j + 1 < n && sql.charAt(j + 1) == c) {
                        v.append(c);
                        j += 2;
                    } else if (d == c) {
                        break;
                    } else {
                        v.append(d);
                        j++;
                    }
                }
                out.add(new Token(c == '`' ? T.IDENT : T.OTHER, v.toString()));
                i = j + 1;
            } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 127) {
                int j = i;
                while (j < n) {
                    char d = sql.charAt(j);
                    if (!(Character.isLetterOrDigit(d) || d == '_' || d == '$' || d > 127)) break;
                    j++;
                }
                out.add(new Token(T.WORD, sql.substring(i, j)));
                i = j;
            } else {
                T type = switch (c) {
                    case '.' -> T.DOT;
                    case ',' -> T.COMMA;
                    case '(' -> T.OPEN;
                    case ')' -> T.CLOSE;
                    default -> T.OTHER;
                };
                if (c == ';' && sql.substring(i + 1).isBlank()) break;
                out.add(new Token(type, String.valueOf(c)));
                i++;
            }
        }
        return out;
    }
}
