package io.cdcconnect.source.engine;

import io.cdcconnect.source.SourceFlavor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The warm-up's statements against Debezium's real parsers of both flavours. */
class DdlParserWarmupTest {

    @Test
    void everyStatementParsesWithDebeziumsMariaDbParser() {
        assertEquals(DdlParserWarmup.STATEMENTS.size(), DdlParserWarmup.run(SourceFlavor.MARIADB));
    }

    @Test
    void everyStatementParsesWithDebeziumsMySqlParser() {
        assertEquals(DdlParserWarmup.STATEMENTS.size(), DdlParserWarmup.run(SourceFlavor.MYSQL));
    }
}
