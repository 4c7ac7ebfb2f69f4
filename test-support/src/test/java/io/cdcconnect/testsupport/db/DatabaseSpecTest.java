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
    }
}
