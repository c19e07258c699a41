#!/usr/bin/env bash
# A throwaway PostgreSQL server for the storage tests of zertz-server, on loopback only.
#
#   source .ci/postgres.sh        installs and starts it if needed, exports ZERTZ_TEST_POSTGRES
#   bash .ci/postgres.sh          the same, and prints `export ZERTZ_TEST_POSTGRES=…`
#   bash .ci/postgres.sh stop     stops it (the data stays for the next start)
#
# Idempotent: a second run finds the packages installed, the cluster made and the server up,
# and only prints the URL again. Needs root (apt-get, and running the server as `postgres`)
# unless PostgreSQL is already installed and running. Everything of it lives in
# $ZERTZ_PG_ROOT (default /tmp/zertz-postgres): data, Unix socket, log. It listens on
# 127.0.0.1:$ZERTZ_PG_PORT (default 54329), apart from any cluster Debian itself made.
# The role `zertz` (password `zertz`, allowed to create databases) owns the database `zertz`;
# the tests create a fresh database of their own for each test through it and drop it after.
#
# When sourced it changes no shell option of the caller; on failure it says why on stderr and
# returns non-zero (which ends a caller running under `set -e`).

zertz_pg_setup() (
  set -euo pipefail
  root="${ZERTZ_PG_ROOT:-/tmp/zertz-postgres}"
  port="${ZERTZ_PG_PORT:-54329}"
  data="$root/data"
  log="$root/server.log"
  say() { echo "postgres.sh: $*" >&2; }

  find_bin() {
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    if [ -n "$dir" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ] && [ -x "$dir/psql" ]; then
      echo "$dir"
    fi
  }

  bin="$(find_bin)"
  if [ -z "$bin" ]; then
    say "installing PostgreSQL from Debian"
    export DEBIAN_FRONTEND=noninteractive
    local_log="$(mktemp)"
    ok=0
    for attempt in 1 2 3; do
      if apt-get update >"$local_log" 2>&1 &&
        apt-get install -y --no-install-recommends postgresql postgresql-client >>"$local_log" 2>&1; then
        ok=1
        break
      fi
      say "apt-get failed (attempt $attempt), retrying"
      sleep $((attempt * 5))
    done
    if [ "$ok" != 1 ]; then
      tail -n 30 "$local_log" >&2
      say "could not install PostgreSQL"
      exit 1
    fi
    rm -f "$local_log"
    bin="$(find_bin)"
    if [ -z "$bin" ]; then
      say "PostgreSQL installed but no /usr/lib/postgresql/*/bin with pg_ctl, initdb and psql"
      exit 1
    fi
  fi

  # The server never runs as root: it runs as the `postgres` user the package made.
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    as_pg() { (cd / && runuser -u postgres -- "$@"); }
  else
    as_pg() { "$@"; }
  fi

  mkdir -p "$root"
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$root"; fi
  chmod 700 "$root"

  if [ ! -f "$data/PG_VERSION" ]; then
    say "creating a cluster in $data"
    rm -rf "$data"
    as_pg "$bin/initdb" -D "$data" -U postgres -E UTF8 --locale=C.UTF-8 \
      --auth-local=peer --auth-host=scram-sha-256 >"$root/initdb.log" 2>&1 || {
      cat "$root/initdb.log" >&2
      say "initdb failed"
      exit 1
    }
  fi

  if ! as_pg "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    say "starting the server on 127.0.0.1:$port"
    # A test server: durability of PostgreSQL itself is not under test, speed is welcome.
    as_pg "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 start -o \
      "-c listen_addresses=127.0.0.1 -p $port -k $root -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      >/dev/null || {
      tail -n 30 "$log" >&2 || true
      say "the server did not start"
      exit 1
    }
  fi

  for _ in $(seq 1 60); do
    as_pg "$bin/pg_isready" -q -h "$root" -p "$port" && break
    sleep 1
  done
  as_pg "$bin/pg_isready" -q -h "$root" -p "$port" || {
    say "the server does not answer"
    exit 1
  }

  psql_admin() { as_pg "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$root" -p "$port" -U postgres -d postgres "$@"; }
  psql_admin <<'SQL' >/dev/null
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zertz') THEN
    CREATE ROLE zertz LOGIN CREATEDB PASSWORD 'zertz';
  ELSE
    ALTER ROLE zertz LOGIN CREATEDB PASSWORD 'zertz';
  END IF;
END
$$;
SQL
  if [ "$(psql_admin -tA -c "SELECT 1 FROM pg_database WHERE datname = 'zertz'")" != 1 ]; then
    psql_admin -c "CREATE DATABASE zertz OWNER zertz" >/dev/null
  fi

  echo "postgres://zertz:zertz@127.0.0.1:$port/zertz"
)

zertz_pg_stop() (
  set -euo pipefail
  root="${ZERTZ_PG_ROOT:-/tmp/zertz-postgres}"
  bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  if [ -z "$bin" ] || [ ! -f "$root/data/PG_VERSION" ]; then
    echo "postgres.sh: nothing to stop" >&2
    exit 0
  fi
  if [ "$(id -u)" = 0 ]; then
    (cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$root/data" -m fast stop) || true
  else
    "$bin/pg_ctl" -D "$root/data" -m fast stop || true
  fi
)

if (return 0 2>/dev/null); then
  # Sourced.
  if ZERTZ_TEST_POSTGRES="$(zertz_pg_setup)"; then
    export ZERTZ_TEST_POSTGRES
    echo "PostgreSQL for the store tests: $ZERTZ_TEST_POSTGRES"
  else
    echo "postgres.sh: PostgreSQL is not available" >&2
    return 1
  fi
else
  case "${1:-start}" in
    start)
      url="$(zertz_pg_setup)" || exit 1
      echo "export ZERTZ_TEST_POSTGRES=$url"
      ;;
    stop) zertz_pg_stop ;;
    *)
      echo "usage: $0 [start|stop]   (or: source $0)" >&2
      exit 2
      ;;
  esac
fi
