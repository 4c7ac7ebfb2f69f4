#!/usr/bin/env bash
# End-to-end benchmark (docs/benchmarks-e2e.md): our source per protocol against Debezium's MariaDB connector with
# JsonConverter, and our sink (and its variants) against the Debezium JDBC sink in upsert mode and a plain-JDBC
# ceiling, all in one run on embedded MariaDB 11.4 + Kafka + Connect; then the same into an embedded PostgreSQL 17
# (our sink against the Debezium JDBC sink). Not a test: nothing here runs in `mvn test`.
#   bench/run-e2e-benchmark.sh [--quick] [--tables N] [--rows N] [--operations N] [--sink-workers N]
#                              [--ceiling-connections N] [--ceiling-batch N] [--sink-rounds N] [--skip id,...]
#                              [--targets mariadb,postgres] [--timeout-seconds N] [--report FILE|-]
# BENCH_SKIP_BUILD=1 skips the Maven build (reuse the last one). BENCH_JAVA_OPTS adds JVM options (default -Xmx3g).
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
exec java ${BENCH_JAVA_OPTS:--Xmx3g} \
  -Dcdc.plugin.dir="$bench/connect-plugins" \
  -Dcdc.bench.plugin.dir="$bench/bench-plugins" \
  -Dcdc.config.dir="$root/config" \
  -Dcdc.work.dir="$bench/bench-work" \
  -Dbench.command="bench/run-e2e-benchmark.sh $*" \
  -cp "$bench/classes:$(cat "$cp_file")" \
  io.cdcconnect.bench.e2e.EndToEndBenchmark "$@"
