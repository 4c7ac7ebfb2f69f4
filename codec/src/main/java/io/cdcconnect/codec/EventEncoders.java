package io.cdcconnect.codec;

import io.cdcconnect.codec.canal.CanalJsonDecoder;
import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.codec.open.OpenProtocolDecoder;
import io.cdcconnect.codec.open.OpenProtocolEncoder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Encoders and decoders by format name: "canal-json", "open-protocol", and "avro" when
 * {@code io.cdcconnect.codec.avro.AvroCodecFactory} is present (looked up by name in this class's own class loader,
 * not through ServiceLoader, which breaks across Connect plugin class loaders).
 */
public final class EventEncoders {

    public static final String CANAL_JSON = "canal-json";
    public static final String OPEN_PROTOCOL = "open-protocol";
    public static final String AVRO = "avro";
    private static final String AVRO_FACTORY = "io.cdcconnect.codec.avro.AvroCodecFactory";

    private static final Map<String, EventEncoderFactory> FACTORIES = new ConcurrentHashMap<>();

    static {
        register(new CanalJsonFactory());
        register(new OpenProtocolFactory());
    }

    private EventEncoders() {
    }

    /** Adds or replaces a format. */
    public static void register(EventEncoderFactory factory) {
        FACTORIES.put(factory.format(), factory);
    }

    public static Set<String> formats() {
        factory(AVRO, false);
        return new TreeSet<>(FACTORIES.keySet());
    }

    public static EventEncoder create(String format, Map<String, String> options) {
        return factory(format, true).encoder(options);
    }

    public static EventDecoder decoder(String format, Map<String, String> options) {
        return factory(format, true).decoder(options);
    }

    private static EventEncoderFactory factory(String format, boolean required) {
        EventEncoderFactory f = FACTORIES.get(format);
        if (f == null && AVRO.equals(format)) {
            try {
                Class<?> c = Class.forName(AVRO_FACTORY, true, EventEncoders.class.getClassLoader());
                f = (EventEncoderFactory) c.getDeclaredConstructor().newInstance();
                register(f);
            } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
                if (required) {
                    throw new IllegalArgumentException("format avro is not available: " + e, e);
                }
            }
        }
        if (f == null && required) {
            throw new IllegalArgumentException("unknown format '" + format + "' (known: " + FACTORIES.keySet() + ")");
        }
        return f;
    }

    private static final class CanalJsonFactory implements EventEncoderFactory {
        @Override
        public String format() {
            return CANAL_JSON;
        }

        @Override
        public EventEncoder encoder(Map<String, String> options) {
            CanalJsonEncoder enc = new CanalJsonEncoder(CodecOptions.canalJson(options));
            return new EventEncoder() {
                private int skipped;

                @Override
                public List<EncodedMessage> encode(String topic, ChangeEvent event) {
                    byte[] value = enc.encode(event);
                    if (value == null) {
                        skipped++;
                        return List.of();
                    }
                    int events = 1 + skipped;
                    skipped = 0;
                    EncodedMessage.Kind kind = event instanceof RowChange ? EncodedMessage.Kind.ROW
                            : event instanceof DdlChange ? EncodedMessage.Kind.DDL : EncodedMessage.Kind.WATERMARK;
                    return List.of(new EncodedMessage(null, value, kind, kind == EncodedMessage.Kind.ROW ? 1 : 0,
                            events, event.commitTs()));
                }

                @Override
                public List<EncodedMessage> flush() {
                    return List.of();
                }

                @Override
                public String format() {
                    return CANAL_JSON;
                }
            };
        }

        @Override
        public EventDecoder decoder(Map<String, String> options) {
            CanalJsonDecoder dec = new CanalJsonDecoder(CodecOptions.compression(options),
                    CodecOptions.claimCheck(options), CodecOptions.maxDecodedBytes(options));
            return new EventDecoder() {
                @Override
                public List<ChangeEvent> decode(byte[] key, byte[] value) {
                    return dec.decode(value);
                }

                @Override
                public String format() {
                    return CANAL_JSON;
                }
            };
        }
    }

    private static final class OpenProtocolFactory implements EventEncoderFactory {
        @Override
        public String format() {
            return OPEN_PROTOCOL;
        }

        @Override
        public EventEncoder encoder(Map<String, String> options) {
            OpenProtocolEncoder enc = new OpenProtocolEncoder(CodecOptions.openProtocol(options));
            return new EventEncoder() {
                @Override
                public List<EncodedMessage> encode(String topic, ChangeEvent event) {
                    if (event instanceof RowChange r) {
                        return enc.append(r);
                    }
                    List<EncodedMessage> out = new ArrayList<>(enc.flush());
                    out.add(event instanceof DdlChange d ? enc.encode(d) : enc.encode((Watermark) event));
                    return out;
                }

                @Override
                public List<EncodedMessage> flush() {
                    return enc.flush();
                }

                @Override
                public String format() {
                    return OPEN_PROTOCOL;
                }
            };
        }

        @Override
        public EventDecoder decoder(Map<String, String> options) {
            OpenProtocolDecoder dec = new OpenProtocolDecoder(CodecOptions.compression(options),
                    CodecOptions.claimCheck(options), CodecOptions.maxDecodedBytes(options));
            return new EventDecoder() {
                @Override
                public List<ChangeEvent> decode(byte[] key, byte[] value) {
                    return dec.decode(key, value);
                }

                @Override
                public String format() {
                    return OPEN_PROTOCOL;
                }
            };
        }
    }
}
