package io.cdcconnect.it;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/configuration.md must be exactly what the connectors' ConfigDefs say. */
class ConfigReferenceTest {

    @Test
    void configurationReferenceMatchesTheConnectorsConfigDefs() throws Exception {
        Path docs = ConnectorConfigFiles.configDir().resolveSibling("docs").resolve("configuration.md");
        String generated = ConfigReference.render(Pipeline.pluginDir());
        assertTrue(generated.contains("`connection.url`") && generated.contains("`output.format`"), generated);
        if (Boolean.getBoolean("cdc.docs.write")) {
            Files.writeString(docs, generated);
        }
        String current = Files.exists(docs) ? Files.readString(docs) : "";
        assertEquals(generated, current, docs + " is stale; regenerate it with: mvn -B -pl integration-tests test "
                + "-Dtest=ConfigReferenceTest -Dcdc.docs.write=true");
    }
}
