package io.cdcconnect.codec.avro;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Reads the Avro binary body of one record written with a known writer schema into an array of field values
 * (Integer, Long, Float, Double, Boolean, String, ByteBuffer or null), by field position.
 *
 * <p>TiCDC's records hold only primitives and {@code [null, T]} unions, which are read straight off the decoder:
 * no {@link GenericRecord} and no {@code Utf8} per field. A schema with anything else is read with Avro's generic
 * reader instead. Thread-safe.
 */
final class AvroRecordReader {

    private final Schema.Type[] types;
    /** Per field: the union branch that is null, or -1 for a field that is not a union. */
    private final int[] nullBranch;
    private final GenericDatumReader<GenericRecord> generic;

    AvroRecordReader(Schema record) {
        List<Schema.Field> fields = record.getFields();
        types = new Schema.Type[fields.size()];
        nullBranch = new int[fields.size()];
        boolean simple = true;
        for (Schema.Field f : fields) {
            Schema s = f.schema();
            int nb = -1;
            if (s.getType() == Schema.Type.UNION) {
                List<Schema> branches = s.getTypes();
                if (branches.size() == 2 && branches.get(0).getType() == Schema.Type.NULL) {
                    nb = 0;
                    s = branches.get(1);
                } else if (branches.size() == 2 && branches.get(1).getType() == Schema.Type.NULL) {
                    nb = 1;
                    s = branches.get(0);
                } else {
                    simple = false;
                }
            }
            types[f.pos()] = s.getType();
            nullBranch[f.pos()] = nb;
            switch (s.getType()) {
                case INT, LONG, FLOAT, DOUBLE, BOOLEAN, STRING, BYTES, NULL -> { }
                default -> simple = false;
            }
        }
        generic = simple ? null : new GenericDatumReader<>(record);
    }

    /**
     * Reads the record at {@code message[offset..]}, which must end exactly at the end of the message.
     *
     * @throws IOException when the bytes end early or a value is malformed
     * @throws IllegalStateException when bytes are left after the record
     */
    Object[] read(byte[] message, int offset) throws IOException {
        BinaryDecoder in = DecoderFactory.get().binaryDecoder(message, offset, message.length - offset, null);
        Object[] values = new Object[types.length];
        if (generic != null) {
            GenericRecord r = generic.read(null, in);
            for (int i = 0; i < values.length; i++) values[i] = r.get(i);
        } else {
            for (int i = 0; i < values.length; i++) {
                if (nullBranch[i] >= 0) {
                    int branch = in.readIndex();
                    if (branch == nullBranch[i]) {
                        continue;
                    }
                    if (branch != 1 - nullBranch[i]) {
                        throw new IOException("union branch " + branch + " of field " + i + " does not exist");
                    }
                }
                values[i] = switch (types[i]) {
                    case INT -> in.readInt();
                    case LONG -> in.readLong();
                    case FLOAT -> in.readFloat();
                    case DOUBLE -> in.readDouble();
                    case BOOLEAN -> in.readBoolean();
                    case STRING -> new String(bytes(in, message.length - offset, i), StandardCharsets.UTF_8);
                    case BYTES -> ByteBuffer.wrap(bytes(in, message.length - offset, i));
                    default -> {
                        in.readNull();
                        yield null;
                    }
                };
            }
        }
        if (!in.isEnd()) {
            throw new IllegalStateException("bytes left after the record: the schema does not match the data");
        }
        return values;
    }

    /**
     * A string's or bytes' content. Its length is checked against the message before anything is allocated: Avro's
     * own reader allocates what the length says (up to 2 GiB) before it finds the message too short.
     */
    private static byte[] bytes(BinaryDecoder in, int messageBytes, int field) throws IOException {
        long length = in.readLong();
        if (length < 0 || length > messageBytes) {
            throw new IOException("field " + field + " declares " + length + " bytes in a record of " + messageBytes);
        }
        byte[] b = new byte[(int) length];
        in.readFixed(b);
        return b;
    }
}
