#!/usr/bin/env bash
# What every bench/run-*.sh does: builds the bench module (unless BENCH_SKIP_BUILD=1), copies what a build rewrites,
# and runs one benchmark's main class on the bench classpath.
#   bench/bench-java.sh <main class> <script name, for the report> <default JVM options> [benchmark options...]
# BENCH_JAVA_OPTS replaces the default JVM options.
set -euo pipefail
main_class=$1
script=$2
default_jvm=$3
shift 3
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
snap="$bench/bench-work/run-files-${script%.sh}"
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
exec java ${BENCH_JAVA_OPTS:-$default_jvm} \
  -Dcdc.plugin.dir="$snap/connect-plugins" \
  -Dcdc.bench.plugin.dir="$snap/bench-plugins" \
  -Dcdc.config.dir="$root/config" \
  -Dcdc.work.dir="$bench/bench-work" \
  -Dbench.command="bench/$script $*" \
  -cp "$classpath" \
  "$main_class" "$@"
