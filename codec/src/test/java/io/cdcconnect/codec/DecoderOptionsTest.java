package io.cdcconnect.codec;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each format's decoder says which options it reads; a configuration is checked against that, not a copy. */
class DecoderOptionsTest {

    @Test
    void eachFormatNamesTheOptionsItsDecoderReads() {
        assertEquals(Set.of("large-message-handle-compression", "claim-check-storage-uri", "claim-check-raw-value",
                "max-decoded-bytes", "claim-check-max-record-bytes", "claim-check-max-record-pointers"),
                WireFormat.CANAL_JSON.decoderOptions());
        assertEquals(WireFormat.CANAL_JSON.decoderOptions(), WireFormat.OPEN_PROTOCOL.decoderOptions());
        assertTrue(WireFormat.AVRO.decoderOptions().containsAll(Set.of("schema-registry", "schema-registry-username",
                "schema-registry-password", "schema-registry-timeout-ms")));
        assertEquals(Set.of(), WireFormat.DEBEZIUM.decoderOptions());
    }

    @Test
    void anUnknownOptionIsRefusedListingTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WireFormat.CANAL_JSON.checkDecoderOptions(Map.of("enable-tidb-extension", "true")));
        assertTrue(e.getMessage().startsWith("unknown option 'enable-tidb-extension' (known: claim-check-max-record-bytes, "
                + "claim-check-max-record-pointers, claim-check-raw-value, claim-check-storage-uri, "
                + "large-message-handle-compression, max-decoded-bytes)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> WireFormat.AVRO.checkDecoderOptions(Map.of("large-message-handle-compression", "lz4")));
        assertTrue(e.getMessage().contains("schema-registry-timeout-ms"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> WireFormat.DEBEZIUM.checkDecoderOptions(Map.of("a", "b")));
        assertTrue(e.getMessage().contains("reads no options"), e.getMessage());
    }

    @Test
    void knownOptionsAreCheckedForTheirValuesWithoutDecoding() {
        assertDoesNotThrow(() -> WireFormat.OPEN_PROTOCOL.checkDecoderOptions(Map.of(
                "large-message-handle-compression", "snappy", "claim-check-storage-uri", "file:///tmp/claims")));
        assertThrows(IllegalArgumentException.class, () -> WireFormat.CANAL_JSON.checkDecoderOptions(Map.of(
                "large-message-handle-compression", "zip")));
        assertThrows(IllegalArgumentException.class, () -> WireFormat.CANAL_JSON.checkDecoderOptions(Map.of(
                "claim-check-raw-value", "true")));
        // the registry's URL may come later (the sink's own setting): not required here, but its timeout is checked
        assertDoesNotThrow(() -> WireFormat.AVRO.checkDecoderOptions(Map.of("schema-registry-username", "u")));
        assertThrows(IllegalArgumentException.class, () -> WireFormat.AVRO.checkDecoderOptions(Map.of(
                "schema-registry-timeout-ms", "0")));
    }
}
