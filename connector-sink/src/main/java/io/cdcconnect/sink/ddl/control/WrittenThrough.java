package io.cdcconnect.sink.ddl.control;

import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.apply.RetryPolicy;
import io.cdcconnect.sink.dialect.ControlSql;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.txn.SourcePartition;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@link ControlStore#writtenThrough} in the target: {@code <database>.written_through}, one row per connector, topic
 * and partition, raised before records above it are written. After a restart or a rebalance, the records up to it may
 * already be in the target, and are written in safe mode ({@code SafeModeDecision}); the records above it never were.
 */
final class WrittenThrough {

    private final DataSource dataSource;
    private final SqlDialect dialect;
    private final ControlSql sql;
    private final String connector;
    private final RetryPolicy retry;
    private final Runnable onRetry;
    private boolean tableReady;

    WrittenThrough(DataSource dataSource, SqlDialect dialect, String database, String connector, RetryPolicy retry,
                   Runnable onRetry) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.sql = dialect.control(database);
        this.connector = connector;
        this.retry = retry;
        this.onRetry = onRetry;
    }

    long read(SourcePartition partition) {
        try {
            return retry.run(() -> {
                ensureTable();
                try (Connection c = dataSource.getConnection();
                     PreparedStatement ps = c.prepareStatement(sql.selectWrittenThrough())) {
                    ps.setString(1, connector);
                    ps.setString(2, partition.topic());
                    ps.setInt(3, partition.partition());
                    long v = -1;
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) v = rs.getLong(1);
                    }
                    if (!c.getAutoCommit()) c.commit();
                    return v;
                }
            }, onRetry);
        } catch (SQLException e) {
            throw new ApplyException("cannot read how far " + partition + " was written from "
                    + sql.table("written_through") + ": " + dialect.describe(e), e);
        }
    }

    void raise(SourcePartition partition, long offset) {
        try {
            retry.run(() -> {
                ensureTable();
                try (Connection c = dataSource.getConnection();
                     PreparedStatement ps = c.prepareStatement(sql.raiseWrittenThrough())) {
                    ps.setString(1, connector);
                    ps.setString(2, partition.topic());
                    ps.setInt(3, partition.partition());
                    ps.setLong(4, offset);
                    ps.executeUpdate();
                    if (!c.getAutoCommit()) c.commit();
                }
                return null;
            }, onRetry);
        } catch (SQLException e) {
            throw new ApplyException("cannot record how far " + partition + " may be written in "
                    + sql.table("written_through") + ": " + dialect.describe(e), e);
        }
    }

    private void ensureTable() throws SQLException {
        if (tableReady) return;
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            ControlSchema.ensure(c, sql); // an older layout brought to this sink's first
            for (String statement : sql.createWrittenThrough()) st.execute(statement);
            if (!c.getAutoCommit()) c.commit();
        }
        tableReady = true;
    }
}
