package io.cdcconnect.sink.dialect;

/**
 * What the sink reads from the target at start ({@link SqlDialect#readLimits}): its version (for the dialect) and the
 * limits it must respect.
 *
 * @param version              the server's version string
 * @param maxAllowedPacket     the largest statement the server takes, in bytes: caps the rows per statement
 * @param maxPreparedStmtCount server-side prepared statements the server allows in all (negative: no limit); caps
 *                             the statement cache
 */
public record ServerLimits(String version, long maxAllowedPacket, long maxPreparedStmtCount) {
}
