#!/usr/bin/env bash
# End-to-end tests of `scribe match --records` (docs/suggest.md, "The games
# as records"): the records written are legal games that scribe validate
# accepts, carry the tags (Event, Date, Light, Dark, Result), agree with the
# match's own tally, and the same seed writes the same file; bad names,
# dates and files are refused with a message.
# Usage: match_records_cli_test.sh SCRIBE_BINARY
set -uo pipefail
SCRIBE="$1"
source "$(dirname "$0")/cli_check.sh"

# --- the records ----------------------------------------------------------------
produce "match --records: 20 games" "$TMP/summary" -- \
  "$SCRIBE" match --ruleset finkel --light search:1 --dark random --games 20 --seed 7 --records "$TMP/a.tsn" \
  --light-name "Ann" --dark-name "Bo \"the\" bold" --event "Club night" --date 2026-02-27 --games-per-day 3
check "match --records: scribe validate accepts every game" 0 "a\.tsn: ok$" -- "$SCRIBE" validate "$TMP/a.tsn"
equal "match --records: a record per game" "$(grep -c '^\[TSN "1"\]$' "$TMP/a.tsn")" 20
equal "match --records: each with the event" "$(grep -c '^\[Event "Club night"\]$' "$TMP/a.tsn")" 20
equal "match --records: light's player" "$(grep -c '^\[Light "Ann"\]$' "$TMP/a.tsn")" 20
equal "match --records: dark's player, escaped as TSN does" "$(grep -c '^\[Dark "Bo \\"the\\" bold"\]$' "$TMP/a.tsn")" 20
equal "match --records: the ruleset and its digest" \
  "$(grep -c '^\[Digest "[0-9a-f]\{16\}"\]$' "$TMP/a.tsn") $(grep -c '^\[Ruleset "finkel"\]$' "$TMP/a.tsn")" "20 20"
# Three games a day from 27 February: the 27th, the 28th, 1 March, ...
equal "match --records: dates, three games a day over the month's end" \
  "$(grep '^\[Date ' "$TMP/a.tsn" | uniq -c | awk '{print $1 "x" $3}' | tr -d '"]' | paste -sd ' ')" \
  "3x2026-02-27 3x2026-02-28 3x2026-03-01 3x2026-03-02 3x2026-03-03 3x2026-03-04 2x2026-03-05"
# The Result tags are the match's tally (and validate checked them against
# the moves).
light_wins="$(awk '/^light / {print $3}' "$TMP/summary")"
equal "match --records: Result \"light\" as often as light won" "$(grep -c '^\[Result "light"\]$' "$TMP/a.tsn")" \
  "$light_wins"
equal "match --records: every game has a Result" "$(grep -c '^\[Result "\(light\|dark\)"\]$' "$TMP/a.tsn")" 20
# Who threw first alternates where the rules have no throw-off.
equal "match --records: who threw first alternates" \
  "$(grep '^\[First ' "$TMP/a.tsn" | head -4 | tr -d '[]"' | paste -sd ' ')" \
  "First light First dark First light First dark"
check "match --records: the summary is printed as without" 0 "^light search:1 +[0-9]+ wins " -- cat "$TMP/summary"

# Same seed, same file; another seed, other games.
produce "match --records: again" "$TMP/again" -- \
  "$SCRIBE" match --ruleset finkel --light search:1 --dark random --games 20 --seed 7 --records "$TMP/b.tsn" \
  --light-name "Ann" --dark-name "Bo \"the\" bold" --event "Club night" --date 2026-02-27 --games-per-day 3
check "match --records: same seed, same file" 0 "" -- cmp "$TMP/a.tsn" "$TMP/b.tsn"
check "match --records: same seed, same summary" 0 "" -- cmp "$TMP/summary" "$TMP/again"
produce "match --records: seed 8" "$TMP/other" -- \
  "$SCRIBE" match --ruleset finkel --light search:1 --dark random --games 20 --seed 8 --records "$TMP/c.tsn" \
  --light-name "Ann" --dark-name "Bo \"the\" bold" --event "Club night" --date 2026-02-27 --games-per-day 3
check "match --records: another seed, other games" 1 "" -- cmp -s "$TMP/a.tsn" "$TMP/c.tsn"
produce "match without --records" "$TMP/plain" -- "$SCRIBE" match --ruleset finkel --light search:1 --dark random \
  --games 20 --seed 7
check "match --records: the same games as without records" 0 "" -- cmp "$TMP/summary" "$TMP/plain"

# Defaults: the bots' strengths as names, "scribe match", no Date; one day
# a game.
produce "match --records: defaults" "$TMP/d.out" -- \
  "$SCRIBE" match --ruleset finkel --light heuristic --dark random --games 3 --records "$TMP/d.tsn"
check "match --records: defaults validate" 0 "d\.tsn: ok$" -- "$SCRIBE" validate "$TMP/d.tsn"
equal "match --records: default names and event" \
  "$(grep -E '^\[(Event|Light|Dark) ' "$TMP/d.tsn" | sort -u | paste -sd ' ')" \
  '[Dark "random"] [Event "scribe match"] [Light "heuristic"]'
equal "match --records: no --date, no Date tag" "$(grep -c '^\[Date ' "$TMP/d.tsn")" 0
produce "match --records: a day a game" "$TMP/e.out" -- \
  "$SCRIBE" match --ruleset finkel --light heuristic --dark random --games 3 --records "$TMP/e.tsn" --date 2024-02-28
equal "match --records: one day a game, a leap day" "$(grep '^\[Date ' "$TMP/e.tsn" | tr -d '[]"' | paste -sd ' ')" \
  "Date 2024-02-28 Date 2024-02-29 Date 2024-03-01"

# A throw-off where the rules have one: in the record, with its winner first.
produce "match --records: turnover" "$TMP/t.out" -- \
  "$SCRIBE" match --ruleset turnover --light heuristic --dark random --games 6 --records "$TMP/t.tsn"
check "match --records: turnover's records validate" 0 "t\.tsn: ok$" -- "$SCRIBE" validate "$TMP/t.tsn"
equal "match --records: every game's throw-off" "$(grep -c '^\[ThrowOff "[0-9 -]*"\]$' "$TMP/t.tsn")" 6

# --- refused ---------------------------------------------------------------------
check "match --records: a day not in the calendar" 2 \
  "^scribe: match: --date 2026-02-30: not a day of the calendar as YYYY-MM-DD" -- \
  "$SCRIBE" match --ruleset finkel --light random --dark random --games 2 --records "$TMP/x.tsn" --date 2026-02-30
check "match --records: a date in another form" 2 "^scribe: match: --date 2026\.03\.01: not a day" -- \
  "$SCRIBE" match --ruleset finkel --light random --dark random --games 2 --records "$TMP/x.tsn" --date 2026.03.01
check "match --records: past 9999" 2 "the last game would be after 9999-12-31" -- \
  "$SCRIBE" match --ruleset finkel --light random --dark random --games 2 --records "$TMP/x.tsn" --date 9999-12-31
check "match: --date needs --records" 2 "^--date requires --records" -- \
  "$SCRIBE" match --ruleset finkel --light random --dark random --games 2 --date 2026-03-01
check "match: --light-name needs --records" 2 "^--light-name requires --records" -- \
  "$SCRIBE" match --ruleset finkel --light random --dark random --games 2 --light-name Ann
check "match: --games-per-day needs --date" 2 "^--games-per-day requires --date" -- \
  "$SCRIBE" match --ruleset finkel --light random --dark random --games 2 --records "$TMP/x.tsn" --games-per-day 2
check "match --records: an empty name" 2 "^scribe: match: --dark-name: cannot be empty$" -- \
  "$SCRIBE" match --ruleset finkel --light random --dark random --games 2 --records "$TMP/x.tsn" --dark-name ""
check "match --records: a name that is not UTF-8" 2 "^scribe: match: --light-name: is not UTF-8 text$" -- \
  "$SCRIBE" match --ruleset finkel --light random --dark random --games 2 --records "$TMP/x.tsn" \
  --light-name "$(printf 'Ren\xe9')"
check "match --records: a file that cannot be written, said before playing" 2 \
  "^scribe: match: cannot write $TMP/no/such/dir/x\.tsn: No such file or directory$" -- \
  timeout 60 "$SCRIBE" match --ruleset finkel --light search:2 --dark search:2 --games 100000 \
  --records "$TMP/no/such/dir/x.tsn"
if [ -w /dev/full ]; then
  check "match --records: a full disk" 2 "^scribe: match: cannot write /dev/full: No space left on device$" -- \
    "$SCRIBE" match --ruleset finkel --light random --dark random --games 50 --records /dev/full
else
  skip "match --records: a full disk" "/dev/full is not writable here"
fi
finish
