package io.cdcconnect.sink;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/troubleshooting.md names every exception class of the connectors' own code (io.cdcconnect.sink and
 * io.cdcconnect.source, main sources): a class that extends an exception, directly or through one of ours, carries a
 * message an operator may meet in a task's trace, and the page must say what it means.
 */
class TroubleshootingDocTest {

    private static final Path ROOT = Path.of(System.getProperty("cdc.repo.dir", ".."));
    private static final Pattern CLASS = Pattern.compile("\\bclass\\s+(\\w+)\\s+extends\\s+([\\w.]+)");

    @Test
    void everyExceptionClassOfTheConnectorsIsNamed() throws IOException {
        Map<String, String> classes = exceptionClasses(List.of(
                ROOT.resolve("connector-sink/src/main/java/io/cdcconnect/sink"),
                ROOT.resolve("connector-source/src/main/java/io/cdcconnect/source")));
        assertTrue(classes.containsKey("ApplyException") && classes.containsKey("RowRejectedException"),
                "the scan found " + classes);
        String doc = Files.readString(ROOT.resolve("docs/troubleshooting.md"));
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, String> c : classes.entrySet()) {
            // `Name` or `Outer.Name`
            if (!doc.contains("`" + c.getKey() + "`") && !doc.contains("." + c.getKey() + "`")) {
                missing.add(c.getKey() + " (" + c.getValue() + ")");
            }
        }
        assertEquals(List.of(), missing, "exception classes docs/troubleshooting.md does not name (add what each "
                + "message means, its cause and the fix)");
    }

    /** Simple name to file of every class that extends a Throwable class, found through the sources' own chain. */
    static Map<String, String> exceptionClasses(List<Path> dirs) throws IOException {
        Map<String, String> parents = new TreeMap<>();
        Map<String, String> files = new TreeMap<>();
        for (Path dir : dirs) {
            List<Path> sources;
            try (Stream<Path> s = Files.walk(dir)) {
                sources = s.filter(p -> p.toString().endsWith(".java")).toList();
            }
            for (Path f : sources) {
                Matcher m = CLASS.matcher(Files.readString(f));
                while (m.find()) {
                    String parent = m.group(2);
                    parents.put(m.group(1), parent.substring(parent.lastIndexOf('.') + 1));
                    files.put(m.group(1), ROOT.relativize(f).toString());
                }
            }
        }
        Map<String, String> out = new TreeMap<>();
        for (String name : new TreeSet<>(parents.keySet())) {
            String p = parents.get(name);
            for (int depth = 0; p != null && depth < 10; depth++) {
                if (p.endsWith("Exception") || p.endsWith("Error") || p.equals("Throwable")) {
                    out.put(name, files.get(name));
                    break;
                }
                p = parents.get(p); // a class of ours extending another class of ours
            }
        }
        return out;
    }
}
