#!/usr/bin/env bash
# One game database, several replicas: a real PostgreSQL 15 server
# (bench/pg_server.sh, in a temporary folder) shared by three scribed
# replicas (--db URL --db-open-writes --db-batch 100) behind nginx
# (tests/e2e/replicas_lib.sh: docker/nginx/scribe-lb.conf, its ports
# rewritten). The client is tests/e2e/node_client/database_replicas.js
# (@grpc/grpc-js); the games are `scribe play --ruleset finkel` games (legal
# and distinct, seeds 1..N), sent PER=20 records a message, message k with
# the source "replica-test/k" (so its records are that source's records
# 0..19 in any stream that carries them).
#   1. the three replicas start at once on the same empty database (one
#      makes the schema under a lock, the others wait for it);
#   2. games imported through replica 1's port are read through replica 2's
#      and replica 3's: ListGames' total_size, GetGame of the first game,
#      ExplorePosition at the start, a player's games, results, GetPlayer;
#   3. the rest of the games in one stream through nginx: once 440 games are
#      written and the replica serving it has committed 400 (4 batches of
#      100), the stream still open, that replica is found (the one nginx
#      holds a connection to); a session of ours takes PostgreSQL's explorer
#      table (LOCK ... IN SHARE MODE: reads go on) and the client writes on
#      (840 games in all, the stream left open), so that the replica's fifth
#      batch writes its games and postings and waits for the explorer, its
#      transaction open: there the replica is killed with SIGKILL. The
#      client's call ends UNAVAILABLE at once; the explorer is given back and
#      PostgreSQL rolls the cut transaction back. The client sends the same
#      whole set again through nginx (backoff, until answered OK). Nothing
#      committed is lost and nothing of the cut batch is kept (the database
#      holds the 400), the retry stores the rest once (known_sources = 400,
#      added = the others), and every game is stored exactly once; the reads
#      agree with the total.
#   4. three imports at once of overlapping sets, two through the two
#      replicas left (the same games under other sources) and one through
#      nginx (the first one's twin: the same sources): every game once, every
#      (source, record) once, each game of the overlap with both sources.
#   5. one stream longer than 16 MiB through nginx (the client streams'
#      location has no body limit: a stream's body is all its messages):
#      the games stored so far under new sources, and 1200 new ones.
#   6. a fourth replica started while a session of ours holds the schema
#      lock (as another replica migrating would) waits for it; SIGTERM
#      stops it then, exit 0, before it listens.
# PostgreSQL, nginx and the replicas are stopped on every exit path.
# Prints "N passed, N failed"; exit 77 (skipped) without PostgreSQL 15.
# Usage: database_replicas_test.sh PATH_TO_SCRIBED PATH_TO_SCRIBE
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIBED="$(realpath "${1:?usage: database_replicas_test.sh SCRIBED SCRIBE}")"
SCRIBE="$(realpath "${2:?usage: database_replicas_test.sh SCRIBED SCRIBE}")"
NODE_DIR="$ROOT/tests/e2e/node_client"
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
PG_BIN=/usr/lib/postgresql/15/bin
PER=20           # records a message
FIRST=600        # games imported through replica 1 (2.)
GAMES=3000       # games of 2. and 3.
HOLD=440         # 3.: games written when the stream is held
STOP=840         # 3.: games written in all before the replica is killed, the stream open
BATCH=100        # --db-batch
EXTRA=600        # games of 4. (after the GAMES)
passed=0
failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }  # (its words joined)
fail() { echo "FAIL: $1${2:+: $2}"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
skip() { echo "SKIP: $1"; exit 77; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/scribe-db-replicas-test.XXXXXX")"
. "$ROOT/tests/e2e/replicas_lib.sh"
pg_dir=""
client_pids=()
lock_pid=""
# The schema's advisory lock (storage/postgres_store.cc, kSchemaLock).
SCHEMA_LOCK=6008772124790313795
cleanup() {
  for p in "${client_pids[@]}" $lock_pid; do kill "$p" 2>/dev/null; done
  cleanup_replicas
  if [ -n "$pg_dir" ] && [ -e "$pg_dir/data/postmaster.pid" ]; then
    bash "$ROOT/bench/pg_server.sh" stop "$pg_dir" >>"$tmp/pg_server.log" 2>&1 ||
      echo "the PostgreSQL server in $pg_dir did not stop: $(tail -n 5 "$tmp/pg_server.log")"
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

[ -x "$PG_BIN/postgres" ] || skip "PostgreSQL 15 is not installed (no $PG_BIN/postgres)"
if [ ! -x "$NGINX" ]; then fail "nginx is installed (scripts/setup.sh)"; finish; fi
if ! command -v ss >/dev/null; then fail "ss (iproute2) is installed: it finds the replica serving a stream"; finish; fi
if ! bash "$NODE_DIR/install.sh" >"$tmp/npm.log" 2>&1; then
  fail "the Node client's npm packages install (tests/e2e/node_client/install.sh)" "$(tail -n 20 "$tmp/npm.log")"; finish
fi
# The client (in the background as "${CLIENT[@]}" ... &: $! is node's own id).
CLIENT=(env "NODE_PATH=$NODE_DIR/node_modules" node "$NODE_DIR/database_replicas.js")
client() { "${CLIENT[@]}" "$@"; }
sql() { "$PG_BIN/psql" -X -Atq -c "$1" "$url"; }
# field NAME LINE: NAME's value in a "key=value ..." line; int: a number, or
# -1 for anything else (an error's text), for arithmetic.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2" | head -n 1; }
int() { if [[ "$1" =~ ^[0-9]+$ ]]; then echo "$1"; else echo -1; fi; }
# expect WHAT "NAME=VALUE ..." LINE: a pass when the line has every value.
expect() {
  local what="$1" want="$2" line="$3" pair wrong=""
  for pair in $want; do
    [ "$(field "${pair%%=*}" "$line")" = "${pair#*=}" ] ||
      wrong+=" ${pair%%=*}=$(field "${pair%%=*}" "$line") (not ${pair#*=})"
  done
  if [ -z "$wrong" ]; then pass "$what ($want)"; else fail "$what" "${wrong# }; got: $line"; fi
}
# show_logs: the replicas' and nginx's logs, after a failure.
show_logs() {
  local i
  for i in 1 2 3; do echo "  replica $i's log:"; tail -n 8 "$tmp/replica$i.log" | sed 's/^/    /'; done
  echo "  nginx's error log:"
  grep -v '\[notice\]' "${prefix:-$tmp/nginx}/logs/error.log" 2>/dev/null | tail -n 8 | sed 's/^/    /'
}

# The games: legal, distinct (seeds 1..), one JSON array.
if ! "$SCRIBE" play --ruleset finkel --seed 1 --games $((GAMES + EXTRA)) >"$tmp/games.json" 2>"$tmp/play.log"; then
  fail "scribe play makes $((GAMES + EXTRA)) games" "$(cat "$tmp/play.log")"; finish
fi

# 1. PostgreSQL, then three replicas at once on its empty database, then nginx.
# (As root the server runs as postgres, which must reach its folder.)
[ "$(id -u)" -eq 0 ] && chmod o+x "$tmp"
pg_dir="$tmp/pg"
if ! url="$(bash "$ROOT/bench/pg_server.sh" start "$pg_dir" "$(free_port)" 2>"$tmp/pg_server.log")"; then
  fail "PostgreSQL starts (bench/pg_server.sh)" "$(cat "$tmp/pg_server.log"; tail -n 5 "$pg_dir/log" 2>/dev/null)"; finish
fi
pass "PostgreSQL 15 serves $url"
start_replicas --db "$url" --db-open-writes --db-batch "$BATCH" --db-players-seconds 0
sleep 0.5
alive=0
for i in 1 2 3; do
  kill -0 "${pids[$((i - 1))]}" 2>/dev/null && grep -q "game database: PostgreSQL database" "$tmp/replica$i.log" &&
    alive=$((alive + 1))
done
schema="$(sql "SELECT count(*) || ' rows, version ' || max(version) FROM scribe_schema" 2>&1)"
if [ "$alive" -eq 3 ] && [[ "$schema" == "1 rows, version "[1-9]* ]]; then
  pass "the three replicas opened the one database, its schema made once (scribe_schema: $schema)"
else
  fail "the three replicas open the one database, its schema made once" "$alive of 3 up; scribe_schema: $schema"
  show_logs; finish
fi
start_nginx
r1="127.0.0.1:${ports[0]}" r2="127.0.0.1:${ports[1]}" r3="127.0.0.1:${ports[2]}" lb="127.0.0.1:$lb_port"

# 2. Imported through replica 1, read through replicas 2 and 3.
out="$(client import "$r1" "$tmp/games.json" 0 "$FIRST" replica-test --per "$PER" 2>&1)"
expect "$FIRST games imported through replica 1" \
  "code=OK records=$FIRST added=$FIRST new_sources=0 known_sources=0 duplicates=0 rejected=0" "$out"
for r in "$r2" "$r3"; do
  out="$(client read "$r" 2>&1)"
  expect "read through replica $([ "$r" = "$r2" ] && echo 2 || echo 3): ListGames, GetGame, the start's ExplorePosition" \
    "total=$FIRST get_ok=1 get_source=replica-test/0#0 explore_games=$FIRST explore_moves=$FIRST player_total=$FIRST" \
    "$out"
done
if [ $(($(int "$(field light_wins "$out")") + $(int "$(field dark_wins "$out")"))) -eq "$FIRST" ] &&
   [ "$(field player_games "$out")" = "$FIRST" ]; then
  pass "light's and dark's wins add up to $FIRST, and GetPlayer counts them" \
       "($(field light_wins "$out") + $(field dark_wins "$out"))"
else
  fail "light's and dark's wins add up to $FIRST, and GetPlayer counts them" "$out"
fi

# 3. The rest through nginx, held once HOLD games are written and the
# replica serving the stream has committed what it can of them (whole
# batches). Then a transaction of our own takes the explorer table (SHARE:
# reads go on, writes wait), and the client writes on, up to STOP games,
# the stream left open: the replica's next batch writes its games and
# postings, then waits for the explorer, its transaction open, and is
# killed there (SIGKILL).
rest=$((GAMES - FIRST))
held_want=$((FIRST + HOLD / BATCH * BATCH))
rm -f "$tmp/go" "$tmp/retry"
"${CLIENT[@]}" import "$lb" "$tmp/games.json" "$FIRST" "$rest" replica-test --per "$PER" \
  --hold-after "$HOLD" --hold-total "$held_want" --watch "$r1" --go-file "$tmp/go" --stop-after "$STOP" \
  --retry "$lb" --retry-file "$tmp/retry" >"$tmp/import.out" 2>&1 &
client_pids=($!)
for _ in $(seq 1 600); do
  grep -q '^holding ' "$tmp/import.out" && break
  kill -0 "${client_pids[0]}" 2>/dev/null || break
  sleep 0.1
done
holding="$(grep '^holding ' "$tmp/import.out")"
if [ "$(field total "$holding")" != "$held_want" ]; then
  fail "the stream through nginx commits $((held_want - FIRST)) games of its first $HOLD" \
    "$(cat "$tmp/import.out")"; show_logs; finish
fi
pass "the stream through nginx, still open, has committed $((held_want - FIRST)) games of the $HOLD written"
# The replica serving it: the one nginx holds a connection to (nginx opens
# one a call: no upstream keepalive; the client's reads go to replica 1
# straight).
victim=""
for _ in $(seq 1 50); do
  serving=()
  for i in 1 2 3; do
    ss -Htnp state established "( dport = :${ports[$((i - 1))]} )" 2>/dev/null | grep -q '"nginx"' && serving+=("$i")
  done
  if [ "${#serving[@]}" -eq 1 ]; then victim="${serving[0]}"; break; fi
  sleep 0.1
done
if [ -z "$victim" ]; then
  fail "one replica serves the stream" "nginx is connected to replicas: ${serving[*]:-none}"; finish
fi
victim_pid="${pids[$((victim - 1))]}"
# The explorer taken (our session: application_name scribe-test-lock).
PGAPPNAME=scribe-test-lock "$PG_BIN/psql" -X -q "$url" \
  -c "BEGIN; LOCK TABLE explorer IN SHARE MODE; SELECT pg_sleep(120); COMMIT" >"$tmp/lock.log" 2>&1 &
lock_pid=$!
locked=""
for _ in $(seq 1 100); do
  locked="$(sql "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
                 WHERE a.application_name = 'scribe-test-lock' AND l.relation = 'explorer'::regclass AND l.granted")"
  [ "$locked" = 1 ] && break
  sleep 0.1
done
if [ "$locked" != 1 ]; then fail "a session takes the explorer table" "$(cat "$tmp/lock.log")"; finish; fi
touch "$tmp/go"
# The replica's batch, inside its transaction (it has written: an xid),
# waiting for the explorer (at most 10 s: its lock_timeout).
cut=""
for _ in $(seq 1 100); do
  cut="$(sql "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND backend_xid IS NOT NULL
              AND query LIKE 'INSERT INTO explorer%'")"
  [ -n "$cut" ] && break
  sleep 0.05
done
if [ -z "$cut" ]; then
  fail "the replica's next batch waits for the explorer, its transaction open" \
    "$(sql "SELECT pid, state, wait_event_type, left(query, 60) FROM pg_stat_activity WHERE datname = 'bench'")"
  finish
fi
# (bash reports a child killed by a signal, to its stderr, when it notices:
# quiet until the replica is waited for)
exec 3>&2 2>/dev/null
kill -KILL "$victim_pid"
wait "$victim_pid"
code=$?
exec 2>&3 3>&-
pass "replica $victim, serving the stream, killed with SIGKILL (exit $code) inside a batch's transaction" \
     "(PostgreSQL backend $cut: its games written, waiting for the explorer)"
# The client hears of it at once (nginx answers the call as soon as the
# replica's connection is gone); its retry waits for $tmp/retry.
for _ in $(seq 1 200); do grep -q '^attempt n=1 ' "$tmp/import.out" && break; sleep 0.1; done
first_attempt="$(grep '^attempt n=1 ' "$tmp/import.out")"
case "$(field code "$first_attempt")" in
  UNAVAILABLE) pass "the client's stream, open with $(field sent "$first_attempt") games written, ended UNAVAILABLE" \
                    "at once (${first_attempt#* code=UNAVAILABLE })" ;;
  *) fail "the client's stream ends UNAVAILABLE within 20 s of the kill" "${first_attempt:-no answer}" ;;
esac
# The explorer given back: the dead replica's backend finds its client gone
# and PostgreSQL rolls its transaction back.
sql "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'scribe-test-lock'" >/dev/null
wait "$lock_pid" 2>/dev/null
lock_pid=""
for _ in $(seq 1 100); do
  [ "$(sql "SELECT count(*) FROM pg_stat_activity WHERE pid = $cut")" = 0 ] && break
  sleep 0.1
done
ended="$(grep -E "\[$cut\] (LOG|FATAL)" "$pg_dir/log" | sed 's/^[^]]*\] //' | tr '\n' ' ')"
if [ "$(sql "SELECT count(*) FROM pg_stat_activity WHERE pid = $cut")" = 0 ]; then
  pass "PostgreSQL ended the killed replica's session once the explorer was free (${ended:-its log: nothing})"
else
  fail "PostgreSQL ends the killed replica's session" "$(sql "SELECT state, wait_event FROM pg_stat_activity WHERE pid = $cut")"
fi
live=()
for i in 1 2 3; do [ "$i" -ne "$victim" ] && live+=("127.0.0.1:${ports[$((i - 1))]}"); done
after_kill="$(client total "${live[0]}" 2>&1)"
also="$(client total "${live[1]}" 2>&1)"
kept=$(($(int "$after_kill") - FIRST))
if [ "$after_kill" = "$held_want" ] && [ "$also" = "$held_want" ]; then
  pass "after the kill the database holds every batch the stream committed and nothing of the one cut" \
       "($after_kill games: $FIRST + $kept)"
else
  fail "after the kill the database holds every batch the stream committed and nothing of the one cut" \
    "$after_kill games through one replica left, $also through the other, not $held_want"
fi
touch "$tmp/retry"
wait "${client_pids[0]}"
code=$?
client_pids=()
attempts="$(grep '^attempt ' "$tmp/import.out")"
last_attempt="$(tail -n 1 <<<"$attempts")"
echo "  the client:"
sed 's/^/    /' <<<"$attempts"
if [ "$code" -eq 0 ] && [ "$(grep -c '^attempt ' <<<"$attempts")" -ge 2 ]; then
  pass "the client's retry through nginx was answered OK (attempt $(field n "$last_attempt")," \
       "$(($(field end "$last_attempt") - $(field start "$last_attempt"))) ms)"
  expect "the retry stored each game of the $rest once: the $kept the killed stream committed known, the rest added" \
    "records=$rest added=$((rest - kept)) known_sources=$kept new_sources=0 duplicates=0 rejected=0" "$last_attempt"
else
  fail "the client's retry through nginx is answered OK" "exit $code; $(cat "$tmp/import.out")"; show_logs
fi
sleep 1  # nginx logs a call when it ends
echo "  nginx's access log, ImportGames:"
grep 'ImportGames' "$prefix/logs/access.log" | sed 's/^/    /'
out="$(client read "$lb" 2>&1)"
expect "every game once: through nginx, ListGames' total and the explorer's and player's counts" \
  "total=$GAMES explore_games=$GAMES explore_moves=$GAMES player_total=$GAMES player_games=$GAMES" "$out"
if [ $(($(int "$(field light_wins "$out")") + $(int "$(field dark_wins "$out")"))) -eq "$GAMES" ]; then
  pass "light's and dark's wins add up to $GAMES ($(field light_wins "$out") + $(field dark_wins "$out"))"
else
  fail "light's and dark's wins add up to $GAMES" "$out"
fi

# 4. Three imports at once, their streams started together: A (through the
# first replica left) games G..G+499 as "concurrent-a/k", B (the second)
# G+100..G+599 as "concurrent-b/k" (400 games A has too, under other
# sources), C (through nginx) A's twin: A's games under A's sources.
a_count=$((EXTRA - 100))
rm -f "$tmp/start"
together=(--per "$PER" --start-file "$tmp/start")
"${CLIENT[@]}" import "${live[0]}" "$tmp/games.json" "$GAMES" "$a_count" concurrent-a "${together[@]}" \
  >"$tmp/a.out" 2>&1 &
client_pids=($!)
"${CLIENT[@]}" import "${live[1]}" "$tmp/games.json" $((GAMES + 100)) "$a_count" concurrent-b "${together[@]}" \
  >"$tmp/b.out" 2>&1 &
client_pids+=($!)
"${CLIENT[@]}" import "$lb" "$tmp/games.json" "$GAMES" "$a_count" concurrent-a "${together[@]}" >"$tmp/c.out" 2>&1 &
client_pids+=($!)
for _ in $(seq 1 600); do
  [ "$(cat "$tmp/a.out" "$tmp/b.out" "$tmp/c.out" | grep -c '^ready$')" -eq 3 ] && break
  sleep 0.1
done
touch "$tmp/start"
codes=""
for p in "${client_pids[@]}"; do wait "$p"; codes+=" $?"; done
client_pids=()
a="$(grep '^attempt ' "$tmp/a.out")" b="$(grep '^attempt ' "$tmp/b.out")" c="$(grep '^attempt ' "$tmp/c.out")"
echo "  A: $a"
echo "  B: $b"
echo "  C: $c"
sum() { echo $(($(field "$1" "$a") + $(field "$1" "$b") + $(field "$1" "$c"))); }
if [ "$codes" = " 0 0 0" ]; then
  pass "three imports at once (two replicas and nginx) all answered OK"
  latest_start="$(printf '%s\n' "$(field start "$a")" "$(field start "$b")" "$(field start "$c")" | sort -n | tail -n 1)"
  first_end="$(printf '%s\n' "$(field end "$a")" "$(field end "$b")" "$(field end "$c")" | sort -n | head -n 1)"
  if [ "$latest_start" -lt "$first_end" ]; then
    pass "the three streams ran at the same time (all open together for $((first_end - latest_start)) ms)"
  else
    fail "the three streams run at the same time" "the last started $((latest_start - first_end)) ms after the first ended"
  fi
  # 1500 (source, record) pairs sent, 1000 distinct (C's are A's), 600 games.
  got="added=$(sum added) new_sources=$(sum new_sources) known_sources=$(sum known_sources)"
  got+=" duplicates=$(sum duplicates) rejected=$(sum rejected)"
  expect "together they added each game once, each (source, record) once" \
    "added=$EXTRA new_sources=$((a_count - 100)) known_sources=$a_count duplicates=0 rejected=0" " $got"
else
  fail "three imports at once all answered OK" "exit codes$codes; $a; $b; $c"; show_logs
fi
out="$(client read "${live[1]}" 2>&1)"
total=$((GAMES + EXTRA))
expect "every game once after them: ListGames' total and the explorer's and player's counts" \
  "total=$total explore_games=$total explore_moves=$total player_total=$total player_games=$total" "$out"
out="$(client sources "${live[0]}" "$EXTRA" 2>&1)"
expect "their $EXTRA games: $((a_count - 100)) with both sources, none with more" \
  "games=$EXTRA records=$((2 * a_count)) two=$((a_count - 100)) most=2" "$out"
# 5. One stream longer than 16 MiB through nginx (its location for the
# client streams has no body limit; scribed bounds each message): every
# game stored so far again under new sources, and 1200 more.
more=$((total + 1200))
if "$SCRIBE" play --ruleset finkel --seed 1 --games "$more" >"$tmp/more.json" 2>"$tmp/play.log"; then
  mib=$(($(stat -c %s "$tmp/more.json") >> 20))
  out="$(client import "$lb" "$tmp/more.json" 0 "$more" whole-again --per "$PER" 2>&1)"
  expect "one stream of $mib MiB ($more games) through nginx: not cut at a body limit" \
    "code=OK records=$more added=1200 new_sources=$total known_sources=0 duplicates=0 rejected=0" "$out"
  [ "$mib" -gt 16 ] || fail "the long stream is longer than 16 MiB" "$mib MiB"
else
  fail "scribe play makes $more games" "$(cat "$tmp/play.log")"
fi
# 6. A replica told to stop while it waits for the schema lock (as behind
# another replica's migration: here a session of ours holds the lock)
# stops then, exit 0, having listened on no port. (On a new database: one
# whose schema is current is opened without the lock.)
sql "CREATE DATABASE late" >/dev/null
late_url="${url%/*}/late"
PGAPPNAME=scribe-test-schema "$PG_BIN/psql" -X -q "$late_url" \
  -c "BEGIN; SELECT pg_advisory_xact_lock($SCHEMA_LOCK); SELECT pg_sleep(120); COMMIT" >"$tmp/schema_lock.log" 2>&1 &
lock_pid=$!
held=""
for _ in $(seq 1 100); do
  held="$(sql "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
               WHERE a.application_name = 'scribe-test-schema' AND l.locktype = 'advisory' AND l.granted")"
  [ "$held" = 1 ] && break
  sleep 0.1
done
if [ "$held" = 1 ]; then
  "$SCRIBED" --listen 127.0.0.1:0 --db "$late_url" --db-open-writes >"$tmp/late.out" 2>"$tmp/late.log" &
  late_pid=$!
  pids+=("$late_pid")
  waiting=""
  for _ in $(seq 1 100); do
    waiting="$(sql "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")"
    [ "$waiting" = 1 ] && break
    sleep 0.1
  done
  if [ "$waiting" = 1 ]; then
    kill -TERM "$late_pid"
    stopped=""
    for _ in $(seq 1 50); do
      kill -0 "$late_pid" 2>/dev/null || { stopped=1; break; }
      sleep 0.1
    done
    if [ -n "$stopped" ]; then
      wait "$late_pid"
      code=$?
      if [ "$code" = 0 ] && grep -q 'before serving: stopped' "$tmp/late.log" && ! grep -q '^listening' "$tmp/late.out"; then
        pass "a replica waiting for the schema lock stops on SIGTERM within 5 s, exit 0, having served nothing"
      else
        fail "a replica stopped while waiting for the schema lock exits 0 unserved" \
          "exit $code; $(tail -n 3 "$tmp/late.log"); $(cat "$tmp/late.out")"
      fi
    else
      fail "a replica waiting for the schema lock stops within 5 s of SIGTERM" "$(tail -n 3 "$tmp/late.log")"
    fi
  else
    fail "a fourth replica waits for the schema lock our session holds" "$(tail -n 3 "$tmp/late.log")"
  fi
else
  fail "a session takes the schema lock" "$(cat "$tmp/schema_lock.log")"
fi
sql "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'scribe-test-schema'" >/dev/null
wait "$lock_pid" 2>/dev/null
lock_pid=""
errors=""
for i in 1 2 3; do
  [ "$i" -eq "$victim" ] && continue
  errors+="$(grep -E ' (ERROR|FATAL|WARNING) ' "$tmp/replica$i.log" | head -n 5 | sed "s/^/replica $i: /")"
done
if [ -z "$errors" ]; then pass "the replicas left logged no error"; else fail "the replicas left log no error" "$errors"; fi
finish
