package io.cdcconnect.codec.util;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedactionTest {

    /** URL; the secrets it carries (as written and as decoded); what must still show (hosts, database). */
    static Stream<Arguments> urls() {
        return Stream.of(
                Arguments.of("jdbc:mysql://h:3306/db?user=u&password=s3cret&ssl=true", List.of("s3cret"),
                        List.of("h:3306", "/db", "user=u", "ssl=true")),
                Arguments.of("jdbc:mysql://u:s3cret@h:3306/db", List.of("s3cret"), List.of("u:", "h:3306", "/db")),
                Arguments.of("jdbc:mysql://(host=h,port=3306,password=s3cret)/db", List.of("s3cret"),
                        List.of("host=h", "port=3306", "/db")),
                Arguments.of("jdbc:mysql://address=(host=h)(port=3306)(password=s3cret)/db", List.of("s3cret"),
                        List.of("host=h", "port=3306", "/db")),
                Arguments.of("jdbc:mysql://u:p1secret@h1,u2:p2secret@h2/db", List.of("p1secret", "p2secret"),
                        List.of("h1", "h2", "u2:", "/db")),
                Arguments.of("jdbc:mysql://[(host=h1,password=s3cret),h2:3307]/db", List.of("s3cret"),
                        List.of("host=h1", "h2:3307", "/db")),
                Arguments.of("jdbc:mysql://h/db?pass%77ord=s3cret", List.of("s3cret"), List.of("//h/db")),
                Arguments.of("jdbc:mysql://h/db?PASSWORD=s%33cret", List.of("s3cret", "s%33cret"),
                        List.of("//h/db")),
                Arguments.of("jdbc:mysql://u:p%40ss%2Fw@h/db", List.of("p%40ss%2Fw", "p@ss/w"),
                        List.of("u:", "@h/db")),
                Arguments.of("jdbc:mysql://h/db?trustCertificateKeyStorePassword=s3cret&sslMode=VERIFY_CA",
                        List.of("s3cret"), List.of("//h/db", "sslMode=VERIFY_CA")),
                Arguments.of("jdbc:mysql://h/db;password=s3cret", List.of("s3cret"), List.of("//h/db")),
                Arguments.of("jdbc:mysql+srv://u:s3cret@_mysql._tcp.example.com/db", List.of("s3cret"),
                        List.of("_mysql._tcp.example.com/db")),
                Arguments.of("jdbc:postgresql://h/db?password=s3cret", List.of("s3cret"), List.of("//h/db")),
                Arguments.of("jdbc:postgresql://h:5432/db?user=u&sslpassword=s3cret&sslmode=verify-full",
                        List.of("s3cret"), List.of("//h:5432/db", "user=u", "sslmode=verify-full")),
                Arguments.of("jdbc:postgresql://h1:5432,h2:5433/db?password=s3cret&targetServerType=primary",
                        List.of("s3cret"), List.of("h1:5432", "h2:5433", "/db", "targetServerType=primary")),
                Arguments.of("jdbc:postgresql://h/db?pass%77ord=s%2B3cret", List.of("s%2B3cret", "s+3cret"),
                        List.of("//h/db")),
                Arguments.of("jdbc:postgresql:db?password=s3cret", List.of("s3cret"), List.of("postgresql:db")));
    }

    @ParameterizedTest
    @MethodSource("urls")
    void everySecretOfTheUrlIsMaskedAndTheRestShows(String url, List<String> secrets, List<String> kept) {
        String shown = Redaction.redactJdbcUrl(url);
        for (String s : secrets) assertFalse(shown.contains(s), url + " shown as " + shown);
        for (String k : kept) assertTrue(shown.contains(k), k + " is gone from " + shown);
        assertTrue(shown.contains(Redaction.MASK), shown);
        // a driver's message that echoes the URL, or the password as the driver decoded it
        String message = "Access denied for " + url + " (using password: " + secrets.get(secrets.size() - 1) + ")";
        String scrubbed = Redaction.scrub(message, url, List.of());
        for (String s : secrets) assertFalse(scrubbed.contains(s), scrubbed);
        assertTrue(scrubbed.contains(shown), scrubbed);
    }

    @Test
    void aUrlWithoutSecretsIsShownAsItIs() {
        assertEquals("jdbc:mysql://h:3306/db?user=u", Redaction.redactJdbcUrl("jdbc:mysql://h:3306/db?user=u"));
        assertEquals("jdbc:postgresql://h/db", Redaction.redactJdbcUrl("jdbc:postgresql://h/db"));
    }

    @Test
    void anUnparseableUrlShowsNothingAfterTheSlashes() {
        assertEquals("jdbc:mysql://***", Redaction.redactJdbcUrl("jdbc:mysql://h:notaport/db?password=s3cret"));
        assertEquals("jdbc:postgresql://***", Redaction.redactJdbcUrl("jdbc:postgresql://h/db?password=%zz"));
        assertEquals("jdbc:postgresql://***", Redaction.redactJdbcUrl("jdbc:postgresql://h?password=s3cret"));
        assertNull(Redaction.secretsInJdbcUrl("jdbc:unknown:thing;password=s3cret"));
        assertEquals("jdbc:unknown:***", Redaction.redactJdbcUrl("jdbc:unknown:thing;password=s3cret"));
        String scrubbed = Redaction.scrub("cannot parse jdbc:mysql://h:notaport/db?password=s3cret (s3cret)",
                "jdbc:mysql://h:notaport/db?password=s3cret", List.of());
        assertFalse(scrubbed.contains("s3cret"), scrubbed);
    }

    @Test
    void settingsListedInAMessageAreMasked() {
        String text = "{database.user=cdc, database.password=pw1, schema.registry.basic.auth.credentials=a:b,"
                + " driver.trustCertificateKeyStorePassword=pw2} via https://reg:pw3@registry:8081";
        String out = Redaction.scrub(text, null, java.util.Arrays.asList("pw3", null));
        for (String s : List.of("pw1", "a:b", "pw2", "pw3")) assertFalse(out.contains(s), out);
        assertTrue(out.contains("database.user=cdc") && out.contains("registry:8081"), out);
    }

    @Test
    void theSecretsOfConnectorSettingsAreTheirPasswordSettingsAndUserInfo() {
        java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
        settings.put("database.user", "cdc");
        settings.put("database.password", "pw1");
        settings.put("driver.trustCertificateKeyStorePassword", "pw2");
        settings.put("schema.registry.url", "http://reg:pw3@registry:8081");
        settings.put("database.hostname", "db");
        settings.put("schema.registry.password", "");
        assertEquals(java.util.Set.of("pw1", "pw2", "pw3"), Redaction.secretValues(settings));
    }

    @Test
    void knownSecretsAreMaskedRawAndPercentEncoded() {
        String out = Redaction.mask("p w/é and p+w%2F%C3%A9 and p%20w%2f%c3%a9", List.of("p w/é"));
        assertEquals("*** and *** and ***", out);
    }
}
