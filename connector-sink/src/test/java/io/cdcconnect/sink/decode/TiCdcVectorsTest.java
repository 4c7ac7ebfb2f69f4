package io.cdcconnect.sink.decode;

import io.cdcconnect.testsupport.TicdcVectors;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Canal-JSON messages from TiCDC's own tests (the shared vectors, canal-json/messages.jsonl), applied as a TiCDC
 * changefeed's records would be: an insert and an update batched in one value with TiCDC's "\n" terminator, a
 * delete, a watermark and a CREATE TABLE with the TiDB extension.
 */
class TiCdcVectorsTest {

    @Test
    void tiCdcCanalJsonMessagesAreApplied() throws Exception {
        List<String> lines = TicdcVectors.lines("canal-json/messages.jsonl");
        try (TestDatabase target = SinkTarget.database("ticdc_dst")) {
            target.exec("CREATE TABLE employee (id INT PRIMARY KEY, FirstName VARCHAR(20), LastName VARCHAR(20), "
                    + "HireDate DATE, OfficeLocation VARCHAR(20))");
            try (TaskDriver driver = new TaskDriver(Map.of("schema.map", "test=" + target.name() + ",cdc="
                    + target.name()))) {
                driver.putRecords(List.of(record(lines.get(0) + "\n" + lines.get(1), 0)));
                driver.awaitApplied(1);
                assertEquals(List.of(List.of("101", "Bob", "Smith", "2015-10-08", "Los Angeles")),
                        target.query("SELECT * FROM employee"));
                driver.putRecords(List.of(record(lines.get(2), 1), record(lines.get(3), 2), record(lines.get(4), 3)));
                driver.awaitApplied(4);
            }
            assertEquals(0, target.count("employee"));
            assertEquals(List.of(List.of("id"), List.of("name"), List.of("tiny"), List.of("comment")),
                    target.query("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '"
                            + target.name() + "' AND TABLE_NAME = 'person' ORDER BY ORDINAL_POSITION"));
        }
    }

    private static SinkRecord record(String value, long offset) {
        return new SinkRecord(TaskDriver.TOPIC, 0, null, null, null, value.getBytes(StandardCharsets.UTF_8), offset);
    }
}
