#!/usr/bin/env bash
# End-to-end benchmark (bench/results/benchmarks-e2e.md): our source per protocol against Debezium's MariaDB connector with
# JsonConverter, and our sink (and its variants) against the Debezium JDBC sink in upsert mode and a plain-JDBC
# ceiling, cold and warm, all in one run on embedded MariaDB 11.4 + Kafka + Connect; then the same into an embedded
# PostgreSQL 17 (our sink against the Debezium JDBC sink). Not a test: nothing here runs in `mvn test`.
#   bench/run-e2e-benchmark.sh [--quick] [--tables N] [--rows N] [--operations N] [--sink-workers N]
#                              [--ceiling-connections N] [--ceiling-batch N] [--sink-rounds N] [--skip id,...]
#                              [--targets mariadb,postgres] [--timeout-seconds N] [--report FILE|-]
#                              [--deployment processes|embedded] [--shapes all|a,b,c|tasks2,open,avro,dbz-breakdown]
# By default the Kafka broker and the Connect worker each run in a child JVM of their own (--deployment processes).
# BENCH_SKIP_BUILD=1 skips the Maven build (reuse the last one). BENCH_JAVA_OPTS adds JVM options (default -Xmx3g).
exec "$(dirname "$0")/bench-java.sh" io.cdcconnect.bench.e2e.EndToEndBenchmark run-e2e-benchmark.sh -Xmx3g "$@"
