package io.cdcconnect.sink.testutil;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.TableInfo;

import java.util.List;

/** Small builders of model values for tests. */
public final class Rows {

    private Rows() {
    }

    /** Table (id BIGINT PK, v VARCHAR) in {@code schema}. */
    public static TableInfo idValue(String schema, String table) {
        return TableInfo.of(schema, table, List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
    }

    public static long ts(long physicalMillis) {
        return physicalMillis << 18;
    }
}
