package io.cdcconnect.testsupport.db;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DatabaseSpecTest {

    @Test
    void thePropertyKeyIsFamilyAndVersionWhateverTheBinlog() {
        assertEquals("mariadb-10.11", DatabaseSpec.mariadb("10.11").propertyKey());
        assertEquals("mysql-8.4", DatabaseSpec.mysql("8.4").propertyKey());
        assertEquals("mysql-8.4", DatabaseSpec.mysql("8.4").withoutBinlog().propertyKey());
        assertEquals("tidb-8.5", DatabaseSpec.tidb("8.5").propertyKey());
        assertEquals("postgres-17", DatabaseSpec.postgres().propertyKey());
        assertEquals("postgres-16", DatabaseSpec.postgres("16").propertyKey());
    }

    @Test
    void postgresIsATargetWithoutBinlog() {
        assertFalse(DatabaseSpec.postgres().binlog());
        assertEquals(DatabaseSpec.postgres(), DatabaseSpec.postgres().withoutBinlog());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DatabaseSpec(Flavor.POSTGRES, "17", true));
        assertTrue(e.getMessage().contains("no binlog"), e.getMessage());
    }

    @Test
    void namesAreQuotedAsEachFamilyQuotesThem() {
        assertEquals("`a``b`", Flavor.MARIADB.quote("a`b"));
        assertEquals("`t`", Flavor.TIDB.quote("t"));
        assertEquals("\"a\"\"b\"", Flavor.POSTGRES.quote("a\"b"));
        assertTrue(Flavor.MYSQL.mysqlProtocol());
        assertFalse(Flavor.POSTGRES.mysqlProtocol());
    }

    @Test
    void sourcesHaveABinlogAndTidbNever() {
        assertTrue(DatabaseSpec.mysql("8.0").binlog());
        assertFalse(DatabaseSpec.mysql("8.0").withoutBinlog().binlog());
        assertFalse(DatabaseSpec.tidb("8.5").binlog());
        assertNotEquals(DatabaseSpec.mysql("8.0"), DatabaseSpec.mysql("8.0").withoutBinlog(), "shared servers differ");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DatabaseSpec(Flavor.TIDB, "8.5", true));
        assertTrue(e.getMessage().contains("TiCDC"), e.getMessage());
    }

    @Test
    void itReadsAsTheTestReportShowsIt() {
        assertEquals("MySQL 8.4 with binlog", DatabaseSpec.mysql("8.4").toString());
        assertEquals("MariaDB 10.11", DatabaseSpec.mariadb("10.11").withoutBinlog().toString());
        assertEquals("TiDB 8.5", DatabaseSpec.tidb("8.5").toString());
        assertEquals("PostgreSQL 17", DatabaseSpec.postgres().toString());
    }
}
