#!/usr/bin/env bash
# A throwaway PostgreSQL 15 server for the database benchmarks
# (docs/BENCHMARKS.md, "Game database"), in a folder of its own:
#
#   bench/pg_server.sh start DIR PORT    # prints the URL of database "bench"
#   bench/pg_server.sh stop DIR
#
# As root (PostgreSQL refuses to run as root) the server runs as the user
# postgres. Settings are the defaults but a 256 MB shared buffer; fsync on.
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "pg_server.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
bin=/usr/lib/postgresql/15/bin
cmd="$1" dir="$2"
as_pg() { if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "$cmd" in
  start)
    port="$3"
    mkdir -p "$dir"
    [[ "$(id -u)" == 0 ]] && chown postgres "$dir"
    as_pg "$bin/initdb" -D "$dir/data" -A trust -U scribe >/dev/null
    as_pg "$bin/pg_ctl" -D "$dir/data" -o "-k $dir -c listen_addresses=127.0.0.1 -p $port -c shared_buffers=256MB" \
      -l "$dir/log" -w start >/dev/null
    psql "postgresql://scribe@127.0.0.1:$port/postgres" -qc 'CREATE DATABASE bench' >/dev/null
    echo "postgresql://scribe@127.0.0.1:$port/bench"
    ;;
  stop)
    as_pg "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null
    ;;
  *) echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
