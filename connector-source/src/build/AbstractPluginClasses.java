import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Build step of the source's plugin archive (run by maven-antrun as a single-file program, Java 11+): marks the named
 * classes of a jar {@code abstract}, in place, changing nothing else.
 *
 * <p>Why: the source runs Debezium's engine inside its own task, so Debezium's jars travel in the plugin folder. A
 * worker that scans plugin folders (Kafka's default {@code plugin.discovery=hybrid_warn}, and {@code only_scan}) lists
 * every concrete {@code Connector} class it finds there, so Debezium's {@code MySqlConnector} and
 * {@code MariaDbConnector} would appear beside ours and compete with any other Debezium on the worker. Connect skips
 * abstract classes when it scans. Debezium's own code names these classes ({@code MySqlConnector.class} as an id)
 * but never instantiates them inside the engine our task runs, so the flag changes nothing it does. Deleting the
 * classes would break those references; their ServiceLoader manifests are left out of the jars separately.
 *
 * <p>Usage: {@code AbstractPluginClasses <jar> <binary class name>...}. Fails when a named class is missing, so a
 * Debezium upgrade that moves one cannot let it through unflagged.
 */
public final class AbstractPluginClasses {

    private static final int ACC_ABSTRACT = 0x0400;

    public static void main(String[] args) throws IOException {
        if (args.length < 2) throw new IllegalArgumentException("usage: AbstractPluginClasses <jar> <class>...");
        Path jar = Path.of(args[0]);
        Set<String> wanted = new HashSet<>();
        for (String c : List.of(args).subList(1, args.length)) wanted.add(c.replace('.', '/') + ".class");
        Path tmp = Files.createTempFile(jar.getParent(), jar.getFileName().toString(), ".tmp");
        Set<String> done = new HashSet<>();
        try (ZipFile in = new ZipFile(jar.toFile()); OutputStream fo = Files.newOutputStream(tmp);
             ZipOutputStream out = new ZipOutputStream(fo)) {
            for (Enumeration<? extends ZipEntry> e = in.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                ZipEntry copy = new ZipEntry(entry.getName());
                copy.setTime(entry.getTime());
                out.putNextEntry(copy);
                try (InputStream is = in.getInputStream(entry)) {
                    byte[] bytes = is.readAllBytes();
                    if (wanted.contains(entry.getName())) {
                        markAbstract(bytes, entry.getName());
                        done.add(entry.getName());
                    }
                    out.write(bytes);
                }
                out.closeEntry();
            }
        }
        if (!done.equals(wanted)) {
            Files.deleteIfExists(tmp);
            Set<String> missing = new HashSet<>(wanted);
            missing.removeAll(done);
            throw new IllegalStateException(jar + " lacks " + missing);
        }
        Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("marked abstract in " + jar.getFileName() + ": " + done);
    }

    /** Sets ACC_ABSTRACT in the class file's access flags, which follow its constant pool (JVMS 4.1). */
    static void markAbstract(byte[] c, String name) {
        if ((c[0] & 0xff) != 0xCA || (c[1] & 0xff) != 0xFE) throw new IllegalStateException(name + " is no class file");
        int count = u2(c, 8);
        int at = 10;
        for (int i = 1; i < count; i++) {
            int tag = c[at] & 0xff;
            switch (tag) {
                case 1 -> at += 3 + u2(c, at + 1);                  // Utf8
                case 3, 4, 9, 10, 11, 12, 17, 18 -> at += 5;        // Integer, Float, refs, NameAndType, (Invoke)Dynamic
                case 5, 6 -> {                                      // Long, Double: two slots
                    at += 9;
                    i++;
                }
                case 7, 8, 16, 19, 20 -> at += 3;                   // Class, String, MethodType, Module, Package
                case 15 -> at += 4;                                 // MethodHandle
                default -> throw new IllegalStateException(name + ": constant pool tag " + tag + " at " + at);
            }
        }
        int flags = u2(c, at) | ACC_ABSTRACT;
        c[at] = (byte) (flags >> 8);
        c[at + 1] = (byte) flags;
    }

    private static int u2(byte[] c, int at) {
        return ((c[at] & 0xff) << 8) | (c[at + 1] & 0xff);
    }
}
