package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import io.cdcconnect.sink.dialect.UnsupportedDdlException;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ALTER TABLE t DROP CONSTRAINT [IF EXISTS] c} and {@code DROP CHECK c} for a MySQL server without them.
 * MariaDB drops a CHECK, a foreign key or a unique key by {@code DROP CONSTRAINT}, and migration tools write it for
 * MariaDB (Rails' {@code remove_check_constraint}, Django's removal of a {@code CheckConstraint}); MySQL has it from
 * 8.0.19 only, and
 * {@code DROP CHECK} from 8.0.16, the release that began to keep CHECK constraints: before it MySQL reads a
 * {@code CHECK} clause and ignores it, so a CHECK the stream added is not on the target's table. On such a server
 * each clause becomes what the target's catalog says the name is:
 * <ul>
 *     <li>a foreign key: {@code DROP FOREIGN KEY c}; a unique key: {@code DROP INDEX c}; the primary key:
 *     {@code DROP PRIMARY KEY}; a CHECK (8.0.16 to 8.0.18): {@code DROP CHECK c};</li>
 *     <li>none, on a server that keeps no CHECK constraint: the clause is left out, with its reason (the CHECK it
 *     would drop was never kept; or a replay, and it is gone already); a statement of no other clause runs nothing;
 *     {@code DROP CHECK c} there likewise;</li>
 *     <li>none, on a server that keeps them: {@code IF EXISTS} leaves the clause out, else {@code DROP CHECK c}
 *     (the server names what is missing);</li>
 *     <li>several constraints of that name: refused ({@link UnsupportedDdlException}), as there is no telling which
 *     the source dropped.</li>
 * </ul>
 * The statement is written from its pieces as any other ({@link ParsedDdl#mysql}); nothing else of it changes.
 */
final class MySqlDropConstraint {

    private MySqlDropConstraint() {
    }

    /** The target table's constraints of a name: their {@code information_schema.TABLE_CONSTRAINTS.CONSTRAINT_TYPE}. */
    interface Catalog {
        List<String> types(String constraint) throws SQLException;
    }

    /**
     * What runs: {@code statement} (null when no clause is left), and each clause left out, with its reason.
     */
    record Rewrite(ParsedDdl statement, List<String> leftOut) {
        Rewrite {
            leftOut = List.copyOf(leftOut);
        }
    }

    /**
     * {@code parsed} for a server that has {@code DROP CONSTRAINT} ({@code dropConstraint}) and keeps CHECK
     * constraints ({@code keepsChecks}) or not; {@code server} names it in the reasons ("MySQL 8.0.15").
     */
    static Rewrite rewrite(ParsedDdl parsed, boolean dropConstraint, boolean keepsChecks, String server,
                           Catalog catalog) throws SQLException {
        if (parsed.kind() != ParsedDdl.Kind.ALTER_TABLE || dropConstraint && keepsChecks) {
            return new Rewrite(parsed, List.of());
        }
        List<ParsedDdl.Piece> pieces = new ArrayList<>(parsed.pieces());
        int head = -1; // the table's name: the clauses follow it
        for (int i = 0; i < pieces.size() && head < 0; i++) {
            if (pieces.get(i) instanceof ParsedDdl.Qualified) head = i;
        }
        if (head < 0) return new Rewrite(parsed, List.of());
        String table = ((ParsedDdl.Qualified) pieces.get(head)).name();
        List<String> leftOut = new ArrayList<>();
        boolean changed = false;
        int depth = 0;
        for (int i = head + 1; i < pieces.size(); i++) {
            ParsedDdl.Piece p = pieces.get(i);
            if (word(p, "(")) depth++;
            if (word(p, ")")) depth--;
            boolean clauseStart = depth == 0 && (i == head + 1 || word(pieces.get(i - 1), ","));
            if (!clauseStart || !word(p, "DROP") || i + 2 >= pieces.size()) continue;
            boolean check = word(pieces.get(i + 1), "CHECK");
            if (!check && !word(pieces.get(i + 1), "CONSTRAINT")) continue;
            if (check ? keepsChecks : dropConstraint) continue;
            int at = i + 2;
            boolean ifExists = word(pieces.get(at), "IF") && at + 1 < pieces.size() && word(pieces.get(at + 1), "EXISTS");
            if (ifExists) at += 2;
            if (at >= pieces.size() || !(pieces.get(at) instanceof ParsedDdl.Name name)) continue;
            int end = at + 1;
            String clause = (check ? "DROP CHECK " : "DROP CONSTRAINT ") + (ifExists ? "IF EXISTS " : "")
                    + ParsedDdl.quoteName(name.name());
            List<ParsedDdl.Piece> replacement = null; // null: left out
            String why = null;
            if (check) {
                why = clause + " left out: " + server + " keeps no CHECK constraint (before 8.0.16 MySQL reads CHECK "
                        + "and ignores it), so there is none to drop";
            } else {
                List<String> types = catalog.types(name.name());
                if (types.size() > 1) {
                    throw new UnsupportedDdlException(clause + ": " + ParsedDdl.quoteName(table) + " has several "
                            + "constraints of that name (" + String.join(", ", types) + ") and " + server + " has no "
                            + "DROP CONSTRAINT (MySQL 8.0.19) to tell which the source dropped");
                }
                String type = types.isEmpty() ? null : types.get(0);
                if ("FOREIGN KEY".equals(type)) {
                    replacement = words("DROP", "FOREIGN", "KEY");
                } else if ("UNIQUE".equals(type)) {
                    replacement = words("DROP", "INDEX");
                } else if ("PRIMARY KEY".equals(type)) {
                    replacement = words("DROP", "PRIMARY", "KEY"); // of no name
                } else if (type != null || keepsChecks && !ifExists) {
                    replacement = words("DROP", "CHECK");
                } else if (!keepsChecks) {
                    why = clause + " left out: " + ParsedDdl.quoteName(table) + " has no foreign key, unique key or "
                            + "primary key of that name, and " + server + " keeps no CHECK constraint (before 8.0.16 "
                            + "MySQL reads CHECK and ignores it), so there is none to drop";
                } else {
                    why = clause + " left out: " + ParsedDdl.quoteName(table) + " has no constraint of that name";
                }
                if (replacement != null && !"PRIMARY KEY".equals(type)) {
                    replacement.add(new ParsedDdl.Name(name.name(), true));
                }
            }
            changed = true;
            if (replacement != null) {
                pieces.subList(i, end).clear();
                pieces.addAll(i, replacement);
                i += replacement.size() - 1;
                continue;
            }
            leftOut.add(why);
            // the clause and the comma that joins it to the next (or, last, to the one before)
            if (end < pieces.size() && word(pieces.get(end), ",")) {
                pieces.subList(i, end + 1).clear();
            } else if (i > head + 1) {
                pieces.subList(i - 1, end).clear();
                i--;
            } else {
                pieces.subList(i, end).clear();
            }
            i--;
        }
        if (!changed) return new Rewrite(parsed, List.of());
        if (pieces.size() == head + 1) return new Rewrite(null, leftOut); // no clause left
        return new Rewrite(new ParsedDdl(parsed.kind(), parsed.tables(), parsed.database(), parsed.schemas(),
                parsed.columns(), parsed.options(), pieces), leftOut);
    }

    private static boolean word(ParsedDdl.Piece p, String text) {
        return p instanceof ParsedDdl.Word w && w.text().equals(text);
    }

    private static List<ParsedDdl.Piece> words(String... words) {
        List<ParsedDdl.Piece> out = new ArrayList<>();
        for (String w : words) out.add(new ParsedDdl.Word(w, true));
        return out;
    }
}
