# Shared by the command-line test scripts (source it): a scratch directory
# $TMP removed at exit, pass and fail counters, and the checks.
#   check NAME EXPECTED_EXIT PATTERN -- COMMAND...
#   equal NAME A B
#   finish        (prints the counts; exit status 0 only if nothing failed)
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

# check NAME EXPECTED_EXIT PATTERN -- COMMAND...: runs the command, checks
# the exit code and that stdout+stderr match the extended regex PATTERN.
check() {
  local name="$1" want="$2" pattern="$3"
  shift 4
  local out rc
  out="$("$@" 2>&1)"
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $name: exit $rc, wanted $want"; echo "$out" | head -20; failed=$((failed + 1)); return
  fi
  if [ -n "$pattern" ] && ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAIL $name: output does not match /$pattern/"; echo "$out" | head -20; failed=$((failed + 1)); return
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

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
