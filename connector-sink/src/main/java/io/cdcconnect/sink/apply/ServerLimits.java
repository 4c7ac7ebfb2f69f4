package io.cdcconnect.sink.apply;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What the sink reads from the target at start: its version (for the dialect) and the limits it must respect.
 *
 * @param version              {@code SELECT VERSION()}
 * @param maxAllowedPacket     {@code @@max_allowed_packet}: caps the rows per statement
 * @param maxPreparedStmtCount {@code @@max_prepared_stmt_count}: caps the statement cache
 */
public record ServerLimits(String version, long maxAllowedPacket, long maxPreparedStmtCount) {

    public static ServerLimits read(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT VERSION(), @@max_allowed_packet, @@max_prepared_stmt_count")) {
            rs.next();
            ServerLimits limits = new ServerLimits(rs.getString(1), rs.getLong(2), rs.getLong(3));
            if (!c.getAutoCommit()) c.commit();
            return limits;
        }
    }
}
