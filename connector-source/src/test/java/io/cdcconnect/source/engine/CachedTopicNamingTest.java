package io.cdcconnect.source.engine;

import io.debezium.relational.TableId;
import io.debezium.schema.DefaultTopicNamingStrategy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link CachedTopicNaming} against Debezium's own {@link DefaultTopicNamingStrategy}, both real. */
class CachedTopicNamingTest {

    private static Properties props(String prefix) {
        Properties p = new Properties();
        p.setProperty("topic.prefix", prefix);
        return p;
    }

    @Test
    void everyNameIsDebeziumsOwnAndTheSecondLookupIsTheRememberedString() {
        Properties p = props("shop");
        DefaultTopicNamingStrategy debezium = new DefaultTopicNamingStrategy(p);
        CachedTopicNaming cached = new CachedTopicNaming(p);
        List<TableId> ids = List.of(new TableId("shop", null, "orders"), new TableId("shop", null, "order lines"),
                new TableId("b\u00e4ckerei", null, "br\u00f6tchen"), new TableId("s", null, "t$1.x"));
        for (TableId id : ids) {
            String first = cached.dataChangeTopic(id);
            assertEquals(debezium.dataChangeTopic(id), first, id.toString());
            assertEquals(first, cached.dataChangeTopic(new TableId(id.catalog(), id.schema(), id.table())));
        }
        assertEquals(ids.size(), cached.remembered(), "an equal table id finds the remembered name");
        assertEquals(debezium.heartbeatTopic(), cached.heartbeatTopic());
        assertEquals(debezium.transactionTopic(), cached.transactionTopic());
        assertEquals(debezium.schemaChangeTopic(), cached.schemaChangeTopic());
    }

    @Test
    void pastTheLimitNamesAreStillDebeziumsButNoLongerRemembered() {
        Properties p = props("big");
        DefaultTopicNamingStrategy debezium = new DefaultTopicNamingStrategy(p);
        CachedTopicNaming cached = new CachedTopicNaming(p);
        for (int i = 0; i < CachedTopicNaming.MAX_CACHED; i++) {
            cached.dataChangeTopic(new TableId("db", null, "t" + i));
        }
        TableId beyond = new TableId("db", null, "beyond");
        String a = cached.dataChangeTopic(beyond);
        assertEquals(debezium.dataChangeTopic(beyond), a);
        assertEquals(a, cached.dataChangeTopic(beyond));
        assertEquals(CachedTopicNaming.MAX_CACHED, cached.remembered(), "past the limit nothing more is remembered");
    }
}
