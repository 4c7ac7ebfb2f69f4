package io.cdcconnect.testsupport.servers.containers;

import io.cdcconnect.testsupport.TemporaryProperties;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
                "schema-registry", "confluentinc/cp-schema-registry:7.9.0", "kafka", "apache/kafka:4.3.1");
        assertEquals(expected, ContainerImages.defaults());
        try (TemporaryProperties p = new TemporaryProperties()) {
            expected.keySet().forEach(k -> p.clear(ContainerImages.PROPERTY_PREFIX + k));
            expected.forEach((name, image) -> assertEquals(image, ContainerImages.image(name), name));
        }
    }

    /**
     * The hosted workflow's containers job (.github/workflows/ci.yml) names in its matrix the versions it tests and
     * passes them on as {@code -Dcdc.test.image.*}: they are the images here, and Kafka's is the build's Kafka.
     */
    @Test
    void theHostedWorkflowNamesTheImagesTheProfileStartsAndTheBuildsKafka() throws IOException {
        Path root = Path.of(System.getProperty("cdc.root.dir", "..")).toAbsolutePath().normalize();
        String ci = Files.readString(root.resolve(".github/workflows/ci.yml"));
        assertEquals(List.of("8.0", "8.4"), matrix(ci, "mysql"));
        assertEquals(List.of(ContainerImages.MYSQL_8_0, ContainerImages.MYSQL_8_4),
                matrix(ci, "mysql").stream().map(v -> "mysql:" + v).toList());
        String tidb = matrix(ci, "tidb").get(0);
        assertEquals(List.of(ContainerImages.TIDB, ContainerImages.PD, ContainerImages.TIKV, ContainerImages.TICDC),
                List.of("pingcap/tidb:" + tidb, "pingcap/pd:" + tidb, "pingcap/tikv:" + tidb, "pingcap/ticdc:" + tidb));
        assertEquals(ContainerImages.KAFKA, "apache/kafka:" + matrix(ci, "kafka").get(0));
        assertEquals(ContainerImages.SCHEMA_REGISTRY, "confluentinc/cp-schema-registry:" + matrix(ci, "registry").get(0));
        Matcher kafka = Pattern.compile("<kafka\\.version>([^<]+)</kafka\\.version>")
                .matcher(Files.readString(root.resolve("pom.xml")));
        assertTrue(kafka.find(), "kafka.version in the root pom");
        assertEquals("apache/kafka:" + kafka.group(1), ContainerImages.KAFKA, "the broker is the build's Kafka");
        for (String name : List.of("tidb-8.5", "pd", "tikv", "ticdc", "kafka", "schema-registry")) {
            assertTrue(ci.contains("-D" + ContainerImages.PROPERTY_PREFIX + name + "="), "ci.yml passes on " + name);
        }
    }

    /** {@code name: ['a', 'b']} in a workflow's matrix. */
    private static List<String> matrix(String workflow, String name) {
        Matcher m = Pattern.compile("(?m)^\\s+" + Pattern.quote(name) + ": \\[([^\\]]*)]").matcher(workflow);
        assertTrue(m.find(), "the matrix names " + name);
        return Pattern.compile("\\s*,\\s*").splitAsStream(m.group(1).trim())
                .map(v -> v.replaceAll("^'|'$", "")).toList();
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
            p.set("cdc.test.image.kafka", " mirror.example:5000/apache/kafka:4.3.1 ");
            assertEquals("mirror.example:5000/apache/kafka:4.3.1", ContainerImages.image("kafka"));
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
        assertThrows(IllegalStateException.class, () -> new KafkaContainer(DockerImageName.parse("mirror.example/kafka:4.3.1")),
                "without asCompatibleSubstituteFor a renamed image is refused");
        assertDoesNotThrow(() -> new KafkaContainer(DockerImageName.parse("mirror.example/kafka:4.3.1")
                .asCompatibleSubstituteFor("apache/kafka")));
        assertDoesNotThrow(() -> new MySQLContainer<>(DockerImageName.parse(ContainerImages.MYSQL_8_4)));
        assertDoesNotThrow(() -> new MySQLContainer<>(DockerImageName.parse("mirror.example/mysql:8.0")
                .asCompatibleSubstituteFor("mysql")));
    }
}
