package io.cdcconnect.it.containers;

import io.cdcconnect.it.AllTypesEndToEndTest;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import org.junit.jupiter.api.Tag;

/**
 * {@link AllTypesEndToEndTest}'s rows with MySQL 8.0 as the source (a container: ROW binlog, GTIDs on; the source
 * connector with {@code source.flavor=mysql}, i.e. Debezium's MySQL connector), applied to the default target.
 * Skipped unless {@code cdc.test.mysql.versions} lists 8.0.
 */
@Tag("containers")
@RequiresContainers(mysqlVersion = "8.0")
class MySql80AsSourceAllTypesTest extends AllTypesEndToEndTest {

    @Override
    protected DatabaseSpec sourceSpec() {
        return ContainerTests.mysql("8.0", true);
    }

    @Override
    protected String sourceConfig() {
        return "source-mysql.json";
    }

    /** Asked first: skips before the target server starts when MySQL 8.0 cannot run here. */
    @Override
    protected DatabaseSpec targetSpec() {
        ContainerTests.mysql("8.0", true);
        return super.targetSpec();
    }
}
