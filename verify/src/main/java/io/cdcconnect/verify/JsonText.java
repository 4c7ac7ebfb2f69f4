package io.cdcconnect.verify;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON written one way: objects with their keys sorted, no spaces, numbers by value, strings escaped minimally. MySQL
 * keeps JSON as written (MariaDB: as text), PostgreSQL's jsonb re-orders keys and re-spaces it; this makes them
 * comparable. Text that is not JSON is returned as it is.
 */
final class JsonText {
    private final String s;
    private int pos;

    private JsonText(String s) {
        this.s = s;
    }

    static String canonical(String text) {
        if (text == null) return null;
        try {
            JsonText p = new JsonText(text);
            StringBuilder out = new StringBuilder(text.length());
            p.value(out, 0);
            p.space();
            return p.pos == text.length() ? out.toString() : text;
        } catch (RuntimeException e) {
            return text;
        }
    }

    private void value(StringBuilder out, int depth) {
        if (depth > 200) throw new IllegalArgumentException("too deep");
        space();
        char c = s.charAt(pos);
        if (c == '{') {
            pos++;
            Map<String, String> members = new TreeMap<>();
            space();
            if (s.charAt(pos) == '}') {
                pos++;
            } else {
                while (true) {
                    space();
                    String key = string();
                    space();
                    expect(':');
                    StringBuilder v = new StringBuilder();
                    value(v, depth + 1);
                    members.put(key, v.toString());
                    space();
                    if (s.charAt(pos) == ',') {
                        pos++;
                        continue;
                    }
                    expect('}');
                    break;
                }
            }
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, String> e : members.entrySet()) {
                if (!first) out.append(',');
                first = false;
                quote(out, e.getKey());
                out.append(':').append(e.getValue());
            }
            out.append('}');
        } else if (c == '[') {
            pos++;
            List<String> items = new ArrayList<>();
            space();
            if (s.charAt(pos) == ']') {
                pos++;
            } else {
                while (true) {
                    StringBuilder v = new StringBuilder();
                    value(v, depth + 1);
                    items.add(v.toString());
                    space();
                    if (s.charAt(pos) == ',') {
                        pos++;
                        continue;
                    }
                    expect(']');
                    break;
                }
            }
            out.append('[').append(String.join(",", items)).append(']');
        } else if (c == '"') {
            quote(out, string());
        } else if (s.startsWith("true", pos) || s.startsWith("null", pos)) {
            out.append(s, pos, pos + 4);
            pos += 4;
        } else if (s.startsWith("false", pos)) {
            out.append("false");
            pos += 5;
        } else {
            int start = pos;
            while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) pos++;
            out.append(ValueKind.number(new BigDecimal(s.substring(start, pos)).toString()));
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = s.charAt(pos++);
            if (c == '"') return b.toString();
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = s.charAt(pos++);
            switch (e) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> {
                    b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> b.append(e);
            }
        }
    }

    private static void quote(StringBuilder out, String v) {
        out.append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    private void expect(char c) {
        if (s.charAt(pos) != c) throw new IllegalArgumentException("expected " + c);
        pos++;
    }

    private void space() {
        while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) pos++;
    }
}
