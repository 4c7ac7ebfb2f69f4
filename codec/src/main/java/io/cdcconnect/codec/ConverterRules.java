package io.cdcconnect.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a connector's own settings may do to the bytes of a wire format on their way through Kafka Connect: the
 * converters it names ({@code key.converter}, {@code value.converter}) and the transformations ({@code transforms})
 * in front of it. Both connectors' {@code validate} ask it; which converter keeps which format whole is the format
 * registry's ({@link WireFormat#readableThrough}, {@link WireFormat#WRITE_CONVERTER}).
 *
 * <p>Only what the connector's configuration says can be checked: a converter the connector does not set is the
 * worker's default, which Connect does not show a connector.
 */
public final class ConverterRules {

    public static final String KEY_CONVERTER = "key.converter";
    public static final String VALUE_CONVERTER = "value.converter";
    public static final String TRANSFORMS = "transforms";
    static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";

    /**
     * Transformations that leave key and value alone: they drop a record ({@code Filter}), touch headers only, or
     * change the topic only ({@code RegexRouter}, {@code TimestampRouter}; the sink keeps the original coordinates).
     * {@code HeaderFrom} is not among them: it reads (and with {@code operation=move} removes) fields of a Struct or
     * Map value, which a byte format's value is not.
     */
    public static final Set<String> HARMLESS_TRANSFORMS = Set.of(
            "org.apache.kafka.connect.transforms.Filter",
            "org.apache.kafka.connect.transforms.InsertHeader",
            "org.apache.kafka.connect.transforms.DropHeaders",
            "org.apache.kafka.connect.transforms.RegexRouter",
            "org.apache.kafka.connect.transforms.TimestampRouter");

    /** A finding on one setting, with its fix. */
    public record Problem(String setting, String message) {
    }

    private ConverterRules() {
    }

    /**
     * A producer of {@code format} (our source): every converter its configuration names must be
     * {@link WireFormat#WRITE_CONVERTER}, since the encoders hand Connect finished bytes.
     */
    public static List<Problem> forProducer(WireFormat format, Map<String, String> props) {
        List<Problem> out = new ArrayList<>();
        for (String setting : List.of(KEY_CONVERTER, VALUE_CONVERTER)) {
            String c = set(props, setting);
            if (c != null && !c.equals(WireFormat.WRITE_CONVERTER)) {
                out.add(new Problem(setting, setting + "=" + c + " would change the finished " + format
                        + " bytes the source hands Connect: set " + setting + "=" + WireFormat.WRITE_CONVERTER));
            }
        }
        return out;
    }

    /**
     * A consumer of {@code format} (our sink): the value converter its configuration names, and the key converter
     * when the format has a key, must hand the decoder the records whole ({@link WireFormat#readableThrough}).
     * {@code compressed}: the values are compressed ({@code large-message-handle-compression}).
     */
    /** JsonConverter's setting (KIP-581) that turns a null into the schema's default when true, its default. */
    public static final String REPLACE_NULL_WITH_DEFAULT = "replace.null.with.default";

    public static List<Problem> forConsumer(WireFormat format, boolean compressed, Map<String, String> props) {
        List<Problem> out = new ArrayList<>();
        List<String> settings = format.key() == WireFormat.Key.NONE ? List.of(VALUE_CONVERTER)
                : List.of(KEY_CONVERTER, VALUE_CONVERTER);
        for (String setting : settings) {
            String c = set(props, setting);
            if (c == null) continue;
            if (!format.readableThrough(c, compressed)) {
                out.add(new Problem(setting, format.payload() == WireFormat.Payload.STRUCTS
                        ? setting + "=" + c + " does not yield the Connect Structs input.format=" + format
                        + " reads: set " + setting + " to the converter the topic was written with (e.g. "
                        + JSON_CONVERTER + " with " + setting + ".schemas.enable=true, or an Avro converter)"
                        : setting + "=" + c + " would change the " + format + " bytes the sink decodes ("
                        + format.payload().text() + (compressed ? "; these values are compressed" : "")
                        + "): set " + setting + "=" + WireFormat.BYTE_ARRAY_CONVERTER));
            } else if (format.payload() == WireFormat.Payload.STRUCTS && c.equals(JSON_CONVERTER)
                    && "false".equalsIgnoreCase(String.valueOf(props.get(setting + ".schemas.enable")).trim())) {
                out.add(new Problem(setting, setting + "=" + c + " with " + setting + ".schemas.enable=false yields "
                        + "Maps, not the Connect Structs input.format=" + format + " reads: set " + setting
                        + ".schemas.enable=true (the topic must carry the schemas)"));
            } else if (format.payload() == WireFormat.Payload.STRUCTS && c.equals(JSON_CONVERTER)
                    && setting.equals(VALUE_CONVERTER) && !"false".equalsIgnoreCase(
                    String.valueOf(props.get(setting + "." + REPLACE_NULL_WITH_DEFAULT)).trim())) {
                // KIP-581 (Kafka 3.5): JsonConverter hands a null field over as its schema's default unless told not
                // to, and Debezium's schemas carry each column's DEFAULT: a NULL would be applied as that default
                out.add(new Problem(setting, setting + "=" + c + " replaces a null column value with the column's "
                        + "default (its " + REPLACE_NULL_WITH_DEFAULT + " is true unless set), so a NULL written at the"
                        + " source would reach the target as the default: set " + setting + "."
                        + REPLACE_NULL_WITH_DEFAULT + "=false"));
            }
        }
        return out;
    }

    /**
     * The transformations the configuration puts in front of a byte format that may change its key or value, as
     * "alias (class)": every {@code transforms} entry whose {@code transforms.<alias>.type} is not in
     * {@link #HARMLESS_TRANSFORMS}. Connect's validation has no warnings, so the connectors log this.
     */
    public static List<String> valueChangingTransforms(Map<String, String> props) {
        List<String> out = new ArrayList<>();
        String list = props.get(TRANSFORMS);
        if (list == null || list.isBlank()) return out;
        for (String alias : list.split(",")) {
            String a = alias.trim();
            if (a.isEmpty()) continue;
            String type = props.get(TRANSFORMS + "." + a + ".type");
            String t = type == null ? "" : type.trim();
            if (!HARMLESS_TRANSFORMS.contains(t)) out.add(a + " (" + (t.isEmpty() ? "no type" : t) + ")");
        }
        return out;
    }

    /** The warning for {@link #valueChangingTransforms}, or null when there is none. */
    public static String transformWarning(String who, WireFormat format, Map<String, String> props) {
        if (format.payload() == WireFormat.Payload.STRUCTS) return null;
        List<String> found = valueChangingTransforms(props);
        if (found.isEmpty()) return null;
        return who + ": transforms " + String.join(", ", found) + " may change the key or value of the " + format
                + " records, whose bytes must pass unchanged; only "
                + String.join(", ", HARMLESS_TRANSFORMS.stream().sorted().map(c -> c.substring(c.lastIndexOf('.') + 1))
                .toList()) + " leave them alone (see 'Converters and transforms' in docs/source.md and docs/sink.md)";
    }

    private static String set(Map<String, String> props, String setting) {
        String v = props.get(setting);
        return v == null || v.isBlank() ? null : v.trim();
    }
}
