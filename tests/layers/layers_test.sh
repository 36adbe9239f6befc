#!/usr/bin/env bash
# The layering of README.md's Layout table, checked.
#
#   layers_test.sh SOURCE_DIR CXX TARGETS_TSV
#   layers_test.sh --catches SOURCE_DIR CXX TARGETS_TSV
#
# TARGETS_TSV (written by CMake, tests/layers/CMakeLists.txt) has a line per
# target: name, folder, include directories, linked libraries (";"-lists).
# Without --catches: exit 0 when every target's include path reaches exactly
# the folders it may use, every library links only what it may use, and
# every #include in the tree names a folder its folder may use; else exit 1,
# each problem on a line of its own. With --catches: the same checks on an
# engine whose include path is the whole tree (as before the layers were
# enforced) and on a tree with an upward include must fail, naming them.
set -uo pipefail

catches=0
if [[ "${1:-}" == --catches ]]; then catches=1; shift; fi
src="$1" cxx="$2" tsv="$3"

# What each folder may use (README.md, Layout): folders of the tree, and
# "grpc" for gRPC and the service's protocol (grpcpp/, grpc/, google/rpc/,
# scribe/v1/scribe_service*, scribe/v1/game_database*). proto's scribe/v1/ruleset and record are
# every layer's and are not checked.
declare -A allowed=(
  [engine]="engine"
  [analysis]="analysis engine"
  [records]="records engine"
  [review]="review records engine"
  [games]="games review records engine"
  [storage]="storage games review records engine"
  [service]="service storage games review records analysis engine grpc"
  [cli]="cli storage games review records analysis engine"
  [bench]="bench storage games review records analysis engine grpc"
  [fuzz]="fuzz service storage games review records analysis engine grpc"
  [tests/common]="tests records engine"
  [tests/engine]="tests engine bench"
  [tests/analysis]="tests analysis engine"
  [tests/records]="tests records engine"
  [tests/review]="tests review records engine"
  [tests/service]="tests service storage games review records analysis engine grpc"
  [tests/games]="tests storage games review records engine"
  [tests/storage]="tests storage games review records engine"
  [tests/cli]="tests cli storage games review records analysis engine"
)
folders=(engine analysis records review games storage service cli bench fuzz tests)
scanned=(engine analysis records review games storage service cli bench fuzz tests/common tests/engine
         tests/analysis tests/records tests/review tests/service tests/games tests/storage tests/cli)

problems=0
problem() { echo "$1"; problems=$((problems + 1)); }

# The layer an include names, into $layer: a folder of the tree, "grpc", or
# nothing. (No subshells here and in scan_tree: a fork per include line is
# seconds on a busy machine.)
layer_of() {
  layer=""
  case "$1" in
    grpcpp/* | grpc/* | google/rpc/* | scribe/v1/scribe_service* | scribe/v1/game_database*) layer=grpc ;;
    */*) local top="${1%%/*}" f
         for f in "${folders[@]}"; do [[ "$f" == "$top" ]] && { layer="$top"; return; }; done ;;
  esac
}

contains() { local x; for x in $1; do [[ "$x" == "$2" ]] && return 0; done; return 1; }

# 1. Every #include "..." of the C++ files under ROOT, by the folder its
#    file is in.
scan_tree() {
  local root="$1" folder file line text inc layer rest
  local include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)"'
  # A folder with C++ files and no rule is a problem: say what it may use.
  while IFS= read -r file; do
    folder="${file#"$root"/}"; folder="${folder%/*}"
    if [[ "$folder" == tests/* ]]; then rest="${folder#tests/}"; folder="tests/${rest%%/*}"
    else folder="${folder%%/*}"; fi
    [[ -v "allowed[$folder]" ]] || problem "${file#"$root"/}: no layer rule for $folder/ (tests/layers/layers_test.sh)"
  done < <(find "$root" \( -path "$root/build*" -o -path "$root/.git" -o -path "$root/tests/data" -o -name node_modules \) -prune \
             -o \( -name '*.cc' -o -name '*.h' \) -type f -print)
  for folder in "${scanned[@]}"; do
    [[ -d "$root/$folder" ]] || continue
    while IFS=: read -r file line text; do
      [[ "$text" =~ $include_re ]] || continue
      inc="${BASH_REMATCH[1]}"
      if [[ "$inc" == ../* || "$inc" == */../* ]]; then
        problem "${file#"$root"/}:$line: #include \"$inc\" climbs out of its folder; include by folder (\"engine/rules.h\")"
        continue
      fi
      layer_of "$inc"
      [[ -z "$layer" ]] && continue
      contains "${allowed[$folder]}" "$layer" ||
        problem "${file#"$root"/}:$line: #include \"$inc\": $folder/ may not use $layer (may use: ${allowed[$folder]}; README.md, Layout)"
    done < <(grep -rnE --include='*.cc' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$root/$folder")
  done
}

# 2. What each target's include path reaches, and what it links.
check_target() {
  local target="$1" folder="$2" dirs="$3" links="$4" dir fixture out f reach expected lib layer
  fixture="$(mktemp -d)"
  {
    for f in "${folders[@]}"; do
      local header
      header="$(cd "$src" && ls "$f"/*.h "$f"/common/*.h 2>/dev/null | head -1)"
      [[ -n "$header" ]] || continue
      printf '#if __has_include("%s")\nreaches %s\n#endif\n' "$header" "$f"
    done
  } > "$fixture/reach.cc"
  local args=()
  IFS=';' read -ra list <<<"$dirs"
  for dir in "${list[@]}"; do [[ -n "$dir" ]] && args+=("-I$dir"); done
  if ! out="$("$cxx" -std=c++20 -E -P "${args[@]}" "$fixture/reach.cc" 2>&1)"; then
    problem "$target: the preprocessor failed: $out"
    rm -rf "$fixture"; return
  fi
  rm -rf "$fixture"
  reach="$(sed -n 's/^reaches //p' <<<"$out" | tr '\n' ' ')"
  for f in $reach; do
    contains "${allowed[$folder]}" "$f" ||
      problem "$target ($folder/): its include path reaches $f/, which $folder/ may not use (README.md, Layout)"
  done
  # Libraries and programs reach exactly what they may use; a test at
  # least its own folder's library and tests/ (positive controls: a check
  # that found nothing reachable would prove nothing).
  if [[ "$folder" == tests/* ]]; then expected="tests ${folder#tests/}"; else expected="${allowed[$folder]}"; fi
  for f in $expected; do
    [[ "$f" == grpc ]] && continue
    contains "$reach" "$f" || problem "$target ($folder/): its include path does not reach $f/, which it uses"
  done
  [[ "$links" == - ]] && return
  IFS=';' read -ra list <<<"$links"
  for lib in "${list[@]}"; do
    case "$lib" in
      scribe_engine) layer=engine ;; scribe_analysis) layer=analysis ;; scribe_records) layer=records ;;
      scribe_review) layer=review ;; scribe_service) layer=service ;;
      scribe_games) layer=games ;; scribe_storage) layer=storage ;;
      scribe_service_proto | scribe_health_proto | gRPC::*) layer=grpc ;;
      *) continue ;;
    esac
    contains "${allowed[$folder]}" "$layer" ||
      problem "$target ($folder/): links $lib, a layer $folder/ may not use (README.md, Layout)"
  done
}

check_targets() {
  local target folder dirs links
  while IFS=$'\t' read -r target folder dirs links; do
    [[ -n "$target" ]] && check_target "$target" "$folder" "$dirs" "$links"
  done
}

if (( ! catches )); then
  [[ -s "$tsv" ]] || { echo "no targets in $tsv"; exit 1; }
  scan_tree "$src"
  check_targets < "$tsv"
  echo "$problems problem(s)"
  (( problems == 0 ))
  exit
fi

# --catches: each broken input must give exactly the problems expected.
failed=0
expect() {  # NAME PATTERN OUTPUT
  if grep -qF -- "$2" <<<"$3"; then echo "ok: $1"; else echo "FAIL: $1: no \"$2\" in:"; echo "$3"; failed=1; fi
}
tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/engine" "$tree/records" "$tree/review" "$tree/tests/engine"
printf '#include "engine/rules.h"\n' > "$tree/records/ok.h"
printf '// An upward include.\n#include "engine/rules.h"\n#include "records/formats.h"\n' > "$tree/engine/bad.h"
printf '#include "grpcpp/grpcpp.h"\n' > "$tree/review/grpc.cc"
printf '#include "../records/formats.h"\n' > "$tree/tests/engine/up.cc"
out="$(problems=0; scan_tree "$tree"; echo "$problems problem(s)")"
expect "an upward include, by file and line" \
  'engine/bad.h:3: #include "records/formats.h": engine/ may not use records' "$out"
expect "gRPC below the service" 'review/grpc.cc:1: #include "grpcpp/grpcpp.h": review/ may not use grpc' "$out"
expect "a relative include" 'tests/engine/up.cc:1: #include "../records/formats.h" climbs out' "$out"
expect "nothing else" "3 problem(s)" "$out"
mkdir -p "$tree/newlib" && touch "$tree/newlib/x.cc"
out="$(problems=0; scan_tree "$tree")"
expect "a folder with no rule" "newlib/x.cc: no layer rule for newlib/" "$out"
# The engine as it was built before: the whole tree on its include path,
# and an engine that links records.
out="$(problems=0; check_target scribe_engine engine "$src" "scribe_proto;scribe_records")"
expect "the whole tree on the engine's include path" \
  "scribe_engine (engine/): its include path reaches records/, which engine/ may not use" "$out"
expect "the engine linking records" "scribe_engine (engine/): links scribe_records" "$out"
out="$(problems=0; check_target scribe_review review "$tree" "-")"
expect "a library that reaches nothing" "scribe_review (review/): its include path does not reach review/" "$out"
exit $failed
