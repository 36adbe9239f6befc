#!/usr/bin/env bash
# A folder's walk (validate and review): each entry it cannot take is
# reported by its own path, in the text and in the JSON report, and the walk
# goes on; which files it takes (*.tsn, *.json, *.rgn); a folder of RoyalUr
# exports checked in one command (--ruleset for the RGN games, a JSON game of
# other settings is a ruleset-conflict naming both).
# Usage: folder_walk_cli_test.sh SCRIBE_BINARY DATA_DIR EXAMPLES_DIR
set -uo pipefail
SCRIBE="$1"
DATA="$2"
EXAMPLES="$3"
source "$(dirname "$0")/cli_check.sh"
GAME="$EXAMPLES/finkel-game.json"

# Bad entries between good files, in a subfolder and beside it.
W="$TMP/games"
mkdir -p "$W/a" "$W/b"
cp "$GAME" "$W/a/1-game.json"
cp "$GAME" "$W/b/z-last.json"
cp "$GAME" "$W/a/notes.txt"
ln -s nowhere.json "$W/a/dangling.json"
ln -s loop2.tsn "$W/a/loop1.tsn"
ln -s loop1.tsn "$W/a/loop2.tsn"
mkfifo "$W/a/pipe.tsn"
ln -s ../b "$W/a/link-to-folder"
ln -s nowhere "$W/a/dangling.txt"   # not a record file's name: left alone
check "validate: a dangling link is named by its own path" 2 \
  "^scribe: $W/a/dangling.json: a dangling symbolic link \(to nowhere.json" -- "$SCRIBE" validate "$W"
check "validate: a loop of links is named by its own path" 2 \
  "^scribe: $W/a/loop1.tsn: a loop of symbolic links" -- "$SCRIBE" validate "$W"
check "validate: a FIFO is named, not read (the walk would hang)" 2 \
  "^scribe: $W/a/pipe.tsn: a FIFO, not a record file" -- "$SCRIBE" validate "$W"
check "validate: the walk goes on past them" 2 "^$W/b/z-last.json: ok$" -- "$SCRIBE" validate "$W"
check "validate: files before them are checked too" 2 "^$W/a/1-game.json: ok$" -- "$SCRIBE" validate "$W"
out="$("$SCRIBE" validate "$W" 2>&1)"
equal "validate: other names and links to folders are left alone" \
  "$(grep -c -e notes.txt -e dangling.txt -e link-to-folder <<<"$out")" 0
json="$("$SCRIBE" validate --format=json "$W" 2>/dev/null)"
reports="$(/usr/bin/python3 -c '
import json, sys
for f in json.loads(sys.stdin.read())["files"]:
    print(f["file"].rsplit("/", 1)[1], f["valid"], ",".join(x["code"] for x in f.get("findings", [])))
' <<<"$json")"
equal "validate --format=json: one file report per entry, bad ones with file-unreadable" "$(echo $reports)" \
  "1-game.json True dangling.json False file-unreadable loop1.tsn False file-unreadable loop2.tsn False file-unreadable pipe.tsn False file-unreadable z-last.json True"
check "validate --format=json: the message names the entry" 2 \
  "\"file\":\"$W/a/dangling.json\",\"valid\":false,\"findings\":\[\{\"code\":\"file-unreadable\",\"message\":\"$W/a/dangling.json: a dangling" \
  -- "$SCRIBE" validate --format=json "$W"
check "review: a bad entry is named by its own path" 2 "^scribe: $W/a/loop2.tsn: a loop of symbolic links" \
  -- "$SCRIBE" review "$W"
check "review: the walk goes on, the games found are reviewed" 2 "2 games" -- "$SCRIBE" review "$W"

# A subfolder that cannot be read: chmod 000 does not stop root, so as root
# the command runs as nobody (setpriv). Whether this can become that user,
# and that user run scribe here, is tried first; when not (no setpriv, no
# such user, a system whose folders only root may search), the three checks
# are reported to ctest as skipped (exit 77, SKIP_RETURN_CODE), with why.
U="$TMP/unreadable"
mkdir -p "$U/locked" "$U/open"
cp "$GAME" "$U/locked/x.json"
cp "$GAME" "$U/open/y.json"
as_user=()
skip_reason=""
if [ "$(id -u)" -eq 0 ]; then
  chmod 755 "$TMP"
  as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  if ! command -v setpriv >/dev/null; then
    skip_reason="running as root, and no setpriv to run scribe as nobody"
  elif ! out="$("${as_user[@]}" true 2>&1)"; then
    skip_reason="running as root, and cannot run a program as nobody: ${out:-no message}"
  elif ! out="$("${as_user[@]}" "$SCRIBE" validate "$U/open/y.json" 2>&1)"; then
    skip_reason="running as root, and nobody cannot run $SCRIBE validate on a file in the scratch folder $TMP: $out"
  fi
fi
chmod 000 "$U/locked"
if [ -n "$skip_reason" ]; then
  echo "skip an unreadable subfolder (3 checks): $skip_reason"
else
  check "validate: an unreadable subfolder is named, not its parent" 2 \
    "^scribe: $U/locked: cannot read the folder: Permission denied" -- "${as_user[@]}" "$SCRIBE" validate "$U"
  check "validate: the walk goes on past an unreadable subfolder" 2 "^$U/open/y.json: ok$" \
    -- "${as_user[@]}" "$SCRIBE" validate "$U"
  check "validate --format=json: an unreadable subfolder is a file report, not {}" 2 \
    "^\{\"files\":\[\{\"file\":\"$U/locked\",\"valid\":false,\"findings\":\[\{\"code\":\"file-unreadable\"" \
    -- "${as_user[@]}" "$SCRIBE" validate --format=json "$U"
fi
chmod 755 "$U/locked"

# Which files a walk takes: *.tsn, *.json and *.rgn (as the docs say).
R="$TMP/royalur"
mkdir -p "$R/finkel" "$R/mixed"
cp "$DATA/royalur/finkel-1.json" "$DATA/royalur/finkel-1.rgn" "$DATA/royalur/finkel-2.rgn" "$R/finkel/"
cp "$DATA/royalur/finkel-1.json" "$DATA/royalur/finkel-1.rgn" "$DATA/royalur/aseb-1.json" "$DATA/royalur/aseb-1.rgn" \
  "$R/mixed/"
check "a walk takes .rgn files" 1 "^$R/finkel/finkel-2.rgn:.*ruleset-missing" -- "$SCRIBE" validate "$R/finkel"

# A folder of RoyalUr exports, RGN and RoyalUr JSON together, in one command.
check "RoyalUr exports of one ruleset: one command, all ok" 0 "^$R/finkel/finkel-2.rgn: ok$" \
  -- "$SCRIBE" validate --ruleset finkel "$R/finkel"
out="$("$SCRIBE" validate --ruleset finkel "$R/finkel" 2>&1)"
equal "RoyalUr exports of one ruleset: every file ok" "$(grep -c ': ok$' <<<"$out")" 3
check "--ruleset against a RoyalUr JSON game's own settings: a finding naming both" 1 \
  "^$R/mixed/aseb-1.json:[0-9:]* error\[ruleset-conflict\]: the record's ruleset \"sawah-tablet\" .* is not the ruleset given, \"finkel\"" \
  -- "$SCRIBE" validate --ruleset finkel "$R/mixed"
check "--ruleset the same rules as the JSON's settings (an alias): no conflict" 0 "^$R/mixed/aseb-1.json: ok$" \
  -- "$SCRIBE" validate --ruleset aseb "$R/mixed/aseb-1.json" "$R/mixed/aseb-1.rgn"
out="$("$SCRIBE" validate --ruleset finkel "$R/mixed/aseb-1.json" 2>&1)"
equal "a conflicting game is judged by its own settings (no move-illegal under finkel's)" \
  "$(grep -c 'move-illegal' <<<"$out")" 0
check "--ruleset against our JSON's own ruleset: a finding" 1 \
  "error\[ruleset-conflict\]: the record's ruleset \"finkel\" .* is not the ruleset given, \"masters\"" \
  -- "$SCRIBE" validate --ruleset masters "$GAME"
check "--ruleset against a TSN Ruleset tag: a finding" 1 "error\[ruleset-conflict\]" \
  -- bash -c "\"$SCRIBE\" convert --to tsn \"$GAME\" | \"$SCRIBE\" validate --ruleset masters -"
finish || exit 1
# All that ran passed; a run that skipped checks says so to ctest.
if [ -n "$skip_reason" ]; then
  echo "skipped: an unreadable subfolder's 3 checks ($skip_reason)"
  exit 77
fi
