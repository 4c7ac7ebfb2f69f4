package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.EventEncoders;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The avro format's options, by TiCDC's names (use against a real registry: {@link AvroApicurioRegistryTest}). */
class AvroCodecFactoryTest {

    @Test
    void defaultsAreTiCDCs() {
        assertEquals(AvroOptions.defaults(), AvroCodecFactory.options(Map.of()));
    }

    @Test
    void optionsAreReadByTiCDCNames() {
        AvroOptions o = AvroCodecFactory.options(Map.of("enable-tidb-extension", "true",
                "avro-decimal-handling-mode", "String", "avro-bigint-unsigned-handling-mode", "string",
                "avro-namespace", "prod"));
        assertEquals(new AvroOptions("prod", true, AvroOptions.DecimalHandling.STRING,
                AvroOptions.BigintUnsignedHandling.STRING), o);
    }

    @Test
    void aBadModeIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AvroCodecFactory.options(Map.of("avro-decimal-handling-mode", "exact")));
        assertTrue(e.getMessage().contains("avro-decimal-handling-mode"), e.getMessage());
    }

    @Test
    void theRegistryUrlIsRequired() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EventEncoders.create("avro", Map.of()));
        assertTrue(e.getMessage().contains("schema-registry"), e.getMessage());
    }

    @Test
    void largeMessageHandlingIsRefusedForAvro() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EventEncoders.create("avro", Map.of("schema-registry", "http://127.0.0.1:1",
                        "large-message-handle-option", "handle-key-only")));
        assertTrue(e.getMessage().contains("large-message-handle-option"), e.getMessage());
    }

    @Test
    void aMalformedRegistryUrlDoesNotEchoIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AvroCodecFactory.registry(Map.of("schema-registry", "http://u:top secret@host:8081")));
        assertTrue(!e.getMessage().contains("secret"), e.getMessage());
    }

    @Test
    void aRegistryTrustStoreIsLoadedOrRefusedWithoutItsPassword(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        assertEquals(null, AvroCodecFactory.tls(Map.of()), "no trust store: the JVM's default");
        java.nio.file.Path store = dir.resolve("trust.p12");
        java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        try (var out = java.nio.file.Files.newOutputStream(store)) {
            ks.store(out, "store-secret".toCharArray());
        }
        assertTrue(AvroCodecFactory.tls(Map.of(AvroCodecFactory.SCHEMA_REGISTRY_TRUSTSTORE, store.toString(),
                AvroCodecFactory.SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD, "store-secret")) != null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AvroCodecFactory.tls(Map.of(
                AvroCodecFactory.SCHEMA_REGISTRY_TRUSTSTORE, store.toString(),
                AvroCodecFactory.SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD, "wrong-secret")));
        assertTrue(e.getMessage().contains(AvroCodecFactory.SCHEMA_REGISTRY_TRUSTSTORE), e.getMessage());
        assertTrue(!e.getMessage().contains("wrong-secret"), e.getMessage());
    }
}
