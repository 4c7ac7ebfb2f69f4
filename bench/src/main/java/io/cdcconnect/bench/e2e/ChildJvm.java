package io.cdcconnect.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the benchmark's measurements in a fresh child JVM on this JVM's classpath (plus, when asked, jars this
 * JVM must not have, e.g. our sink's from its plugin folder): nothing it runs has been compiled by the JIT before, and
 * nothing of the benchmark's own work shares its heap. The child prints its figures as lines
 * {@code RESULT key=value ...}; its whole output goes to a log file.
 */
final class ChildJvm {
    static final String RESULT = "RESULT ";

    private ChildJvm() {
    }

    /**
     * Runs {@code main} with {@code args} and returns the key-value pairs of its {@code RESULT} lines; fails with the
     * end of the log when the child exits with an error or outlives {@code timeout}.
     */
    static Map<String, String> run(Class<?> main, List<String> args, List<Path> extraClasspath, String maxHeap,
                                   Path log, Duration timeout) throws IOException, InterruptedException {
        StringBuilder classpath = new StringBuilder(System.getProperty("java.class.path"));
        for (Path p : extraClasspath) classpath.append(java.io.File.pathSeparatorChar).append(p.toAbsolutePath());
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + maxHeap);
        cmd.add("-cp");
        cmd.add(classpath.toString());
        cmd.add(main.getName());
        cmd.addAll(args);
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException(main.getSimpleName() + " in a child JVM did not end within " + timeout
                        + "; see " + log);
            }
        } finally {
            if (p.isAlive()) p.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(log);
        if (p.exitValue() != 0) {
            List<String> tail = lines.subList(Math.max(0, lines.size() - 5), lines.size());
            throw new IllegalStateException(main.getSimpleName() + " in a child JVM exited with " + p.exitValue()
                    + " (" + log + "): " + String.join(" / ", tail));
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : lines) {
            if (!line.startsWith(RESULT)) continue;
            for (String pair : line.substring(RESULT.length()).trim().split(" ")) {
                int eq = pair.indexOf('=');
                if (eq > 0) out.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        if (out.isEmpty()) throw new IllegalStateException(main.getSimpleName() + " printed no result; see " + log);
        return out;
    }

    /** Prints one result line for the parent. */
    static void result(Map<String, ?> values) {
        StringBuilder line = new StringBuilder(RESULT);
        values.forEach((k, v) -> line.append(k).append('=').append(v).append(' '));
        System.out.println(line.toString().trim());
        System.out.flush();
    }
}
