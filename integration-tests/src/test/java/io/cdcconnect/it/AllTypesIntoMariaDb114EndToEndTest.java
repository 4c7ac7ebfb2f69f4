package io.cdcconnect.it;

import io.cdcconnect.testsupport.db.DatabaseSpec;

/**
 * The same rows as {@link AllTypesEndToEndTest}, applied into MariaDB 11.4 (a second database on the embedded server)
 * instead of 10.11: the sink's type fidelity on both server versions.
 */
class AllTypesIntoMariaDb114EndToEndTest extends AllTypesEndToEndTest {

    @Override
    protected DatabaseSpec targetSpec() {
        return null;
    }
}
