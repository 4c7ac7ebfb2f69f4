package io.cdcconnect.codec;

import io.cdcconnect.codec.avro.HttpSchemaRegistryClient;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the codec reads besides the message tells an outage ({@link UnavailableException}: retry later, never a bad
 * message) from a message that is wrong ({@link CodecException}): the schema registry through the HTTP client, the
 * claim-check store through {@link ClaimCheck}.
 */
class UnavailableVersusMalformedTest {

    private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"t\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}";

    @Test
    void aRegistryThatIsDownFailingOrRefusingTheClientIsUnavailable() throws Exception {
        try (StandInSchemaRegistry registry = StandInSchemaRegistry.start();
             HttpSchemaRegistryClient writer = new HttpSchemaRegistryClient(registry.url())) {
            int id = writer.register("t-value", SCHEMA, new Schema.Parser().parse(SCHEMA));
            for (int status : new int[]{503, 500, 401, 403, 429}) {
                registry.failFor(Duration.ofMinutes(1), status);
                try (HttpSchemaRegistryClient reader = new HttpSchemaRegistryClient(registry.url())) {
                    UnavailableException e = assertThrows(UnavailableException.class, () -> reader.schemaById(id));
                    assertEquals("schema registry " + registry.url(), e.resource());
                    assertTrue(e.getMessage().contains("HTTP " + status) && e.getMessage().contains("schema id " + id),
                            e.getMessage());
                }
            }
            registry.failFor(Duration.ZERO, 503);
            try (HttpSchemaRegistryClient reader = new HttpSchemaRegistryClient(registry.url())) {
                assertEquals(Schema.Type.RECORD, reader.schemaById(id).getType(), "served again once it is back");
                // an id no registry has is about the message: malformed, not an outage
                CodecException unknown = assertThrows(CodecException.class, () -> reader.schemaById(id + 1000));
                assertTrue(unknown.getMessage().contains("HTTP 404"), unknown.getMessage());
            }
        }
    }

    @Test
    void aRegistryNobodyAnswersIsUnavailable() throws Exception {
        String url;
        try (StandInSchemaRegistry gone = StandInSchemaRegistry.start()) {
            url = gone.url();
        }
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(url, null, null, Duration.ofSeconds(2))) {
            UnavailableException e = assertThrows(UnavailableException.class, () -> client.schemaById(1));
            assertTrue(e.getMessage().contains("could not be reached"), e.getMessage());
        }
    }

    @Test
    void aStoreWhoseDirectoryIsGoneIsUnavailableAMissingFileInItIsMalformed(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("store"));
        ClaimCheck store = ClaimCheck.open(root.toUri().toString(), true);
        String location = store.newLocation();
        store.write(location, null, new byte[]{1, 2, 3});

        // a pointer to a file the store does not have: the message is wrong
        CodecException missing = assertThrows(CodecException.class, () -> store.read(store.newLocation()));
        assertTrue(missing.getMessage().contains("no file"), missing.getMessage());

        // the share is unmounted: the store is down, whichever file is asked for
        Path away = Files.move(root, dir.resolve("unmounted"));
        UnavailableException down = assertThrows(UnavailableException.class, () -> store.read(location));
        assertEquals("claim-check store " + store.uri(), down.resource());
        Files.move(away, root);
        assertEquals(3, store.read(location).value().length, "read again once it is back");
    }
}
