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
}
