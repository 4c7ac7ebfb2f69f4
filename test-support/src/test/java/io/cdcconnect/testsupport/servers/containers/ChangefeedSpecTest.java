package io.cdcconnect.testsupport.servers.containers;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChangefeedSpecTest {
    private static final ChangefeedSpec CANAL = ChangefeedSpec.of("feed-canal", "canal-json", "kafka-1:19092", "ticdc-default")
            .param("enable-tidb-extension", "true");

    @Test
    void theSinkUriCarriesTheProtocolOnePartitionAndTheExtraParameters() {
        assertEquals("kafka://kafka-1:19092/ticdc-default?protocol=canal-json&partition-num=1&replication-factor=1"
                + "&max-message-bytes=1048576&enable-tidb-extension=true", CANAL.sinkUri());
    }

    @Test
    void theConfigFiltersTheTablesAndDispatchesEachToItsTopic() {
        ChangefeedSpec s = CANAL.tables("shop.*").topicPerTable("cdc.{schema}.{table}");
        assertEquals("""
                [filter]
                rules = ['shop.*']

                [sink]
                dispatchers = [
                  {matcher = ['*.*'], topic = 'cdc.{schema}.{table}'},
                ]
                """, s.configToml());
        assertEquals("[filter]\nrules = ['*.*']\n", ChangefeedSpec.of("a", "open-protocol", "k:1", "t").configToml());
    }

    @Test
    void theCreateCommandRunsTheCliAgainstTheLocalServer() {
        ChangefeedSpec s = CANAL.tables("shop.*");
        assertEquals(List.of("/cdc", "cli", "changefeed", "create", "--server=http://127.0.0.1:8300",
                "--sink-uri=" + s.sinkUri(), "--changefeed-id=feed-canal", "--config=/tmp/changefeed-feed-canal.toml",
                "--no-confirm"), s.createCommand());
        assertEquals(List.of("/cdc", "cli", "changefeed", "remove", "--server=http://127.0.0.1:8300",
                "--changefeed-id=feed-canal"), s.removeCommand());
    }

    @Test
    void avroNeedsTheSchemaRegistryFlag() {
        ChangefeedSpec avro = ChangefeedSpec.of("feed-avro", "avro", "kafka-1:19092", "ticdc-default");
        IllegalStateException e = assertThrows(IllegalStateException.class, avro::createCommand);
        assertTrue(e.getMessage().contains("schema registry"), e.getMessage());
        List<String> cmd = avro.schemaRegistry("http://schema-registry-2:8081").createCommand();
        assertEquals("--schema-registry=http://schema-registry-2:8081", cmd.get(cmd.size() - 1));
    }

    @Test
    void whatTiCdcWouldRejectIsRejectedHere() {
        assertThrows(IllegalArgumentException.class, () -> ChangefeedSpec.of("feed_1", "avro", "k:1", "t"));
        assertThrows(IllegalArgumentException.class, () -> ChangefeedSpec.of("feed-1", "json", "k:1", "t"));
        assertThrows(IllegalArgumentException.class, () -> CANAL.topicPerTable("cdc/{schema}"));
        assertThrows(IllegalArgumentException.class, () -> CANAL.topicPerTable("cdc.{table}"));
        assertThrows(IllegalArgumentException.class, () -> CANAL.tables("it's.*").configToml());
    }

    @Test
    void parameterValuesAreUrlEncoded() {
        assertTrue(CANAL.param("sasl-password", "a&b=c").sinkUri().endsWith("&sasl-password=a%26b%3Dc"));
    }
}
