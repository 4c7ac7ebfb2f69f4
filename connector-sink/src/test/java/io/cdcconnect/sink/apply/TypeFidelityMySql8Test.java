package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.DatabaseServer;

/**
 * {@link TypeFidelityTest} into MySQL 8.0 (the embedded MySQL 8.0.15, MySQL's own server, types and SQL modes):
 * every type of the model read back exactly as from MariaDB. Skipped, with the reason, where no MySQL 8.0 can be had.
 */
class TypeFidelityMySql8Test extends TypeFidelityTest {

    @Override
    DatabaseServer server() {
        return SinkTarget.mysql80();
    }
}
