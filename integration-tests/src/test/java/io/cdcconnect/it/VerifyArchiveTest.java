package io.cdcconnect.it;

import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.TestDatabase;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cdc-verify as shipped: the dist archive built by module {@code verify}, unpacked by this module's build, its
 * {@code bin/cdc-verify} script run as a process against an embedded MariaDB. The archive holds the tool and the two
 * JDBC drivers and picocli only; the script prints the jar's version, exits 0, 1 and 2 as documented, and never
 * prints the password.
 */
class VerifyArchiveTest {

    private static Path home() throws IOException {
        try (Stream<Path> dirs = Files.list(Path.of(System.getProperty("cdc.verify.dist.dir", "target/verify-dist")))) {
            return dirs.filter(p -> p.getFileName().toString().startsWith("cdc-verify-")).findFirst().orElseThrow();
        }
    }

    /**
     * The archive's licences: LICENSE, doc/NOTICE naming this version, and doc/THIRD-PARTY.txt naming exactly the
     * third-party jars of lib/, each with its licence and the text of it in doc/licenses/ (as the plugin archives).
     */
    @Test
    void everyBundledJarHasItsLicenceTextAndAThirdPartyEntry() throws Exception {
        Path home = home();
        String version = home.getFileName().toString().substring("cdc-verify-".length());
        assertTrue(Files.readString(home.resolve("LICENSE")).contains("Apache License"));
        assertTrue(Files.readString(home.resolve("doc/LICENSE")).contains("Apache License"));
        String notice = Files.readString(home.resolve("doc/NOTICE"));
        assertTrue(notice.contains("cdc-connect-verify " + version) && !notice.contains("${"), notice);
        PluginArchiveTest.checkThirdParty("cdc-verify", home, "cdc-connect-");
    }

    @Test
    void theShippedScriptComparesAndExitsZeroOneOrTwo() throws Exception {
        Path home = home();
        Path script = home.resolve("bin/cdc-verify");
        assertTrue(Files.isExecutable(script), script + " is executable");
        List<String> libs;
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            libs = jars.map(p -> p.getFileName().toString().replaceAll("-[0-9][^-]*(-SNAPSHOT)?\\.jar$", "")).sorted().toList();
        }
        assertEquals(List.of("cdc-connect-verify", "checker-qual", "mysql-connector-j", "picocli", "postgresql"), libs);

        // --version reads the released jar's Implementation-Version: the version the archive is named for
        String version = home.getFileName().toString().substring("cdc-verify-".length());
        Result shown = run(script, List.of("--version"), Map.of());
        assertEquals(0, shown.status, shown.output);
        assertEquals("cdc-verify " + version, shown.output.lines().findFirst().orElseThrow(), shown.output);

        DatabaseServer server = TestServers.database(DatabaseSpec.mariadb("11.4").withoutBinlog());
        try (TestDatabase up = new TestDatabase(server, "dist_up"); TestDatabase down = new TestDatabase(server, "dist_down")) {
            for (TestDatabase db : List.of(up, down)) {
                db.exec("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20), price DECIMAL(8,2))",
                        "INSERT INTO items VALUES (1, 'one', 1.10), (2, 'two', 2.20), (3, 'three', 3.30)");
            }
            String url = "jdbc:mysql://" + server.host() + ":" + server.port() + "/";
            List<String> args = List.of("--source-url", url, "--source-user", server.user(), "--target-url", url,
                    "--target-user", server.user(), "--tables", up.name() + ".*", "--schema-map", up.name() + "=" + down.name());
            Map<String, String> env = Map.of("CDC_VERIFY_SOURCE_PASSWORD", server.password(),
                    "CDC_VERIFY_TARGET_PASSWORD", server.password());

            Result equal = run(script, args, env);
            assertEquals(0, equal.status, equal.output);
            assertTrue(equal.output.contains("RESULT: equal"), equal.output);

            down.exec("UPDATE items SET price = 2.25 WHERE id = 2");
            Result different = run(script, args, env);
            assertEquals(1, different.status, different.output);
            assertTrue(different.output.contains("different: id=2 (price: 2.2 ≠ 2.25)"), different.output);

            String wrong = "not-the-password-" + System.nanoTime();
            Result refused = run(script, args, Map.of("CDC_VERIFY_SOURCE_PASSWORD", wrong, "CDC_VERIFY_TARGET_PASSWORD", wrong));
            assertEquals(2, refused.status, refused.output);
            assertFalse(refused.output.contains(wrong), refused.output);
        }
    }

    record Result(int status, String output) {
    }

    private static Result run(Path script, List<String> args, Map<String, String> env) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(script.toString());
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "cdc-verify ended");
        System.out.println(out);
        return new Result(p.exitValue(), out);
    }
}
