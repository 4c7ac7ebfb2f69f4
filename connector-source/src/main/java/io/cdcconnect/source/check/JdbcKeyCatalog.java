package io.cdcconnect.source.check;

import io.cdcconnect.source.SourceFlavor;
import io.cdcconnect.source.convert.KeyCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Reads a table's unique keys from the source's information_schema. The answer describes the table as it is now,
 * which during a catch-up may be newer than the binlog position being read; the converter keeps only keys whose
 * columns all exist in the record's table version. A failure leaves the table without unique keys (logged once per
 * table): the primary key still orders its rows.
 */
public final class JdbcKeyCatalog implements KeyCatalog, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcKeyCatalog.class);
    private static final String SQL = "SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0 AND INDEX_NAME <> 'PRIMARY'"
            + " ORDER BY INDEX_NAME, SEQ_IN_INDEX";

    private final SourceFlavor flavor;
    private final String host;
    private final int port;
    private final String url;
    private final Properties props;
    private final Set<String> warned = new HashSet<>();
    private Connection connection;

    /** @param connectionProperties the driver properties, from {@link SourceConnections#properties} */
    public JdbcKeyCatalog(SourceFlavor flavor, String host, int port, Properties connectionProperties) {
        this.flavor = flavor;
        this.host = host;
        this.port = port;
        this.url = flavor.jdbcUrl(host, port);
        this.props = connectionProperties;
    }

    @Override
    public List<List<String>> uniqueKeys(String schema, String table) {
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                if (connection == null || connection.isClosed()) {
                    connection = flavor.connect(host, port, props);
                }
                return query(schema, table);
            } catch (SQLException e) {
                close();
                if (attempt == 1 && warned.add(schema + "." + table)) {
                    LOG.warn("Cannot read the unique keys of {}.{} from {}: {}; its rows carry the primary key only",
                            schema, table, url, io.cdcconnect.codec.util.Redaction.scrub(e.getMessage(), url,
                                    io.cdcconnect.codec.util.Redaction.secretValues(propertyMap())));
                }
            }
        }
        return List.of();
    }

    private Map<String, String> propertyMap() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : props.stringPropertyNames()) m.put(k, props.getProperty(k));
        return m;
    }

    private List<List<String>> query(String schema, String table) throws SQLException {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        Set<String> expressionKeys = new HashSet<>();
        try (PreparedStatement ps = connection.prepareStatement(SQL)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String index = rs.getString(1);
                    String column = rs.getString(2);
                    // A functional key part (MySQL 8) has no column: such a key cannot be evaluated on a row image.
                    if (column == null) expressionKeys.add(index);
                    else keys.computeIfAbsent(index, k -> new ArrayList<>()).add(column);
                }
            }
        }
        List<List<String>> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : keys.entrySet()) {
            if (!expressionKeys.contains(e.getKey())) out.add(List.copyOf(e.getValue()));
        }
        return out;
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing a broken connection
            }
            connection = null;
        }
    }
}
