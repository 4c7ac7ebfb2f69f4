package io.cdcconnect.codec.open;

import io.cdcconnect.codec.ClaimCheck;
import io.cdcconnect.codec.Compression;
import io.cdcconnect.codec.LargeMessageHandle;
import io.cdcconnect.codec.MessageSize;

import java.util.Objects;

/**
 * Open-protocol encoder settings, named after TiCDC's.
 *
 * @param maxBatchSize               {@code max-batch-size}: rows per Kafka message (default 16)
 * @param maxMessageBytes            {@code max-message-bytes}: the largest Kafka message, key + value + 36 bytes of
 *                                   record overhead (default 10 MiB)
 * @param largeMessageHandle         a single row too large for a message: fail, send only its handle-key
 *                                   columns with {@code "ohk":true} in the key, or store it in the claim-check store
 *                                   and send its handle-key columns with {@code "ccl":location} in the key
 * @param compression                compression of each value entry (not of the framing): none, snappy, lz4
 * @param outputOldValue             {@code open-output-old-value}: an update carries its before image in {@code p}
 *                                   (default true)
 * @param onlyOutputUpdatedColumns   {@code only-output-updated-columns}: {@code p} holds only changed columns
 * @param deleteOnlyHandleKeyColumns {@code delete-only-output-handle-key-columns}
 * @param claimCheck                 the claim-check store ({@code claim-check-storage-uri}), or null; raw values are
 *                                   not supported for this protocol (as in TiCDC)
 */
public record OpenProtocolOptions(int maxBatchSize, int maxMessageBytes, LargeMessageHandle largeMessageHandle,
                                  Compression compression, boolean outputOldValue, boolean onlyOutputUpdatedColumns,
                                  boolean deleteOnlyHandleKeyColumns, ClaimCheck claimCheck) {

    public static final int DEFAULT_MAX_BATCH_SIZE = 16;

    public OpenProtocolOptions {
        Objects.requireNonNull(largeMessageHandle, "largeMessageHandle");
        Objects.requireNonNull(compression, "compression");
        if (maxBatchSize < 1) {
            throw new IllegalArgumentException("maxBatchSize must be at least 1, was " + maxBatchSize);
        }
        if (maxMessageBytes <= MessageSize.RECORD_OVERHEAD + 24) {
            throw new IllegalArgumentException("maxMessageBytes too small: " + maxMessageBytes);
        }
        if (largeMessageHandle == LargeMessageHandle.CLAIM_CHECK && claimCheck == null) {
            throw new IllegalArgumentException("large-message-handle-option=claim-check needs "
                    + ClaimCheck.STORAGE_URI_OPTION);
        }
        if (claimCheck != null && claimCheck.rawValue()) {
            throw new IllegalArgumentException(ClaimCheck.RAW_VALUE_OPTION + "=true is not supported for open-protocol:"
                    + " the stored message must keep its key");
        }
    }

    public static OpenProtocolOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().maxBatchSize(maxBatchSize).maxMessageBytes(maxMessageBytes)
                .largeMessageHandle(largeMessageHandle).compression(compression).outputOldValue(outputOldValue)
                .onlyOutputUpdatedColumns(onlyOutputUpdatedColumns).deleteOnlyHandleKeyColumns(deleteOnlyHandleKeyColumns)
                .claimCheck(claimCheck);
    }

    public static final class Builder {
        private int maxBatchSize = DEFAULT_MAX_BATCH_SIZE;
        private int maxMessageBytes = MessageSize.DEFAULT_MAX_MESSAGE_BYTES;
        private LargeMessageHandle largeMessageHandle = LargeMessageHandle.NONE;
        private Compression compression = Compression.NONE;
        private boolean outputOldValue = true;
        private boolean onlyOutputUpdatedColumns;
        private boolean deleteOnlyHandleKeyColumns;
        private ClaimCheck claimCheck;

        public Builder maxBatchSize(int v) {
            maxBatchSize = v;
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

        public Builder outputOldValue(boolean v) {
            outputOldValue = v;
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

        /** The claim-check store: where claim-check writes, and where a decoder reads claim-check messages back. */
        public Builder claimCheck(ClaimCheck v) {
            claimCheck = v;
            return this;
        }

        public OpenProtocolOptions build() {
            return new OpenProtocolOptions(maxBatchSize, maxMessageBytes, largeMessageHandle, compression,
                    outputOldValue, onlyOutputUpdatedColumns, deleteOnlyHandleKeyColumns, claimCheck);
        }
    }
}
