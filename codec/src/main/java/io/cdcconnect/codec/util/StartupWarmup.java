package io.cdcconnect.codec.util;

import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventDecoder;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Compiles a connector's hot paths on a thread of its own when a task starts, so that its first records do not run
 * through the JVM's interpreter.
 *
 * <p>Profiled in a freshly started worker (docs/benchmarks.md), the sink's apply workers spent half their CPU in TLS
 * 1.3's AES-GCM (the JDK's {@code GHASH} before C2 compiles it and takes its CPU intrinsic), and its task thread in
 * decoding. A warm-up runs {@link AesGcmWarmup} (encryption and decryption, as a connection to the database does both),
 * then the task's wire format on synthetic sysbench-like rows: the sink's {@link Direction#DECODE} decodes messages,
 * the source's {@link Direction#ENCODE} encodes rows. Formats that need a schema registry skip the format part:
 * nothing here talks to a server.
 *
 * <p>It touches no data, no connection and no record. {@link #stop} ends it at once (the sink stops it when its task's
 * partitions are assigned: real work begins). Once one has run to its end in a JVM for a direction and format, later
 * tasks there skip it: the compiled code is the JVM's.
 */
public final class StartupWarmup implements Runnable {

    /** What a task does with its wire format. */
    public enum Direction { ENCODE, DECODE }

    private static final Logger LOG = LoggerFactory.getLogger(StartupWarmup.class);

    /** Bytes encrypted and decrypted: enough loop iterations for C2 to compile GHASH and AES-CTR. */
    public static final long CRYPTO_BYTES = 24L * 1024 * 1024;
    /** Synthetic messages encoded or decoded: enough for C2 to compile the per-message and per-value paths. */
    public static final int FORMAT_MESSAGES = 20_000;

    /** Direction and format pairs a warm-up of this JVM ran to its end for. */
    private static final Set<String> WARMED = ConcurrentHashMap.newKeySet();

    private final WireFormat format;
    private final Direction direction;
    private final String name;
    private final long cryptoBytes;
    private final int formatMessages;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile long encryptedBytes;
    private volatile long formatted;
    private volatile boolean finished;

    /** With smaller amounts of work (tests). */
    StartupWarmup(WireFormat format, Direction direction, String name, long cryptoBytes, int formatMessages) {
        this.format = format;
        this.direction = direction;
        this.name = name;
        this.cryptoBytes = cryptoBytes;
        this.formatMessages = formatMessages;
    }

    /**
     * Starts a warm-up on a daemon thread named {@code threadName}; null when one of this JVM already ran to its end
     * for {@code direction} and {@code format}.
     */
    public static StartupWarmup start(WireFormat format, Direction direction, String threadName) {
        if (WARMED.contains(direction + "/" + format)) return null;
        StartupWarmup w = new StartupWarmup(format, direction, threadName, CRYPTO_BYTES, FORMAT_MESSAGES);
        Thread t = new Thread(w, threadName);
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
        return w;
    }

    /** Ends the warm-up; returns at once. */
    public void stop() {
        stopped.set(true);
    }

    /** Bytes run through AES-GCM (each encrypted and decrypted once), once that part is over. */
    long encryptedBytes() {
        return encryptedBytes;
    }

    /** Synthetic messages encoded or decoded so far. */
    long formatted() {
        return formatted;
    }

    /** Whether the warm-up ran to its end without being stopped. */
    boolean finished() {
        return finished;
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        try {
            encryptedBytes = AesGcmWarmup.run(cryptoBytes, stopped::get);
            format();
            finished = !stopped.get();
            if (finished && cryptoBytes >= CRYPTO_BYTES && formatMessages >= FORMAT_MESSAGES) {
                WARMED.add(direction + "/" + format);
            }
        } catch (Exception | LinkageError e) {
            // a warm-up that cannot run costs only speed; the task goes on without it
            LOG.debug("{}: warm-up ended early: {}", name, e.toString());
        }
        LOG.info("{}: start-up warm-up {} after {} ms ({} MiB through AES-GCM, {} {} messages {}d)", name,
                finished ? "done" : "stopped", (System.nanoTime() - start) / 1_000_000, encryptedBytes >> 20,
                formatted, format.configName(), direction.name().toLowerCase(java.util.Locale.ROOT));
    }

    /** Encodes, or decodes, synthetic sysbench-like messages of the format with an encoder or decoder of its own. */
    private void format() {
        if (format.needsSchemaRegistry() || !format.codecDecoded()) return;
        TableInfo table = TableInfo.of("cdc_warmup", "t", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY),
                ColumnInfo.of("k", MySqlType.LONG, 0),
                ColumnInfo.of("c", MySqlType.STRING, 0),
                ColumnInfo.of("pad", MySqlType.STRING, 0)));
        EventEncoder encoder = format.encoder(Map.of());
        int rows = direction == Direction.ENCODE ? formatMessages : Math.min(256, formatMessages);
        List<EncodedMessage> messages = new ArrayList<>();
        for (int i = 0; i < rows && !stopped.get(); i++) {
            List<EncodedMessage> out = encoder.encode("cdc_warmup", change(table, i));
            if (direction == Direction.DECODE) {
                messages.addAll(out);
            } else {
                formatted++;
            }
        }
        messages.addAll(encoder.flush());
        if (direction == Direction.ENCODE || messages.isEmpty()) return;
        EventDecoder decoder = format.decoder(Map.of());
        for (int n = 0; n < formatMessages && !stopped.get(); n++) {
            EncodedMessage m = messages.get(n % messages.size());
            if (decoder.decode(m.key(), m.value()).isEmpty()) {
                throw new IllegalStateException("a synthetic " + format + " message decoded to nothing");
            }
            formatted++;
        }
    }

    private static RowChange change(TableInfo table, int i) {
        long ts = (1L << 40) + i;
        Object[] before = {(long) i, (long) i * 7, "c-" + i + "-0123456789-0123456789-0123456789", "pad-" + i};
        Object[] after = {(long) i, (long) i * 11, "c-" + i + "-9876543210-9876543210-9876543210", "pad-" + i};
        return switch (i % 3) {
            case 0 -> RowChange.insert(table, after, ts);
            case 1 -> RowChange.update(table, before, after, ts);
            default -> RowChange.delete(table, before, ts);
        };
    }
}
