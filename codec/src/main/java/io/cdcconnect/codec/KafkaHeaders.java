package io.cdcconnect.codec;

/**
 * Kafka record headers cdc-connect's source adds beside TiCDC's message bytes, and its sink reads. Headers leave the
 * key and value exactly as TiCDC writes them; a consumer that does not know them ignores them.
 */
public final class KafkaHeaders {
    private KafkaHeaders() {
    }

    /**
     * On a message carrying a DDL statement that went to several partitions of its topic: how many (a decimal
     * number). The sink runs such a statement once, after every one of those partitions has passed it.
     */
    public static final String DDL_PARTITIONS = "cdc-connect.ddl.partitions";
}
