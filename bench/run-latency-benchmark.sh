#!/usr/bin/env bash
# End-to-end latency benchmark (bench/results/benchmarks-latency.md, issue 14): lag from source commit to target commit of our
# source + our sink at steady input rates, on embedded MariaDB 11.4 with the Kafka broker and the Connect worker each
# in a child JVM; split into source side and sink side by the broker's append time. Not a test: nothing here runs in
# `mvn test`.
#   bench/run-latency-benchmark.sh [--quick] [--rates N,N,...] [--seconds N] [--skip-seconds N] [--tables N]
#                                  [--rows N] [--connections N] [--durable] [--source-config k=v,...]
#                                  [--sink-config k=v,...] [--report FILE|-]
# BENCH_SKIP_BUILD=1 skips the Maven build (reuse the last one). BENCH_JAVA_OPTS adds JVM options (default -Xmx1g:
# the broker and the worker have JVMs of their own).
exec "$(dirname "$0")/bench-java.sh" io.cdcconnect.bench.latency.LatencyBenchmark run-latency-benchmark.sh -Xmx1g "$@"
