package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.model.TableInfo;
import org.apache.avro.Schema;

import java.util.List;

/**
 * The Avro schemas of one table version.
 *
 * @param table        the table
 * @param keyColumns   the key's fields, in key order; empty when the table has no handle key (then messages have
 *                     no key)
 * @param keySchema    the key record, or null without key columns
 * @param keyJson      the key schema as registered (compact JSON, TiCDC's key order), or null
 * @param valueColumns the value's column fields, in table order
 * @param valueSchema  the value record
 * @param valueJson    the value schema as registered
 * @param extension    the value ends with TiCDC's extension fields
 */
public record AvroTableSchema(TableInfo table, List<AvroColumn> keyColumns, Schema keySchema, String keyJson,
                              List<AvroColumn> valueColumns, Schema valueSchema, String valueJson,
                              boolean extension) {

    public boolean hasKey() {
        return keySchema != null;
    }
}
