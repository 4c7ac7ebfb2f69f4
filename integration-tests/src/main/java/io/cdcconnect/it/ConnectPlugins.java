package io.cdcconnect.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where an unpacked plugin archive is in a plugin folder: each archive's top folder is its Confluent Hub component
 * name, {@code <owner>-<artifactId>-<version>} (src/assembly/connect-plugin.xml), e.g.
 * {@code cdcconnect-cdc-connect-source-1.0.0}.
 */
public final class ConnectPlugins {
    /** Confluent Hub owner of both archives (the root pom's {@code connect.plugin.owner}). */
    public static final String OWNER = "cdcconnect";

    private ConnectPlugins() {
    }

    /** The one folder in {@code pluginDir} holding the archive of {@code artifactId}, e.g. {@code cdc-connect-sink}. */
    public static Path home(Path pluginDir, String artifactId) {
        String prefix = OWNER + "-" + artifactId + "-";
        List<Path> found;
        try (Stream<Path> s = Files.list(pluginDir)) {
            found = s.filter(Files::isDirectory)
                    .filter(p -> {
                        String n = p.getFileName().toString();
                        return n.startsWith(prefix) && n.length() > prefix.length()
                                && Character.isDigit(n.charAt(prefix.length()));
                    })
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + pluginDir, e);
        }
        if (found.size() != 1) {
            throw new IllegalStateException("expected one folder " + prefix + "<version> in " + pluginDir + ", found "
                    + found + " (build the plugin archives first: mvn -DskipTests install)");
        }
        return found.get(0);
    }
}
