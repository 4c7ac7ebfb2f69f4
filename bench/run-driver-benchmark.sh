#!/usr/bin/env bash
# The sink's driver (bench/results/benchmarks-driver.md): the same multi-row upserts into an embedded MariaDB 11.4 through
# mysql-connector-j and MariaDB Connector/J (server-side statements, and MariaDB's bulk protocol), one connection,
# rows/s and the client thread's CPU per row side by side. Not a test: nothing here runs in `mvn test`. About 4 min.
#   bench/run-driver-benchmark.sh [--rows N] [--wide-rows N] [--rounds N] [--batch N] [--report FILE|-]
# BENCH_SKIP_BUILD=1 skips the Maven build (reuse the last one). BENCH_JAVA_OPTS adds JVM options (default -Xmx2g).
exec "$(dirname "$0")/bench-java.sh" io.cdcconnect.bench.driver.DriverBenchmark run-driver-benchmark.sh -Xmx2g "$@"
