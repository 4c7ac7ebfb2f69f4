package io.cdcconnect.codec;

/**
 * Kafka record headers cdc-connect's source adds beside TiCDC's message bytes, and its sink reads. Headers leave the
 * key and value exactly as TiCDC writes them; a consumer that does not know them ignores them.
 */
public final class KafkaHeaders {
    private KafkaHeaders() {
    }

    /**
     * On a message carrying a DDL statement: to how many partitions of its topic the statement went (a decimal
     * number). 1 means the partition holds every row of the statement's table, so the sink runs it at once; more, and
     * the sink runs it once, after every one of those partitions has passed it.
     */
    public static final String DDL_PARTITIONS = "cdc-connect.ddl.partitions";
}
