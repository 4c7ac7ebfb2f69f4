package io.cdcconnect.testsupport.db;

import io.cdcconnect.testsupport.TemporaryProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a server named by properties is read from them: parsing only, no connection is made to any host here. */
class ExternalDatabaseTest {
    private static final DatabaseSpec MARIADB_1011 = DatabaseSpec.mariadb("10.11").withoutBinlog();
    private static final String PREFIX = "cdc.test.db.mariadb-10.11.";
    private static final DatabaseSpec POSTGRES_17 = DatabaseSpec.postgres("17");
    private static final String PG = "cdc.test.db.postgres.";
    private static final String PG_17 = "cdc.test.db.postgres-17.";

    private final TemporaryProperties props = new TemporaryProperties();

    @BeforeEach
    void noServerNamed() {
        props.clear(PREFIX + "url", PREFIX + "user", PREFIX + "password", PG + "url", PG + "user", PG + "password",
                PG_17 + "url", PG_17 + "user", PG_17 + "password");
    }

    @AfterEach
    void restore() {
        props.close();
    }

    @Test
    void withoutAUrlNoServerIsNamed() {
        assertNull(ExternalDatabase.fromProperties(MARIADB_1011));
        props.set(PREFIX + "url", "   ");
        assertNull(ExternalDatabase.fromProperties(MARIADB_1011));
        props.set(PREFIX + "user", "someone");
        assertNull(ExternalDatabase.fromProperties(MARIADB_1011), "a user alone names no server");
    }

    @Test
    void hostPortUserAndPasswordComeFromTheProperties() {
        props.set(PREFIX + "url", " jdbc:mysql://10.1.2.3:3310/ ").set(PREFIX + "user", "cdc").set(PREFIX + "password", "s3cret");
        ExternalDatabase db = ExternalDatabase.fromProperties(MARIADB_1011);
        assertNotNull(db);
        assertEquals("10.1.2.3", db.host());
        assertEquals(3310, db.port());
        assertEquals("cdc", db.user());
        assertEquals("s3cret", db.password());
        assertEquals(MARIADB_1011, db.spec());
        assertEquals("existing server named by -Dcdc.test.db.mariadb-10.11.url", db.provenance());
    }

    @Test
    void rootWithoutPasswordOnPort3306UnlessToldOtherwise() {
        props.set(PREFIX + "url", "jdbc:mariadb://db.internal/");
        ExternalDatabase db = ExternalDatabase.fromProperties(MARIADB_1011);
        assertNotNull(db);
        assertEquals("db.internal", db.host());
        assertEquals(3306, db.port());
        assertEquals("root", db.user());
        assertEquals("", db.password());
    }

    @Test
    void aUrlOfAnotherDriverIsRefusedNamingTheProperty() {
        props.set(PREFIX + "url", "jdbc:postgresql://pg.example:5432/");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ExternalDatabase.fromProperties(MARIADB_1011));
        assertTrue(e.getMessage().startsWith(PREFIX + "url must be a jdbc:mysql:// URL"), e.getMessage());
    }

    @Test
    void itsJdbcUrlKeepsTheTestSettings() {
        // parsing only: nothing connects to the host named here
        props.set(PREFIX + "url", "jdbc:mysql://db.example:3310/");
        String url = ExternalDatabase.fromProperties(MARIADB_1011).jdbcUrl("shop");
        assertTrue(url.startsWith("jdbc:mysql://db.example:3310/shop?"), url);
        assertTrue(url.contains("connectionTimeZone=UTC") && url.contains("nullDatabaseMeansCurrent=true"), url);
    }

    @Test
    void aPostgresUrlNamesTheDatabaseToConnectToAndKeepsItsParameters() {
        props.set(PG + "url", "jdbc:postgresql://pg.example:5433/admin?sslmode=require").set(PG + "user", "cdc")
                .set(PG + "password", "pw");
        ExternalDatabase db = ExternalDatabase.fromProperties(POSTGRES_17);
        assertNotNull(db, "the versionless key names a PostgreSQL of any version");
        assertEquals("pg.example", db.host());
        assertEquals(5433, db.port());
        assertEquals("cdc", db.user());
        assertEquals("pw", db.password());
        assertEquals("admin", db.maintenanceDatabase());
        assertEquals("jdbc:postgresql://pg.example:5433/admin?sslmode=require", db.jdbcUrl(null));
        assertEquals("jdbc:postgresql://pg.example:5433/t_1?sslmode=require", db.jdbcUrl("t_1"));
        assertEquals("existing server named by -D" + PG + "url", db.provenance());
    }

    @Test
    void postgresDefaultsAndTheVersionedKeyFirst() {
        props.set(PG + "url", "jdbc:postgresql://any.example/").set(PG_17 + "url", "jdbc:postgresql://seventeen.example");
        ExternalDatabase db = ExternalDatabase.fromProperties(POSTGRES_17);
        assertNotNull(db);
        assertEquals("seventeen.example", db.host());
        assertEquals(5432, db.port());
        assertEquals("postgres", db.user());
        assertEquals("", db.password());
        assertEquals("postgres", db.maintenanceDatabase());
        assertEquals("jdbc:postgresql://seventeen.example:5432/postgres", db.jdbcUrl(null));
        assertNull(ExternalDatabase.fromProperties(MARIADB_1011), "the PostgreSQL keys name no MariaDB");
    }

    @Test
    void aMysqlUrlForPostgresIsRefusedNamingTheProperty() {
        props.set(PG_17 + "url", "jdbc:mysql://db.example:3306/");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ExternalDatabase.fromProperties(POSTGRES_17));
        assertTrue(e.getMessage().startsWith(PG_17 + "url must be a jdbc:postgresql:// URL"), e.getMessage());
    }
}
