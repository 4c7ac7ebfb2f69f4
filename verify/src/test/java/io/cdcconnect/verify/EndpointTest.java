package io.cdcconnect.verify;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** What an endpoint shows of itself: never the password, wherever it was given. */
class EndpointTest {

    @Test
    void aPasswordInTheUrlIsMasked() {
        Endpoint e = new Endpoint("jdbc:mysql://db:3306/shop?user=cdc&password=s3cret&useSSL=true", null, null);
        assertEquals("jdbc:mysql://db:3306/shop?user=cdc&password=***&useSSL=true", e.displayUrl());
        Endpoint u = new Endpoint("jdbc:postgresql://cdc:s3cret@db:5432/app", null, null);
        assertFalse(u.toString().contains("s3cret"), u.toString());
    }

    @Test
    void theGivenPasswordIsScrubbedFromMessages() {
        Endpoint e = new Endpoint("jdbc:mysql://db:3306/", "cdc", "hunter2");
        assertEquals("login as cdc with *** failed", e.scrub("login as cdc with hunter2 failed"));
        assertFalse(e.toString().contains("hunter2"));
    }
}
