package io.cdcconnect.verify;

import java.sql.Connection;
import java.sql.SQLException;

/** Where the verifier gets its connections to one side: an {@link Endpoint}, or a connection the caller owns. */
public interface ConnectionSource {

    Connection open() throws SQLException;

    /** Gives back a connection {@link #open()} returned. */
    default void release(Connection c) throws SQLException {
        c.close();
    }

    /** The caller's connection, used by one thread at a time and never closed by the verifier. */
    static ConnectionSource shared(Connection c) {
        return new ConnectionSource() {
            @Override
            public Connection open() {
                return c;
            }

            @Override
            public void release(Connection connection) {
            }
        };
    }
}
