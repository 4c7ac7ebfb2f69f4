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
 * Compiles the sink's hot paths on a thread of its own while a new task waits for its first partitions, so that its
 * first records do not run through the JVM's interpreter.
 *
 * <p>Profiled in a freshly started worker (bench/results/history.md), the sink's apply workers spent half their CPU in TLS
 * 1.3's AES-GCM (the JDK's {@code GHASH} before C2 compiles it and takes its CPU intrinsic), and its task thread in
 * decoding. A warm-up first runs the caller's own step (the sink reads typical DDL with its parser: a stream that
 * begins with its tables' DDL holds their rows behind it, and the grammar's first statements in a fresh JVM take about
 * half a second), then {@link TlsCipherWarmup} (encryption and decryption with the cipher the task's connections
 * use, as a connection to the database does both),
 * then decodes the task's wire format on synthetic sysbench-like messages. Formats that need a schema registry skip
 * that part: nothing here talks to a server. A task that joins an empty consumer group waits the broker's
 * {@code group.initial.rebalance.delay.ms} (3 s by default) for its partitions: the warm-up runs in that wait.
 *
 * <p>The decoding goes on past its first {@link #FORMAT_MESSAGES} messages, over messages of several tables, until
 * the warm-up is stopped or has decoded {@link #FORMAT_MESSAGES_MOST}: the JIT compiles a method with C2 only after
 * many calls, later still while its queue holds the grammar's and the cipher's methods, and a warm-up that ended
 * after its first 20,000 messages (1.3 s into a 3 s wait, 2026-11-29) left the decoder to be compiled by C2 during
 * the task's first real records. Only one warm-up of a JVM goes past the first part at a time.
 *
 * <p>It touches no data, no connection and no record. {@link #stop} ends it at once (the sink stops it when its task's
 * partitions are assigned: real work begins). Once one has run its first part (cipher and first messages) in a JVM
 * for a format, later tasks there skip it: the compiled code is the JVM's. The source has no such wait: measured
 * with this warm-up beside Debezium's start, its cold snapshot was no faster (its connections carried no TLS) and the
 * warm-up took 2 s of a core; a warm-up of Debezium's DDL parser alone was no faster either (bench/results/history.md). So
 * it has none.
 */
public final class StartupWarmup implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(StartupWarmup.class);

    /** Bytes encrypted and decrypted: enough loop iterations for C2 to compile GHASH and AES-CTR. */
    public static final long CRYPTO_BYTES = 24L * 1024 * 1024;
    /** Synthetic messages decoded in the first part. */
    public static final int FORMAT_MESSAGES = 20_000;
    /** Synthetic messages decoded at most, while the task still waits. */
    public static final int FORMAT_MESSAGES_MOST = 400_000;
    /** Synthetic tables the messages are spread over, as a stream's are. */
    static final int TABLES = 8;

    /** Formats and ciphers a warm-up of this JVM ran its first part to its end for. */
    private static final Set<String> WARMED = ConcurrentHashMap.newKeySet();
    /** Whether a warm-up of this JVM is decoding past its first part. */
    private static final AtomicBoolean EXTENDING = new AtomicBoolean();

    private final WireFormat format;
    private final TlsCipherWarmup.Suite cipher;
    private final String name;
    private final Runnable first;
    private final long cryptoBytes;
    private final int formatMessages;
    private final int mostMessages;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile long encryptedBytes;
    private volatile long formatted;
    private volatile boolean finished;
    private volatile boolean firstPartDone;

    /** With smaller amounts of work (tests). */
    StartupWarmup(WireFormat format, String name, Runnable first, long cryptoBytes, int formatMessages) {
        this(format, TlsCipherWarmup.Suite.AES_GCM, name, first, cryptoBytes, formatMessages, formatMessages);
    }

    StartupWarmup(WireFormat format, TlsCipherWarmup.Suite cipher, String name, Runnable first, long cryptoBytes,
                  int formatMessages, int mostMessages) {
        this.format = format;
        this.cipher = cipher;
        this.name = name;
        this.first = first;
        this.cryptoBytes = cryptoBytes;
        this.formatMessages = formatMessages;
        this.mostMessages = Math.max(formatMessages, mostMessages);
    }

    /**
     * Starts a warm-up on a daemon thread named {@code threadName}, beginning with {@code first} (may be null: a step
     * of the caller's, such as reading typical DDL; it must touch no data and no server, and be short) and running
     * {@code cipher}, the one the task's connections use; null when one of this JVM already ran to its end for
     * {@code format} and {@code cipher}.
     */
    public static StartupWarmup start(WireFormat format, TlsCipherWarmup.Suite cipher, String threadName,
                                      Runnable first) {
        if (WARMED.contains(key(format, cipher))) return null;
        StartupWarmup w = new StartupWarmup(format, cipher, threadName, first, CRYPTO_BYTES, FORMAT_MESSAGES,
                FORMAT_MESSAGES_MOST);
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

    /** Synthetic messages decoded so far. */
    long formatted() {
        return formatted;
    }

    /** Whether the warm-up ran to its end without being stopped. */
    boolean finished() {
        return finished;
    }

    /** Whether its first part (the caller's step, the cipher, the first messages) ran to its end. */
    boolean firstPartDone() {
        return firstPartDone;
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        try {
            if (first != null && !stopped.get()) first.run();
            encryptedBytes = TlsCipherWarmup.run(cipher, cryptoBytes, stopped::get);
            format();
            finished = !stopped.get();
        } catch (Exception | LinkageError e) {
            // a warm-up that cannot run costs only speed; the task goes on without it
            LOG.debug("{}: warm-up ended early: {}", name, e.toString());
        }
        LOG.info("{}: start-up warm-up {} after {} ms ({} MiB through {}, {} {} messages decoded)", name,
                finished ? "done" : "stopped", (System.nanoTime() - start) / 1_000_000, encryptedBytes >> 20,
                cipher, formatted, format.configName());
    }

    /** The first part ran to its end: later tasks of this JVM skip the warm-up. */
    private void markFirstPartDone() {
        firstPartDone = true;
        if (cryptoBytes >= CRYPTO_BYTES && formatMessages >= FORMAT_MESSAGES) WARMED.add(key(format, cipher));
    }

    private static String key(WireFormat format, TlsCipherWarmup.Suite cipher) {
        return format.name() + "/" + cipher.name();
    }

    /**
     * Decodes synthetic sysbench-like messages of the format with a decoder of its own: the first part, then on (one
     * warm-up of the JVM at a time) until stopped or {@code mostMessages} in all.
     */
    private void format() {
        if (stopped.get()) return;
        if (format.needsSchemaRegistry() || !format.codecDecoded()) {
            markFirstPartDone();
            return;
        }
        EventEncoder encoder = format.encoder(Map.of());
        List<EncodedMessage> messages = new ArrayList<>();
        for (int t = 0; t < TABLES; t++) {
            TableInfo table = TableInfo.of("cdc_warmup", "t" + t, List.of(
                    ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY),
                    ColumnInfo.of("k", MySqlType.LONG, 0),
                    ColumnInfo.of("c", MySqlType.STRING, 0),
                    ColumnInfo.of("pad", MySqlType.STRING, 0)));
            for (int i = 0; i < 32 && !stopped.get(); i++) {
                messages.addAll(encoder.encode("cdc_warmup", change(table, t * 32 + i)));
            }
        }
        messages.addAll(encoder.flush());
        if (messages.isEmpty()) return;
        EventDecoder decoder = format.decoder(Map.of());
        decode(decoder, messages, formatMessages);
        if (formatted < formatMessages) return;
        markFirstPartDone();
        if (mostMessages <= formatMessages || !EXTENDING.compareAndSet(false, true)) return;
        try {
            decode(decoder, messages, mostMessages);
        } finally {
            EXTENDING.set(false);
        }
    }

    private void decode(EventDecoder decoder, List<EncodedMessage> messages, int upTo) {
        for (long n = formatted; n < upTo && !stopped.get(); n++) {
            EncodedMessage m = messages.get((int) (n % messages.size()));
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
