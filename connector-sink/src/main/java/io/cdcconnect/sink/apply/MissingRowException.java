package io.cdcconnect.sink.apply;

import java.sql.SQLException;

/**
 * An UPDATE outside safe mode matched no row: the row it changes is not on the target. Its count is never ignored
 * (docs/ordering.md, "replays"): a safe-mode statement that met a unique value another row still held (rows of one
 * table on several partitions are applied in no order between partitions) may have replaced that row, and the row's
 * own later change must bring it back. The transaction is applied again in safe mode, where the change is an upsert of
 * the whole new image; with {@code safe.mode=never} the task fails naming it.
 */
public final class MissingRowException extends SQLException {
    public MissingRowException(String message) {
        super(message);
    }

    /** Whether {@code e} or one of its causes is one. */
    public static boolean in(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MissingRowException) return true;
        }
        return false;
    }
}
