package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.dialect.SqlDialect;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What validation asks of the MySQL family without a server: which dialect fits which server, grant patterns. */
class MySqlServerCheckTest {

    private final SqlDialect family = Dialects.forUrl("jdbc:mysql://h/");

    @Test
    void autoFitsEveryServerOfTheFamily() {
        for (String v : new String[]{"10.11.19-MariaDB-0+deb12u1", "8.0.36", "5.7.44-log", "8.0.11-TiDB-v7.5.0"}) {
            assertNull(family.serverMismatch("auto", v), v);
        }
    }

    @Test
    void aNamedDialectFitsOnlyItsOwnServers() {
        assertNull(family.serverMismatch("mariadb", "11.4.5-MariaDB-log"));
        assertNull(family.serverMismatch("tidb", "8.0.11-TiDB-v7.5.0"));
        assertNull(family.serverMismatch("mysql57", "5.7.44-log"));
        assertNull(family.serverMismatch("mysql57", "8.4.2"));
        assertNull(family.serverMismatch("mysql8", "8.0.20"));
        String m = family.serverMismatch("tidb", "11.4.5-MariaDB-log");
        assertTrue(m.contains("dialect 'tidb' does not fit the server, version 11.4.5-MariaDB-log")
                && m.contains("set auto (which chooses mariadb"), m);
        // the row alias of mysql8's upserts exists from 8.0.20 on
        assertTrue(family.serverMismatch("mysql8", "8.0.19").contains("chooses mysql57"));
        assertTrue(family.serverMismatch("mariadb", "8.0.36").contains("chooses mysql8"));
        assertTrue(family.serverMismatch("mysql57", "10.6.1-MariaDB").contains("chooses mariadb"));
    }

    @Test
    void grantPatternsMatchAsMySqlMatchesThem() {
        assertTrue(MySqlPrivileges.like("shop\\_%").matcher("shop_replica").matches());
        assertFalse(MySqlPrivileges.like("shop\\_%").matcher("shopXreplica").matches());
        assertTrue(MySqlPrivileges.like("shop_%").matcher("shopXreplica").matches());
        assertTrue(MySqlPrivileges.like("Shop").matcher("shop").matches());
        assertFalse(MySqlPrivileges.like("shop").matcher("shop2").matches());
        assertTrue(MySqlPrivileges.like("a.b%").matcher("a.bc").matches());
        assertFalse(MySqlPrivileges.like("a.b").matcher("axb").matches());
    }
}
