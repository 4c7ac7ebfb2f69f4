package io.cdcconnect.verify;

import java.util.List;
import java.util.Map;

/**
 * What to compare: the two sides, the source tables ({@code schema.table}, {@code *} and {@code ?} as wildcards), the
 * target schema of each source schema (absent: the same name), rows per chunk, threads, an optional condition both
 * sides' queries add, how many differing keys of each kind a table lists, and how often progress is reported.
 */
public record VerifyRequest(ConnectionSource source, ConnectionSource target, List<String> tables,
                            Map<String, String> schemaMap, int chunkSize, int threads, String where, int shown,
                            long progressMillis) {

    public static final int DEFAULT_CHUNK_SIZE = 10_000;
    public static final int DEFAULT_THREADS = 4;
    public static final int DEFAULT_SHOWN = 20;
    public static final long DEFAULT_PROGRESS_MILLIS = 10_000;

    public VerifyRequest {
        tables = List.copyOf(tables);
        schemaMap = Map.copyOf(schemaMap);
        if (chunkSize < 1) throw new IllegalArgumentException("chunk size must be at least 1, got " + chunkSize);
        if (threads < 1) throw new IllegalArgumentException("threads must be at least 1, got " + threads);
    }

    /** Defaults for everything but the sides, tables and schema map. */
    public static VerifyRequest of(ConnectionSource source, ConnectionSource target, List<String> tables,
                                   Map<String, String> schemaMap) {
        return new VerifyRequest(source, target, tables, schemaMap, DEFAULT_CHUNK_SIZE, DEFAULT_THREADS, null,
                DEFAULT_SHOWN, DEFAULT_PROGRESS_MILLIS);
    }

    public VerifyRequest withThreads(int n) {
        return new VerifyRequest(source, target, tables, schemaMap, chunkSize, n, where, shown, progressMillis);
    }

    public VerifyRequest withChunkSize(int n) {
        return new VerifyRequest(source, target, tables, schemaMap, n, threads, where, shown, progressMillis);
    }

    public VerifyRequest withShown(int n) {
        return new VerifyRequest(source, target, tables, schemaMap, chunkSize, threads, where, n, progressMillis);
    }

    public String targetSchema(String sourceSchema) {
        return schemaMap.getOrDefault(sourceSchema, sourceSchema);
    }
}
