package io.cdcconnect.codec.json;

/**
 * Finds where a flat JSON object ends by looking at its bytes: an object whose members are all
 * {@code "name": string | number | true | false | null}, as Canal-JSON's {@code sqlType} and {@code mysqlType} are. A
 * tokenizing parser spends most of a wide row's decoding on skipping those two objects (looking each member's name
 * up in its symbol table); this scan only checks their syntax.
 *
 * <p>It is strict, never lenient: anything it does not recognise as exactly such an object (nesting, a byte below
 * 0x20 or above 0x7F in a string, a malformed escape, number or literal, a trailing comma) makes it answer -1, and the
 * caller leaves the object to the parser, which accepts or rejects it as before. So what it accepts is a subset of
 * what the parser accepts.
 */
public final class FlatObjectScan {

    private FlatObjectScan() {
    }

    /**
     * @param b     the bytes
     * @param from  index of the object's opening {@code '{'}
     * @param limit index past the last byte that may be read
     * @return the index just past the object's closing {@code '}'}, or -1 when the bytes there are not a flat object
     *         this scan recognises
     */
    public static int end(byte[] b, int from, int limit) {
        if (from < 0 || from >= limit || b[from] != '{') return -1;
        int i = skipSpace(b, from + 1, limit);
        if (i < limit && b[i] == '}') return i + 1;
        while (true) {
            i = string(b, i, limit);
            if (i < 0) return -1;
            i = skipSpace(b, i, limit);
            if (i >= limit || b[i] != ':') return -1;
            i = value(b, skipSpace(b, i + 1, limit), limit);
            if (i < 0) return -1;
            i = skipSpace(b, i, limit);
            if (i >= limit) return -1;
            if (b[i] == '}') return i + 1;
            if (b[i] != ',') return -1;
            i = skipSpace(b, i + 1, limit);
        }
    }

    /**
     * After the object ending at {@code i}: when the next member is {@code "name": {...}} (its name written without
     * escapes), the index of that member's {@code '{'}; else -1.
     */
    public static int nextMemberObject(byte[] b, int i, int limit, byte[] quotedName) {
        i = skipSpace(b, i, limit);
        if (i >= limit || b[i] != ',') return -1;
        i = skipSpace(b, i + 1, limit);
        if (limit - i < quotedName.length) return -1;
        for (int k = 0; k < quotedName.length; k++) {
            if (b[i + k] != quotedName[k]) return -1;
        }
        i = skipSpace(b, i + quotedName.length, limit);
        if (i >= limit || b[i] != ':') return -1;
        i = skipSpace(b, i + 1, limit);
        return i < limit && b[i] == '{' ? i : -1;
    }

    private static int skipSpace(byte[] b, int i, int limit) {
        while (i < limit) {
            byte c = b[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') break;
            i++;
        }
        return i;
    }

    /** A string starting at {@code i}, printable ASCII with JSON's escapes: the index past its closing quote, or -1. */
    private static int string(byte[] b, int i, int limit) {
        if (i >= limit || b[i] != '"') return -1;
        i++;
        while (i < limit) {
            int c = b[i];
            if (c == '"') return i + 1;
            if (c < 0x20) return -1; // also every byte above 0x7F (negative): left to the parser's UTF-8 checks
            if (c == '\\') {
                if (++i >= limit) return -1;
                switch (b[i]) {
                    case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> { }
                    case 'u' -> {
                        if (limit - i <= 4) return -1;
                        for (int k = 1; k <= 4; k++) {
                            if (Character.digit(b[i + k], 16) < 0) return -1;
                        }
                        i += 4;
                    }
                    default -> {
                        return -1;
                    }
                }
            }
            i++;
        }
        return -1;
    }

    private static int value(byte[] b, int i, int limit) {
        if (i >= limit) return -1;
        return switch (b[i]) {
            case '"' -> string(b, i, limit);
            case 't' -> literal(b, i, limit, "true");
            case 'f' -> literal(b, i, limit, "false");
            case 'n' -> literal(b, i, limit, "null");
            default -> number(b, i, limit);
        };
    }

    private static int literal(byte[] b, int i, int limit, String word) {
        if (limit - i < word.length()) return -1;
        for (int k = 0; k < word.length(); k++) {
            if (b[i + k] != word.charAt(k)) return -1;
        }
        int end = i + word.length();
        return end < limit && isWordByte(b[end]) ? -1 : end;
    }

    /** JSON's number grammar: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}. */
    private static int number(byte[] b, int i, int limit) {
        if (i < limit && b[i] == '-') i++;
        if (i >= limit || !isDigit(b[i])) return -1;
        if (b[i] == '0') {
            i++;
        } else {
            while (i < limit && isDigit(b[i])) i++;
        }
        if (i < limit && b[i] == '.') {
            i++;
            if (i >= limit || !isDigit(b[i])) return -1;
            while (i < limit && isDigit(b[i])) i++;
        }
        if (i < limit && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < limit && (b[i] == '+' || b[i] == '-')) i++;
            if (i >= limit || !isDigit(b[i])) return -1;
            while (i < limit && isDigit(b[i])) i++;
        }
        // "01", "1x": what follows a number must end it
        return i < limit && (isDigit(b[i]) || isWordByte(b[i])) ? -1 : i;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isWordByte(byte c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c < 0;
    }
}
