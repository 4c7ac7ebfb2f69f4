package io.cdcconnect.codec.util;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.function.BooleanSupplier;

/**
 * Runs the JDK's AES-GCM, the cipher of TLS 1.3 between the connectors and MySQL/MariaDB, until the JIT compiles it.
 *
 * <p>Until C2 compiles {@code GHASH} and AES-CTR and takes the CPU's instructions for them, a connection's TLS runs
 * through the interpreter: profiled in a freshly started worker, the sink's apply workers spent half their CPU there.
 * The sink's {@link StartupWarmup} calls this on a thread of its own while a new task waits for its partitions.
 * Nothing here touches a key, a connection or data of anyone's: a fixed key and fresh nonces over a constant buffer.
 */
public final class AesGcmWarmup {

    /** A TLS record's largest plaintext. */
    public static final int TLS_RECORD = 16 * 1024;

    private AesGcmWarmup() {
    }

    /**
     * Encrypts and decrypts {@code bytes} in TLS-record-sized buffers, under a 256-bit and then a 128-bit key (half
     * each: the two suites TLS 1.3 offers with AES), until done or {@code stop} says so.
     *
     * @return the bytes encrypted and decrypted
     */
    public static long run(long bytes, BooleanSupplier stop) throws GeneralSecurityException {
        long done = run(32, bytes / 2, stop);
        return done + run(16, bytes - bytes / 2, stop);
    }

    private static long run(int keyBytes, long bytes, BooleanSupplier stop) throws GeneralSecurityException {
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
        for (long n = 0; done < bytes && !stop.getAsBoolean(); n++) {
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
        }
        return done;
    }
}
