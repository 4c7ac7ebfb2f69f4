package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What a release publishes, as {@code mvn -B -Prelease verify} leaves it before this module's tests run (and as
 * .github/workflows/release.yml uploads it): the two plugin archives and cdc-verify's distribution, each with a
 * {@code .sha512} that verifies; in each plugin archive a CycloneDX SBOM ({@code doc/bom.json}) listing exactly the
 * jars of its {@code lib/}; and deploy/image/Dockerfile, FROM Apache Kafka's image of the root pom's kafka.version,
 * installing exactly those two archives into the worker's plugin.path. Outside the release build (no
 * {@code cdc.release.build}, or the outputs missing) it is reported skipped with the reason.
 */
class ReleaseOutputsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** module folder, archive name pattern. */
    private static final List<String[]> ARCHIVES = List.of(
            new String[]{"connector-source", "cdc-connect-source-(.+)-plugin\\.zip"},
            new String[]{"connector-sink", "cdc-connect-sink-(.+)-plugin\\.zip"},
            new String[]{"verify", "cdc-connect-verify-(.+)-dist\\.zip"});

    private static Path archive(String module, String pattern) throws IOException {
        Path target = ROOT.resolve(module).resolve("target");
        assumeTrue(Boolean.getBoolean("cdc.release.build"),
                "not a release build: the release outputs are checked by mvn -Prelease verify");
        List<Path> found = new ArrayList<>();
        if (Files.isDirectory(target)) {
            try (Stream<Path> s = Files.list(target)) {
                String version = System.getProperty("cdc.release.version", "");
                s.filter(p -> {
                    Matcher m = Pattern.compile(pattern).matcher(p.getFileName().toString());
                    return m.matches() && (version.isEmpty() || m.group(1).equals(version));
                }).forEach(found::add);
            }
        }
        assumeTrue(found.size() == 1 && Files.isRegularFile(sha512Of(found.get(0))),
                "release outputs absent: want one " + pattern + " with its .sha512 in " + target + ", found " + found);
        return found.get(0);
    }

    private static Path sha512Of(Path zip) {
        return zip.resolveSibling(zip.getFileName() + ".sha512");
    }

    @Test
    void everyChecksumVerifies() throws Exception {
        for (String[] a : ARCHIVES) {
            Path zip = archive(a[0], a[1]);
            String line = Files.readString(sha512Of(zip)).strip();
            Matcher m = Pattern.compile("([0-9a-f]{128})  (\\S+)").matcher(line);
            assertTrue(m.matches(), "sha512sum -c's form, <hash>  <file>: " + line);
            assertEquals(zip.getFileName().toString(), m.group(2), "names the archive beside it");
            MessageDigest d = MessageDigest.getInstance("SHA-512");
            try (InputStream in = Files.newInputStream(zip)) {
                byte[] buf = new byte[1 << 16];
                for (int n; (n = in.read(buf)) > 0; ) d.update(buf, 0, n);
            }
            assertEquals(HexFormat.of().formatHex(d.digest()), m.group(1), zip + " against its .sha512");
        }
    }

    @Test
    void eachPluginSbomListsExactlyTheJarsOfItsLib() throws Exception {
        for (String[] a : ARCHIVES.subList(0, 2)) {
            Path zip = archive(a[0], a[1]);
            Set<String> lib = new TreeSet<>();
            JsonNode bom = null;
            try (ZipFile z = new ZipFile(zip.toFile())) {
                for (ZipEntry e : java.util.Collections.list(z.entries())) {
                    String name = e.getName();
                    if (name.matches("[^/]+/lib/[^/]+\\.jar")) lib.add(name.substring(name.lastIndexOf('/') + 1));
                    if (name.matches("[^/]+/doc/bom\\.json")) {
                        try (InputStream in = z.getInputStream(e)) {
                            bom = JSON.readTree(in);
                        }
                    }
                }
            }
            assertNotNull(bom, zip + " has no doc/bom.json (the release profile's CycloneDX SBOM)");
            assertEquals("CycloneDX", bom.path("bomFormat").asText(), zip.toString());
            Set<String> listed = new TreeSet<>();
            JsonNode self = bom.path("metadata").path("component");
            listed.add(self.path("name").asText() + "-" + self.path("version").asText() + ".jar");
            for (JsonNode c : bom.path("components")) {
                assertTrue(listed.add(c.path("name").asText() + "-" + c.path("version").asText() + ".jar"),
                        zip + ": listed twice: " + c);
                assertTrue(c.path("purl").asText().startsWith("pkg:maven/"), zip + ": " + c);
            }
            assertFalse(lib.isEmpty(), zip.toString());
            assertEquals(lib, listed, zip + ": the SBOM's components (and the connector itself) against lib/");
        }
    }

    @Test
    void theImageInstallsExactlyThoseArchivesIntoPluginPath() throws Exception {
        Path source = archive(ARCHIVES.get(0)[0], ARCHIVES.get(0)[1]);
        Path sink = archive(ARCHIVES.get(1)[0], ARCHIVES.get(1)[1]);
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        Matcher kv = Pattern.compile("<kafka\\.version>([^<]+)</kafka\\.version>").matcher(pom);
        assertTrue(kv.find(), "kafka.version in the root pom");
        Matcher version = Pattern.compile(ARCHIVES.get(0)[1]).matcher(source.getFileName().toString());
        assertTrue(version.matches());

        String dockerfile = Files.readString(ROOT.resolve("deploy/image/Dockerfile"));
        List<String> lines = new ArrayList<>();
        for (String l : dockerfile.replace("\\\n", " ").lines().toList()) {
            if (!l.isBlank() && !l.startsWith("#")) lines.add(l.strip());
        }
        assertTrue(lines.contains("ARG KAFKA_VERSION=" + kv.group(1)), "the image's Kafka is the pom's kafka.version "
                + kv.group(1) + ": " + lines);
        assertTrue(lines.contains("FROM apache/kafka:${KAFKA_VERSION}"), lines.toString());
        assertEquals(1, lines.stream().filter(l -> l.startsWith("FROM ")).count(), "one stage: " + lines);

        String v = version.group(1);
        String text = String.join("\n", lines).replace("${VERSION}", v);
        Set<String> copied = new TreeSet<>();
        Set<String> unzipped = new TreeSet<>();
        Set<String> into = new TreeSet<>();
        Matcher zips = Pattern.compile("(\\S+\\.zip)").matcher(text);
        while (zips.find()) copied.add(zips.group(1).substring(zips.group(1).lastIndexOf('/') + 1));
        Matcher unzip = Pattern.compile("unzip -q (\\S+\\.zip) -d (\\S+)").matcher(text);
        while (unzip.find()) {
            unzipped.add(unzip.group(1).substring(unzip.group(1).lastIndexOf('/') + 1));
            into.add(unzip.group(2));
        }
        Set<String> archives = new TreeSet<>(List.of(source.getFileName().toString(), sink.getFileName().toString()));
        assertEquals(archives, copied, "the Dockerfile names exactly the two plugin archives");
        assertEquals(archives, unzipped, "and unzips both");

        Properties worker = new Properties();
        try (InputStream in = Files.newInputStream(ROOT.resolve("config/connect-distributed-dedicated.properties"))) {
            worker.load(in);
        }
        assertEquals(Set.of(worker.getProperty("plugin.path")), into, "unzipped into the worker's plugin.path");
        assertTrue(text.contains("COPY connect-distributed-dedicated.properties /opt/kafka/config/cdc-connect-worker.properties"),
                text);
        assertTrue(text.contains("/opt/kafka/config/cdc-connect-worker.properties\"]"), "the worker runs on that file: " + text);

        String workflow = Files.readString(ROOT.resolve(".github/workflows/release.yml"));
        assertTrue(workflow.contains("file: deploy/image/Dockerfile"), "the release workflow builds this image");
        for (String f : List.of("cdc-connect-source-$VERSION-plugin.zip", "cdc-connect-sink-$VERSION-plugin.zip",
                "cdc-connect-verify-$VERSION-dist.zip")) {
            assertTrue(workflow.contains(f), "the release publishes " + f);
        }
    }
}
