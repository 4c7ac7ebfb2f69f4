package io.cdcconnect.codec.avro;

import java.util.ArrayList;
import java.util.List;

/** Names as TiCDC's Avro encoder writes them: Avro-safe record, namespace and field names, registry subjects. */
public final class AvroNames {

    public static final String KEY_SUFFIX = "-key";
    public static final String VALUE_SUFFIX = "-value";

    private AvroNames() {
    }

    /**
     * Makes a name valid for Avro: every character outside {@code [A-Za-z0-9_]} becomes {@code _} (one per Unicode
     * character), and a leading digit gets a {@code _} in front ({@code 1Col} becomes {@code _1Col}).
     */
    public static String sanitize(String name) {
        StringBuilder sb = new StringBuilder(name.length() + 1);
        boolean first = true;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            i += Character.charCount(cp);
            if (first) {
                first = false;
                if (isLetterOrUnderscore(cp)) {
                    sb.appendCodePoint(cp);
                } else {
                    sb.append('_');
                    if (cp >= '0' && cp <= '9') sb.appendCodePoint(cp);
                }
            } else if (isLetterOrUnderscore(cp) || (cp >= '0' && cp <= '9')) {
                sb.appendCodePoint(cp);
            } else {
                sb.append('_');
            }
        }
        return sb.toString();
    }

    private static boolean isLetterOrUnderscore(int cp) {
        return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || cp == '_';
    }

    /** The record namespace: {@code sanitize(namespace) + "." + sanitize(database)}. */
    public static String namespace(String namespace, String database) {
        String ns = sanitize(namespace);
        String db = sanitize(database);
        return db.isEmpty() ? ns : ns + "." + db;
    }

    /** The database part of a record namespace written by {@link #namespace}: what follows the first dot. */
    public static String databaseOf(String recordNamespace) {
        if (recordNamespace == null) return "";
        int dot = recordNamespace.indexOf('.');
        return dot < 0 ? "" : recordNamespace.substring(dot + 1);
    }

    /** The registry subject of a topic's keys: dots become underscores, then {@code -key}. */
    public static String keySubject(String topic) {
        return topic.replace('.', '_') + KEY_SUFFIX;
    }

    /** The registry subject of a topic's values: dots become underscores, then {@code -value}. */
    public static String valueSubject(String topic) {
        return topic.replace('.', '_') + VALUE_SUFFIX;
    }

    /**
     * The {@code allowed} parameter of an ENUM or SET: elements joined with {@code ,}, a comma inside an element
     * written {@code \,}, and {@code \'} or {@code ''} written {@code '} (as TiCDC does).
     */
    public static String joinElements(List<String> elements) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < elements.size(); i++) {
            if (i > 0) sb.append(',');
            sb.append(elements.get(i).replace(",", "\\,").replace("\\'", "'").replace("''", "'"));
        }
        return sb.toString();
    }

    /** Splits an {@code allowed} parameter back into elements, honouring {@code \,} inside an element. */
    public static List<String> splitElements(String allowed) {
        List<String> out = new ArrayList<>();
        if (allowed == null) return out;
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < allowed.length(); i++) {
            char c = allowed.charAt(i);
            if (c == '\\' && i + 1 < allowed.length() && allowed.charAt(i + 1) == ',') {
                cur.append(',');
                i++;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }
}
