#!/usr/bin/env bash
# The PostgreSQL container's start (docker/postgres/Dockerfile): on the
# first start, when $PGDATA holds no cluster, makes one whose superuser is
# $POSTGRES_USER with the password $POSTGRES_PASSWORD (or the file
# $POSTGRES_PASSWORD_FILE), and the database $POSTGRES_DB; then runs
# PostgreSQL in the foreground, given this script's arguments
# (e.g. -c max_connections=200).
#
# Connections from other containers need the password (scram-sha-256);
# connections on the Unix socket inside the container are trusted (for
# `pg_dump`, `psql` through `compose exec`).
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "scribe-postgres-entrypoint: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
: "${PGDATA:=/var/lib/postgresql/data}"
user="${POSTGRES_USER:-scribe}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password="${POSTGRES_PASSWORD:-}"
  if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then password="$(cat "$POSTGRES_PASSWORD_FILE")"; fi
  if [ -z "$password" ]; then
    echo "scribe-postgres-entrypoint: set POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE (the database's first start)" >&2
    exit 1
  fi
  initdb -D "$PGDATA" -U "$user" --pwfile=<(printf '%s\n' "$password") -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  printf "listen_addresses = '*'\n" >>"$PGDATA/postgresql.conf"
  printf 'host all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    # On a server of the socket alone (no TCP) for the moment.
    sockets="$(mktemp -d)"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=$sockets" -w start
    psql -X -q -v ON_ERROR_STOP=1 -v db="$db" -h "$sockets" -U "$user" -d postgres <<<'CREATE DATABASE :"db"'
    pg_ctl -D "$PGDATA" -m fast -w stop
    rmdir "$sockets"
  fi
  echo "scribe-postgres-entrypoint: made the cluster in $PGDATA (user $user, database $db)" >&2
fi
exec postgres -D "$PGDATA" "$@"
