package io.cdcconnect.source;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A failure of Debezium's start reaches Connect (and its REST status) without the passwords Debezium prints. */
class CdcSourceTaskFailureTest {

    @Test
    void debeziumsConfigurationInAMessageLosesItsSecrets() {
        IllegalStateException debezium = new IllegalStateException("DebeziumOpenLineageEmitter not initialized for "
                + "connector ConnectorContext[connectorName=mariadb, config={database.user=cdc, "
                + "database.password=s3cr3t!, database.ssl.keystore.password=k3y, topic.prefix=cdc}]",
                new RuntimeException("config={database.password=s3cr3t!}"));
        RuntimeException clean = CdcSourceTask.withoutSecrets(debezium);
        String m = clean.getMessage();
        assertFalse(m.contains("s3cr3t") || m.contains("k3y"), m);
        assertTrue(m.contains("database.password=***") && m.contains("database.ssl.keystore.password=***"), m);
        assertTrue(m.startsWith("java.lang.IllegalStateException: DebeziumOpenLineageEmitter not initialized"), m);
        assertTrue(m.contains("database.user=cdc") && m.contains("topic.prefix=cdc"), m);
        assertNull(clean.getCause(), "the cause would print the configuration again");
        assertEquals(debezium.getStackTrace().length, clean.getStackTrace().length);
    }

    /** Secrets known by value are masked however the message writes them: in a URL, percent-encoded, alone. */
    @Test
    void theTasksSecretsAreMaskedWhereverTheMessageShowsThem() {
        java.util.Map<String, String> settings = java.util.Map.of("database.user", "cdc", "database.password",
                "p@ss/w0rd", "schema.registry.url", "http://reg:r3gpw@registry:8081");
        IllegalStateException debezium = new IllegalStateException("cannot connect to "
                + "jdbc:mysql://cdc:p%40ss%2Fw0rd@db:3306/?useSSL=false (auth with p@ss/w0rd) via registry:8081 "
                + "as reg/r3gpw");
        String m = CdcSourceTask.withoutSecrets(debezium, io.cdcconnect.codec.util.Redaction.secretValues(settings))
                .getMessage();
        assertFalse(m.contains("p@ss/w0rd") || m.contains("p%40ss%2Fw0rd") || m.contains("r3gpw"), m);
        assertTrue(m.contains("@db:3306/?useSSL=false") && m.contains("registry:8081"), m);
    }
}
