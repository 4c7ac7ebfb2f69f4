package io.cdcconnect.codec.avro;

import java.util.Objects;

/**
 * Settings of the Avro encoder, named as in TiCDC's sink URI / changefeed configuration.
 *
 * @param namespace             the Avro namespace prefix (TiCDC: the changefeed's namespace, "default"); the record
 *                              namespace is {@code sanitize(namespace) + "." + sanitize(database)}
 * @param enableTidbExtension   add {@code _tidb_op}, {@code _tidb_commit_ts} and {@code _tidb_commit_physical_time} to
 *                              every value (TiCDC's {@code enable-tidb-extension})
 * @param decimalHandling       DECIMAL as Avro bytes with logical type decimal, or as a string
 *                              (TiCDC's {@code avro-decimal-handling-mode})
 * @param bigintUnsignedHandling BIGINT UNSIGNED as an Avro long holding the 64-bit pattern, or as a decimal string
 *                              (TiCDC's {@code avro-bigint-unsigned-handling-mode})
 */
public record AvroOptions(String namespace, boolean enableTidbExtension, DecimalHandling decimalHandling,
                          BigintUnsignedHandling bigintUnsignedHandling) {

    /** TiCDC's {@code avro-decimal-handling-mode}. */
    public enum DecimalHandling { PRECISE, STRING }

    /** TiCDC's {@code avro-bigint-unsigned-handling-mode}. */
    public enum BigintUnsignedHandling { LONG, STRING }

    public static final String DEFAULT_NAMESPACE = "default";

    public AvroOptions {
        Objects.requireNonNull(namespace, "namespace");
        if (AvroNames.sanitize(namespace).isEmpty()) {
            throw new IllegalArgumentException("the Avro namespace must not be empty");
        }
        Objects.requireNonNull(decimalHandling, "decimalHandling");
        Objects.requireNonNull(bigintUnsignedHandling, "bigintUnsignedHandling");
    }

    /** TiCDC's defaults: namespace "default", no extension, precise decimals, unsigned bigint as long. */
    public static AvroOptions defaults() {
        return new AvroOptions(DEFAULT_NAMESPACE, false, DecimalHandling.PRECISE, BigintUnsignedHandling.LONG);
    }

    public AvroOptions withNamespace(String newNamespace) {
        return new AvroOptions(newNamespace, enableTidbExtension, decimalHandling, bigintUnsignedHandling);
    }

    public AvroOptions withTidbExtension(boolean enable) {
        return new AvroOptions(namespace, enable, decimalHandling, bigintUnsignedHandling);
    }

    public AvroOptions withDecimalHandling(DecimalHandling mode) {
        return new AvroOptions(namespace, enableTidbExtension, mode, bigintUnsignedHandling);
    }

    public AvroOptions withBigintUnsignedHandling(BigintUnsignedHandling mode) {
        return new AvroOptions(namespace, enableTidbExtension, decimalHandling, mode);
    }
}
