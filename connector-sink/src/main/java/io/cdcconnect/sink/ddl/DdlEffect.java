package io.cdcconnect.sink.ddl;

import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import io.cdcconnect.sink.ddl.sql.ParsedDdl.Piece;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.table.TargetColumn;
import io.cdcconnect.sink.table.TargetTable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whether a DDL statement's intended result is provably in the target: the one check that lets an error the target
 * gave for a statement ({@link SqlDialect#ddlAlreadyApplied}: "table exists", "duplicate column", "unknown column",
 * "can't drop" ...) count as "already in effect" (a replay). The error alone proves nothing: MariaDB's 1054 "unknown
 * column" is also what a statement gets whose expression names something the target does not have.
 *
 * <p>What each statement must find, read from the target's catalog after the error:
 * <ul>
 *   <li>CREATE TABLE t: t exists; DROP TABLE a, b: none of them exists; RENAME TABLE a TO b, ...: every target
 *   exists and every source that is no target is gone;</li>
 *   <li>CREATE [UNIQUE] INDEX i ON t: i exists; DROP INDEX i ON t: it does not;</li>
 *   <li>CREATE DATABASE d: d exists; DROP DATABASE d: it does not;</li>
 *   <li>ALTER TABLE t, clause by clause: ADD [COLUMN] c type: c exists with that type (as far as the dialect can
 *   tell, {@link SqlDialect#columnTypeMatches}); CHANGE a b type (a rename): a gone, b
 *   there with that type; RENAME COLUMN a TO b: a gone, b there; DROP [COLUMN] c: c gone; ADD INDEX|KEY|UNIQUE i: i
 *   exists; DROP INDEX|KEY i: it does not; RENAME INDEX a TO b: a gone, b there; ADD PRIMARY KEY: the table has
 *   one; DROP PRIMARY KEY: it has none; ADD CONSTRAINT c FOREIGN KEY|CHECK: c exists; DROP FOREIGN KEY|CHECK|
 *   CONSTRAINT c: it does not; RENAME TO n: t gone, n there; table options (ENGINE=, CHARSET=, COMMENT=,
 *   ALGORITHM=, LOCK= ...): nothing to find.</li>
 * </ul>
 * Anything else (TRUNCATE, ALTER DATABASE, an unnamed key, partitioning, MODIFY, CHANGE without a rename, ALTER
 * COLUMN ... DEFAULT, a clause not listed) cannot be proved, and its error stays an error: a replay of those
 * succeeds, so their error is never a replay's.
 */
public final class DdlEffect {

    private DdlEffect() {
    }

    /** One fact the statement's result consists of. */
    private sealed interface Fact permits TableFact, ColumnFact, IndexFact, PrimaryKeyFact, ConstraintFact,
            SchemaFact {
    }

    private record TableFact(String schema, String table, boolean present) implements Fact {
    }

    /** {@code type} null: any type. */
    private record ColumnFact(String schema, String table, String column, boolean present, String type)
            implements Fact {
    }

    private record IndexFact(String schema, String table, String index, boolean present) implements Fact {
    }

    private record PrimaryKeyFact(String schema, String table, boolean present) implements Fact {
    }

    private record ConstraintFact(String schema, String table, String name, boolean present) implements Fact {
    }

    private record SchemaFact(String schema, boolean present) implements Fact {
    }

    /** Thrown while reading a statement whose result cannot be proved. */
    private static final class Unprovable extends RuntimeException {
        Unprovable() {
            super(null, null, false, false);
        }
    }

    /**
     * Whether everything {@code statement} sets out to do is in the target now.
     *
     * @param targetSchema the schema of its unqualified names
     * @param schemaMap    source database to target schema, for qualified names
     */
    public static boolean inEffect(Connection c, SqlDialect dialect, ParsedDdl statement, String targetSchema,
                                   Map<String, String> schemaMap) throws SQLException {
        List<Fact> facts;
        try {
            facts = facts(statement, targetSchema, schemaMap);
        } catch (Unprovable | IndexOutOfBoundsException e) {
            return false;
        }
        if (facts.isEmpty()) return false;
        for (Fact f : facts) {
            if (!holds(c, dialect, f)) return false;
        }
        return true;
    }

    private static boolean holds(Connection c, SqlDialect dialect, Fact f) throws SQLException {
        if (f instanceof SchemaFact s) return dialect.schemaExists(c, s.schema()) == s.present();
        if (f instanceof TableFact t) return (dialect.readTable(c, t.schema(), t.table()) != null) == t.present();
        if (f instanceof ColumnFact col) {
            TargetTable table = dialect.readTable(c, col.schema(), col.table());
            TargetColumn column = table == null ? null : table.column(col.column());
            if (!col.present()) return table != null && column == null;
            return column != null && (col.type() == null || dialect.columnTypeMatches(column, col.type()));
        }
        if (f instanceof IndexFact i) {
            return dialect.indexExists(c, i.schema(), i.table(), i.index()) == i.present();
        }
        if (f instanceof PrimaryKeyFact pk) {
            TargetTable table = dialect.readTable(c, pk.schema(), pk.table());
            return table != null && table.hasPrimaryKey() == pk.present();
        }
        ConstraintFact k = (ConstraintFact) f;
        return dialect.constraintExists(c, k.schema(), k.table(), k.name()) == k.present();
    }

    // ---- reading the statement's facts

    private static List<Fact> facts(ParsedDdl statement, String targetSchema, Map<String, String> schemaMap) {
        List<Piece> p = new ArrayList<>();
        for (Piece piece : statement.pieces()) if (!(piece instanceof ParsedDdl.TiDbFeature)) p.add(piece);
        List<Fact> out = new ArrayList<>();
        switch (statement.kind()) {
            case CREATE_DATABASE -> out.add(new SchemaFact(map(statement.database(), schemaMap), true));
            case DROP_DATABASE -> out.add(new SchemaFact(map(statement.database(), schemaMap), false));
            case CREATE_TABLE -> {
                ParsedDdl.TableRef t = statement.tables().get(0);
                out.add(new TableFact(schema(t, targetSchema, schemaMap), t.name(), true));
            }
            case DROP_TABLE -> {
                for (ParsedDdl.TableRef t : statement.tables()) {
                    out.add(new TableFact(schema(t, targetSchema, schemaMap), t.name(), false));
                }
            }
            case RENAME_TABLE -> {
                List<ParsedDdl.TableRef> ts = statement.tables();
                if (ts.size() % 2 != 0) throw new Unprovable();
                Set<String> targets = new LinkedHashSet<>();
                for (int k = 1; k < ts.size(); k += 2) {
                    targets.add(schema(ts.get(k), targetSchema, schemaMap) + "." + ts.get(k).name());
                    out.add(new TableFact(schema(ts.get(k), targetSchema, schemaMap), ts.get(k).name(), true));
                }
                for (int k = 0; k < ts.size(); k += 2) {
                    String s = schema(ts.get(k), targetSchema, schemaMap);
                    if (!targets.contains(s + "." + ts.get(k).name())) {
                        out.add(new TableFact(s, ts.get(k).name(), false));
                    }
                }
            }
            case CREATE_INDEX -> {
                int at = indexOfWord(p, "INDEX", 0) + 1;
                String index = name(p.get(at));
                ParsedDdl.TableRef t = statement.tables().get(0);
                out.add(new IndexFact(schema(t, targetSchema, schemaMap), t.name(), index, true));
            }
            case DROP_INDEX -> {
                int at = indexOfWord(p, "INDEX", 0) + 1;
                if (word(p.get(at), "IF")) at += 2;
                String index = name(p.get(at));
                ParsedDdl.TableRef t = statement.tables().get(0);
                out.add(index.equalsIgnoreCase("PRIMARY")
                        ? new PrimaryKeyFact(schema(t, targetSchema, schemaMap), t.name(), false)
                        : new IndexFact(schema(t, targetSchema, schemaMap), t.name(), index, false));
            }
            case ALTER_TABLE -> alterTable(p, statement, targetSchema, schemaMap, out);
            default -> throw new Unprovable();
        }
        return out;
    }

    private static void alterTable(List<Piece> p, ParsedDdl statement, String targetSchema,
                                   Map<String, String> schemaMap, List<Fact> out) {
        int start = -1;
        for (int k = 0; k < p.size(); k++) {
            if (p.get(k) instanceof ParsedDdl.Qualified) {
                start = k + 1;
                break;
            }
        }
        if (start < 0) throw new Unprovable();
        ParsedDdl.TableRef t = statement.tables().get(0);
        String schema = schema(t, targetSchema, schemaMap);
        String table = t.name();
        List<List<Piece>> clauses = new ArrayList<>();
        List<Piece> clause = new ArrayList<>();
        int depth = 0;
        for (int k = start; k < p.size(); k++) {
            Piece x = p.get(k);
            if (word(x, "(")) depth++;
            if (word(x, ")")) depth--;
            if (depth == 0 && word(x, ",")) {
                clauses.add(clause);
                clause = new ArrayList<>();
            } else {
                clause.add(x);
            }
        }
        if (!clause.isEmpty()) clauses.add(clause);
        // a RENAME TO moves the table: the other clauses' facts are on the new name
        for (List<Piece> c : clauses) {
            if (word(c.get(0), "RENAME") && c.size() >= 2 && (c.get(1) instanceof ParsedDdl.Qualified
                    || word(c.get(1), "TO") || word(c.get(1), "AS"))) {
                ParsedDdl.Qualified to = null;
                for (Piece x : c) if (x instanceof ParsedDdl.Qualified q) to = q;
                if (to == null) throw new Unprovable();
                out.add(new TableFact(schema, table, false));
                schema = to.schema() == null ? schema : map(to.schema(), schemaMap);
                table = to.name();
                out.add(new TableFact(schema, table, true));
            }
        }
        for (List<Piece> c : clauses) clause(c, schema, table, out);
    }

    private static void clause(List<Piece> c, String schema, String table, List<Fact> out) {
        int i = 0;
        String head = wordOf(c.get(0));
        switch (head) {
            case "ADD" -> {
                i++;
                if (word(c.get(i), "COLUMN")) {
                    i++;
                } else if (word(c.get(i), "INDEX") || word(c.get(i), "KEY") || word(c.get(i), "UNIQUE")) {
                    if (word(c.get(i), "UNIQUE")) i++;
                    if (word(c.get(i), "INDEX") || word(c.get(i), "KEY")) i++;
                    if (word(c.get(i), "IF")) i += 3;
                    if (!(c.get(i) instanceof ParsedDdl.Name n)) throw new Unprovable(); // unnamed: MySQL names it
                    out.add(new IndexFact(schema, table, n.name(), true));
                    return;
                } else if (word(c.get(i), "PRIMARY")) {
                    out.add(new PrimaryKeyFact(schema, table, true));
                    return;
                } else if (word(c.get(i), "CONSTRAINT")) {
                    i++;
                    if (!(c.get(i) instanceof ParsedDdl.Name n)) throw new Unprovable();
                    String next = wordOf(c.get(i + 1));
                    if (next.equals("PRIMARY")) {
                        out.add(new PrimaryKeyFact(schema, table, true));
                    } else if (next.equals("UNIQUE")) {
                        out.add(new IndexFact(schema, table, n.name(), true));
                    } else if (next.equals("FOREIGN") || next.equals("CHECK")) {
                        out.add(new ConstraintFact(schema, table, n.name(), true));
                    } else {
                        throw new Unprovable();
                    }
                    return;
                } else if (!(c.get(i) instanceof ParsedDdl.Name) && !word(c.get(i), "(") && !word(c.get(i), "IF")) {
                    throw new Unprovable(); // FULLTEXT, SPATIAL, FOREIGN KEY without a name, CHECK, PARTITION ...
                }
                if (word(c.get(i), "IF")) i += 3;
                if (word(c.get(i), "(")) {
                    // ADD (a INT, b INT): each column at depth 1, after '(' or ','
                    int depth = 0;
                    boolean expectName = true;
                    for (int k = i; k < c.size(); k++) {
                        Piece x = c.get(k);
                        if (word(x, "(")) {
                            depth++;
                            if (depth == 1) {
                                expectName = true;
                                continue;
                            }
                        }
                        if (word(x, ")")) depth--;
                        if (depth == 1 && word(x, ",")) {
                            expectName = true;
                            continue;
                        }
                        if (depth == 1 && expectName) {
                            if (!(x instanceof ParsedDdl.Name n)) throw new Unprovable();
                            out.add(new ColumnFact(schema, table, n.name(), true, null));
                            expectName = false;
                        }
                    }
                    return;
                }
                String column = name(c.get(i));
                out.add(new ColumnFact(schema, table, column, true, type(c, i + 1)));
            }
            case "CHANGE" -> {
                i++;
                if (word(c.get(i), "COLUMN")) i++;
                if (word(c.get(i), "IF")) i += 2;
                String old = name(c.get(i));
                String nu = name(c.get(i + 1));
                // the same name: a MODIFY, see below
                if (old.equalsIgnoreCase(nu)) throw new Unprovable();
                out.add(new ColumnFact(schema, table, old, false, null));
                out.add(new ColumnFact(schema, table, nu, true, type(c, i + 2)));
            }
            case "DROP" -> {
                i++;
                String what = wordOf(c.get(i));
                switch (what) {
                    case "PRIMARY" -> out.add(new PrimaryKeyFact(schema, table, false));
                    case "INDEX", "KEY" -> {
                        i++;
                        if (word(c.get(i), "IF")) i += 2;
                        out.add(new IndexFact(schema, table, name(c.get(i)), false));
                    }
                    case "FOREIGN", "CHECK", "CONSTRAINT" -> {
                        i += what.equals("FOREIGN") ? 2 : 1;
                        if (word(c.get(i), "IF")) i += 2;
                        String n = name(c.get(i));
                        out.add(new ConstraintFact(schema, table, n, false));
                        if (what.equals("CONSTRAINT")) out.add(new IndexFact(schema, table, n, false));
                    }
                    default -> {
                        if (word(c.get(i), "COLUMN")) i++;
                        if (word(c.get(i), "IF")) i += 2;
                        if (!(c.get(i) instanceof ParsedDdl.Name n)) throw new Unprovable(); // PARTITION ...
                        out.add(new ColumnFact(schema, table, n.name(), false, null));
                    }
                }
            }
            case "RENAME" -> {
                i++;
                if (word(c.get(i), "COLUMN") || word(c.get(i), "INDEX") || word(c.get(i), "KEY")) {
                    boolean column = word(c.get(i), "COLUMN");
                    String old = name(c.get(i + 1));
                    String nu = name(c.get(i + 3));
                    if (column) {
                        out.add(new ColumnFact(schema, table, old, false, null));
                        out.add(new ColumnFact(schema, table, nu, true, null));
                    } else {
                        out.add(new IndexFact(schema, table, old, false));
                        out.add(new IndexFact(schema, table, nu, true));
                    }
                }
                // RENAME [TO|AS] t: see alterTable
            }
            default -> {
                // MODIFY, ALTER [COLUMN] c SET/DROP DEFAULT: a replay of them succeeds, so their error is never one
                // (and the column being there says nothing of its new default); anything else unlisted
                if (!OPTIONS.contains(head)) throw new Unprovable();
            }
        }
    }

    /** Clauses that leave nothing to find: table options and how the server runs the statement. */
    private static final Set<String> OPTIONS = Set.of("ENGINE", "DEFAULT", "CHARACTER", "CHARSET", "COLLATE",
            "COMMENT", "ROW_FORMAT", "AUTO_INCREMENT", "ALGORITHM", "LOCK", "FORCE", "CONVERT", "KEY_BLOCK_SIZE",
            "AVG_ROW_LENGTH", "CHECKSUM", "MAX_ROWS", "MIN_ROWS", "PACK_KEYS", "STATS_AUTO_RECALC",
            "STATS_PERSISTENT", "STATS_SAMPLE_PAGES", "ENABLE", "DISABLE", "ORDER");

    /** A column definition's type from {@code from}: the type word and its parenthesized arguments, UNSIGNED. */
    private static String type(List<Piece> c, int from) {
        if (from >= c.size() || !(c.get(from) instanceof ParsedDdl.Word w)) return null;
        StringBuilder sb = new StringBuilder(w.text().toLowerCase(Locale.ROOT));
        int k = from + 1;
        if (k < c.size() && word(c.get(k), "(")) {
            sb.append('(');
            for (k++; k < c.size() && !word(c.get(k), ")"); k++) {
                Piece x = c.get(k);
                if (x instanceof ParsedDdl.Text t) sb.append(ParsedDdl.quoteText(t.value()).replace("\\'", "''"));
                else if (x instanceof ParsedDdl.Word y) sb.append(y.text().toLowerCase(Locale.ROOT));
                else return null;
            }
            sb.append(')');
            k++;
        }
        while (k < c.size() && (word(c.get(k), "UNSIGNED") || word(c.get(k), "SIGNED")
                || word(c.get(k), "ZEROFILL"))) {
            if (word(c.get(k), "UNSIGNED")) sb.append(" unsigned");
            k++;
        }
        return sb.toString();
    }

    private static int indexOfWord(List<Piece> p, String w, int from) {
        for (int k = from; k < p.size(); k++) if (word(p.get(k), w)) return k;
        throw new Unprovable();
    }

    private static boolean word(Piece p, String w) {
        return p instanceof ParsedDdl.Word x && x.text().equalsIgnoreCase(w);
    }

    private static String wordOf(Piece p) {
        return p instanceof ParsedDdl.Word x ? x.text().toUpperCase(Locale.ROOT) : "";
    }

    private static String name(Piece p) {
        if (p instanceof ParsedDdl.Name n) return n.name();
        throw new Unprovable();
    }

    private static String schema(ParsedDdl.TableRef t, String targetSchema, Map<String, String> schemaMap) {
        return t.schema() == null ? targetSchema : map(t.schema(), schemaMap);
    }

    private static String map(String db, Map<String, String> schemaMap) {
        return schemaMap.getOrDefault(db, db);
    }
}
