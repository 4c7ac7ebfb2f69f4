package io.cdcconnect.codec.group;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;

/** A cheap estimate of the bytes an event will take once encoded, for the in-flight bound. */
public final class EventSize {

    private EventSize() {
    }

    public static long estimate(ChangeEvent e) {
        if (e instanceof RowChange r) {
            return 128 + image(r.before()) + image(r.after()) + 16L * r.table().columnCount();
        }
        if (e instanceof DdlChange d) {
            return 128 + d.query().length();
        }
        return 128;
    }

    private static long image(Object[] row) {
        if (row == null) return 0;
        long n = 0;
        for (Object v : row) {
            if (v instanceof String s) n += s.length() + 2;
            else if (v instanceof byte[] b) n += b.length + b.length / 2 + 2;
            else n += 12;
        }
        return n;
    }
}
