package io.cdcconnect.source.engine;

import io.debezium.schema.DefaultTopicNamingStrategy;
import io.debezium.spi.schema.DataCollectionId;

import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Debezium's default topic naming, with the name of each table looked up before it is built.
 *
 * <p>Debezium names the topic of every change event it dispatches. Its {@link DefaultTopicNamingStrategy} joins the
 * prefix, database and table into a new string (through a stream) on every call, and only then looks the table up in
 * its cache of sanitised names. Profiled, a cold snapshot's reading thread spent 15% of its samples there. Our
 * connector routes every event to topics of its own (the dispatch rules), so Debezium's names are never seen by a
 * consumer, but they are still computed. This subclass returns exactly the names of its parent, remembered per table;
 * past {@link #MAX_CACHED} tables it stops remembering and asks its parent.
 */
public class CachedTopicNaming extends DefaultTopicNamingStrategy {

    /** Tables whose names are remembered at most (Debezium's own cache, {@code topic.cache.size}, holds 10,000). */
    static final int MAX_CACHED = 10_000;

    private final ConcurrentHashMap<DataCollectionId, String> names = new ConcurrentHashMap<>();

    public CachedTopicNaming(Properties props) {
        super(props);
    }

    @Override
    public String dataChangeTopic(DataCollectionId id) {
        String name = names.get(id);
        if (name != null) return name;
        name = super.dataChangeTopic(id);
        if (names.size() < MAX_CACHED) names.putIfAbsent(id, name);
        return name;
    }

    /** The number of tables whose names are remembered. */
    int remembered() {
        return names.size();
    }
}
