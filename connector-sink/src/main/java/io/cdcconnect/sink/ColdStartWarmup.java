package io.cdcconnect.sink;

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

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Compiles the sink's hot paths while a new task waits for its first partitions, so that its first records do not
 * run through the JVM's interpreter.
 *
 * <p>A task that joins an empty consumer group gets its first partition only after the broker's
 * {@code group.initial.rebalance.delay.ms} (3 s by default); a task of a freshly started worker spends those seconds
 * idle, then applies its first records with nothing compiled. Profiled cold (docs/benchmarks.md), the apply workers
 * then spent half their CPU in TLS 1.3's AES-GCM (the JDK's {@code GHASH} before C2 compiles it and takes its CPU
 * intrinsic), and the task thread in decoding. This warm-up runs once per task, on a thread of its own, in that idle
 * window: AES-GCM encryption and decryption of TLS-record-sized buffers under 128- and 256-bit keys (the cipher suites
 * of TLS 1.3 the JDK and MySQL/MariaDB agree on), and the decoding of the task's input format on synthetic messages
 * (formats that need a schema registry are left out: nothing here talks to a server).
 *
 * <p>It touches no data, no connection and no record, and stops as soon as the task receives its first records
 * ({@link #stop}), so on a broker without the delay it takes at most a few milliseconds of a core away from real work.
 * Once one has run to its end in a worker, later tasks of the worker skip it (the compiled code is the JVM's).
 * {@code warmup.enabled=false} turns it off.
 */
final class ColdStartWarmup implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ColdStartWarmup.class);

    /** A TLS record's largest plaintext. */
    static final int TLS_RECORD = 16 * 1024;
    /** Bytes encrypted and decrypted per key size: enough loop iterations for C2 to compile GHASH and AES-CTR. */
    static final int CRYPTO_BYTES = 12 * 1024 * 1024;
    /** Synthetic messages decoded: enough for C2 to compile the decoder's per-message and per-value paths. */
    static final int DECODE_MESSAGES = 20_000;

    /**
     * Input formats a warm-up of this JVM ran to its end for: compiled code serves every later task of the worker, so
     * they skip it (a warm-up stopped early is tried again by the next task).
     */
    private static final java.util.Set<WireFormat> WARMED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final WireFormat format;
    private final String name;
    private final long cryptoBytes;
    private final int decodeMessages;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile long encryptedBytes;
    private volatile long decodedMessages;
    private volatile boolean finished;

    /** @param format the task's input format (decoded on synthetic messages when it needs no schema registry) */
    ColdStartWarmup(WireFormat format, String name) {
        this(format, name, CRYPTO_BYTES, DECODE_MESSAGES);
    }

    /** With smaller amounts of work (tests). */
    ColdStartWarmup(WireFormat format, String name, long cryptoBytes, int decodeMessages) {
        this.format = format;
        this.name = name;
        this.cryptoBytes = cryptoBytes;
        this.decodeMessages = decodeMessages;
    }

    /**
     * Starts the warm-up on a daemon thread of its own; null when one of this JVM already ran to its end for
     * {@code format} (its compiled code serves this task too).
     */
    static ColdStartWarmup start(WireFormat format, String threadName) {
        if (WARMED.contains(format)) return null;
        ColdStartWarmup w = new ColdStartWarmup(format, threadName);
        Thread t = new Thread(w, threadName);
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
        return w;
    }

    /** Stops the warm-up (the task's first records arrived, or the task stops); returns at once. */
    void stop() {
        stopped.set(true);
    }

    boolean stopped() {
        return stopped.get();
    }

    /** Bytes run through AES-GCM so far (each encrypted and decrypted once). */
    long encryptedBytes() {
        return encryptedBytes;
    }

    /** Synthetic messages decoded so far. */
    long decodedMessages() {
        return decodedMessages;
    }

    /** Whether the warm-up ran to its end without being stopped. */
    boolean finished() {
        return finished;
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        try {
            crypto(32);
            crypto(16);
            decode();
            finished = !stopped.get();
            if (finished && cryptoBytes >= CRYPTO_BYTES && decodeMessages >= DECODE_MESSAGES) WARMED.add(format);
        } catch (Exception | LinkageError e) {
            // a warm-up that cannot run costs only speed; the task goes on without it
            LOG.debug("{}: warm-up ended early: {}", name, e.toString());
        }
        LOG.info("{}: cold-start warm-up {} after {} ms ({} MiB through AES-GCM, {} {} messages decoded)", name,
                finished ? "done" : "stopped", (System.nanoTime() - start) / 1_000_000, encryptedBytes >> 20,
                decodedMessages, format.configName());
    }

    /** Encrypts and decrypts {@code cryptoBytes} in TLS-record-sized buffers under a key of {@code keyBytes}. */
    private void crypto(int keyBytes) throws Exception {
        byte[] key = new byte[keyBytes];
        for (int i = 0; i < key.length; i++) key[i] = (byte) (i * 31 + keyBytes);
        SecretKeySpec spec = new SecretKeySpec(key, "AES");
        Cipher enc = Cipher.getInstance("AES/GCM/NoPadding");
        Cipher dec = Cipher.getInstance("AES/GCM/NoPadding");
        byte[] plain = new byte[TLS_RECORD];
        for (int i = 0; i < plain.length; i++) plain[i] = (byte) i;
        byte[] iv = new byte[12];
        byte[] aad = new byte[5];
        long done = 0;
        for (long n = 0; done < cryptoBytes && !stopped.get(); n++) {
            // a fresh nonce each time, as TLS does (GCM refuses to encrypt twice under one key and nonce)
            ByteBuffer.wrap(iv).putLong(4, n);
            enc.init(Cipher.ENCRYPT_MODE, spec, new GCMParameterSpec(128, iv));
            enc.updateAAD(aad);
            byte[] sealed = enc.doFinal(plain);
            dec.init(Cipher.DECRYPT_MODE, spec, new GCMParameterSpec(128, iv));
            dec.updateAAD(aad);
            byte[] opened = dec.doFinal(sealed);
            if (opened.length != plain.length) throw new IllegalStateException("AES-GCM round trip lost bytes");
            done += plain.length;
            encryptedBytes += plain.length;
        }
    }

    /** Decodes synthetic sysbench-like messages of the task's format with a decoder of its own. */
    private void decode() {
        if (format.needsSchemaRegistry() || !format.codecDecoded()) return;
        TableInfo table = TableInfo.of("cdc_warmup", "t", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY),
                ColumnInfo.of("k", MySqlType.LONG, 0),
                ColumnInfo.of("c", MySqlType.STRING, 0),
                ColumnInfo.of("pad", MySqlType.STRING, 0)));
        EventEncoder encoder = format.encoder(Map.of());
        List<EncodedMessage> messages = new ArrayList<>();
        long ts = 1L << 40;
        for (int i = 0; i < 256; i++) {
            Object[] before = {(long) i, (long) i * 7, "c-" + i + "-0123456789-0123456789-0123456789", "pad-" + i};
            Object[] after = {(long) i, (long) i * 11, "c-" + i + "-9876543210-9876543210-9876543210", "pad-" + i};
            RowChange change = switch (i % 3) {
                case 0 -> RowChange.insert(table, after, ts + i);
                case 1 -> RowChange.update(table, before, after, ts + i);
                default -> RowChange.delete(table, before, ts + i);
            };
            messages.addAll(encoder.encode("cdc_warmup", change));
        }
        messages.addAll(encoder.flush());
        if (messages.isEmpty()) return;
        EventDecoder decoder = format.decoder(Map.of());
        for (int n = 0; n < decodeMessages && !stopped.get(); n++) {
            EncodedMessage m = messages.get(n % messages.size());
            if (decoder.decode(m.key(), m.value()).isEmpty()) {
                throw new IllegalStateException("a synthetic " + format + " message decoded to nothing");
            }
            decodedMessages++;
        }
    }
}
