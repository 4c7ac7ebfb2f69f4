package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.CdcSinkTask;
import io.cdcconnect.sink.dialect.mysql.MariaDbDialect;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataSourcesTest {

    @Test
    void passwordsInUrlsAreMasked() {
        assertEquals("jdbc:mysql://h:3306/db?user=u&password=***&ssl=true",
                DataSources.redact("jdbc:mysql://h:3306/db?user=u&password=s3cret&ssl=true"));
        assertEquals("jdbc:mysql://u:***@h:3306/", DataSources.redact("jdbc:mysql://u:s3cret@h:3306/"));
        assertEquals("jdbc:mysql://h/", DataSources.redact("jdbc:mysql://h/"));
    }

    @Test
    void everyConnectionSetsTheDialectsSessionSettingsAndASocketTimeout() throws Exception {
        MariaDbDialect dialect = new MariaDbDialect();
        try (var ds = DataSources.create(dialect, SinkTarget.url(), SinkTarget.user(), SinkTarget.password(), 2,
                "+02:00", "session-test", 5_000);
             var c = ds.getConnection(); var st = c.createStatement();
             var rs = st.executeQuery("SELECT @@SESSION.sql_mode, @@SESSION.time_zone")) {
            rs.next();
            // zero dates are accepted, as the source accepted them
            assertFalse(rs.getString(1).contains("NO_ZERO_DATE"), rs.getString(1));
            assertEquals("+02:00", rs.getString(2));
            // a server that stops answering: the socket timeout ends the wait as a lost connection (retried)
            java.sql.SQLException e = assertThrows(java.sql.SQLException.class, () -> st.execute("SELECT SLEEP(10)"));
            assertTrue(dialect.connectionLost(e) && dialect.retryable(e), e + " state " + e.getSQLState());
        }
    }

    @Test
    void aRejectedLoginFailsTheTaskWithoutThePassword() {
        CdcSinkTask task = new CdcSinkTask();
        ConnectException e = assertThrows(ConnectException.class, () -> task.start(Map.of(
                "connection.url", SinkTarget.url(), "connection.user", "no_such_user_x",
                "connection.password", "hunter2-secret", "schema.include", "shop")));
        assertTrue(e.getMessage().contains("cannot start the sink against " + SinkTarget.url()), e.getMessage());
        assertFalse(e.getMessage().contains("hunter2-secret"), e.getMessage());
    }
}
