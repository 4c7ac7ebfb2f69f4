package io.cdcconnect.sink.testutil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** TiCDC's test vectors in the shared folder beside the project (read in place, never copied into it). */
public final class SharedVectors {

    private SharedVectors() {
    }

    /** {@code cdc.shared.dir}, else {@code ../../shared} relative to the module. */
    public static Path dir() {
        String prop = System.getProperty("cdc.shared.dir");
        if (prop != null && Files.isDirectory(Path.of(prop, "vectors"))) return Path.of(prop, "vectors");
        Path fallback = Path.of("../../shared/vectors").toAbsolutePath().normalize();
        if (!Files.isDirectory(fallback)) {
            throw new IllegalStateException("TiCDC vectors not found at " + fallback + " (set -Dcdc.shared.dir)");
        }
        return fallback;
    }

    public static List<String> lines(String relative) {
        try {
            return Files.readAllLines(dir().resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
