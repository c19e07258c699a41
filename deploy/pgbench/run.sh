#!/usr/bin/env bash
# What a move costs PostgreSQL's CPU, written as the server writes it, with nothing else around:
# pgbench runs each script (select.sql, insert.sql, move.sql, moves8.sql) on a database set up
# by setup.sql, and the cluster's CPU (the postmaster, its background processes and every
# backend, live or exited) is read from /proc before and after. Rounds alternate the scripts.
#
#   PGHOST=/tmp/pgm PGPORT=54340 PGDATABASE=bench DATA=/tmp/pgm/data deploy/pgbench/run.sh
#
# The database must hold the server's schema: `zertz admin reports --db postgres://…/bench`
# makes it. Run as a user who may read the cluster's /proc entries (its owner or root).
# Figures: docs/server.md, "A move costs PostgreSQL little".
set -euo pipefail
cd "$(dirname "$0")"
: "${DATA:?the data directory of the cluster (for postmaster.pid)}"
clients=${CLIENTS:-4} transactions=${TX:-4000} rounds=${ROUNDS:-3}

# CPU time of the whole cluster, in clock ticks.
cluster_ticks() {
  local pm total=0 fields
  pm=$(head -1 "$DATA/postmaster.pid")
  for p in $pm $(pgrep -P "$pm"); do
    fields=($(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null)) || continue
    total=$((total + fields[11] + fields[12]))
  done
  fields=($(sed 's/.*) //' "/proc/$pm/stat"))
  echo $((total + fields[13] + fields[14]))
}

hz=$(getconf CLK_TCK)
echo "script    moves/tx  CPU ms per transaction  per move"
for round in $(seq "$rounds"); do
  for script in select insert move moves8; do
    psql -q -f setup.sql >/dev/null
    before=$(cluster_ticks)
    PGOPTIONS='-c plan_cache_mode=force_generic_plan' \
      pgbench -n -M prepared -c "$clients" -t "$transactions" -f "$script.sql" >/dev/null
    after=$(cluster_ticks)
    moves=1; [ "$script" = moves8 ] && moves=8; [ "$script" = select ] && moves=0
    ms=$(echo "scale=4; ($after - $before) * 1000 / $hz / ($clients * $transactions)" | bc)
    per_move=$([ "$moves" -gt 0 ] && echo "scale=4; $ms / $moves" | bc || echo -)
    printf '%-9s %8s  %22s  %8s\n' "$script" "$moves" "$ms" "$per_move"
  done
done
