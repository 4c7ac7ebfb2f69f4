package io.cdcconnect.sink.ddl;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DdlApplierTest {

    @Test
    void passwordsInStatementsAreMaskedInMessages() {
        assertEquals("CREATE USER 'u'@'%' IDENTIFIED BY '***'",
                DdlApplier.redact("CREATE USER 'u'@'%' IDENTIFIED BY 's3cr''et'"));
        assertEquals("ALTER USER u IDENTIFIED WITH mysql_native_password BY '***'",
                DdlApplier.redact("ALTER USER u IDENTIFIED WITH mysql_native_password BY 'pw'"));
        assertEquals("SET PASSWORD FOR u = PASSWORD('***')", DdlApplier.redact("SET PASSWORD FOR u = PASSWORD('pw')"));
        assertEquals("ALTER TABLE t ADD COLUMN c INT", DdlApplier.redact("ALTER TABLE t ADD COLUMN c INT"));
    }
}
