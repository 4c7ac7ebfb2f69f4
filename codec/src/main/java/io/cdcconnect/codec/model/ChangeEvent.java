package io.cdcconnect.codec.model;

/** What flows from a source to a sink: a row change, a DDL statement, or a watermark. */
public sealed interface ChangeEvent permits RowChange, DdlChange, Watermark {

    /** The commit ts (TiDB TSO layout: physical ms &lt;&lt; 18 | logical), or the watermark ts. 0 when unknown. */
    long commitTs();

    /** Physical part of a TSO, in epoch milliseconds. */
    static long physicalMillis(long tso) {
        return tso >>> 18;
    }

    /** A TSO from epoch milliseconds and a logical counter (0 .. 2^18-1). */
    static long tso(long physicalMillis, long logical) {
        return (physicalMillis << 18) | (logical & 0x3FFFFL);
    }
}
