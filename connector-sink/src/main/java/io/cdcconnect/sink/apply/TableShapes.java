package io.cdcconnect.sink.apply;

import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.dml.RowShape;
import io.cdcconnect.sink.txn.SourcePartition;

/**
 * What the core asks of the target's tables: where a source database maps to, and the shape a row takes in its
 * target table. {@link ShapeResolver} reads the target's metadata; the simulation of the core keeps a model.
 */
public interface TableShapes {

    /** The target database of a source database ({@code schema.map}). */
    String targetSchema(String sourceSchema);

    /**
     * The row's shape in its target table.
     *
     * @throws ShapeResolver.RowRejectedException when the target lacks the table or one of the row's columns
     */
    RowShape shapeOf(TableInfo table, SourcePartition partition, long offset);

    /**
     * The row's shape in its target table as it is now, leaving out the row's columns the table no longer has (a row
     * re-sent from before the statement that dropped them).
     *
     * @throws ShapeResolver.RowRejectedException when the target lacks the table or a key column
     */
    RowShape projectedShapeOf(TableInfo table, SourcePartition partition, long offset);

    /** Forgets every table definition: a DDL statement may have changed any of them. */
    void invalidateAll();
}
