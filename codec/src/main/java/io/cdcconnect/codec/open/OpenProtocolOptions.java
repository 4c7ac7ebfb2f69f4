package io.cdcconnect.codec.open;

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
 * @param largeMessageHandle         a single row too large for a message: fail, or send only its handle-key
 *                                   columns with {@code "ohk":true} in the key
 * @param compression                compression of each value entry (not of the framing): none, snappy, lz4
 * @param outputOldValue             {@code open-output-old-value}: an update carries its before image in {@code p}
 *                                   (default true)
 * @param onlyOutputUpdatedColumns   {@code only-output-updated-columns}: {@code p} holds only changed columns
 * @param deleteOnlyHandleKeyColumns {@code delete-only-output-handle-key-columns}
 */
public record OpenProtocolOptions(int maxBatchSize, int maxMessageBytes, LargeMessageHandle largeMessageHandle,
                                  Compression compression, boolean outputOldValue, boolean onlyOutputUpdatedColumns,
                                  boolean deleteOnlyHandleKeyColumns) {

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
                .onlyOutputUpdatedColumns(onlyOutputUpdatedColumns).deleteOnlyHandleKeyColumns(deleteOnlyHandleKeyColumns);
    }

    public static final class Builder {
        private int maxBatchSize = DEFAULT_MAX_BATCH_SIZE;
        private int maxMessageBytes = MessageSize.DEFAULT_MAX_MESSAGE_BYTES;
        private LargeMessageHandle largeMessageHandle = LargeMessageHandle.NONE;
        private Compression compression = Compression.NONE;
        private boolean outputOldValue = true;
        private boolean onlyOutputUpdatedColumns;
        private boolean deleteOnlyHandleKeyColumns;

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

        public OpenProtocolOptions build() {
            return new OpenProtocolOptions(maxBatchSize, maxMessageBytes, largeMessageHandle, compression,
                    outputOldValue, onlyOutputUpdatedColumns, deleteOnlyHandleKeyColumns);
        }
    }
}
