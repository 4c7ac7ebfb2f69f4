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

/**
 * Encoders and decoders by format name, as {@link WireFormat} declares them; this class only holds the built-in
 * factories of canal-json and open-protocol.
 */
public final class EventEncoders {

    /** {@link WireFormat#CANAL_JSON}'s name. */
    public static final String CANAL_JSON = WireFormat.CANAL_JSON.configName();
    /** {@link WireFormat#OPEN_PROTOCOL}'s name. */
    public static final String OPEN_PROTOCOL = WireFormat.OPEN_PROTOCOL.configName();
    /** {@link WireFormat#AVRO}'s name. */
    public static final String AVRO = WireFormat.AVRO.configName();

    private EventEncoders() {
    }

    /** The names of the formats the codec encodes and decodes in this build. */
    public static Set<String> formats() {
        return new TreeSet<>(WireFormat.names(f -> f.codecDecoded() && f.available()));
    }

    public static EventEncoder create(String format, Map<String, String> options) {
        return WireFormat.named(format).encoder(options);
    }

    public static EventDecoder decoder(String format, Map<String, String> options) {
        return WireFormat.named(format).decoder(options);
    }

    static final class CanalJsonFactory implements EventEncoderFactory {
        @Override
        public void checkEncoderOptions(Map<String, String> options) {
            CodecOptions.canalJson(options);
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
        public Set<String> decoderOptions() {
            return CodecOptions.DECODER_OPTIONS;
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

    static final class OpenProtocolFactory implements EventEncoderFactory {
        @Override
        public Set<String> decoderOptions() {
            return CodecOptions.DECODER_OPTIONS;
        }

        @Override
        public void checkEncoderOptions(Map<String, String> options) {
            CodecOptions.openProtocol(options);
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
