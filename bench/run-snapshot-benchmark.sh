#!/usr/bin/env bash
# Snapshot benchmark (docs/benchmarks-snapshot.md): our source's initial snapshot against Debezium's MariaDB connector
# with JsonConverter, each with snapshot.max.threads 1 and 2, on embedded MariaDB 11.4, the Kafka broker and the
# Connect worker each in a child JVM. Not a test: nothing here runs in `mvn test`.
#   bench/run-snapshot-benchmark.sh [--tables N] [--rows N] [--rounds N] [--report FILE|-] [--quick]
# BENCH_SKIP_BUILD=1 skips the Maven build (reuse the last one). BENCH_JAVA_OPTS adds JVM options (default -Xmx2g).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bench="$root/bench/target"
if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
  echo "building (mvn -B -q -Pbench -pl bench -am -DskipTests install)..."
  mvn -B -q -Pbench -pl bench -am -DskipTests install
fi
cp_file="$bench/bench-classpath.txt"
if [[ ! -s "$cp_file" ]]; then
  echo "missing $cp_file: build with -Pbench first (run without BENCH_SKIP_BUILD=1)" >&2
  exit 2
fi
# shellcheck disable=SC2086
exec java ${BENCH_JAVA_OPTS:--Xmx2g} \
  -Dcdc.plugin.dir="$bench/connect-plugins" \
  -Dcdc.bench.plugin.dir="$bench/bench-plugins" \
  -Dcdc.config.dir="$root/config" \
  -Dcdc.work.dir="$bench/bench-work" \
  -cp "$bench/classes:$(cat "$cp_file")" \
  io.cdcconnect.bench.snapshot.SnapshotBenchmark "$@"
