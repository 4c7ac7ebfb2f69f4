package io.cdcconnect.codec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locates TiCDC's test vectors in the shared folder beside the project (never copied into it). */
public final class SharedVectors {

    private SharedVectors() {
    }

    /**
     * {@code cdc.shared.dir} (set by surefire from the root project), else {@code ../../shared} relative to the
     * module (when Maven runs inside codec/, the property points one level too deep).
     */
    public static Path dir() {
        String prop = System.getProperty("cdc.shared.dir");
        if (prop != null && Files.isDirectory(Path.of(prop, "vectors"))) {
            return Path.of(prop, "vectors").normalize();
        }
        Path fallback = Path.of("../../shared/vectors").toAbsolutePath().normalize();
        if (!Files.isDirectory(fallback)) {
            throw new IllegalStateException("TiCDC vectors not found at " + prop + "/vectors nor at " + fallback
                    + " (set -Dcdc.shared.dir)");
        }
        return fallback;
    }

    public static byte[] read(String relative) {
        try {
            return Files.readAllBytes(dir().resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
