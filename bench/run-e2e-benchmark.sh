#!/usr/bin/env bash
# End-to-end benchmark (docs/benchmarks-e2e.md): our source per protocol against Debezium's MariaDB connector with
# JsonConverter, and our sink (and its variants) against the Debezium JDBC sink in upsert mode and a plain-JDBC
# ceiling, cold and warm, all in one run on embedded MariaDB 11.4 + Kafka + Connect; then the same into an embedded
# PostgreSQL 17 (our sink against the Debezium JDBC sink). Not a test: nothing here runs in `mvn test`.
#   bench/run-e2e-benchmark.sh [--quick] [--tables N] [--rows N] [--operations N] [--sink-workers N]
#                              [--ceiling-connections N] [--ceiling-batch N] [--sink-rounds N] [--skip id,...]
#                              [--targets mariadb,postgres] [--timeout-seconds N] [--report FILE|-]
#                              [--deployment processes|embedded] [--shapes all|a,b,c|tasks2,open,avro,dbz-breakdown]
# By default the Kafka broker and the Connect worker each run in a child JVM of their own (--deployment processes).
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
# The run uses copies, taken now, of what a build rewrites (the plugin folders, which a build empties and unpacks anew,
# the benchmark's classes and this project's jars): a build during the run, by other work on the machine, would
# otherwise pull them from under the Connect worker (a worker restarted mid-run loads its plugins again).
snap="$bench/bench-work/run-files"
rm -rf "$snap"
mkdir -p "$snap/lib"
cp -r "$bench/connect-plugins" "$snap/connect-plugins"
cp -r "$bench/bench-plugins" "$snap/bench-plugins"
cp -r "$bench/classes" "$snap/classes"
classpath="$snap/classes"
IFS=: read -r -a entries < "$cp_file" || true  # the file has no final newline
for entry in "${entries[@]}"; do
  if [[ "$entry" == "$root"/* ]]; then
    cp -r "$entry" "$snap/lib/"
    entry="$snap/lib/$(basename "$entry")"
  fi
  classpath="$classpath:$entry"
done
# shellcheck disable=SC2086
exec java ${BENCH_JAVA_OPTS:--Xmx3g} \
  -Dcdc.plugin.dir="$snap/connect-plugins" \
  -Dcdc.bench.plugin.dir="$snap/bench-plugins" \
  -Dcdc.config.dir="$root/config" \
  -Dcdc.work.dir="$bench/bench-work" \
  -Dbench.command="bench/run-e2e-benchmark.sh $*" \
  -cp "$classpath" \
  io.cdcconnect.bench.e2e.EndToEndBenchmark "$@"
