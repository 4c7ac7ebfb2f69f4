package io.cdcconnect.sink.validate;

import io.cdcconnect.sink.config.SinkConfig;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The bridge for users of Confluent's and Debezium's JDBC sinks: the one list of the settings they type and what each
 * is here ({@link #ENTRIES}; docs/sink.md's table is rendered from it by {@link #markdownTable()}). A setting this
 * sink has with the same meaning is simply its own; every other one is refused by validation, on that setting,
 * naming what does the job here. Any other setting that neither this sink nor Kafka Connect knows is only warned
 * about ({@link #warnings}), naming the closest known setting.
 */
public final class JdbcSinkSettings {

    /** What a JDBC-sink setting is here. */
    public enum Fate {
        /** The sink has the setting under the same name, with the same meaning. */
        SAME,
        /** Refused by validation: the message names what does the job here. */
        REFUSED
    }

    /**
     * One setting of the JDBC sinks.
     *
     * @param setting the name they use
     * @param sinks   which sinks use it
     * @param there   what it means there
     * @param fate    whether this sink has it
     * @param instead the cdc-connect settings that do the job, or none
     * @param here    what cdc-connect does instead (the reason of the refusal)
     */
    public record Entry(String setting, String sinks, String there, Fate fate, List<String> instead, String here) {

        /** The error validation reports on the setting. */
        public String refusal() {
            return setting + " is a setting of " + sinks + "'s JDBC sink, not of cdc-connect's: " + here
                    + (instead.isEmpty() ? ". Remove " + setting : ". Set " + String.join(" / ", instead)
                    + " instead, and remove " + setting) + " (docs/sink.md, \"Coming from a JDBC sink\")";
        }
    }

    private static final String CONFLUENT = "Confluent";
    private static final String DEBEZIUM = "Debezium";
    private static final String BOTH = "Confluent's and Debezium";

    private static final String TABLE_FROM_EVENT = "the target table is the one each change event names, in the "
            + "database schema.map maps its database to (or the same database, listed in schema.include)";
    private static final String KEYS_FROM_TABLE = "rows are matched by the target table's own primary key (else a "
            + "NOT NULL unique key), read from the target; the change events carry those columns";

    /** The one list: every JDBC-sink setting the bridge knows, in the order docs/sink.md shows them. */
    public static final List<Entry> ENTRIES = List.of(
            new Entry("table.name.format", BOTH, "the target table's name as a pattern of the topic "
                    + "(`${topic}`)", Fate.REFUSED, List.of(SinkConfig.SCHEMA_MAP), TABLE_FROM_EVENT),
            new Entry("collection.name.format", DEBEZIUM, "Debezium's newer name of table.name.format",
                    Fate.REFUSED, List.of(SinkConfig.SCHEMA_MAP), TABLE_FROM_EVENT),
            new Entry("insert.mode", BOTH, "`insert` (plain INSERT), `upsert` (insert or update by key) or "
                    + "`update` (UPDATE only) for every record", Fate.REFUSED, List.of(SinkConfig.SAFE_MODE),
                    "each change is applied as what it is (insert, update, delete); safe.mode chooses idempotent "
                    + "writes: upsert is safe.mode=always (the default auto upserts wherever a replay may be), "
                    + "insert is closest to safe.mode=never"),
            new Entry("pk.mode", CONFLUENT, "where the key comes from: `none`, `kafka` (topic, partition, offset), "
                    + "`record_key`, `record_value`", Fate.REFUSED, List.of(), KEYS_FROM_TABLE),
            new Entry("primary.key.mode", DEBEZIUM, "Debezium's pk.mode (also `record_header`)", Fate.REFUSED,
                    List.of(), KEYS_FROM_TABLE),
            new Entry("pk.fields", CONFLUENT, "the key's field names, read as pk.mode says", Fate.REFUSED,
                    List.of(), KEYS_FROM_TABLE),
            new Entry("primary.key.fields", DEBEZIUM, "Debezium's pk.fields", Fate.REFUSED, List.of(),
                    KEYS_FROM_TABLE),
            new Entry("delete.enabled", BOTH, "whether a tombstone (Debezium's: also a delete event) deletes "
                    + "the row; off by default", Fate.REFUSED, List.of(),
                    "deletes are always applied: every delete event, and with input.format=debezium a tombstone "
                    + "with a key; no setting turns that off"),
            new Entry("batch.size", BOTH, "how many records to write together (3000 in Confluent's, 500 in "
                    + "Debezium's)", Fate.REFUSED, List.of(SinkConfig.MAX_TXN_ROWS),
                    "source transactions are committed whole, several small independent ones together up to "
                    + "max.txn.rows rows (a larger one is split into parts of that size), in multi-row statements "
                    + "of up to 256 rows"),
            new Entry("auto.create", CONFLUENT, "create a missing target table from the record's schema",
                    Fate.SAME, List.of(SinkConfig.AUTO_CREATE), "the same"),
            new Entry("auto.evolve", CONFLUENT, "add the columns the record has and the table lacks",
                    Fate.SAME, List.of(SinkConfig.AUTO_EVOLVE), "the same"),
            new Entry("schema.evolution", DEBEZIUM, "`none`, or `basic`: create missing tables and add missing "
                    + "columns", Fate.REFUSED, List.of(SinkConfig.AUTO_CREATE, SinkConfig.AUTO_EVOLVE),
                    "schema.evolution=basic is auto.create=true with auto.evolve=true"),
            new Entry("connection.username", DEBEZIUM, "the user to connect as", Fate.REFUSED,
                    List.of(SinkConfig.CONNECTION_USER), "the user is connection.user (Confluent's name)"),
            new Entry("max.retries", CONFLUENT, "retries of a batch after an SQL error", Fate.REFUSED,
                    List.of(SinkConfig.RETRY_MAX_ATTEMPTS), "a transaction is retried after a transient error "
                    + "(deadlock, lock wait timeout, lost connection, failover) up to retry.max.attempts times; a "
                    + "row the target rejects for its data is set apart (docs/sink.md, \"Errors\")"));

    /** Kafka Connect's own settings of a sink connector, which every connector is handed. */
    static final Set<String> CONNECT_SETTINGS = Set.of("name", "connector.class", "connector.plugin.version",
            "tasks.max", "tasks.max.enforce", "topics", "topics.regex", "key.converter", "value.converter",
            "header.converter", "config.action.reload", "transforms", "predicates", "errors.retry.timeout",
            "errors.retry.delay.max.ms", "errors.tolerance", "errors.log.enable", "errors.log.include.messages",
            "errors.deadletterqueue.topic.name", "errors.deadletterqueue.topic.replication.factor",
            "errors.deadletterqueue.context.headers.enable");

    /** Prefixes of Connect's settings that carry a plugin's or a client's own settings. */
    static final List<String> CONNECT_PREFIXES = List.of("key.converter.", "value.converter.",
            "header.converter.", "transforms.", "predicates.", "errors.", "consumer.override.",
            "producer.override.", "admin.override.");

    private JdbcSinkSettings() {
    }

    /** The entry of {@code setting}, or null. */
    public static Entry entry(String setting) {
        for (Entry e : ENTRIES) {
            if (e.setting().equals(setting)) return e;
        }
        return null;
    }

    /** One error on each JDBC-sink setting of {@code props} this sink does not have. */
    public static List<ConfigProblem> refusals(Map<String, String> props) {
        List<ConfigProblem> out = new ArrayList<>();
        for (Entry e : ENTRIES) {
            if (e.fate() == Fate.REFUSED && props.containsKey(e.setting())) {
                out.add(new ConfigProblem(e.setting(), e.refusal()));
            }
        }
        return out;
    }

    /**
     * A warning (not an error: Connect's validation has none, and the setting may be meant for something else, such
     * as a config provider) for each setting that is neither this sink's, nor Connect's own, nor one of the bridge's,
     * naming the closest known setting. Values are never shown: a mistyped name may hold a password.
     */
    public static List<ConfigProblem> warnings(String connector, Map<String, String> props) {
        Set<String> ours = SinkConfigDef.configDef().names();
        List<String> known = new ArrayList<>(new TreeSet<>(ours));
        known.addAll(new TreeSet<>(CONNECT_SETTINGS));
        List<ConfigProblem> out = new ArrayList<>();
        for (String name : new TreeMap<>(props).keySet()) {
            if (ours.contains(name) || CONNECT_SETTINGS.contains(name) || entry(name) != null
                    || CONNECT_PREFIXES.stream().anyMatch(name::startsWith)) {
                continue;
            }
            out.add(new ConfigProblem(name, connector + ": '" + name + "' is not a setting of cdc-connect's sink "
                    + "or of Kafka Connect and is ignored; the closest known setting is '" + closest(name, known)
                    + "' (docs/configuration.md)"));
        }
        return out;
    }

    /** The name of {@code known} nearest to {@code name} by edit distance (case ignored); the first of a tie. */
    static String closest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String n = name.toLowerCase(Locale.ROOT);
        for (String k : known) {
            int d = distance(n, k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character each cost 1. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) previous[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }

    /** docs/sink.md's table of {@link #ENTRIES}, one row each. */
    public static String markdownTable() {
        StringBuilder s = new StringBuilder();
        s.append("| setting | sink | what it does there | in cdc-connect's sink |\n");
        s.append("|---|---|---|---|\n");
        for (Entry e : ENTRIES) {
            String here = e.fate() == Fate.SAME ? "accepted: the same setting"
                    : "refused by validation; " + (e.instead().isEmpty() ? "nothing to set: "
                    : "use " + String.join(" and ", e.instead().stream().map(i -> "`" + i + "`").toList()) + ": ")
                    + e.here();
            s.append("| `").append(e.setting()).append("` | ")
                    .append(e.sinks().equals(BOTH) ? "Confluent, Debezium" : e.sinks()).append(" | ")
                    .append(e.there()).append(" | ").append(here).append(" |\n");
        }
        return s.toString();
    }
}
