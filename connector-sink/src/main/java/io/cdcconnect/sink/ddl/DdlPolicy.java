package io.cdcconnect.sink.ddl;

import io.cdcconnect.sink.ddl.sql.MySqlDdlParser;
import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import io.cdcconnect.sink.ddl.sql.ParsedDdl.Kind;
import io.cdcconnect.sink.ddl.sql.RefusedDdlException;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * What DDL text from a Kafka message the sink may run ({@code ddl.apply}). Whoever can write to the topic must not be
 * able to run anything on the target but the schema change the message describes, so whatever the policy:
 * <ul>
 *   <li>the text is read by {@link MySqlDdlParser}, on a maintained MySQL grammar, into one statement of a known kind
 *   (CREATE/ALTER/DROP/TRUNCATE/RENAME TABLE, CREATE/DROP INDEX, CREATE/ALTER/DROP DATABASE), with its clauses, table
 *   options and expression functions from allow-lists; anything else is refused, and what runs is written out by the
 *   sink from the statement, never the text;</li>
 *   <li>no database it would change, after schema.map, is a server's own (mysql, information_schema,
 *   performance_schema, sys, the target dialect's) or the sink's control database, or outside the databases the
 *   configuration lets messages change.</li>
 * </ul>
 * A statement that passes is then run only when its kind is in the policy; a kind left out is skipped (logged and
 * counted), a statement that fails the check is refused (dead-letter queue, or the task fails naming the record).
 */
public final class DdlPolicy {

    public enum Verdict { APPLY, SKIP, REFUSE }

    /**
     * The outcome for one statement; {@code kind} is null when it is of no known kind, {@code statement} null when the
     * text did not read as one.
     */
    public record Decision(Verdict verdict, Kind kind, String reason, ParsedDdl statement) {
    }


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
        java.util.HashSet<String> prot = new java.util.HashSet<>(io.cdcconnect.sink.apply.SchemaAllowList.MYSQL_SYSTEM_SCHEMAS);
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
        return decide(sql, targetDatabase, UnaryOperator.identity(), database -> true);
    }

    /**
     * The check, then the policy, for {@code sql} from a message of a database that maps to {@code targetDatabase}
     * (may be empty): the text is read by {@link MySqlDdlParser} (which refuses what is not one schema change it can
     * write out again), then every database it would change, after {@code mapSchema}, must be neither protected nor
     * outside {@code permitted}.
     */
    public Decision decide(String sql, String targetDatabase, UnaryOperator<String> mapSchema,
                           Predicate<String> permitted) {
        ParsedDdl statement;
        try {
            statement = MySqlDdlParser.parse(sql);
        } catch (RefusedDdlException e) {
            return new Decision(Verdict.REFUSE, null, e.getMessage(), null);
        }
        Kind k = statement.kind();
        if (targetDatabase == null || targetDatabase.isEmpty()) {
            for (ParsedDdl.TableRef t : statement.tables()) {
                if (t.schema() == null) {
                    // it would run in whatever database the connection happens to be in
                    return new Decision(Verdict.REFUSE, k, "it names table `" + t.name() + "` without a database, "
                            + "and its message names none", statement);
                }
            }
        }
        for (String db : statement.targetSchemas(targetDatabase, mapSchema)) {
            if (protectedDatabases.contains(db.toLowerCase(Locale.ROOT))) {
                return new Decision(Verdict.REFUSE, k, "it would change `" + db + "`, which no message may change",
                        statement);
            }
            if (!permitted.test(db)) {
                return new Decision(Verdict.REFUSE, k, "it would change `" + db + "`, which is not a database "
                        + "schema.map or schema.include lets messages change", statement);
            }
        }
        if (!allowed.contains(k)) {
            return new Decision(Verdict.SKIP, k, k.settingName() + " is not in ddl.apply", statement);
        }
        return new Decision(Verdict.APPLY, k, null, statement);
    }

    /** Compiles the check's parser ahead of the first statement ({@link MySqlDdlParser#warmUp}): the task's warm-up. */
    public static void warmUp() {
        MySqlDdlParser.warmUp();
    }
}
