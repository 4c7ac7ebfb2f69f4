package io.cdcconnect.codec;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The formats, each declared once: its name, who encodes and decodes it, and what it carries. The source's
 * {@code output.format}, the sink's {@code input.format}, their validators and documentation, the source's encoder
 * set-up and the sink's decoder choice all read this registry; no other place lists formats.
 *
 * <p>{@link #DEBEZIUM} is decode-only and not the codec's: Debezium's change-event envelopes reach the sink as
 * Connect Structs, so the sink module supplies its decoder; the codec neither encodes nor decodes it.
 */
public enum WireFormat {

    CANAL_JSON("canal-json", "TiCDC Canal-JSON", Key.NONE, Watermarks.WITH_TIDB_EXTENSION,
            Payload.TEXT, () -> new EventEncoders.CanalJsonFactory(),
            Trait.ENCODED, Trait.CODEC_DECODED, Trait.DDL, Trait.NULL_VALUE_IS_TOMBSTONE, Trait.TELLS_UPDATES,
            Trait.LARGE_MESSAGES),

    OPEN_PROTOCOL("open-protocol", "TiCDC Open-protocol", Key.BATCH_KEY, Watermarks.ALWAYS,
            Payload.BYTES, () -> new EventEncoders.OpenProtocolFactory(),
            Trait.ENCODED, Trait.CODEC_DECODED, Trait.BATCHES_ROWS, Trait.DDL, Trait.DDL_ON_EVERY_PARTITION,
            Trait.TELLS_UPDATES, Trait.LARGE_MESSAGES),

    /** Its factory is found by class name, so that this package need not depend on Avro's. */
    AVRO("avro", "TiCDC Avro in the Confluent wire format", Key.HANDLE_KEY, Watermarks.NEVER,
            Payload.BYTES, () -> load("io.cdcconnect.codec.avro.AvroCodecFactory"),
            Trait.ENCODED, Trait.CODEC_DECODED, Trait.SCHEMA_REGISTRY),

    /** Sink only: Debezium envelopes as Connect Structs; the decoder is the sink's. */
    DEBEZIUM("debezium", "Debezium change-event envelopes as Connect Structs", Key.PRIMARY_KEY_STRUCT,
            Watermarks.NEVER, Payload.STRUCTS, null,
            Trait.DDL, Trait.NULL_VALUE_IS_TOMBSTONE, Trait.TELLS_UPDATES);

    /** What a format's Kafka key holds. */
    public enum Key {
        NONE("no key"),
        BATCH_KEY("batch key (needed to decode)"),
        HANDLE_KEY("handle-key columns as key"),
        PRIMARY_KEY_STRUCT("primary key as key");

        private final String text;

        Key(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** Kafka Connect's converter that hands bytes through unchanged, both ways. */
    public static final String BYTE_ARRAY_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";
    /** Kafka Connect's converter that reads a value as UTF-8 text (and writes {@code toString()}). */
    public static final String STRING_CONVERTER = "org.apache.kafka.connect.storage.StringConverter";

    /**
     * What a format's key and value are as a Kafka Connect consumer sees them, and so which converters hand them to a
     * decoder whole. Our encoders hand Connect finished bytes, so a producer (our source) writes every encoded format
     * through {@link #BYTE_ARRAY_CONVERTER} alone ({@link #WRITE_CONVERTER}): any other converter changes the bytes
     * (StringConverter writes a {@code byte[]}'s {@code toString()}, JsonConverter a base64 string in a JSON
     * envelope, AvroConverter an Avro {@code bytes} datum).
     */
    public enum Payload {
        /** Binary: only ByteArrayConverter keeps it whole. */
        BYTES("ByteArrayConverter"),
        /** UTF-8 text: ByteArrayConverter, or StringConverter as long as the values are not compressed. */
        TEXT("ByteArrayConverter, or StringConverter when not compressed"),
        /** Connect Structs: any converter that yields them (JsonConverter with schemas, Avro, Protobuf). */
        STRUCTS("any converter that yields Structs");

        private final String text;

        Payload(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** The one converter a producer of our encoders' bytes may use, for keys and values. */
    public static final String WRITE_CONVERTER = BYTE_ARRAY_CONVERTER;

    /** Whether a format carries watermarks (resolved ts). */
    public enum Watermarks {
        NEVER, WITH_TIDB_EXTENSION, ALWAYS
    }

    private enum Trait {
        /** Our source writes it (the codec has an encoder). */
        ENCODED,
        /** The codec decodes it from the record's key and value bytes. */
        CODEC_DECODED,
        /** Several rows in one message. */
        BATCHES_ROWS,
        DDL,
        /** DDL goes to every partition of a topic (otherwise where its table's rows go). */
        DDL_ON_EVERY_PARTITION,
        /** A record with a null value is a tombstone: skipped. */
        NULL_VALUE_IS_TOMBSTONE,
        /** An update is told from an insert (otherwise every write must be an upsert). */
        TELLS_UPDATES,
        SCHEMA_REGISTRY,
        /** TiCDC's large-message handling (handle-key-only, claim-check) and value compression. */
        LARGE_MESSAGES
    }

    private final String configName;
    private final String title;
    private final Key key;
    private final Watermarks watermarks;
    private final Payload payload;
    private final Supplier<EventEncoderFactory> factorySupplier;
    private final Set<Trait> traits;
    private volatile EventEncoderFactory factory;

    WireFormat(String configName, String title, Key key, Watermarks watermarks, Payload payload,
               Supplier<EventEncoderFactory> factory, Trait... traits) {
        this.configName = configName;
        this.title = title;
        this.key = key;
        this.watermarks = watermarks;
        this.payload = payload;
        this.factorySupplier = factory;
        this.traits = traits.length == 0 ? EnumSet.noneOf(Trait.class) : EnumSet.copyOf(Arrays.asList(traits));
    }

    /** The name in {@code output.format}, {@code input.format} and TiCDC's {@code protocol}. */
    public String configName() {
        return configName;
    }

    public String title() {
        return title;
    }

    /** Our source can write it. */
    public boolean encodable() {
        return traits.contains(Trait.ENCODED);
    }

    /** The codec decodes it; otherwise the sink supplies its decoder. */
    public boolean codecDecoded() {
        return traits.contains(Trait.CODEC_DECODED);
    }

    public Key key() {
        return key;
    }

    public Watermarks watermarks() {
        return watermarks;
    }

    /** Whether watermarks are carried with or without TiCDC's TiDB extension. */
    public boolean carriesWatermarks(boolean tidbExtension) {
        return watermarks == Watermarks.ALWAYS || (watermarks == Watermarks.WITH_TIDB_EXTENSION && tidbExtension);
    }

    public boolean carriesDdl() {
        return traits.contains(Trait.DDL);
    }

    /** DDL goes to every partition of a topic; otherwise where its table's rows go. */
    public boolean ddlOnEveryPartition() {
        return traits.contains(Trait.DDL_ON_EVERY_PARTITION);
    }

    /** Several rows per message (bounded by {@code max-batch-size}). */
    public boolean batchesRows() {
        return traits.contains(Trait.BATCHES_ROWS);
    }

    /** A record with a null value is a tombstone, skipped (Avro's is a delete; Open-protocol's bad input). */
    public boolean nullValueIsTombstone() {
        return traits.contains(Trait.NULL_VALUE_IS_TOMBSTONE);
    }

    /** An update is told from an insert; if not (Avro), every write must be an upsert. */
    public boolean tellsUpdatesFromInserts() {
        return traits.contains(Trait.TELLS_UPDATES);
    }

    public boolean needsSchemaRegistry() {
        return traits.contains(Trait.SCHEMA_REGISTRY);
    }

    /** TiCDC's large-message handling (handle-key-only, claim-check) and value compression apply. */
    public boolean largeMessageHandling() {
        return traits.contains(Trait.LARGE_MESSAGES);
    }

    /** The Kafka Connect converters a consumer of it uses, in words. */
    public String converters() {
        return payload.text();
    }

    /** What its key (when it has one) and value are to a Kafka Connect consumer. */
    public Payload payload() {
        return payload;
    }

    /**
     * Whether a consumer whose converter is of that class hands the sink's decoder this format's records whole.
     * {@code compressed}: the values are compressed (TiCDC's {@code large-message-handle-compression}), which makes
     * text binary. A converter that yields Structs is any but the two that yield bytes or text.
     */
    public boolean readableThrough(String converterClass, boolean compressed) {
        String c = converterClass == null ? "" : converterClass.trim();
        return switch (payload) {
            case BYTES -> c.equals(BYTE_ARRAY_CONVERTER);
            case TEXT -> c.equals(BYTE_ARRAY_CONVERTER) || (!compressed && c.equals(STRING_CONVERTER));
            case STRUCTS -> !c.equals(BYTE_ARRAY_CONVERTER) && !c.equals(STRING_CONVERTER);
        };
    }

    /** A new encoder; IllegalArgumentException naming a bad option, or when the format has no encoder. */
    public EventEncoder encoder(Map<String, String> options) {
        requireEncodable();
        return factory().encoder(options);
    }

    private void requireEncodable() {
        if (!encodable()) {
            throw new IllegalArgumentException("format " + configName + " cannot be written (formats that can: "
                    + String.join(", ", names(WireFormat::encodable)) + ")");
        }
    }

    /** A new decoder of the record's key and value bytes; IllegalArgumentException naming a bad option. */
    public EventDecoder decoder(Map<String, String> options) {
        if (!codecDecoded()) {
            throw new IllegalArgumentException("format " + configName + " is decoded by the sink, not the codec");
        }
        return factory().decoder(options);
    }

    /** The option names its decoder reads (none for a format the sink decodes itself). */
    public Set<String> decoderOptions() {
        return codecDecoded() ? factory().decoderOptions() : Set.of();
    }

    /**
     * Checks decoder options without decoding: IllegalArgumentException naming an option the decoder does not read
     * (listing those it does) or a bad value.
     */
    public void checkDecoderOptions(Map<String, String> options) {
        if (codecDecoded()) {
            factory().checkDecoderOptions(options);
        } else {
            EventEncoderFactory.refuseUnknown(options, Set.of());
        }
    }

    /** Checks encoder options without making an encoder: IllegalArgumentException naming a bad one. */
    public void checkEncoderOptions(Map<String, String> options) {
        requireEncodable();
        factory().checkEncoderOptions(options);
    }

    /** Whether the codec's classes for it are present (Avro's may be left out of a build). */
    public boolean available() {
        if (factorySupplier == null) return false;
        try {
            factory();
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private EventEncoderFactory factory() {
        EventEncoderFactory f = factory;
        if (f == null) {
            f = factorySupplier.get();
            factory = f;
        }
        return f;
    }

    private static EventEncoderFactory load(String className) {
        try {
            // This class's own loader, not ServiceLoader, which breaks across Connect plugin class loaders.
            Class<?> c = Class.forName(className, true, WireFormat.class.getClassLoader());
            return (EventEncoderFactory) c.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
            throw new IllegalArgumentException("format avro is not available: " + e, e);
        }
    }

    /** The format of that name (case and surrounding blanks ignored); the message lists every name. */
    public static WireFormat named(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (WireFormat f : values()) {
            if (f.configName.equals(n)) return f;
        }
        throw new IllegalArgumentException("unknown format '" + name + "' (known: " + String.join(", ",
                names(f -> true)) + ")");
    }

    /** The format of that name that our source can write; the message lists those. */
    public static WireFormat encodable(String name) {
        WireFormat f = named(name);
        f.requireEncodable();
        return f;
    }

    /** Names of the formats that pass the test, in declaration order. */
    public static List<String> names(Predicate<WireFormat> which) {
        return Arrays.stream(values()).filter(which).map(WireFormat::configName).toList();
    }

    /** One line of documentation: title, key, rows per message, DDL, watermarks, registry, converters. */
    public String describe() {
        StringBuilder sb = new StringBuilder(title).append(": ").append(key.text());
        if (codecDecoded()) sb.append(batchesRows() ? ", several rows per message" : ", one row per message");
        sb.append(carriesDdl() ? ", DDL" : ", no DDL");
        sb.append(switch (watermarks) {
            case ALWAYS -> ", watermarks";
            case WITH_TIDB_EXTENSION -> ", watermarks with the TiDB extension";
            case NEVER -> codecDecoded() ? ", no watermarks" : "";
        });
        if (needsSchemaRegistry()) sb.append(", needs a schema registry");
        if (!tellsUpdatesFromInserts()) sb.append(", updates not told from inserts");
        return sb.append("; ").append(converters()).toString();
    }

    /** The documentation of the formats that pass the test: "'name' (description), ... or 'name' (...)". */
    public static String describe(Predicate<WireFormat> which) {
        List<String> parts = Arrays.stream(values()).filter(which)
                .map(f -> "'" + f.configName + "' (" + f.describe() + ")").toList();
        if (parts.size() <= 1) return String.join("", parts);
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " or " + parts.get(parts.size() - 1);
    }

    /** The formats as a Markdown table, for the generated configuration reference. */
    public static String markdownTable() {
        StringBuilder md = new StringBuilder(
                "| format | source writes | decoded by | Kafka key | rows per message | DDL | watermarks | schema registry "
                        + "| large-message handling | null value | converters |\n"
                        + "|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (WireFormat f : values()) {
            md.append("| `").append(f.configName).append("` | ").append(f.encodable() ? "yes" : "no")
                    .append(" | ").append(f.codecDecoded() ? "codec" : "sink")
                    .append(" | ").append(f.key.text())
                    .append(" | ").append(f.batchesRows() ? "up to max-batch-size" : "1")
                    .append(" | ").append(!f.carriesDdl() ? "no" : f.ddlOnEveryPartition() ? "every partition"
                            : "yes")
                    .append(" | ").append(switch (f.watermarks) {
                        case ALWAYS -> "every partition";
                        case WITH_TIDB_EXTENSION -> "with the TiDB extension";
                        case NEVER -> "no";
                    })
                    .append(" | ").append(f.needsSchemaRegistry() ? "required" : "no")
                    .append(" | ").append(f.largeMessageHandling() ? "yes" : "no")
                    .append(" | ").append(f.nullValueIsTombstone() ? "skipped" : f.key == Key.HANDLE_KEY
                            ? "delete by key" : "bad input")
                    .append(" | ").append(f.converters()).append(" |\n");
        }
        return md.toString();
    }

    @Override
    public String toString() {
        return configName;
    }
}
