package io.cdcconnect.codec;

import io.cdcconnect.codec.model.TableInfo;

import java.util.Arrays;

/** Which columns identify a row when a message may carry only those (handle-key-only, delete-only-handle-key). */
public final class HandleKeys {

    private HandleKeys() {
    }

    /**
     * Columns flagged HANDLE_KEY; else the primary key; else the first unique key; else every column (a table without
     * a key is identified by its whole row).
     */
    public static boolean[] columns(TableInfo t) {
        int n = t.columnCount();
        boolean[] k = new boolean[n];
        boolean any = false;
        for (int i = 0; i < n; i++) {
            if (t.column(i).handleKey()) k[i] = any = true;
        }
        if (!any) {
            for (int i = 0; i < n; i++) {
                if (t.column(i).primaryKey()) k[i] = any = true;
            }
        }
        if (!any && !t.uniqueKeys().isEmpty()) {
            for (int i : t.uniqueKeys().get(0)) k[i] = any = true;
        }
        if (!any) {
            Arrays.fill(k, true);
        }
        return k;
    }
}
