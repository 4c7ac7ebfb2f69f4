package io.cdcconnect.sink.testutil;

import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.TestDatabase;
import io.cdcconnect.testsupport.servers.TestServers;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * A PostgreSQL the sink's tests apply rows to: started by the tests from zonky's binaries and shared by every test
 * class of this JVM, or the server {@code -Dcdc.test.db.postgres.url} names. Each test works in a database of its own.
 */
public final class PostgresTarget {

    private PostgresTarget() {
    }

    public static DatabaseServer server() {
        return TestServers.database(DatabaseSpec.postgres());
    }

    /** A new, uniquely named database, dropped on close. */
    public static TestDatabase database(String prefix) throws SQLException {
        return new TestDatabase(server(), prefix);
    }

    /** The sink settings that point a {@link TaskDriver} at {@code db}, plus {@code extra}. */
    public static Map<String, String> sinkSettings(TestDatabase db, Map<String, String> extra) {
        Map<String, String> m = new HashMap<>();
        m.put("connection.url", db.jdbcUrl());
        m.put("connection.user", server().user());
        m.put("connection.password", server().password() == null ? "" : server().password());
        m.putAll(extra);
        return m;
    }
}
