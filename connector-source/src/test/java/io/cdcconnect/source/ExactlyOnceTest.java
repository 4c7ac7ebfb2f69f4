package io.cdcconnect.source;

import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which of Connect's transaction boundaries keep the source exactly-once, and what validation says otherwise. */
class ExactlyOnceTest {

    private static Map<String, String> with(String... kv) {
        Map<String, String> p = CdcSourceConfigTest.minimal();
        p.put("startup.checks.enabled", "false");
        for (int i = 0; i < kv.length; i += 2) p.put(kv[i], kv[i + 1]);
        return p;
    }

    @Test
    void pollAndConnectorBoundariesAreSupportedIntervalIsNot() {
        CdcSourceConnector c = new CdcSourceConnector();
        assertEquals(ExactlyOnceSupport.SUPPORTED, c.exactlyOnceSupport(with()), "Connect's default boundary is poll");
        assertEquals(ExactlyOnceSupport.SUPPORTED, c.exactlyOnceSupport(with("transaction.boundary", "poll")));
        assertEquals(ExactlyOnceSupport.SUPPORTED, c.exactlyOnceSupport(with("transaction.boundary", "Connector")));
        assertEquals(ExactlyOnceSupport.UNSUPPORTED, c.exactlyOnceSupport(with("transaction.boundary", "interval")));
        for (String format : List.of("canal-json", "open-protocol")) {
            assertEquals(ExactlyOnceSupport.SUPPORTED, c.exactlyOnceSupport(with("output.format", format,
                    "topic.partitions", "3", "topic.creation.default.partitions", "3", "partition.rule", "pk")), format);
        }
        assertEquals(ConnectorTransactionBoundaries.SUPPORTED, c.canDefineTransactionBoundaries(with()));
    }

    @Test
    void requiringExactlyOnceWithIntervalBoundariesFailsValidationNamingTheFix() {
        Map<String, List<String>> errors = errors(with("exactly.once.support", "required",
                "transaction.boundary", "interval"));
        assertEquals(java.util.Set.of("transaction.boundary"), errors.keySet());
        String message = errors.get("transaction.boundary").get(0);
        assertTrue(message.contains("transaction.boundary=poll") && message.contains("connector"), message);
    }

    @Test
    void intervalBoundariesAreFineWhenExactlyOnceIsOnlyRequested() {
        assertEquals(Map.of(), errors(with("exactly.once.support", "requested", "transaction.boundary", "interval")));
        assertEquals(Map.of(), errors(with("exactly.once.support", "required")));
    }

    private static Map<String, List<String>> errors(Map<String, String> p) {
        return new CdcSourceConnector().validate(p).configValues().stream()
                .filter(v -> !v.errorMessages().isEmpty())
                .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }
}
