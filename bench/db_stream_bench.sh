#!/usr/bin/env bash
# The game database over gRPC under load (docs/BENCHMARKS.md, "The game
# database over gRPC"): a throwaway PostgreSQL server, two scribed replicas
# sharing it, a stream of GAMES games imported through the first
# (bench/db_stream) while the second answers searches at RATE a second;
# then the first replica's peak RSS (/usr/bin/time -v).
#
#   bench/db_stream_bench.sh WORKDIR GAMES RATE FILE.tsn...
#   (with DB=/path/games.db: SQLite instead, one file both replicas open)
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "db_stream_bench.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
here="$(cd "$(dirname "$0")" && pwd)"
build="${BUILD:-$here/../build}"
work="$1" games="$2" rate="$3"
shift 3
mkdir -p "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [[ -z "${DB:-}" && -d "$work/pg/data" ]]; then "$here/pg_server.sh" stop "$work/pg" || true; fi
}
trap cleanup EXIT
if [[ -n "${DB:-}" ]]; then
  url="$DB"
else
  rm -rf "$work/pg"
  url="$("$here/pg_server.sh" start "$work/pg" "${PGPORT:-55440}")"
fi
# start NAME ARGS...: a replica on a free port; its port in $port.
start() {
  local name="$1"
  shift
  "$@" --listen 127.0.0.1:0 --db "$url" --db-open-writes --metrics-interval-seconds 0 ${SCRIBED_FLAGS:-} \
    >"$work/$name.out" 2>"$work/$name.log" &
  pids+=($!)
  port=""
  for _ in $(seq 1 200); do
    port="$(sed -n 's/^listening on port \([0-9]*\)$/\1/p' "$work/$name.out")"
    [[ -n "$port" ]] && return
    sleep 0.1
  done
  echo "replica $name did not start: $(cat "$work/$name.log")" >&2
  exit 1
}
start importer /usr/bin/time -v -o "$work/importer.time" "$build/service/scribed"
import_port="$port"
start searcher "$build/service/scribed"
search_port="$port"
"$build/bench/db_stream" --import "127.0.0.1:$import_port" --search "127.0.0.1:$search_port" \
  --games "$games" --search-rate "$rate" "$@"
pkill -TERM -P "${pids[0]}"  # scribed, under /usr/bin/time
wait "${pids[0]}" || true
pids=("${pids[@]:1}")
echo "importing replica: peak RSS $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/importer.time") kB"
