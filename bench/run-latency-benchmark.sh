#!/usr/bin/env bash
# End-to-end latency benchmark (docs/benchmarks-latency.md, issue 14): lag from source commit to target commit of our
# source + our sink at steady input rates, on embedded MariaDB 11.4 with the Kafka broker and the Connect worker each
# in a child JVM; split into source side and sink side by the broker's append time. Not a test: nothing here runs in
# `mvn test`.
#   bench/run-latency-benchmark.sh [--quick] [--rates N,N,...] [--seconds N] [--skip-seconds N] [--tables N]
#                                  [--rows N] [--connections N] [--durable] [--source-config k=v,...]
#                                  [--sink-config k=v,...] [--report FILE|-]
# BENCH_SKIP_BUILD=1 skips the Maven build (reuse the last one). BENCH_JAVA_OPTS adds JVM options (default -Xmx1g:
# the broker and the worker have JVMs of their own).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bench="$root/bench/target"
if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
  # the bench module (bench/pom.xml) builds only in the profile bench; -am builds what it needs first
  echo "building (mvn -B -q -Pbench -pl bench -am -DskipTests install)..."
  mvn -B -q -Pbench -pl bench -am -DskipTests install
fi
cp_file="$bench/bench-classpath.txt"
if [[ ! -s "$cp_file" ]]; then
  echo "missing $cp_file: build with -Pbench first (run without BENCH_SKIP_BUILD=1)" >&2
  exit 2
fi
# shellcheck disable=SC2086
exec java ${BENCH_JAVA_OPTS:--Xmx1g} \
  -Dcdc.plugin.dir="$bench/connect-plugins" \
  -Dcdc.config.dir="$root/config" \
  -Dcdc.work.dir="$bench/bench-work" \
  -Dbench.command="bench/run-latency-benchmark.sh $*" \
  -cp "$bench/classes:$(cat "$cp_file")" \
  io.cdcconnect.bench.latency.LatencyBenchmark "$@"
