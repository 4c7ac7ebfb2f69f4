package io.cdcconnect.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * TiCDC's own test data (pingcap/tiflow v7.5.0 and HEAD {@code c7b2588e}: {@code pkg/sink/codec/} and
 * {@code examples/java/}), kept in this module's resources under {@code ticdc-vectors/}. Each folder's README there
 * says which test each file was taken from and what to skip when comparing. Read from the classpath: no test reads
 * outside the repository.
 */
public final class TicdcVectors {

    private static final String ROOT = "ticdc-vectors/";

    private TicdcVectors() {
    }

    /** The bytes of {@code ticdc-vectors/<relative>}, e.g. {@code canal-json/messages.jsonl}. */
    public static byte[] read(String relative) {
        try (InputStream in = TicdcVectors.class.getClassLoader().getResourceAsStream(ROOT + relative)) {
            if (in == null) {
                throw new IllegalArgumentException("no TiCDC vector " + ROOT + relative + " on the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of a text vector (UTF-8), without line terminators. */
    public static List<String> lines(String relative) {
        return new String(read(relative), StandardCharsets.UTF_8).lines().toList();
    }
}
