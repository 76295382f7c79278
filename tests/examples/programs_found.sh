#!/bin/sh
# The example scripts take sqlmorph from $SQLMORPH, else from the checkout's build folder, else from
# PATH, and say how to get one when there is none (examples/lib/programs.sh). Shown with
# examples/judges/bird_judge.sh, run from a copy of the examples (a checkout with no build folder)
# on a one-question BIRD folder made here.
#
#   tests/examples/programs_found.sh SOURCE_DIR BUILD_DIR
set -eu
source_dir="$1"
build_dir="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

mkdir -p "$work/repo/examples" "$work/bird/schemas" "$work/bin"
cp -R "$source_dir/examples/judges" "$source_dir/examples/lib" "$work/repo/examples/"
script="$work/repo/examples/judges/bird_judge.sh"
cat >"$work/bird/mini_dev_sqlite.json" <<'JSON'
[{"question_id": 0, "db_id": "shop", "question": "How many items are there?", "evidence": "",
  "SQL": "SELECT count(*) FROM items", "difficulty": "simple"}]
JSON
echo "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);" >"$work/bird/schemas/shop.sql"

# The system's programs, without any sqlmorph.
base_path="/usr/local/bin:/usr/bin:/bin"
if PATH="$base_path" command -v sqlmorph >/dev/null 2>&1; then
  fail "a sqlmorph is installed in $base_path: this test needs a PATH without one"
fi
export FAKE_OPENAI="$build_dir/tests/fake_openai"
unset SQLMORPH

# run NAME PATH [VAR=VALUE]: bird_judge.sh with that PATH; its exit code in $status, its output in
# $work/NAME.out and $work/NAME.err.
run() {
  status=0
  env PATH="$2" ${3:+"$3"} sh "$script" "$work/bird" >"$work/$1.out" 2>"$work/$1.err" || status=$?
}

# 1. None anywhere: a message saying how to get one.
run none "$base_path"
[ "$status" = 2 ] || fail "without sqlmorph the script exits $status, not 2"
grep -qF "bird_judge.sh: no sqlmorph: set SQLMORPH to it, build it (make build: $work/repo/build/sqlmorph), or put it on PATH" \
  "$work/none.err" || fail "no message saying how to get sqlmorph: $(cat "$work/none.err")"

# 2. On PATH only (a link to this build's: it finds its plugins beside the file linked to).
ln -s "$build_dir/sqlmorph" "$work/bin/sqlmorph"
run path "$work/bin:$base_path"
[ "$status" = 0 ] || fail "with sqlmorph on PATH the script exits $status: $(cat "$work/path.err")"
grep -qF "How many items are there?" "$work/path.out" || fail "no question in: $(cat "$work/path.out")"
grep -qF "sql_correctness" "$work/path.out" || fail "no sql_correctness verdict in: $(cat "$work/path.out")"

# A sqlmorph that says it was the one called.
wrapper() {
  mkdir -p "$(dirname "$1")"
  printf '#!/bin/sh\necho %s >>"%s"\nexec "%s" "$@"\n' "$2" "$work/called" "$build_dir/sqlmorph" >"$1"
  chmod +x "$1"
}

# 3. The checkout's build folder before PATH.
wrapper "$work/repo/build/sqlmorph" build
run build "$work/bin:$base_path"
[ "$status" = 0 ] || fail "with build/sqlmorph the script exits $status: $(cat "$work/build.err")"
[ "$(cat "$work/called")" = build ] || fail "build/sqlmorph was not the one called"

# 4. $SQLMORPH before both.
wrapper "$work/chosen/sqlmorph" chosen
rm -f "$work/called"
run chosen "$work/bin:$base_path" "SQLMORPH=$work/chosen/sqlmorph"
[ "$status" = 0 ] || fail "with SQLMORPH the script exits $status: $(cat "$work/chosen.err")"
[ "$(cat "$work/called")" = chosen ] || fail "\$SQLMORPH was not the one called"

# 5. $SQLMORPH naming nothing is an error, not a fallback.
run wrong "$work/bin:$base_path" "SQLMORPH=$work/nothing/sqlmorph"
[ "$status" = 2 ] || fail "with SQLMORPH naming nothing the script exits $status, not 2"
grep -qF "bird_judge.sh: SQLMORPH=$work/nothing/sqlmorph is not a program" "$work/wrong.err" ||
  fail "no message about SQLMORPH: $(cat "$work/wrong.err")"
echo "bird_judge.sh found sqlmorph in \$SQLMORPH, build/ and PATH, in that order"
