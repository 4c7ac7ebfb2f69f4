package io.cdcconnect.verify;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cdc-verify's answers to mistakes, run in-process (its {@code main} without System.exit) with no server: a mistyped
 * option is named with the nearest real one, a mistake prints one usage line and where the help is, and a URL no
 * shipped driver serves is refused before a password is asked for or a connection tried.
 */
class VerifyUsageTest {

    /** A prompt that must not be reached: the mistake is found before any password is needed. */
    private static final VerifyCommand.Prompt NO_PROMPT = text -> {
        throw new AssertionError("prompted for a password: " + text);
    };

    record Run(int status, String out, String err) {
        String text() {
            return "exit " + status + "\n" + out + err;
        }
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = VerifyCommand.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), NO_PROMPT);
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Exit 2, nothing on stdout, the message first, then one usage line and the pointer to --help; no full help. */
    private static void shortUsage(Run run, String message) {
        assertEquals(2, run.status(), run.text());
        assertEquals("", run.out(), run.text());
        List<String> lines = run.err().lines().toList();
        assertEquals(3, lines.size(), run.err());
        assertEquals("cdc-verify: " + message, lines.get(0));
        assertEquals(VerifyCommand.USAGE, lines.get(1));
        assertEquals("See 'cdc-verify --help' for every option.", lines.get(2));
    }

    @Test
    void aMistypedOptionIsNamedWithTheNearestOneNotReportedAsAMissingOne() {
        Run typo = run("--source-urll", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/",
                "--tables", "a.b");
        shortUsage(typo, "unknown option '--source-urll'; did you mean --source-url?");
        assertFalse(typo.err().contains("Missing"), typo.text());
        // written with = too, and wherever it stands
        shortUsage(run("--source-url", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/", "--tables", "a.b",
                "--chunk-sise=10"), "unknown option '--chunk-sise'; did you mean --chunk-size?");
        shortUsage(run("--target_user", "x"), "unknown option '--target_user'; did you mean --target-user?");
        // nothing near: no guess
        shortUsage(run("--source-url", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/", "--tables", "a.b",
                "--colourful-output-please"), "unknown option '--colourful-output-please'");
    }

    @Test
    void anOptionsValueIsNeverTakenForAnOption() {
        // --where's and --show's values start with a dash: what is wrong is only what is missing
        Run values = run("--where", "-1 < id", "--show", "-1", "--tables", "a.b");
        assertEquals(2, values.status(), values.text());
        assertTrue(values.err().startsWith("cdc-verify: Missing required options: '--source-url=URL', "
                + "'--target-url=URL'"), values.text());
        // -hV is two short options; after -- nothing is an option
        Run help = run("-hV");
        assertEquals(0, help.status(), help.text());
        assertTrue(help.out().startsWith("Usage: cdc-verify"), help.text());
        assertEquals(null, VerifyCommand.unknownOption(new picocli.CommandLine(new Object() {
            @picocli.CommandLine.Option(names = "--a") String a;
        }).getCommandSpec(), new String[] {"--a", "--b", "--", "--c"}));
    }

    @Test
    void aMissingOptionOrABadValuePrintsOneUsageLineNotTheHelp() {
        shortUsage(run("--source-url", "jdbc:mysql://h/", "--tables", "a.b"),
                "Missing required option: '--target-url=URL'");
        Run nan = run("--source-url", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/",
                "--tables", "a.b", "--chunk-size", "many");
        assertEquals(3, nan.err().lines().count(), nan.err());
        assertTrue(nan.err().lines().findFirst().orElseThrow().contains("--chunk-size"), nan.err());
        shortUsage(run("--source-url", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/", "--tables", "a.b",
                "--threads", "0"), "--threads must be at least 1, got 0");
        shortUsage(run("--source-url", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/", "--tables", "a.b",
                "--source-password=hunter2"), "--source-password does not take a value: a password on the command "
                + "line shows in ps and in shell history; use --source-password-env VAR or --source-password-file "
                + "FILE, or --source-password alone to be prompted");
    }

    @Test
    void aUrlNoShippedDriverServesIsRefusedBeforeAnyConnectionOrPrompt() {
        // port 9 (discard): were a connection tried, the message would be the driver's "cannot connect"
        shortUsage(run("--source-url", "mysql://cdc:s3cret@127.0.0.1:9/", "--source-password", "--target-url",
                "jdbc:mysql://127.0.0.1:9/", "--tables", "a.b"), "--source-url: 'mysql://cdc:***@127.0.0.1:9/' is "
                + "not a JDBC URL: write " + SqlFamily.URL_FORMS);
        shortUsage(run("--source-url", "jdbc:mysql://127.0.0.1:9/", "--target-url", "127.0.0.1:5432",
                "--target-password", "--tables", "a.b"), "--target-url: '127.0.0.1:5432' is not a JDBC URL: write "
                + SqlFamily.URL_FORMS);
        shortUsage(run("--source-url", "jdbc:mysql://127.0.0.1:9/", "--target-url",
                "jdbc:oracle:thin:@db:1521/ORCL", "--tables", "a.b"), "--target-url: jdbc:oracle: is a database "
                + "cdc-verify does not compare: it reads " + SqlFamily.URL_FORMS);
        shortUsage(run("--source-url", "jdbc:mariadb://127.0.0.1:9/", "--target-url", "jdbc:mysql://127.0.0.1:9/",
                "--tables", "a.b"), "--source-url: jdbc:mariadb: URLs are not read (cdc-verify ships MySQL "
                + "Connector/J and PgJDBC only): write jdbc:mysql://host:3306/ for MariaDB too");
        // the forms the drivers serve pass the check (and then fail to connect: exit 2, the driver's words)
        for (String url : List.of("jdbc:mysql://127.0.0.1:9/", "jdbc:mysql:loadbalance://127.0.0.1:9/",
                "jdbc:postgresql://127.0.0.1:9/db")) {
            assertEquals(null, SqlFamily.unsupportedUrl(url, url), url);
        }
    }
}
