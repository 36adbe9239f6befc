# Shared by the command-line test scripts (source it): a scratch directory
# $TMP removed at exit, pass, fail and skip counters, and the checks.
#   check NAME EXPECTED_EXIT PATTERN -- COMMAND...
#   absent NAME EXPECTED_EXIT PATTERN -- COMMAND...
#   produce NAME FILE -- COMMAND...
#   equal NAME A B
#   skip NAME REASON
#   finish        (prints the counts; exit status 0 only if nothing failed,
#                  SKIPPED (77) if nothing failed but a check was skipped)
# A test that sources this sets SKIP_RETURN_CODE 77 in tests/e2e/CMakeLists.txt,
# so ctest reports a run that skipped a check as skipped, not passed.
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
skipped=0
SKIPPED=77

# ran NAME EXPECTED_EXIT COMMAND...: runs the command with stdout+stderr
# into the caller's `out`; when its exit is not EXPECTED_EXIT, says so,
# counts a failure and returns 1.
ran() {
  local name="$1" want="$2"
  shift 2
  out="$("$@" 2>&1)"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $name: exit $rc, wanted $want"; echo "$out" | head -20; failed=$((failed + 1)); return 1
  fi
}

# check NAME EXPECTED_EXIT PATTERN -- COMMAND...: runs the command, checks
# the exit code and that stdout+stderr match the extended regex PATTERN.
check() {
  local name="$1" want="$2" pattern="$3"
  shift 4
  local out
  ran "$name" "$want" "$@" || return
  if [ -n "$pattern" ] && ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAIL $name: output does not match /$pattern/"; echo "$out" | head -20; failed=$((failed + 1)); return
  fi
  echo "ok   $name"
  passed=$((passed + 1))
}

# absent NAME EXPECTED_EXIT PATTERN -- COMMAND...: runs the command, checks
# the exit code and that no line of stdout+stderr matches the extended regex
# PATTERN. The exit code is what makes "absent" mean something: a command
# that failed has printed nothing, and so nothing that matches.
absent() {
  local name="$1" want="$2" pattern="$3"
  shift 4
  local out
  ran "$name" "$want" "$@" || return
  if grep -Eaq -- "$pattern" <<<"$out"; then
    echo "FAIL $name: output matches /$pattern/"; grep -Ea -- "$pattern" <<<"$out" | head -5; failed=$((failed + 1)); return
  fi
  echo "ok   $name"
  passed=$((passed + 1))
}

# produce NAME FILE -- COMMAND...: runs the command with its standard output
# into FILE and checks that it exits 0 (standard error is shown on failure).
# Checks of FILE that follow then test what a command that worked wrote.
# Returns the command's exit status.
produce() {
  local name="$1" file="$2"
  shift 3
  local rc
  "$@" > "$file" 2> "$TMP/produce.err"
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAIL $name: exit $rc, wanted 0"; head -20 "$TMP/produce.err"; failed=$((failed + 1)); return "$rc"
  fi
  echo "ok   $name"
  passed=$((passed + 1))
}

# equal NAME A B: two numbers (or strings) are the same.
equal() {
  if [ "$2" = "$3" ]; then
    echo "ok   $1"; passed=$((passed + 1))
  else
    echo "FAIL $1: '$2' != '$3'"; failed=$((failed + 1))
  fi
}

# skip NAME REASON: a check that cannot run here; the run ends as skipped.
skip() {
  echo "SKIP $1: $2"
  skipped=$((skipped + 1))
}

finish() {
  if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
  else
    echo "$passed passed, $failed failed"
  fi
  [ "$failed" -eq 0 ] || return 1
  [ "$skipped" -eq 0 ] || exit "$SKIPPED"
}
