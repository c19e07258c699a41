#!/usr/bin/env bash
# The example deployment on loopback: PostgreSQL (.ci/postgres.sh's server), three
# `zertz serve` nodes on one database, and HAProxy in front of them (deploy/haproxy.cfg).
# deploy/README.md says how to run the same on several machines.
#
#   deploy/run-local.sh                 starts it all and watches it until Ctrl-C (the
#                                       service on http://127.0.0.1:8080/); then stops it all
#   deploy/run-local.sh status          which processes run (pid) and which node answers
#   deploy/run-local.sh restart NAME    restarts NAME (n1, n2, n3 or haproxy), stopped or not,
#                                       under the running deployment
#
# A process that stops is said (its name, pid and exit status) and **not** restarted: the
# others go on serving (HAProxy stops sending to a node that fails its health check, and the
# other nodes take the dead node's games once its leases run out), so that a death can be
# watched. `restart NAME` brings it back (a node rejoins with its own id and takes games
# again). With ZERTZ_AUTO_RESTART=SECONDS, a process that stops is restarted by itself after
# that many seconds instead, as systemd's Restart=on-failure would (deploy/README.md).
#
# Environment (all optional):
#   ZERTZ_BIN          the zertz binary (default target/release/zertz, built if missing)
#   ZERTZ_LB_PORT      HAProxy's port (8080); the nodes listen on the next three ports
#   ZERTZ_DEPLOY_DB    the database's name on the PostgreSQL server (zertz_deploy)
#   ZERTZ_DEPLOY_DIR   where the logs and pid files go (/tmp/zertz-deploy)
#   ZERTZ_LEASE_MS     how long a node's lease of a game lasts (5000)
#   ZERTZ_AUTO_RESTART seconds after which a stopped process is restarted (unset: never)
#   ZERTZ_SERVE_ARGS   more options for every node, e.g. "--busy-commits 0" (split on spaces)
# Needs haproxy (`apt-get install haproxy`) and root or a running PostgreSQL for postgres.sh.
set -uo pipefail
cd "$(dirname "$0")/.."

lb_port="${ZERTZ_LB_PORT:-8080}"
db_name="${ZERTZ_DEPLOY_DB:-zertz_deploy}"
dir="${ZERTZ_DEPLOY_DIR:-/tmp/zertz-deploy}"
lease="${ZERTZ_LEASE_MS:-5000}"
bin="${ZERTZ_BIN:-target/release/zertz}"
auto="${ZERTZ_AUTO_RESTART:-}"
read -r -a serve_args <<<"${ZERTZ_SERVE_ARGS:-}"
names=(n1 n2 n3 haproxy)
say() { echo "run-local.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# The supervisor's pid (the deployment running), if any.
supervisor() {
  local pid
  pid="$(cat "$dir/run-local.pid" 2>/dev/null)" || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# Whether NAME is one of the deployment's processes.
known() {
  local n
  for n in "${names[@]}"; do [ "$n" = "$1" ] && return 0; done
  return 1
}

# `status` and `restart` talk to a running deployment through its files in $dir.
case "${1:-}" in
  "") ;;
  status)
    sup="$(supervisor)" || die "no deployment runs (no live pid in $dir/run-local.pid)"
    echo "supervisor $sup"
    for n in "${names[@]}"; do
      pid="$(cat "$dir/$n.pid" 2>/dev/null || true)"
      if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then state="running, pid $pid"; else state="stopped"; fi
      case "$n" in
        haproxy) port="$lb_port" ;;
        *) port=$((lb_port + ${n#n})) ;;
      esac
      if curl -fs --max-time 2 "http://127.0.0.1:$port/api/health" >/dev/null 2>&1; then
        answer="answers on 127.0.0.1:$port"
      else
        answer="does not answer on 127.0.0.1:$port"
      fi
      echo "$n $state, $answer"
    done
    exit 0
    ;;
  restart)
    name="${2:-}"
    known "$name" || die "restart what? one of: ${names[*]} (got '${name}')"
    sup="$(supervisor)" || die "no deployment runs (start it with deploy/run-local.sh)"
    echo "$name" >>"$dir/restart"
    kill -USR1 "$sup"
    # The supervisor writes NAME.pid again once the process is up (or says why not in its log).
    old="$(cat "$dir/$name.pid" 2>/dev/null || true)"
    for _ in $(seq 1 300); do
      kill -0 "$sup" 2>/dev/null || die "the deployment stopped (supervisor $sup); see $dir"
      pid="$(cat "$dir/$name.pid" 2>/dev/null || true)"
      if [ -n "$pid" ] && [ "$pid" != "$old" ] && kill -0 "$pid" 2>/dev/null; then
        echo "$name restarted, pid $pid"
        exit 0
      fi
      sleep 0.1
    done
    die "$name did not come back within 30 s; see $dir/$name.log"
    ;;
  -h|--help|help)
    # The comment at the head of this file.
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0
    ;;
  *)
    die "unknown command '$1' (none, status, or restart NAME)"
    ;;
esac

mkdir -p "$dir"
if sup="$(supervisor)"; then
  die "a deployment already runs (supervisor pid $sup); see deploy/run-local.sh status"
fi
command -v haproxy >/dev/null || die "haproxy is missing (apt-get install haproxy)"
if [ ! -x "$bin" ]; then
  cargo build --release -p zertz-cli || die "could not build $bin"
fi

# PostgreSQL, and a database of the deployment's own.
source .ci/postgres.sh || die "PostgreSQL did not start"
psql="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)/psql"
if ! "$psql" "$ZERTZ_TEST_POSTGRES" -tAc "SELECT 1 FROM pg_database WHERE datname = '$db_name'" | grep -q 1; then
  "$psql" "$ZERTZ_TEST_POSTGRES" -qc "CREATE DATABASE \"$db_name\"" || die "could not create $db_name"
fi
url="${ZERTZ_TEST_POSTGRES%/*}/$db_name"
for i in 1 2 3; do
  export "ZERTZ_NODE$i=127.0.0.1:$((lb_port + i))"
done
export ZERTZ_LB_ADDR="127.0.0.1:$lb_port"

declare -A pid_of=()

# Starts process NAME in the background, as a child of this script; records its pid.
start() {
  local name="$1" pid
  case "$name" in
    haproxy)
      haproxy -db -f deploy/haproxy.cfg >>"$dir/haproxy.log" 2>&1 &
      pid=$!
      ;;
    n*)
      # Each node its own id. Every client reaches them through HAProxy (which says who the
      # client is in X-Forwarded-For) or through another node passing a game's request on:
      # both are on 127.0.0.1, the trusted proxy, so each limit per address applies to the
      # client. Here every client is this machine (a load test), so the limits a load test
      # would run into are off.
      local port=$((lb_port + ${name#n}))
      : >"$dir/$name.out"
      "$bin" serve --addr "127.0.0.1:$port" --db "$url" --node "$name" --lease-ms "$lease" \
        --trusted-proxy 127.0.0.1 --http-rate 0 --connections-per-address 0 \
        --invitations-per-client 0 "${serve_args[@]}" >"$dir/$name.out" 2>>"$dir/$name.log" &
      pid=$!
      ;;
  esac
  pid_of[$name]=$pid
}

# Waits until NAME answers (a node: its "listening on" line; HAProxy: a health check through
# it); false if it stopped or did not within 60 s.
ready() {
  local name="$1"
  for _ in $(seq 1 600); do
    kill -0 "${pid_of[$name]}" 2>/dev/null || return 1
    case "$name" in
      haproxy) curl -fs --max-time 1 "http://$ZERTZ_LB_ADDR/api/health" >/dev/null 2>&1 && return 0 ;;
      *) grep -q "listening on" "$dir/$name.out" 2>/dev/null && return 0 ;;
    esac
    sleep 0.1
  done
  return 1
}

# Starts NAME and says so once it answers (its pid file written then).
bring_up() {
  local name="$1"
  start "$name"
  if ready "$name"; then
    echo "${pid_of[$name]}" >"$dir/$name.pid"
    say "$name up, pid ${pid_of[$name]}"
    return 0
  fi
  say "$name did not start; see $dir/$name.log"
  return 1
}

stopping=0
stop_all() {
  stopping=1
  local n
  for n in "${!pid_of[@]}"; do
    kill "${pid_of[$n]}" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  rm -f "$dir/run-local.pid" "$dir/restart"
  for n in "${names[@]}"; do rm -f "$dir/$n.pid"; done
}
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
trap 'stop_all' EXIT

# A restart asked by `deploy/run-local.sh restart NAME` (the names are in $dir/restart).
restart_asked=0
trap 'restart_asked=1' USR1

echo $$ >"$dir/run-local.pid"
rm -f "$dir/restart"
for n in "${names[@]}"; do
  bring_up "$n" || exit 1
done
echo "zertz: http://$ZERTZ_LB_ADDR/ (HAProxy) in front of nodes on ports $((lb_port + 1))-$((lb_port + 3)); logs in $dir"

# Restarts NAME: stops it first if it runs.
restart() {
  local name="$1" pid="${pid_of[$1]:-}"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    say "stopping $name (pid $pid) to restart it"
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  bring_up "$name" || true
}

while [ "$stopping" = 0 ]; do
  if [ "$restart_asked" = 1 ]; then
    restart_asked=0
    if [ -f "$dir/restart" ]; then
      mapfile -t asked <"$dir/restart"
      rm -f "$dir/restart"
      for n in $(printf '%s\n' "${asked[@]}" | sort -u); do
        known "$n" && restart "$n"
      done
    fi
    continue
  fi
  live=()
  for n in "${!pid_of[@]}"; do
    kill -0 "${pid_of[$n]}" 2>/dev/null && live+=("${pid_of[$n]}")
  done
  if [ "${#live[@]}" -eq 0 ]; then
    # Everything stopped: wait for a restart.
    sleep 1
    continue
  fi
  # Returns when one of them ends (its pid in `ended`), or at once on a signal (a restart;
  # then `ended` is left unset).
  ended=""
  wait -n -p ended "${live[@]}"
  status=$?
  ended="${ended:-}"
  [ -z "$ended" ] && continue
  for n in "${!pid_of[@]}"; do
    [ "${pid_of[$n]}" = "$ended" ] || continue
    if [ "$status" -gt 128 ]; then how="killed by signal $((status - 128))"; else how="exit status $status"; fi
    rm -f "$dir/$n.pid"
    if [ -n "$auto" ]; then
      say "$n (pid $ended) stopped ($how); restarting it in $auto s; the others go on serving"
      sleep "$auto"
      [ "$stopping" = 0 ] && restart "$n"
    else
      say "$n (pid $ended) stopped ($how); the others go on serving; see $dir/$n.log;" \
        "restart it with: deploy/run-local.sh restart $n"
    fi
  done
done
