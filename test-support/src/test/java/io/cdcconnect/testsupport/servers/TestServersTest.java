package io.cdcconnect.testsupport.servers;

import io.cdcconnect.testsupport.TemporaryProperties;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.ExternalDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Which provider TestServers picks, and how it says why a server cannot be had here. None of these starts a server. */
class TestServersTest {
    private static final DatabaseSpec MYSQL_84 = DatabaseSpec.mysql("8.4");

    private final TemporaryProperties props = new TemporaryProperties();

    @BeforeEach
    void noServerNamedAndNoProviderForced() {
        props.clear(TestServers.PROVIDER_PROPERTY, "cdc.test.db.mysql-8.4.url", "cdc.test.db.mysql-8.4.user",
                "cdc.test.db.mysql-8.4.password", "cdc.test.mysql.versions");
    }

    @AfterEach
    void restoreProperties() {
        props.close();
    }

    @Test
    void aMysqlWithoutDockerIsSkippedNamingWhyNeitherProviderCanServeIt() {
        String containersWhy = ContainersProvider.whyUnavailable();
        assumeTrue(containersWhy != null, "a Docker engine is reachable here: MySQL would start in a container");
        TestAbortedException e = assertThrows(TestAbortedException.class, () -> TestServers.database(MYSQL_84));
        String m = e.getMessage();
        assertTrue(m.startsWith("MySQL 8.4 with binlog is not available here: "), m);
        assertTrue(m.contains("has no embedded distribution on Maven Central"), "embedded's reason missing: " + m);
        assertTrue(m.endsWith("containers: " + containersWhy), "containers' reason missing: " + m);
    }

    @Test
    void mysql80ComesFromTheEmbeddedProviderWhereItRuns() {
        String why = new EmbeddedProvider().whyNot(DatabaseSpec.mysql("8.0"));
        assumeTrue(why == null, "no embedded MySQL 8.0 here: " + why);
        assertEquals("embedded", TestServers.providerFor(DatabaseSpec.mysql("8.0")).name());
        assertEquals("embedded", TestServers.providerFor(DatabaseSpec.mysql("8.0").withoutBinlog()).name());
    }

    @Test
    void forcingTheContainersProviderWithoutDockerSkipsEvenWhatEmbeddedServes() {
        String containersWhy = ContainersProvider.whyUnavailable();
        assumeTrue(containersWhy != null, "a Docker engine is reachable here");
        props.set(TestServers.PROVIDER_PROPERTY, "containers");
        TestAbortedException e = assertThrows(TestAbortedException.class,
                () -> TestServers.startDatabase(DatabaseSpec.mariadb("11.4"), Path.of("never-created")));
        assertTrue(e.getMessage().contains(TestServers.PROVIDER_PROPERTY + "=containers"), e.getMessage());
        assertTrue(e.getMessage().endsWith(containersWhy), e.getMessage());
    }

    @Test
    void whatOnlyContainersServeIsSkippedWithoutDocker() {
        String containersWhy = ContainersProvider.whyUnavailable();
        assumeTrue(containersWhy != null, "a Docker engine is reachable here");
        TestAbortedException registry = assertThrows(TestAbortedException.class, TestServers::confluentSchemaRegistry);
        assertTrue(registry.getMessage().startsWith("Confluent Schema Registry is not available here"), registry.getMessage());
        TestAbortedException kafka = assertThrows(TestAbortedException.class,
                () -> TestServers.kafkaConnectForContainers(Path.of("plugins"), Path.of("work")));
        assertTrue(kafka.getMessage().endsWith("containers: " + containersWhy), kafka.getMessage());
    }

    @Test
    void anUnknownProviderIsRefused() {
        props.set(TestServers.PROVIDER_PROPERTY, "bogus");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TestServers.database(MYSQL_84));
        assertEquals(TestServers.PROVIDER_PROPERTY + " must be embedded, containers or auto, not bogus", e.getMessage());
    }

    @Test
    void aServerNamedByPropertyComesFirstWithoutAskingAnyProvider() {
        props.set("cdc.test.db.mysql-8.4.url", "jdbc:mysql://db.example.invalid:3307/")
                .set("cdc.test.db.mysql-8.4.user", "tester")
                .set(TestServers.PROVIDER_PROPERTY, "bogus"); // would throw if a provider were asked
        DatabaseServer s = TestServers.database(MYSQL_84);
        ExternalDatabase e = assertInstanceOf(ExternalDatabase.class, s);
        assertEquals("db.example.invalid", e.host());
        assertEquals(3307, e.port());
        assertEquals("tester", e.user());
        assertEquals(MYSQL_84, e.spec());
    }

    @Test
    void mysqlVersionsComeFromTheirPropertyTrimmedAndWithoutBlanks() {
        assertEquals(List.of("8.0", "8.4"), TestServers.mysqlVersions());
        props.set("cdc.test.mysql.versions", " 8.4 , ,9.1");
        assertEquals(List.of("8.4", "9.1"), TestServers.mysqlVersions());
    }

    @Test
    void workFoldersLieUnderTheConfiguredFolderOnePerJvm() {
        props.set(TestServers.WORK_DIR_PROPERTY, "/tmp/cdc-work-root");
        assertEquals(Path.of("/tmp/cdc-work-root", "db-" + ProcessHandle.current().pid()), TestServers.workDir("db"));
    }
}
