package io.cdcconnect.codec.util;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.function.BooleanSupplier;

/**
 * Runs the JDK's implementation of a TLS 1.3 cipher between the connectors and MySQL/MariaDB until the JIT compiles
 * it: AES-GCM, what TLS 1.3 picks by default, or ChaCha20-Poly1305, what the sink asks a MariaDB server for when the
 * server's TLS library is one whose AES-GCM is slow (docs/sink.md, "JDBC driver").
 *
 * <p>Until C2 compiles the cipher (for AES-GCM: {@code GHASH} and AES-CTR, which then take the CPU's instructions), a
 * connection's TLS runs through the interpreter: profiled in a freshly started worker, the sink's apply workers spent
 * half their CPU there. The sink's {@link StartupWarmup} calls this on a thread of its own while a new task waits for
 * its partitions. Nothing here touches a key, a connection or data of anyone's: a fixed key and fresh nonces over a
 * constant buffer.
 */
public final class TlsCipherWarmup {

    /** A TLS record's largest plaintext. */
    public static final int TLS_RECORD = 16 * 1024;

    /** The AEAD ciphers of TLS 1.3 that the connectors' connections use. */
    public enum Suite {
        /** TLS_AES_256_GCM_SHA384 and TLS_AES_128_GCM_SHA256. */
        AES_GCM,
        /** TLS_CHACHA20_POLY1305_SHA256. */
        CHACHA20_POLY1305
    }

    private TlsCipherWarmup() {
    }

    /**
     * Encrypts and decrypts {@code bytes} with {@code suite} in TLS-record-sized buffers (AES-GCM: half under a
     * 256-bit key, half under a 128-bit key, the two suites TLS 1.3 offers with AES), until done or {@code stop}
     * says so.
     *
     * @return the bytes encrypted and decrypted
     */
    public static long run(Suite suite, long bytes, BooleanSupplier stop) throws GeneralSecurityException {
        if (suite == Suite.CHACHA20_POLY1305) return run("ChaCha20-Poly1305", "ChaCha20", 32, bytes, stop);
        long done = run("AES/GCM/NoPadding", "AES", 32, bytes / 2, stop);
        return done + run("AES/GCM/NoPadding", "AES", 16, bytes - bytes / 2, stop);
    }

    private static long run(String transformation, String keyAlgorithm, int keyBytes, long bytes,
                            BooleanSupplier stop) throws GeneralSecurityException {
        byte[] key = new byte[keyBytes];
        for (int i = 0; i < key.length; i++) key[i] = (byte) (i * 31 + keyBytes);
        SecretKeySpec spec = new SecretKeySpec(key, keyAlgorithm);
        boolean gcm = keyAlgorithm.equals("AES");
        Cipher enc = Cipher.getInstance(transformation);
        Cipher dec = Cipher.getInstance(transformation);
        byte[] plain = new byte[TLS_RECORD];
        for (int i = 0; i < plain.length; i++) plain[i] = (byte) i;
        byte[] iv = new byte[12];
        byte[] aad = new byte[5];
        long done = 0;
        for (long n = 0; done < bytes && !stop.getAsBoolean(); n++) {
            // a fresh nonce each time, as TLS does (both ciphers refuse to encrypt twice under one key and nonce)
            ByteBuffer.wrap(iv).putLong(4, n);
            java.security.spec.AlgorithmParameterSpec params = gcm ? new GCMParameterSpec(128, iv)
                    : new IvParameterSpec(iv);
            enc.init(Cipher.ENCRYPT_MODE, spec, params);
            enc.updateAAD(aad);
            byte[] sealed = enc.doFinal(plain);
            dec.init(Cipher.DECRYPT_MODE, spec, params);
            dec.updateAAD(aad);
            byte[] opened = dec.doFinal(sealed);
            if (opened.length != plain.length) {
                throw new IllegalStateException(transformation + " round trip lost bytes");
            }
            done += plain.length;
        }
        return done;
    }
}
