package io.cdcconnect.it.containers;

import io.cdcconnect.it.AllTypesEndToEndTest;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import org.junit.jupiter.api.Tag;

/**
 * {@link AllTypesEndToEndTest}'s rows from the default MariaDB source applied to TiDB 8.5 (one container, unistore):
 * the sink's TiDB dialect with every type, the unique-key swap and a case-only key change under
 * utf8mb4_general_ci (TiDB's new collations, on by default).
 */
@Tag("containers")
@RequiresContainers
class AllTypesIntoTidbTest extends AllTypesEndToEndTest {

    @Override
    protected DatabaseSpec targetSpec() {
        ContainerTests.requireContainers("TiDB as a target");
        return DatabaseSpec.tidb("8.5");
    }
}
