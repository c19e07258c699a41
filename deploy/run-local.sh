#!/usr/bin/env bash
# Starts the example deployment on loopback: PostgreSQL (.ci/postgres.sh's server), three
# `zertz serve` nodes on one database, and HAProxy in front of them (deploy/haproxy.cfg).
# Runs until interrupted (Ctrl-C), then stops what it started.
#
#   deploy/run-local.sh                 the service on http://127.0.0.1:8080/
#
# Environment (all optional):
#   ZERTZ_BIN          the zertz binary (default target/release/zertz, built if missing)
#   ZERTZ_LB_PORT      HAProxy's port (8080); the nodes listen on the next three ports
#   ZERTZ_DEPLOY_DB    the database's name on the PostgreSQL server (zertz_deploy)
#   ZERTZ_DEPLOY_DIR   where the logs go (/tmp/zertz-deploy)
#   ZERTZ_LEASE_MS     how long a node's lease of a game lasts (5000)
# Needs haproxy (`apt-get install haproxy`) and root or a running PostgreSQL for postgres.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

lb_port="${ZERTZ_LB_PORT:-8080}"
db_name="${ZERTZ_DEPLOY_DB:-zertz_deploy}"
dir="${ZERTZ_DEPLOY_DIR:-/tmp/zertz-deploy}"
lease="${ZERTZ_LEASE_MS:-5000}"
bin="${ZERTZ_BIN:-target/release/zertz}"
mkdir -p "$dir"

command -v haproxy >/dev/null || { echo "run-local.sh: haproxy is missing (apt-get install haproxy)" >&2; exit 1; }
if [ ! -x "$bin" ]; then
  cargo build --release -p zertz-cli
fi

# PostgreSQL, and a database of the deployment's own.
source .ci/postgres.sh
psql="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)/psql"
if ! "$psql" "$ZERTZ_TEST_POSTGRES" -tAc "SELECT 1 FROM pg_database WHERE datname = '$db_name'" | grep -q 1; then
  "$psql" "$ZERTZ_TEST_POSTGRES" -qc "CREATE DATABASE \"$db_name\""
fi
url="${ZERTZ_TEST_POSTGRES%/*}/$db_name"

pids=()
stop() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap stop EXIT INT TERM

# The nodes: each its own id. Every client reaches them through HAProxy (which says who the
# client is in X-Forwarded-For) or through another node passing a game's request on: both are
# on 127.0.0.1, the trusted proxy, so each limit per address applies to the client. Here every
# client is this machine (a load test), so the limits a load test would run into are off.
for i in 1 2 3; do
  port=$((lb_port + i))
  "$bin" serve --addr "127.0.0.1:$port" --db "$url" --node "n$i" --lease-ms "$lease" \
    --trusted-proxy 127.0.0.1 --http-rate 0 --connections-per-address 0 \
    --invitations-per-client 0 >"$dir/n$i.out" 2>"$dir/n$i.log" &
  pids+=($!)
  export "ZERTZ_NODE$i=127.0.0.1:$port"
done
for i in 1 2 3; do
  for _ in $(seq 1 600); do
    grep -q "listening on" "$dir/n$i.out" 2>/dev/null && break
    sleep 0.1
  done
  grep -q "listening on" "$dir/n$i.out" || { echo "node n$i did not start; see $dir/n$i.log" >&2; exit 1; }
done

export ZERTZ_LB_ADDR="127.0.0.1:$lb_port"
haproxy -db -f deploy/haproxy.cfg >"$dir/haproxy.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$lb_port/api/health" >/dev/null 2>&1 && break
  sleep 0.1
done
echo "zertz: http://127.0.0.1:$lb_port/ (HAProxy) in front of nodes on ports $((lb_port + 1))-$((lb_port + 3)); logs in $dir"
wait -n "${pids[@]}"
echo "run-local.sh: a process stopped; see $dir" >&2
