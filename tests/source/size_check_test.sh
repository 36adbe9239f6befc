#!/usr/bin/env bash
# The size check (scripts/check_sizes.py): the tree passes it with its
# allow-list, and on a tree made here it finds each file and function over
# its limit (and none at the limit), whatever braces hide in strings and
# comments, and an allow-list entry that matches nothing.
# Usage: size_check_test.sh ROOT
set -uo pipefail
ROOT="$(realpath "$1")"
CHECK="$ROOT/scripts/check_sizes.py"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
failed=0

out="$(python3 "$CHECK" "$ROOT" 2>&1)"
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "FAIL: the tree is over the size limits (exit $rc); split the code, or name the exception and why in scripts/size_allowlist.txt:"
  echo "$out"
  failed=1
else
  echo "ok: the tree is within the size limits"
fi

# lines N: N lines of statements.
lines() { for ((i = 0; i < $1; ++i)); do echo "  x += $i;"; done; }
mkdir -p "$TMP/cli" "$TMP/service" "$TMP/engine" "$TMP/tests"
{ echo "int x;"; lines 299; } > "$TMP/cli/at_limit.cc"        # 300 lines
{ echo "int x;"; lines 300; } > "$TMP/service/over.cc"        # 301 lines
{ echo "int x;"; lines 400; } > "$TMP/engine/long_file.cc"    # files outside cli/ and service/ may be long
{
  echo 'namespace scribe {'
  echo 'namespace {'
  echo 'int AtLimit(int x) {'; lines 98; echo '}'                 # 100 lines
  echo 'const char* kBraces = "}}}";  // }'
  echo 'int Over(int x) {'; lines 20; echo '  const char* s = R"(}})"; char c = '"'}'"';'; lines 78; echo '}'  # 101
  echo '/* } */'
  echo '}  // namespace'
  echo 'class Box : public Base {'
  echo ' public:'
  echo '  Box(int a) : a_(a), b_{a} {'; lines 100; echo '  }'      # 102
  echo '  int Small() const { return a_; }'
  echo ' private:'
  echo '  int a_, b_;'
  echo '};'
  echo 'const int kTable[] = {1, 2, 3};'
  echo 'int Box::Allowed() {'; lines 150; echo '}'
  echo '}  // namespace scribe'
} > "$TMP/engine/functions.cc"
{ echo 'TEST(Suite, LongTest) {'; lines 100; echo '}'; } > "$TMP/tests/some_test.cc"  # 102
cat > "$TMP/allow.txt" <<'ALLOW'
# comment
engine/functions.cc:Box::Allowed  a reason
cli/gone.cc  a file that shrank
ALLOW
expected="engine/functions.cc:104 Over: 101 lines, more than 100
engine/functions.cc:209 Box::Box: 102 lines, more than 100
service/over.cc: 301 lines, more than 300
tests/some_test.cc:1 TEST(Suite, LongTest): 102 lines, more than 100
cli/gone.cc: on the allow-list (a file that shrank) but within the limit or gone: take it off"
out="$(python3 "$CHECK" "$TMP" "$TMP/allow.txt" 2>&1)"
rc=$?
if [ "$rc" -eq 1 ] && [ "$out" = "$expected" ]; then
  echo "ok: a made tree's violations and stale entry are each named, and the check fails"
else
  echo "FAIL: on a made tree, expected exit 1 and:"
  echo "$expected"
  echo "got exit $rc and:"
  echo "$out"
  failed=1
fi

# An entry without a reason is refused.
printf 'engine/functions.cc:Box::Allowed\n' > "$TMP/no_reason.txt"
out="$(python3 "$CHECK" "$TMP" "$TMP/no_reason.txt" 2>&1)"
rc=$?
if [ "$rc" -ne 0 ] && [[ "$out" == *"an entry is 'KEY  REASON' (two spaces), with a reason"* ]]; then
  echo "ok: an allow-list entry without a reason is refused"
else
  echo "FAIL: an entry without a reason: exit $rc, $out"
  failed=1
fi
exit "$failed"
