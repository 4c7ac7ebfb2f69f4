package io.cdcconnect.codec.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlatObjectScanTest {

    private static int end(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return FlatObjectScan.end(b, 0, b.length);
    }

    /** Where Jackson ends the object starting at 0 (its skipChildren), or -1 when it rejects it. */
    private static int jacksonEnd(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        try (JsonParser p = GoJson.parser(b, 0, b.length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return -1;
            p.skipChildren();
            return (int) p.currentTokenLocation().getByteOffset() + 1;
        } catch (IOException e) {
            return -1;
        }
    }

    @Test
    void endsFlatObjectsWhereTheParserEndsThem() {
        String[] accepted = {
            "{}", "{ }", "{\"a\":1}", "{\"id\":4,\"c\":12,\"u\":-5}", "{\"a\":\"int unsigned\",\"b\":\"decimal(10,4)\"}",
            "{ \"a\" : 1 ,\n\t\"b\" : null , \"c\":true,\"d\":false }", "{\"a\":0}", "{\"a\":-0.5e+10}",
            "{\"a\":1.25E-3}", "{\"q\\\"x\":\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"}", "{\"a\":1}trailing", "{\"a\":\"}\"}",
        };
        for (String s : accepted) {
            int want = jacksonEnd(s);
            assertTrue(want > 0, s);
            assertEquals(want, end(s), s);
        }
    }

    @Test
    void leavesEverythingElseToTheParser() {
        String[] refused = {
            // not flat
            "{\"a\":{\"b\":1}}", "{\"a\":[1]}",
            // malformed: the parser rejects these, and must be the one to say so
            "{\"a\":01}", "{\"a\":1,}", "{,}", "{\"a\"1}", "{\"a\":}", "{\"a\":tru}", "{\"a\":nulll}", "{\"a\":1x}",
            "{\"a\":-}", "{\"a\":1.}", "{\"a\":1e}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"\u0001\"}",
            "{\"a\":1", "{\"a\":\"open", "{a:1}", "{'a':1}", "{\"a\":1 \"b\":2}", "[1]", "",
            // beyond ASCII in a string: left to the parser's UTF-8 checks
            "{\"é\":1}", "{\"a\":\"é\"}",
        };
        for (String s : refused) {
            assertEquals(-1, end(s), s);
        }
    }

    @Test
    void findsTheNextMemberWhenItIsTheNamedObject() {
        byte[] name = "\"mysqlType\"".getBytes(StandardCharsets.US_ASCII);
        byte[] b = "{\"a\":1} , \"mysqlType\" : {\"a\":\"int\"}".getBytes(StandardCharsets.US_ASCII);
        int first = FlatObjectScan.end(b, 0, b.length);
        int next = FlatObjectScan.nextMemberObject(b, first, b.length, name);
        assertEquals(b.length - "{\"a\":\"int\"}".length(), next);
        assertEquals(b.length, FlatObjectScan.end(b, next, b.length));
        for (String s : new String[] {"{\"a\":1},\"mysqlTypes\":{}", "{\"a\":1},\"mysqlType\":null",
                "{\"a\":1}}", "{\"a\":1},\"mysql\\u0054ype\":{}", "{\"a\":1},\"mysqlType\""}) {
            byte[] c = s.getBytes(StandardCharsets.US_ASCII);
            assertEquals(-1, FlatObjectScan.nextMemberObject(c, FlatObjectScan.end(c, 0, c.length), c.length, name), s);
        }
    }
}
