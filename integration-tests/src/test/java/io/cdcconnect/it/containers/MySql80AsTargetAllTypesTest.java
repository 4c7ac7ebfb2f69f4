package io.cdcconnect.it.containers;

import io.cdcconnect.it.AllTypesEndToEndTest;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import org.junit.jupiter.api.Tag;

/**
 * {@link AllTypesEndToEndTest}'s rows from the default MariaDB source applied to MySQL 8.0 (a container, no binlog):
 * the sink's MySQL 8 dialect and type fidelity. Skipped unless {@code cdc.test.mysql.versions} lists 8.0.
 */
@Tag("containers")
@RequiresContainers(mysqlVersion = "8.0")
class MySql80AsTargetAllTypesTest extends AllTypesEndToEndTest {

    @Override
    protected DatabaseSpec targetSpec() {
        return ContainerTests.mysql("8.0", false);
    }
}
