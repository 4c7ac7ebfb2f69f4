package io.cdcconnect.source.convert;

import java.util.List;

/**
 * Unique keys beside the primary key, which Debezium's records do not carry: each as its column names in index order.
 * Asked once per table version.
 */
public interface KeyCatalog {

    List<List<String>> uniqueKeys(String schema, String table);

    KeyCatalog NONE = (schema, table) -> List.of();
}
