#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) into build-fuzz with clang++-14,
# AddressSanitizer and UndefinedBehaviorSanitizer, then:
#  1. replays every saved finding in fuzz/regressions/<target>/;
#  2. runs every target for SECONDS (default 60) over a copy of its seed
#     corpus fuzz/corpus/<target>/ (the committed corpus never grows), two
#     targets at a time.
# Exits 1 on any finding, printing the input's path; 0 when nothing broke.
# The table at the end gives, per target: executions, executions per
# second, coverage (cov, ft), the corpus before and after (files), the CPU
# seconds it had (on a shared machine, less than SECONDS) and its peak RSS.
#
#   scripts/fuzz.sh [SECONDS]
#   scripts/fuzz.sh --build   # configure and build all of build-fuzz (the
#                             # unit tests too, scripts/test.sh runs them
#                             # there: one sanitizer build serves both), stop
# Environment: FUZZ_JOBS (targets at a time, default 2), FUZZ_TARGETS
# (space-separated names, default all), FUZZ_RUN_DIR (where each target's
# log, grown corpus and findings go; default build-fuzz/fuzz-run, emptied
# first), FUZZ_NICE (niceness of the fuzzers, default 0).
#
# A long run whose grown corpus is kept in its run folder:
#   FUZZ_RUN_DIR=/tmp/fuzz-long FUZZ_NICE=10 scripts/fuzz.sh 1800
set -euo pipefail
set -E  # the ERR trap in functions and subshells too: a failing step says what failed
trap 'rc=$?; echo "fuzz.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")/.."
seconds="${1:-60}"
build_only=0
if [ "$seconds" = --build ]; then
  build_only=1
elif ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: scripts/fuzz.sh [SECONDS | --build]" >&2
  exit 2
fi
parallel="${FUZZ_JOBS:-2}"
build=build-fuzz
run_dir="${FUZZ_RUN_DIR:-$build/fuzz-run}"
niceness="${FUZZ_NICE:-0}"

# Assertions stay on (no -DNDEBUG): they are checks the fuzzer can trip,
# and the unit tests built here run with them.
source scripts/ccache_env.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${SCRIBE_LAUNCHER[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" -DCMAKE_CXX_COMPILER=clang++-14 \
  -DSCRIBE_FUZZ=ON -DSCRIBE_SANITIZE=ON -DSCRIBE_TESTS=ON -DSCRIBE_BENCHMARKS=OFF >/dev/null
if [ "$build_only" = 1 ]; then
  cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)"
  exit 0
fi
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target fuzz_targets

if [ -n "${FUZZ_TARGETS:-}" ]; then
  read -r -a targets <<<"$FUZZ_TARGETS"
else
  mapfile -t targets <"$build/fuzz/fuzz_targets.txt"
fi

export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
rm -rf "$run_dir"
mkdir -p "$run_dir"
failed=0

# 1. Saved findings: each must now pass.
for t in "${targets[@]}"; do
  dir="fuzz/regressions/$t"
  [ -d "$dir" ] || continue
  mapfile -t inputs < <(find "$dir" -type f ! -name '*.md' | sort)
  [ ${#inputs[@]} -gt 0 ] || continue
  for input in "${inputs[@]}"; do
    if ! "$build/fuzz/$t" "$input" >"$run_dir/regression.log" 2>&1; then
      echo "fuzz: $t: the saved finding $input still fails:" >&2
      grep -E -A12 "PROPERTY BROKEN|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error" \
        "$run_dir/regression.log" | head -40 >&2 || tail -20 "$run_dir/regression.log" >&2
      failed=1
    fi
  done
  echo "fuzz: $t: ${#inputs[@]} saved finding(s) replayed"
done

# 2. Fuzzing, `parallel` targets at a time.
fuzz_one() {
  local t="$1" dir="$run_dir/$1"
  mkdir -p "$dir/corpus" "$dir/findings"
  cp -r "fuzz/corpus/$t/." "$dir/corpus/"
  local dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=("-dict=fuzz/dict/$t.dict")
  find "$dir/corpus" -type f | wc -l >"$dir/corpus-start"
  local rc=0
  local timer=()
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -o "$dir/time" -f "%U %S %M")
  nice -n "$niceness" "${timer[@]}" "$build/fuzz/$t" "$dir/corpus" "${dict[@]}" -max_total_time="$seconds" -max_len=65536 \
    -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 -artifact_prefix="$dir/findings/" \
    >"$dir/log" 2>&1 || rc=$?
  echo "$rc" >"$dir/rc"
  find "$dir/corpus" -type f | wc -l >"$dir/corpus-end"
}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  echo "fuzz: $t: ${seconds}s"
  fuzz_one "$t" &
done
wait

printf '%-24s %10s %8s %6s %6s %11s %6s %7s %s\n' target execs exec/s cov ft corpus cpu-s rss-mb result
for t in "${targets[@]}"; do
  dir="$run_dir/$t"
  rc="$(cat "$dir/rc" 2>/dev/null || echo missing)"
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log")"
  last="$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$dir/log" | tail -1 || true)"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")"
  corpus="$(cat "$dir/corpus-start" 2>/dev/null || echo ?)->$(cat "$dir/corpus-end" 2>/dev/null || echo ?)"
  cpu=? rss=?
  if [ -s "$dir/time" ]; then
    read -r user sys kb < <(tail -1 "$dir/time")
    cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", u + s }')"
    rss="$(( kb / 1024 ))"
  fi
  result=ok
  [ "$rc" = 0 ] || result="FAILED (exit $rc)"
  printf '%-24s %10s %8s %6s %6s %11s %6s %7s %s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" \
    "$corpus" "$cpu" "$rss" "$result"
done
for t in "${targets[@]}"; do
  dir="$run_dir/$t"
  [ "$(cat "$dir/rc" 2>/dev/null || echo missing)" = 0 ] && continue
  failed=1
  echo >&2
  echo "fuzz: $t found a problem (log: $dir/log):" >&2
  grep -E -A14 "PROPERTY BROKEN|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error" \
    "$dir/log" | head -50 >&2 || tail -30 "$dir/log" >&2
  for input in "$dir"/findings/*; do
    [ -e "$input" ] || continue
    echo "fuzz: $t: input: $(realpath "$input")" >&2
    echo "  keep it: cp '$(realpath "$input")' fuzz/regressions/$t/" >&2
  done
done
exit "$failed"
