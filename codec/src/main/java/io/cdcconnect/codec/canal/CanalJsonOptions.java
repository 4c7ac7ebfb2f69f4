package io.cdcconnect.codec.canal;

import io.cdcconnect.codec.ClaimCheck;
import io.cdcconnect.codec.Compression;
import io.cdcconnect.codec.LargeMessageHandle;
import io.cdcconnect.codec.MessageSize;

import java.util.Objects;

/**
 * Canal-JSON encoder settings, named after TiCDC's sink URI / config parameters.
 *
 * @param enableTidbExtension        {@code enable-tidb-extension}: add {@code _tidb} (commit ts) to every message and
 *                                   send watermark messages. Off by default because Flink's canal-json format fails
 *                                   on {@code TIDB_WATERMARK} messages.
 * @param contentCompatible          {@code content-compatible}: {@code mysqlType} holds the full column definition
 *                                   ("int(11)", "decimal(10,4)") and {@code old} only the changed columns, as Canal
 *                                   itself writes.
 * @param onlyOutputUpdatedColumns   {@code only-output-updated-columns}: an update's {@code old} holds only the
 *                                   columns whose value changed (implied by contentCompatible).
 * @param deleteOnlyHandleKeyColumns {@code delete-only-output-handle-key-columns}: a delete carries only its
 *                                   handle-key columns.
 * @param maxMessageBytes            {@code max-message-bytes}: the largest Kafka message (value + 36 bytes of record
 *                                   overhead, TiCDC's arithmetic). Default 10 MiB.
 * @param largeMessageHandle         what to do with a larger message: fail, send only the handle-key columns, or
 *                                   store it in the claim-check store and send the handle-key columns with its
 *                                   location; both need the TiDB extension (TiCDC refuses them without it too)
 * @param compression                value compression: none, snappy (block format) or lz4 (frame format)
 * @param claimCheck                 the claim-check store ({@code claim-check-storage-uri}), or null
 */
public record CanalJsonOptions(boolean enableTidbExtension, boolean contentCompatible,
                               boolean onlyOutputUpdatedColumns, boolean deleteOnlyHandleKeyColumns,
                               int maxMessageBytes, LargeMessageHandle largeMessageHandle, Compression compression,
                               ClaimCheck claimCheck) {

    public CanalJsonOptions {
        Objects.requireNonNull(largeMessageHandle, "largeMessageHandle");
        Objects.requireNonNull(compression, "compression");
        if (maxMessageBytes <= MessageSize.RECORD_OVERHEAD) {
            throw new IllegalArgumentException("maxMessageBytes must exceed " + MessageSize.RECORD_OVERHEAD
                    + " bytes, was " + maxMessageBytes);
        }
        if (largeMessageHandle != LargeMessageHandle.NONE && !enableTidbExtension) {
            throw new IllegalArgumentException("large-message-handle-option=" + largeMessageHandle.configName()
                    + " needs enable-tidb-extension=true for canal-json: without _tidb a consumer cannot tell a"
                    + " message with only the handle-key columns from a whole row");
        }
        if (largeMessageHandle == LargeMessageHandle.CLAIM_CHECK && claimCheck == null) {
            throw new IllegalArgumentException("large-message-handle-option=claim-check needs "
                    + ClaimCheck.STORAGE_URI_OPTION);
        }
        if (contentCompatible) {
            onlyOutputUpdatedColumns = true; // as TiCDC does
        }
    }

    /** TiCDC's defaults: no extension, short type names, full old image, 10 MiB, fail when too large, no compression. */
    public static CanalJsonOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().enableTidbExtension(enableTidbExtension).contentCompatible(contentCompatible)
                .onlyOutputUpdatedColumns(onlyOutputUpdatedColumns)
                .deleteOnlyHandleKeyColumns(deleteOnlyHandleKeyColumns).maxMessageBytes(maxMessageBytes)
                .largeMessageHandle(largeMessageHandle).compression(compression).claimCheck(claimCheck);
    }

    public static final class Builder {
        private boolean enableTidbExtension;
        private boolean contentCompatible;
        private boolean onlyOutputUpdatedColumns;
        private boolean deleteOnlyHandleKeyColumns;
        private int maxMessageBytes = MessageSize.DEFAULT_MAX_MESSAGE_BYTES;
        private LargeMessageHandle largeMessageHandle = LargeMessageHandle.NONE;
        private Compression compression = Compression.NONE;
        private ClaimCheck claimCheck;

        public Builder enableTidbExtension(boolean v) {
            enableTidbExtension = v;
            return this;
        }

        public Builder contentCompatible(boolean v) {
            contentCompatible = v;
            return this;
        }

        public Builder onlyOutputUpdatedColumns(boolean v) {
            onlyOutputUpdatedColumns = v;
            return this;
        }

        public Builder deleteOnlyHandleKeyColumns(boolean v) {
            deleteOnlyHandleKeyColumns = v;
            return this;
        }

        public Builder maxMessageBytes(int v) {
            maxMessageBytes = v;
            return this;
        }

        public Builder largeMessageHandle(LargeMessageHandle v) {
            largeMessageHandle = v;
            return this;
        }

        public Builder compression(Compression v) {
            compression = v;
            return this;
        }

        /** The claim-check store: where claim-check writes, and where a decoder reads claim-check messages back. */
        public Builder claimCheck(ClaimCheck v) {
            claimCheck = v;
            return this;
        }

        public CanalJsonOptions build() {
            return new CanalJsonOptions(enableTidbExtension, contentCompatible, onlyOutputUpdatedColumns,
                    deleteOnlyHandleKeyColumns, maxMessageBytes, largeMessageHandle, compression, claimCheck);
        }
    }
}
