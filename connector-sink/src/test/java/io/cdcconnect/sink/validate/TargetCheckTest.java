package io.cdcconnect.sink.validate;

import io.cdcconnect.sink.CdcSinkConfig;
import io.cdcconnect.sink.testutil.PostgresTarget;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live check against real servers: the embedded MariaDB 10.11 and PostgreSQL 17 the sink's tests share. Users and
 * roles are created per test with random names, so the check sees exactly the grants the test gives.
 */
class TargetCheckTest {

    private static final String PASSWORD = "Tc-" + UUID.randomUUID().toString().substring(0, 8);

    private static CdcSinkConfig config(String url, String user, String password, String... kv) {
        Map<String, String> m = new HashMap<>();
        m.put("connection.url", url);
        m.put("connection.user", user);
        m.put("connection.password", password == null ? "" : password);
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        // a configuration must name the databases it writes into: one of the test's, unless it names its own
        if (!m.containsKey("schema.map")) m.putIfAbsent("schema.include", "shop");
        return new CdcSinkConfig(m);
    }

    private static String mariaDbUser(String... grants) throws Exception {
        String user = "tc_" + UUID.randomUUID().toString().substring(0, 8);
        DatabaseServer s = SinkTarget.server();
        s.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
        for (String g : grants) s.execute("GRANT " + g + " TO '" + user + "'@'%'");
        return user;
    }

    @Test
    void aPrivilegedUserOnAFittingServerPasses() {
        assertEquals(List.of(), TargetCheck.check(config(SinkTarget.url(), SinkTarget.user(), SinkTarget.password(),
                "schema.map", "shop=shop_replica"), 1));
    }

    @Test
    void aUserWithoutPrivilegesIsReportedOnTheUserNamingTheGrant() throws Exception {
        String user = mariaDbUser();
        List<ConfigProblem> p = TargetCheck.check(config(SinkTarget.url(), user, PASSWORD,
                "schema.map", "shop=shop_replica"), 1);
        assertEquals(2, p.size(), p.toString());
        assertTrue(p.stream().allMatch(x -> x.setting().equals(CdcSinkConfig.CONNECTION_USER)), p.toString());
        assertTrue(p.get(0).message().contains("lacks SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX on "
                + "database `shop_replica` (GRANT"), p.get(0).message());
        assertTrue(p.get(1).message().contains("on database `cdc_connect`"), p.get(1).message());
        // without schema.map the databases are not known: the privileges must be held somewhere
        // (a configuration that names none fails validation on schema.include; the target check still answers)
        p = TargetCheck.check(CdcSinkConfig.withoutRules(Map.of("connection.url", SinkTarget.url(),
                "connection.user", user, "connection.password", PASSWORD)), 1);
        assertTrue(p.get(0).message().contains("on every database"), p.toString());
    }

    @Test
    void grantsOnADatabasePatternAndWithoutDdlAreEnough() throws Exception {
        String user = mariaDbUser("SELECT, INSERT, UPDATE, DELETE ON `shop\\_%`.*",
                "CREATE, SELECT, INSERT, UPDATE, DELETE ON `cdc_connect`.*");
        assertEquals(List.of(), TargetCheck.check(config(SinkTarget.url(), user, PASSWORD,
                "schema.map", "shop=shop_replica", "ddl.apply", "none"), 1));
        List<ConfigProblem> p = TargetCheck.check(config(SinkTarget.url(), user, PASSWORD,
                "schema.map", "shop=shop_replica,crm=crmcopy", "ddl.apply", "create-table,truncate-table"), 1);
        assertEquals(List.of("lacks CREATE, DROP on database `shop_replica`",
                "lacks SELECT, INSERT, UPDATE, DELETE, CREATE, DROP on database `crmcopy`"),
                p.stream().map(x -> x.message().substring(x.message().indexOf("lacks"),
                        x.message().indexOf(" (GRANT"))).toList());
    }

    @Test
    void aDialectThatDoesNotFitTheServerIsReportedOnDialect() {
        List<ConfigProblem> p = TargetCheck.check(config(SinkTarget.url(), SinkTarget.user(), SinkTarget.password(),
                "dialect", "tidb"), 1);
        assertEquals(1, p.size(), p.toString());
        assertEquals(CdcSinkConfig.DIALECT, p.get(0).setting());
        assertTrue(p.get(0).message().contains("set auto (which chooses mariadb"), p.get(0).message());
    }

    @Test
    void aWrongPasswordIsReportedOnTheUrlWithoutThePassword() {
        String wrong = "Wrong-" + PASSWORD;
        List<ConfigProblem> p = TargetCheck.check(config(SinkTarget.url(), SinkTarget.user(), wrong), 1);
        assertEquals(1, p.size(), p.toString());
        assertEquals(CdcSinkConfig.CONNECTION_URL, p.get(0).setting());
        assertTrue(p.get(0).message().contains("Access denied"), p.get(0).message());
        assertFalse(p.get(0).message().contains(wrong));
    }

    @Test
    void aPostgresRoleIsCheckedOnTheSchemasAndTablesItWrites() throws Exception {
        try (TestDatabase db = PostgresTarget.database("tc")) {
            String role = "tc_" + UUID.randomUUID().toString().substring(0, 8);
            try (Connection c = PostgresTarget.server().connect(db.name()); Statement s = c.createStatement()) {
                s.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + PASSWORD + "'");
                s.execute("CREATE SCHEMA shop_replica");
                s.execute("CREATE TABLE shop_replica.orders (id INT PRIMARY KEY)");
                s.execute("GRANT USAGE ON SCHEMA shop_replica TO " + role);
                s.execute("REVOKE CREATE ON DATABASE \"" + db.name() + "\" FROM PUBLIC");
            }
            DatabaseServer pg = PostgresTarget.server();
            assertEquals(List.of(), TargetCheck.check(config(db.jdbcUrl(), pg.user(), pg.password(),
                    "schema.map", "shop=shop_replica"), 1));
            List<ConfigProblem> p = TargetCheck.check(config(db.jdbcUrl(), role, PASSWORD,
                    "schema.map", "shop=shop_replica"), 1);
            List<String> m = p.stream().map(ConfigProblem::message).toList();
            assertTrue(p.stream().allMatch(x -> x.setting().equals(CdcSinkConfig.CONNECTION_USER)), m.toString());
            assertEquals(4, m.size(), m.toString());
            assertTrue(m.get(0).contains("lacks CREATE on schema \"shop_replica\""), m.get(0));
            assertTrue(m.get(1).contains("lacks SELECT, INSERT, UPDATE or DELETE on table \"shop_replica\".\"orders\""),
                    m.get(1));
            assertTrue(m.get(2).contains("does not own table \"shop_replica\".\"orders\""), m.get(2));
            assertTrue(m.get(3).contains("cannot create the sink's tables in schema \"cdc_connect\""), m.get(3));
            try (Connection c = PostgresTarget.server().connect(db.name()); Statement s = c.createStatement()) {
                s.execute("DROP OWNED BY " + role);
                s.execute("DROP ROLE " + role);
            }
        }
    }
}
