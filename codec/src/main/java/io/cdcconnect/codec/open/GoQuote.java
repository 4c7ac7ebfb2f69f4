package io.cdcconnect.codec.open;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Go's {@code strconv.Quote} without the outer quotes, and its inverse {@code strconv.Unquote}: how Open-protocol
 * carries binary CHAR/VARCHAR values ({@code \x89PNG\r\n}). Printable UTF-8 runs stay as they are; invalid bytes
 * become {@code \xNN}; control and unprintable runes become {@code \a \b \f \n \r \t \v}, {@code \xNN},
 * <code>&#92;u</code>XXXX or <code>&#92;U</code>XXXXXXXX.
 */
final class GoQuote {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private GoQuote() {
    }

    static String quote(byte[] b) {
        StringBuilder out = new StringBuilder(b.length + 8);
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                appendRune(out, c);
                i++;
                continue;
            }
            int w = utf8Width(b, i);
            if (w == 0) {
                out.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                i++;
                continue;
            }
            int r;
            if (w == 2) {
                r = ((c & 0x1F) << 6) | (b[i + 1] & 0x3F);
            } else if (w == 3) {
                r = ((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F);
            } else {
                r = ((c & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6) | (b[i + 3] & 0x3F);
            }
            appendRune(out, r);
            i += w;
        }
        return out.toString();
    }

    /** Length of the valid UTF-8 sequence starting at {@code i} (2-4), or 0 when it is not one (Go's rules). */
    private static int utf8Width(byte[] b, int i) {
        int c = b[i] & 0xFF;
        int n = b.length - i;
        if (c >= 0xC2 && c <= 0xDF) {
            return n >= 2 && cont(b[i + 1]) ? 2 : 0;
        }
        if (c >= 0xE0 && c <= 0xEF) {
            if (n < 3) return 0;
            int b1 = b[i + 1] & 0xFF;
            int lo = c == 0xE0 ? 0xA0 : 0x80;
            int hi = c == 0xED ? 0x9F : 0xBF;
            return b1 >= lo && b1 <= hi && cont(b[i + 2]) ? 3 : 0;
        }
        if (c >= 0xF0 && c <= 0xF4) {
            if (n < 4) return 0;
            int b1 = b[i + 1] & 0xFF;
            int lo = c == 0xF0 ? 0x90 : 0x80;
            int hi = c == 0xF4 ? 0x8F : 0xBF;
            return b1 >= lo && b1 <= hi && cont(b[i + 2]) && cont(b[i + 3]) ? 4 : 0;
        }
        return 0;
    }

    private static boolean cont(byte x) {
        return (x & 0xC0) == 0x80;
    }

    private static void appendRune(StringBuilder out, int r) {
        if (r == '"' || r == '\\') {
            out.append('\\').append((char) r);
            return;
        }
        if (isPrint(r)) {
            out.appendCodePoint(r);
            return;
        }
        switch (r) {
            case 7: out.append("\\a"); return;
            case '\b': out.append("\\b"); return;
            case '\f': out.append("\\f"); return;
            case '\n': out.append("\\n"); return;
            case '\r': out.append("\\r"); return;
            case '\t': out.append("\\t"); return;
            case 11: out.append("\\v"); return;
            default:
        }
        if (r < ' ' || r == 0x7F) {
            out.append("\\x").append(HEX[r >> 4]).append(HEX[r & 0xF]);
        } else if (r < 0x10000) {
            out.append("\\u");
            for (int s = 12; s >= 0; s -= 4) out.append(HEX[(r >> s) & 0xF]);
        } else {
            out.append("\\U");
            for (int s = 28; s >= 0; s -= 4) out.append(HEX[(r >> s) & 0xF]);
        }
    }

    /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    static boolean isPrint(int r) {
        if (r < 0x80) {
            return r >= 0x20 && r < 0x7F;
        }
        switch (Character.getType(r)) {
            case Character.UPPERCASE_LETTER: case Character.LOWERCASE_LETTER: case Character.TITLECASE_LETTER:
            case Character.MODIFIER_LETTER: case Character.OTHER_LETTER:
            case Character.NON_SPACING_MARK: case Character.ENCLOSING_MARK: case Character.COMBINING_SPACING_MARK:
            case Character.DECIMAL_DIGIT_NUMBER: case Character.LETTER_NUMBER: case Character.OTHER_NUMBER:
            case Character.CONNECTOR_PUNCTUATION: case Character.DASH_PUNCTUATION: case Character.START_PUNCTUATION:
            case Character.END_PUNCTUATION: case Character.INITIAL_QUOTE_PUNCTUATION:
            case Character.FINAL_QUOTE_PUNCTUATION: case Character.OTHER_PUNCTUATION:
            case Character.MATH_SYMBOL: case Character.CURRENCY_SYMBOL: case Character.MODIFIER_SYMBOL:
            case Character.OTHER_SYMBOL:
                return true;
            default:
                return false;
        }
    }

    /** Inverse of {@link #quote}; accepts every escape Go's {@code strconv.Unquote} does. */
    static byte[] unquote(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c != '\\') {
                int cp = s.codePointAt(i);
                i += Character.charCount(cp);
                if (cp < 0x80) {
                    out.write(cp);
                } else {
                    byte[] u = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                    out.write(u, 0, u.length);
                }
                continue;
            }
            if (i + 1 >= n) throw new IllegalArgumentException("trailing backslash");
            char e = s.charAt(i + 1);
            i += 2;
            switch (e) {
                case 'a': out.write(7); break;
                case 'b': out.write('\b'); break;
                case 'f': out.write('\f'); break;
                case 'n': out.write('\n'); break;
                case 'r': out.write('\r'); break;
                case 't': out.write('\t'); break;
                case 'v': out.write(11); break;
                case '\\': out.write('\\'); break;
                case '"': out.write('"'); break;
                case '\'': out.write('\''); break;
                case 'x':
                    out.write(hex(s, i, 2));
                    i += 2;
                    break;
                case 'u': case 'U': {
                    int len = e == 'u' ? 4 : 8;
                    int cp = hex(s, i, len);
                    i += len;
                    if (!Character.isValidCodePoint(cp) || (cp >= 0xD800 && cp <= 0xDFFF)) {
                        throw new IllegalArgumentException("invalid rune escape at " + (i - len - 2));
                    }
                    byte[] u = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                    out.write(u, 0, u.length);
                    break;
                }
                default:
                    if (e >= '0' && e <= '7') {
                        if (i + 2 > n) throw new IllegalArgumentException("short octal escape at " + (i - 2));
                        int v = Integer.parseInt(s.substring(i - 1, i + 2), 8);
                        if (v > 255) throw new IllegalArgumentException("octal escape above 255");
                        out.write(v);
                        i += 2;
                    } else {
                        throw new IllegalArgumentException("unknown escape \\" + e + " at " + (i - 2));
                    }
            }
        }
        return out.toByteArray();
    }

    private static int hex(String s, int from, int len) {
        if (from + len > s.length()) throw new IllegalArgumentException("short hex escape at " + (from - 2));
        int v = 0;
        for (int k = 0; k < len; k++) {
            int d = Character.digit(s.charAt(from + k), 16);
            if (d < 0) throw new IllegalArgumentException("bad hex digit at " + (from + k));
            v = (v << 4) | d;
        }
        return v;
    }
}
