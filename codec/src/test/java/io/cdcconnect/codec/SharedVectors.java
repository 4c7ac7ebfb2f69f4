package io.cdcconnect.codec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locates TiCDC's test vectors in the shared folder beside the project (never copied into it). */
public final class SharedVectors {

    private SharedVectors() {
    }

    /** {@code cdc.shared.dir} (set by surefire), else {@code ../../shared} relative to the module. */
    public static Path dir() {
        String prop = System.getProperty("cdc.shared.dir");
        Path p = prop != null ? Path.of(prop) : Path.of("../../shared");
        Path vectors = p.resolve("vectors").normalize();
        if (!Files.isDirectory(vectors)) {
            throw new IllegalStateException("TiCDC vectors not found at " + vectors.toAbsolutePath()
                    + " (set -Dcdc.shared.dir)");
        }
        return vectors;
    }

    public static byte[] read(String relative) {
        try {
            return Files.readAllBytes(dir().resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
