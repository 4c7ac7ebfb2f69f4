#!/usr/bin/env bash
# Snapshot benchmark (bench/results/benchmarks-snapshot.md): our source's initial snapshot against Debezium's MariaDB connector
# with JsonConverter, each with snapshot.max.threads 1 and 2, on embedded MariaDB 11.4, the Kafka broker and the
# Connect worker each in a child JVM. Not a test: nothing here runs in `mvn test`.
#   bench/run-snapshot-benchmark.sh [--tables N] [--rows N] [--rounds N] [--report FILE|-] [--quick]
# -Dbench.snapshot.variants=ours-2threads,dbz (in BENCH_JAVA_OPTS) runs only those variants, in that order.
# BENCH_SKIP_BUILD=1 skips the Maven build (reuse the last one). BENCH_JAVA_OPTS adds JVM options (default -Xmx2g).
exec "$(dirname "$0")/bench-java.sh" io.cdcconnect.bench.snapshot.SnapshotBenchmark run-snapshot-benchmark.sh -Xmx2g "$@"
