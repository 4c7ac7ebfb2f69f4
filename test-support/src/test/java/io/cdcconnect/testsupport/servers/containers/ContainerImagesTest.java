package io.cdcconnect.testsupport.servers.containers;

import io.cdcconnect.testsupport.TemporaryProperties;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContainerImagesTest {

    @Test
    void everyNamedImageResolvesToItsDefault() {
        Map<String, String> expected = Map.of("mysql-8.0", "mysql:8.0", "mysql-8.4", "mysql:8.4",
                "mariadb-10.11", "mariadb:10.11", "mariadb-11.4", "mariadb:11.4", "tidb-8.5", "pingcap/tidb:v8.5.1",
                "pd", "pingcap/pd:v8.5.1", "tikv", "pingcap/tikv:v8.5.1", "ticdc", "pingcap/ticdc:v8.5.1",
                "schema-registry", "confluentinc/cp-schema-registry:7.9.0", "kafka", "apache/kafka:4.1.1");
        assertEquals(expected, ContainerImages.defaults());
        try (TemporaryProperties p = new TemporaryProperties()) {
            expected.keySet().forEach(k -> p.clear(ContainerImages.PROPERTY_PREFIX + k));
            expected.forEach((name, image) -> assertEquals(image, ContainerImages.image(name), name));
        }
    }

    @Test
    void databasesAreNamedByTheirSpecAndOtherVersionsGetTheFamilysImage() {
        assertEquals("mysql:8.0", ContainerImages.forDatabase(DatabaseSpec.mysql("8.0")));
        assertEquals("mysql:8.4", ContainerImages.forDatabase(DatabaseSpec.mysql("8.4").withoutBinlog()));
        assertEquals("mariadb:10.11", ContainerImages.forDatabase(DatabaseSpec.mariadb("10.11")));
        assertEquals("pingcap/tidb:v8.5.1", ContainerImages.forDatabase(DatabaseSpec.tidb("8.5")));
        assertEquals("mysql:9.1", ContainerImages.forDatabase(DatabaseSpec.mysql("9.1")));
        assertEquals("mariadb:11.8", ContainerImages.forDatabase(DatabaseSpec.mariadb("11.8")));
        assertEquals("pingcap/tidb:v7.5.0", ContainerImages.forDatabase(DatabaseSpec.tidb("7.5")));
    }

    @Test
    void aSystemPropertyReplacesAnImage() {
        try (TemporaryProperties p = new TemporaryProperties()) {
            p.set("cdc.test.image.kafka", " mirror.example:5000/apache/kafka:4.1.0 ");
            assertEquals("mirror.example:5000/apache/kafka:4.1.0", ContainerImages.image("kafka"));
            p.set("cdc.test.image.mysql-8.4", "mysql:8.4.3");
            assertEquals("mysql:8.4.3", ContainerImages.forDatabase(DatabaseSpec.mysql("8.4")));
            p.set("cdc.test.image.mysql-9.1", "container-registry.oracle.com/mysql/community-server:9.1");
            assertEquals("container-registry.oracle.com/mysql/community-server:9.1",
                    ContainerImages.forDatabase(DatabaseSpec.mysql("9.1")));
            p.set("cdc.test.image.kafka", "  ");
            assertEquals(ContainerImages.KAFKA, ContainerImages.image("kafka"), "a blank override is ignored");
        }
    }

    @Test
    void anUnknownNameIsRefusedNamingTheProperty() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ContainerImages.image("zookeeper"));
        assertTrue(e.getMessage().contains("-Dcdc.test.image.zookeeper="), e.getMessage());
    }

    /** The typed containers check their image's name when constructed (no Docker needed for that). */
    @Test
    void testcontainersAcceptsTheImagesAndTheirMirrors() {
        assertDoesNotThrow(() -> new KafkaContainer(DockerImageName.parse(ContainerImages.KAFKA)));
        assertThrows(IllegalStateException.class, () -> new KafkaContainer(DockerImageName.parse("mirror.example/kafka:4.1.1")),
                "without asCompatibleSubstituteFor a renamed image is refused");
        assertDoesNotThrow(() -> new KafkaContainer(DockerImageName.parse("mirror.example/kafka:4.1.1")
                .asCompatibleSubstituteFor("apache/kafka")));
        assertDoesNotThrow(() -> new MySQLContainer<>(DockerImageName.parse(ContainerImages.MYSQL_8_4)));
        assertDoesNotThrow(() -> new MySQLContainer<>(DockerImageName.parse("mirror.example/mysql:8.0")
                .asCompatibleSubstituteFor("mysql")));
    }
}
