package io.cdcconnect.sink;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sink's packages form a layering without circles (docs/architecture.md, "Package layering"): read from the
 * compiled classes by jdeps, at class level (a nested class counts as its outer class), no strongly connected
 * component spans two packages, and the packages' own dependency graph has no cycle. Cycles among the classes of one
 * package are allowed.
 */
class PackageCyclesTest {

    private static final String ROOT = "io.cdcconnect.sink";
    private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)");

    /** class -> the sink classes it uses, both top-level. */
    private static Map<String, Set<String>> classes;

    @BeforeAll
    static void readClasses() {
        classes = classGraph(classesDir());
    }

    @Test
    void theGraphIsRead() {
        assertTrue(classes.containsKey(ROOT + ".CdcSinkTask") && classes.size() > 100,
                "jdeps found too few classes: " + classes.keySet());
    }

    @Test
    void noClassCycleSpansTwoPackages() {
        List<String> found = new ArrayList<>();
        for (List<String> scc : components(classes)) {
            Set<String> packages = scc.stream().map(PackageCyclesTest::packageOf).collect(Collectors.toCollection(TreeSet::new));
            if (packages.size() < 2) continue;
            Set<String> members = new TreeSet<>(scc);
            StringBuilder b = new StringBuilder("a cycle of " + scc.size() + " classes in " + packages.size()
                    + " packages " + packages.stream().map(PackageCyclesTest::shortName).toList() + ":\n    classes "
                    + members.stream().map(PackageCyclesTest::shortName).toList() + "\n    edges between packages:");
            for (String from : members) {
                for (String to : new TreeSet<>(classes.get(from))) {
                    if (members.contains(to) && !packageOf(from).equals(packageOf(to))) {
                        b.append("\n      ").append(shortName(from)).append(" -> ").append(shortName(to));
                    }
                }
            }
            found.add(b.toString());
        }
        assertEquals("", String.join("\n", found), "import cycles across the sink's packages");
    }

    @Test
    void packagesFormALayering() {
        Map<String, Set<String>> packages = new TreeMap<>();
        classes.forEach((from, tos) -> {
            packages.computeIfAbsent(packageOf(from), k -> new TreeSet<>());
            for (String to : tos) {
                if (!packageOf(from).equals(packageOf(to))) packages.get(packageOf(from)).add(packageOf(to));
            }
        });
        List<String> found = new ArrayList<>();
        for (List<String> scc : components(packages)) {
            if (scc.size() < 2) continue;
            Set<String> members = new TreeSet<>(scc);
            StringBuilder b = new StringBuilder("a cycle of packages " + members.stream()
                    .map(PackageCyclesTest::shortName).toList() + ":");
            for (String from : members) {
                for (String to : packages.get(from)) {
                    if (!members.contains(to)) continue;
                    b.append("\n      ").append(shortName(from)).append(" -> ").append(shortName(to)).append(": ")
                            .append(classes.entrySet().stream().filter(e -> packageOf(e.getKey()).equals(from))
                                    .flatMap(e -> e.getValue().stream().filter(t -> packageOf(t).equals(to))
                                            .map(t -> shortName(e.getKey()) + " -> " + shortName(t)))
                                    .sorted().collect(Collectors.joining(", ")));
                }
            }
            found.add(b.toString());
        }
        System.out.println("[PackageCyclesTest] package dependencies:\n" + packages.entrySet().stream()
                .map(e -> "  " + shortName(e.getKey()) + " -> " + e.getValue().stream().map(PackageCyclesTest::shortName)
                        .toList()).collect(Collectors.joining("\n")));
        printLargestPackages();
        assertEquals("", String.join("\n", found), "cycles among the sink's packages");
    }

    /**
     * A DDL statement's text is parsed once, where the sink checks it ({@code DdlPolicy}, called by the record screen
     * and by auto-create): every class below uses the parsed statement the change carries ({@code ParsedDdl.of}), so
     * no other class of the sink may use the parser.
     */
    @Test
    void onlyTheCheckParsesDdlText() {
        String parser = ROOT + ".ddl.sql.MySqlDdlParser";
        assertTrue(classes.containsKey(parser), "jdeps did not see " + parser);
        List<String> users = classes.entrySet().stream().filter(e -> e.getValue().contains(parser))
                .map(e -> shortName(e.getKey())).sorted().toList();
        assertEquals(List.of("ddl.DdlPolicy"), users, "the classes that parse DDL text");
    }

    // ---- reading the classes ----

    private static Path classesDir() {
        try {
            return Path.of(CdcSinkTask.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Set<String>> classGraph(Path dir) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(
                () -> new IllegalStateException("no jdeps in this JDK"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:class", "-filter:none",
                "-e", Pattern.quote(ROOT) + "\\..*", dir.toString());
        if (rc != 0) throw new IllegalStateException("jdeps exited with " + rc + ": " + err);
        Map<String, Set<String>> g = new TreeMap<>();
        for (String line : out.toString().split("\\R")) {
            Matcher m = EDGE.matcher(line);
            if (!m.find()) continue;
            String from = topLevel(m.group(1));
            String to = topLevel(m.group(2));
            if (!inSink(from) || !inSink(to)) continue;
            g.computeIfAbsent(from, k -> new TreeSet<>());
            g.computeIfAbsent(to, k -> new TreeSet<>());
            if (!from.equals(to)) g.get(from).add(to);
        }
        return g;
    }

    private static boolean inSink(String name) {
        return name.startsWith(ROOT + ".");
    }

    private static String topLevel(String name) {
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }

    private static String packageOf(String name) {
        return name.substring(0, name.lastIndexOf('.'));
    }

    private static String shortName(String name) {
        return name.equals(ROOT) ? "(root)" : name.startsWith(ROOT + ".") ? name.substring(ROOT.length() + 1) : name;
    }

    /** Tarjan's strongly connected components. */
    static List<List<String>> components(Map<String, ? extends Collection<String>> g) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        List<String> stack = new ArrayList<>();
        Set<String> onStack = new java.util.HashSet<>();
        List<List<String>> out = new ArrayList<>();
        Function<String, Collection<String>> next = v -> {
            Collection<String> c = g.get(v);
            return c == null ? List.of() : c;
        };
        for (String root : g.keySet()) {
            if (!index.containsKey(root)) connect(root, next, index, low, stack, onStack, out);
        }
        return out;
    }

    private static void connect(String v, Function<String, Collection<String>> next, Map<String, Integer> index,
                                Map<String, Integer> low, List<String> stack, Set<String> onStack,
                                List<List<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.add(v);
        onStack.add(v);
        for (String w : next.apply(v)) {
            if (!index.containsKey(w)) {
                connect(w, next, index, low, stack, onStack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> scc = new ArrayList<>();
            String w;
            do {
                w = stack.remove(stack.size() - 1);
                onStack.remove(w);
                scc.add(w);
            } while (!w.equals(v));
            out.add(scc);
        }
    }

    /** For the record: the largest packages by source lines (a package that keeps growing is usually two). */
    private static void printLargestPackages() {
        Path src = classesDir().resolve("../../src/main/java").normalize();
        if (!Files.isDirectory(src)) return;
        Map<String, long[]> sizes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(src)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = src.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), ".");
                long[] s = sizes.computeIfAbsent(pkg, k -> new long[2]);
                s[0]++;
                try (Stream<String> lines = Files.lines(f)) {
                    s[1] += lines.count();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("[PackageCyclesTest] largest packages (files, lines): " + sizes.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1])).limit(5)
                .map(e -> shortName(e.getKey()) + " " + e.getValue()[0] + "/" + e.getValue()[1])
                .collect(Collectors.joining(", ")));
    }
}
