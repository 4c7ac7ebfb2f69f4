package io.cdcconnect.codec;

import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.open.OpenProtocolOptions;

import java.util.Locale;
import java.util.Map;

/**
 * The codec's options as strings, by TiCDC's names, so a connector config can pass them through unchanged.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>name</th><th>default</th><th>formats</th></tr>
 *   <tr><td>enable-tidb-extension</td><td>false</td><td>canal-json</td></tr>
 *   <tr><td>content-compatible</td><td>false</td><td>canal-json</td></tr>
 *   <tr><td>only-output-updated-columns</td><td>false</td><td>canal-json, open-protocol</td></tr>
 *   <tr><td>delete-only-output-handle-key-columns</td><td>false</td><td>canal-json, open-protocol</td></tr>
 *   <tr><td>open-output-old-value</td><td>true</td><td>open-protocol</td></tr>
 *   <tr><td>max-batch-size</td><td>16</td><td>open-protocol</td></tr>
 *   <tr><td>max-message-bytes</td><td>10485760</td><td>all</td></tr>
 *   <tr><td>large-message-handle-option</td><td>none (or handle-key-only, claim-check)</td><td>canal-json,
 *       open-protocol</td></tr>
 *   <tr><td>large-message-handle-compression</td><td>none (or snappy, lz4)</td><td>canal-json, open-protocol</td></tr>
 *   <tr><td>claim-check-storage-uri</td><td>none (file:///directory)</td><td>canal-json, open-protocol</td></tr>
 *   <tr><td>claim-check-raw-value</td><td>false</td><td>canal-json</td></tr>
 *   <tr><td>max-decoded-bytes</td><td>67108864</td><td>decoders of canal-json, open-protocol (not TiCDC's: ours):
 *       the most bytes a value may decompress to, and a claim-check file may hold</td></tr>
 *   <tr><td>claim-check-max-record-bytes</td><td>268435456</td><td>decoders of canal-json, open-protocol (ours): the
 *       most bytes one Kafka record may read back through claim-check pointers, files and what they decompress to</td></tr>
 *   <tr><td>claim-check-max-record-pointers</td><td>1000</td><td>decoders of canal-json, open-protocol (ours): the
 *       most claim-check pointers one Kafka record may hold</td></tr>
 * </table>
 */
public final class CodecOptions {

    public static final String ENABLE_TIDB_EXTENSION = "enable-tidb-extension";
    public static final String CONTENT_COMPATIBLE = "content-compatible";
    public static final String ONLY_OUTPUT_UPDATED_COLUMNS = "only-output-updated-columns";
    public static final String DELETE_ONLY_HANDLE_KEY_COLUMNS = "delete-only-output-handle-key-columns";
    public static final String OPEN_OUTPUT_OLD_VALUE = "open-output-old-value";
    public static final String MAX_BATCH_SIZE = "max-batch-size";
    public static final String MAX_MESSAGE_BYTES = "max-message-bytes";
    public static final String LARGE_MESSAGE_HANDLE = "large-message-handle-option";
    public static final String COMPRESSION = "large-message-handle-compression";
    /** Our own option (TiCDC has none): the bound on what one value becomes once decompressed or read back. */
    public static final String MAX_DECODED_BYTES = "max-decoded-bytes";
    public static final long DEFAULT_MAX_DECODED_BYTES = 64L * 1024 * 1024;
    /**
     * Our own option: the most bytes one Kafka record may read back through claim-check pointers, counting each file
     * and what its value decompresses to. 256 MiB: two files at the {@value #MAX_DECODED_BYTES} default that each
     * decompress to as much again; TiCDC itself writes one pointer per Kafka message.
     */
    public static final String CLAIM_CHECK_MAX_RECORD_BYTES = "claim-check-max-record-bytes";
    public static final long DEFAULT_CLAIM_CHECK_MAX_RECORD_BYTES = 256L * 1024 * 1024;
    /**
     * Our own option: the most claim-check pointers one Kafka record may hold. TiCDC writes one per Kafka message (a
     * claim-checked row is alone in its message); 1,000 leaves ample room for a producer that batches such messages,
     * and bounds the files one record makes the sink open.
     */
    public static final String CLAIM_CHECK_MAX_RECORD_POINTERS = "claim-check-max-record-pointers";
    public static final int DEFAULT_CLAIM_CHECK_MAX_RECORD_POINTERS = 1000;

    /** What the Canal-JSON and Open-protocol decoders read: value compression, the claim-check store, the bound. */
    public static final java.util.Set<String> DECODER_OPTIONS = java.util.Set.of(COMPRESSION,
            ClaimCheck.STORAGE_URI_OPTION, ClaimCheck.RAW_VALUE_OPTION, MAX_DECODED_BYTES, CLAIM_CHECK_MAX_RECORD_BYTES,
            CLAIM_CHECK_MAX_RECORD_POINTERS);

    private CodecOptions() {
    }

    public static CanalJsonOptions canalJson(Map<String, String> o) {
        return CanalJsonOptions.builder()
                .enableTidbExtension(bool(o, ENABLE_TIDB_EXTENSION, false))
                .contentCompatible(bool(o, CONTENT_COMPATIBLE, false))
                .onlyOutputUpdatedColumns(bool(o, ONLY_OUTPUT_UPDATED_COLUMNS, false))
                .deleteOnlyHandleKeyColumns(bool(o, DELETE_ONLY_HANDLE_KEY_COLUMNS, false))
                .maxMessageBytes(integer(o, MAX_MESSAGE_BYTES, MessageSize.DEFAULT_MAX_MESSAGE_BYTES))
                .largeMessageHandle(LargeMessageHandle.parse(o.getOrDefault(LARGE_MESSAGE_HANDLE, "none")))
                .compression(compression(o))
                .claimCheck(claimCheck(o))
                .build();
    }

    public static OpenProtocolOptions openProtocol(Map<String, String> o) {
        return OpenProtocolOptions.builder()
                .maxBatchSize(integer(o, MAX_BATCH_SIZE, OpenProtocolOptions.DEFAULT_MAX_BATCH_SIZE))
                .maxMessageBytes(integer(o, MAX_MESSAGE_BYTES, MessageSize.DEFAULT_MAX_MESSAGE_BYTES))
                .largeMessageHandle(LargeMessageHandle.parse(o.getOrDefault(LARGE_MESSAGE_HANDLE, "none")))
                .compression(compression(o))
                .outputOldValue(bool(o, OPEN_OUTPUT_OLD_VALUE, true))
                .onlyOutputUpdatedColumns(bool(o, ONLY_OUTPUT_UPDATED_COLUMNS, false))
                .deleteOnlyHandleKeyColumns(bool(o, DELETE_ONLY_HANDLE_KEY_COLUMNS, false))
                .claimCheck(claimCheck(o))
                .build();
    }

    /** The claim-check store named by {@code claim-check-storage-uri}, or null when that is not set. */
    public static ClaimCheck claimCheck(Map<String, String> o) {
        String uri = o.get(ClaimCheck.STORAGE_URI_OPTION);
        if (uri == null || uri.isBlank()) {
            if (bool(o, ClaimCheck.RAW_VALUE_OPTION, false)) {
                throw new IllegalArgumentException(ClaimCheck.RAW_VALUE_OPTION + " is set but "
                        + ClaimCheck.STORAGE_URI_OPTION + " is not");
            }
            return null;
        }
        return ClaimCheck.open(uri, bool(o, ClaimCheck.RAW_VALUE_OPTION, false)).withReadLimit(maxDecodedBytes(o))
                .withRecordBudget(positive(o, CLAIM_CHECK_MAX_RECORD_BYTES, DEFAULT_CLAIM_CHECK_MAX_RECORD_BYTES),
                        (int) Math.min(Integer.MAX_VALUE, positive(o, CLAIM_CHECK_MAX_RECORD_POINTERS,
                                DEFAULT_CLAIM_CHECK_MAX_RECORD_POINTERS)));
    }

    /** {@value #MAX_DECODED_BYTES}, at least 1. */
    public static long maxDecodedBytes(Map<String, String> o) {
        return positive(o, MAX_DECODED_BYTES, DEFAULT_MAX_DECODED_BYTES);
    }

    private static long positive(Map<String, String> o, String name, long dflt) {
        String v = o.get(name);
        if (v == null || v.isBlank()) return dflt;
        try {
            long n = Long.parseLong(v.trim());
            if (n >= 1) return n;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("option " + name + " must be a positive number, was '" + v + "'");
    }

    public static Compression compression(Map<String, String> o) {
        return Compression.parse(o.getOrDefault(COMPRESSION, "none"));
    }

    public static boolean bool(Map<String, String> o, String name, boolean dflt) {
        String v = o.get(name);
        if (v == null || v.isBlank()) return dflt;
        switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true": return true;
            case "false": return false;
            default: throw new IllegalArgumentException("option " + name + " must be true or false, was '" + v + "'");
        }
    }

    public static int integer(Map<String, String> o, String name, int dflt) {
        String v = o.get(name);
        if (v == null || v.isBlank()) return dflt;
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + name + " must be an integer, was '" + v + "'");
        }
    }
}
