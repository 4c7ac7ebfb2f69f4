#!/usr/bin/env bash
# The main job: builds the connectors and their plugin archives, starts MariaDB 11.4 (binlog), a Kafka broker and a
# Connect worker (all embedded, nothing to install), registers both connectors over REST, runs a workload, shows
# progress, compares every row of source and target, and exits 0 only when they match.
#   ./run-pipeline.sh [--transactions N] [--preload N] [--keep-running] [--target-host H --target-port P ...]
#   ./run-pipeline.sh --mysql8               MySQL 8.0 (embedded 8.0.15) -> MySQL 8.0 instead of MariaDB -> MariaDB
#   ./run-pipeline.sh --mysql8-to-postgres   MySQL 8.0 -> PostgreSQL 17 (embedded; the sink creates the tables)
set -euo pipefail
cd "$(dirname "$0")"
root=$(pwd)
echo "building (mvn -DskipTests install)..."
mvn -B -q -DskipTests install
cp_file=integration-tests/target/runtime-classpath.txt
mvn -B -q -pl integration-tests dependency:build-classpath -Dmdep.outputFile="$root/$cp_file" -Dmdep.includeScope=runtime -DexcludeTypes=zip >/dev/null
exec java -Xmx2g \
  -Dcdc.plugin.dir="$root/integration-tests/target/connect-plugins" \
  -Dcdc.config.dir="$root/config" \
  -Dcdc.work.dir="$root/integration-tests/target/demo-work" \
  -cp "$root/integration-tests/target/classes:$(cat "$cp_file")" \
  io.cdcconnect.it.PipelineDemo "$@"
