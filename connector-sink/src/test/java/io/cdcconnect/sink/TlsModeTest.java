package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.apply.DataSources;
import io.cdcconnect.sink.dialect.mysql.MariaDbDialect;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code connection.ssl.mode} against the embedded MariaDB: the mode reaches the driver, the URL's own TLS setting
 * wins, and a password over a connection that is not verified TLS is warned about once at start.
 */
class TlsModeTest {

    /** The WARN lines of the sink's loggers while {@code run} runs. */
    private static List<String> warnings(Runnable run) {
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        AppenderSkeleton capture = new AppenderSkeleton() {
            @Override
            protected void append(LoggingEvent event) {
                if (event.getLevel().isGreaterOrEqual(Level.WARN)) lines.add(event.getRenderedMessage());
            }

            @Override
            public void close() {
            }

            @Override
            public boolean requiresLayout() {
                return false;
            }
        };
        Logger sink = Logger.getLogger("io.cdcconnect.sink");
        sink.addAppender(capture);
        try {
            run.run();
        } finally {
            sink.removeAppender(capture);
        }
        return new ArrayList<>(lines);
    }

    private static String sslCipher(Connection c) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW STATUS LIKE 'Ssl_cipher'")) {
            return rs.next() ? rs.getString(2) : "";
        }
    }

    private static boolean serverOffersTls() throws Exception {
        try (Connection c = DataSources.connect(new MariaDbDialect(), SinkTarget.url(), SinkTarget.user(),
                SinkTarget.password(), 5_000); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW VARIABLES LIKE 'have_ssl'")) {
            return rs.next() && rs.getString(2).equalsIgnoreCase("YES");
        }
    }

    @Test
    void withoutTlsAPasswordIsWarnedAboutOnceAndTheTaskStillWorks() throws Exception {
        try (TestDatabase source = SinkTarget.database("tls_src"); TestDatabase target = SinkTarget.database("tls_dst")) {
            target.exec("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(20))");
            TableInfo table = TableInfo.of(source.name(), "t", List.of(
                    ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                    ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
            List<String> warned = warnings(() -> {
                try (TaskDriver driver = new TaskDriver(Map.of("connection.ssl.mode", "disabled",
                        "schema.map", source.name() + "=" + target.name()))) {
                    driver.put(RowChange.insert(table, new Object[]{1L, "plain"}, Rows.ts(1000)));
                    driver.awaitApplied();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals(List.of(List.of("1", "plain")), target.query("SELECT id, v FROM t"));
            List<String> tls = warned.stream().filter(w -> w.contains("not verified TLS")).toList();
            assertEquals(1, tls.size(), warned.toString());
            assertTrue(tls.get(0).contains("TLS mode disabled")
                    && tls.get(0).contains("connection.ssl.mode=verify-identity"), tls.get(0));
            assertFalse(String.join("\n", warned).contains(SinkTarget.password()), warned.toString());
        }
    }

    @Test
    void requiredTlsIsHonouredOrRefusedClearly() throws Exception {
        Map<String, String> props = new HashMap<>(Map.of("schema.include", "shop", "connection.url", SinkTarget.url(),
                "connection.user", SinkTarget.user(), "connection.password", SinkTarget.password(),
                "connection.ssl.mode", "required", "ddl.checkpoint.database", ""));
        if (serverOffersTls()) {
            try (Connection c = DataSources.connect(new MariaDbDialect(), SinkTarget.url(), SinkTarget.user(),
                    SinkTarget.password(), "required", 5_000)) {
                String cipher = sslCipher(c);
                System.out.println("the target offers TLS; connection.ssl.mode=required: cipher " + cipher);
                assertFalse(cipher.isEmpty(), "required: the session is encrypted");
            }
            return;
        }
        CdcSinkTask task = new CdcSinkTask();
        ConnectException e = assertThrows(ConnectException.class, () -> task.start(props));
        System.out.println("the target offers no TLS; connection.ssl.mode=required: " + e.getMessage());
        assertTrue(e.getMessage().contains("cannot start the sink against " + SinkTarget.url()), e.getMessage());
        assertTrue(e.getMessage().contains("TLS mode required: the target must offer TLS"), e.getMessage());
        assertFalse(e.getMessage().contains(SinkTarget.password()), e.getMessage());
    }

    @Test
    void theUrlsOwnTlsSettingWinsOverTheSetting() throws Exception {
        String url = SinkTarget.url() + "?sslMode=DISABLED";
        try (Connection c = DataSources.connect(new MariaDbDialect(), url, SinkTarget.user(), SinkTarget.password(),
                "required", 5_000)) {
            assertEquals("", sslCipher(c), "the URL's sslMode=DISABLED is what the connection got");
        }
        // the warning says so, and names what to change
        CdcSinkConfig config = new CdcSinkConfig(Map.of("schema.include", "shop", "connection.url", url, "connection.user", SinkTarget.user(),
                "connection.password", SinkTarget.password(), "connection.ssl.mode", "verify-identity"));
        List<String> warned = TransportWarnings.of(config);
        assertEquals(1, warned.size(), warned.toString());
        assertTrue(warned.get(0).contains("TLS mode disabled, chosen by connection.url"), warned.get(0));
    }

    @Test
    void verifiedTlsAndNoPasswordGiveNoWarning() {
        assertTrue(TransportWarnings.of(new CdcSinkConfig(Map.of("schema.include", "shop", "connection.url", "jdbc:mysql://db.example/",
                "connection.user", "app", "connection.password", "pw", "connection.ssl.mode",
                "verify-identity"))).isEmpty());
        assertTrue(TransportWarnings.of(new CdcSinkConfig(Map.of("schema.include", "shop", "connection.url", "jdbc:postgresql://db/x?sslmode="
                + "verify-full", "connection.user", "app", "connection.password", "pw"))).isEmpty());
        assertTrue(TransportWarnings.of(new CdcSinkConfig(Map.of("schema.include", "shop", "connection.url", "jdbc:mysql://db.example/",
                "connection.user", "app", "connection.ssl.mode", "disabled"))).isEmpty());
        // a password in the URL counts as one
        assertEquals(1, TransportWarnings.of(new CdcSinkConfig(Map.of("schema.include", "shop", "connection.url",
                "jdbc:mysql://(host=db.example,password=pw)/", "connection.user", "app"))).size());
    }

    @Test
    void registryCredentialsOverPlainHttpAreWarnedAbout() {
        Map<String, String> base = Map.of("schema.include", "shop", "connection.url", "jdbc:mysql://db.example/", "connection.user", "app",
                "connection.ssl.mode", "verify-identity", "input.format", "avro");
        Map<String, String> userInfo = new HashMap<>(base);
        userInfo.put("schema.registry.url", "http://reg:regpw@registry.example:8081");
        List<String> w = TransportWarnings.of(new CdcSinkConfig(userInfo));
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("plain http") && w.get(0).contains("schema.registry.url"), w.get(0));
        assertFalse(w.get(0).contains("regpw"), w.get(0));

        Map<String, String> options = new HashMap<>(base);
        options.put("schema.registry.url", "HTTP://registry.example:8081");
        options.put("input.codec.options", "schema-registry-username=reg,schema-registry-password=regpw");
        assertEquals(1, TransportWarnings.of(new CdcSinkConfig(options)).size());

        options.put("schema.registry.url", "https://registry.example:8081");
        assertTrue(TransportWarnings.of(new CdcSinkConfig(options)).isEmpty());
        Map<String, String> anonymous = new HashMap<>(base);
        anonymous.put("schema.registry.url", "http://registry.example:8081");
        assertTrue(TransportWarnings.of(new CdcSinkConfig(anonymous)).isEmpty());
    }
}
