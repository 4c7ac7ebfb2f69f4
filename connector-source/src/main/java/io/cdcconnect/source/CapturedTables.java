package io.cdcconnect.source;

import io.debezium.config.Configuration;
import io.debezium.connector.mariadb.MariaDbConnectorConfig;
import io.debezium.connector.mysql.MySqlConnectorConfig;
import io.debezium.relational.RelationalDatabaseConnectorConfig;
import io.debezium.relational.RelationalTableFilters;
import io.debezium.relational.TableId;

import java.util.Map;

/**
 * Debezium's own include/exclude filters, applied to its schema-change events: Debezium records the DDL of every table
 * of the captured databases in its schema history (and emits it), but only the captured tables' DDL belongs in the
 * output.
 */
public interface CapturedTables {

    /** Whether changes of {@code schema.table} are captured; an empty table asks about the database. */
    boolean includes(String schema, String table);

    CapturedTables ALL = (schema, table) -> true;

    /** The filters Debezium builds from the same settings. */
    static CapturedTables of(Map<String, String> debeziumProps, SourceFlavor flavor) {
        Configuration c = Configuration.from(debeziumProps);
        RelationalDatabaseConnectorConfig config = flavor == SourceFlavor.MYSQL
                ? new MySqlConnectorConfig(c) : new MariaDbConnectorConfig(c);
        RelationalTableFilters filters = config.getTableFilters();
        return (schema, table) -> table == null || table.isEmpty()
                ? filters.databaseFilter().test(schema)
                : filters.dataCollectionFilter().isIncluded(new TableId(schema, null, table));
    }
}
