#!/usr/bin/env bash
# The quickstart, end to end, on the stack of quickstart/docker-compose.yml (start it first:
#   mvn -B -DskipTests package && docker compose -f quickstart/docker-compose.yml up -d --build --wait):
# waits for the services, registers the source (MySQL) and sink (PostgreSQL) connectors over Connect's REST API,
# writes a small workload into MySQL, waits until the sink's consumer lag is 0 and stays there, then runs cdc-verify
# (docs/verify.md) comparing MySQL with PostgreSQL and exits with its status: 0 equal, 1 different, 2 error.
# Progress goes to stderr; standard output is cdc-verify's alone (with --output json, one JSON document).
#   quickstart/run.sh [cdc-verify options, e.g. --output json]
# QUICKSTART_FORMAT=avro registers the Avro variant (schemas in the Apicurio Registry service, tables auto-created).
# Passwords stay in the containers' environment (see docker-compose.yml); nothing here prints them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
compose=(docker compose -f "$here/docker-compose.yml")
connect=${CONNECT_URL:-http://localhost:8083}
format=${QUICKSTART_FORMAT:-canal-json}
timeout=${QUICKSTART_TIMEOUT_SECONDS:-300}
case "$format" in
  canal-json) suffix="" ;;
  avro) suffix="-avro" ;;
  *) echo "QUICKSTART_FORMAT must be canal-json or avro, not '$format'" >&2; exit 2 ;;
esac

log() { printf '%s quickstart: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
fail() { log "FAILED: $*"; exit 2; }

# until CONDITION (a shell command) succeeds, or the timeout: waits for WHAT
await() {
  local what=$1; shift
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || fail "timed out after ${timeout}s waiting for $what"
    sleep 3
  done
  log "$what: ready"
}

plugins_loaded() {
  local list
  list=$(curl -fsS "$connect/connector-plugins") || return 1
  [[ $list == *io.cdcconnect.source.CdcSourceConnector* && $list == *io.cdcconnect.sink.CdcSinkConnector* ]]
}
mysql_up() { "${compose[@]}" exec -T mysql sh -c 'MYSQL_PWD="$MYSQL_ROOT_PASSWORD" mysql -uroot -e "SELECT 1" shop'; }
postgres_up() { "${compose[@]}" exec -T postgres pg_isready -U cdc -d warehouse; }
registry_up() { curl -fsS http://localhost:8081/apis/ccompat/v7/subjects; }

await "MySQL" mysql_up
await "PostgreSQL" postgres_up
await "Connect worker with both plugins" plugins_loaded
[[ $format == avro ]] && await "Apicurio Registry" registry_up

# connectors/<file> with every ${NAME} filled from connectors/values.env; ${env:...} stays for the worker
render() {
  local text
  text=$(cat "connectors/$1")
  while IFS='=' read -r key value; do
    [[ -z $key || $key == \#* ]] && continue
    text=${text//"\${$key}"/$value}
  done < connectors/values.env
  if grep -Eq '\$\{[A-Z0-9_]+\}' <<<"$text"; then fail "connectors/$1: a placeholder is not in values.env"; fi
  printf '%s' "$text"
}

register() {
  local name=$1 file=$2 status
  status=$(render "$file" | curl -sS -o /tmp/quickstart-$name.json -w '%{http_code}' -X PUT \
    -H 'Content-Type: application/json' --data-binary @- "$connect/connectors/$name/config")
  [[ $status == 200 || $status == 201 ]] || { cat "/tmp/quickstart-$name.json" >&2; fail "PUT $name: HTTP $status"; }
  log "registered $name from connectors/$file"
}

running() {
  local s
  s=$(curl -fsS "$connect/connectors/$1/status") || return 1
  [[ $s == *'"tasks":[{'* && $s != *FAILED* && $s != *UNASSIGNED* && $s != *PAUSED* ]]
}

register cdc-source "source-mysql$suffix.json"
register cdc-sink "sink-postgres$suffix.json"
await "cdc-source running" running cdc-source
await "cdc-sink running" running cdc-sink

log "workload: 50 customers, 200 orders, updates, deletes, a new column"
{
  echo "INSERT INTO customers (id, name, email) VALUES"
  for i in $(seq 1 50); do
    sep=","; ((i == 50)) && sep=";"
    echo "($i, 'customer $i', $( ((i % 7 == 0)) && echo NULL || echo "'c$i@example.org'"))$sep"
  done
  for i in $(seq 1 200); do
    echo "INSERT INTO orders (customer, amount, placed, note) VALUES ($((1 + i % 50)), $((i * 3)).$((i % 100)), '2025-01-01 00:00:00.000' + INTERVAL $i MINUTE, $( ((i % 5 == 0)) && echo "'gift ü $i'" || echo NULL));"
  done
  echo "UPDATE customers SET email = CONCAT('new-', id, '@example.org') WHERE id % 3 = 0;"
  echo "DELETE FROM orders WHERE id % 10 = 0;"
  echo "ALTER TABLE customers ADD COLUMN tier INT NULL;"
  echo "UPDATE customers SET tier = id % 4 WHERE id <= 20;"
  echo "INSERT INTO customers (id, name, email, tier) VALUES (51, 'late', NULL, 3);"
} | "${compose[@]}" exec -T mysql sh -c 'MYSQL_PWD="$MYSQL_ROOT_PASSWORD" mysql -uroot shop'

# the sink's consumer group (connect-<connector>): the lag summed over its partitions, with the log-end offsets,
# or nothing while a partition has no committed offset yet
lag_state() {
  "${compose[@]}" exec -T kafka /opt/kafka/bin/kafka-consumer-groups.sh --bootstrap-server localhost:9092 \
    --describe --group connect-cdc-sink 2>/dev/null | awk '
      $2 ~ /^quickstart\.shop\./ { topics[$2] = 1; if ($6 !~ /^[0-9]+$/) bad = 1; lag += $6; ends = ends $2 ":" $5 " " }
      END { if (bad || length(topics) < 2) exit 1; print lag " " ends }'
}
log "waiting until the sink's lag is 0 (and the topics stop growing)"
deadline=$((SECONDS + timeout))
previous=""
while :; do
  state=$(lag_state || true)
  if [[ -n $state && ${state%% *} == 0 && $state == "$previous" ]]; then break; fi
  ((SECONDS < deadline)) || fail "the sink did not catch up within ${timeout}s (last: ${state:-no offsets yet})"
  previous=$state
  sleep 5
done
log "sink lag 0: ${state#* }"

log "cdc-verify: MySQL shop.* against PostgreSQL warehouse.shop"
"${compose[@]}" --profile tools build -q verify >/dev/null
set +e
"${compose[@]}" run --rm -T verify \
  --source-url 'jdbc:mysql://mysql:3306/?allowPublicKeyRetrieval=true' --source-user cdc \
  --target-url jdbc:postgresql://postgres:5432/warehouse --target-user cdc \
  --tables 'shop.*' --schema-map shop=shop "$@"
status=$?
set -e
log "cdc-verify exit status $status (0 equal, 1 different, 2 error)"
exit "$status"
