#!/bin/sh
# examples/bird/three_dialects.sh end to end: BIRD mini-dev's empty databases in SQLite, PostgreSQL
# and MariaDB (servers of its own), and every gold query of each dialect binds on its engine.
#
#   tests/examples/bird_three_dialects.sh SOURCE_DIR BUILD_DIR
set -eu
source_dir="$1"
build_dir="$2"
bird="$source_dir/../shared/benchmarks/bird-minidev"
. "$source_dir/tests/support/require_shared.sh"
require_shared "$bird/mini_dev_mysql.json" "BIRD mini-dev"
out="$(BUILD_DIR="$build_dir" "$source_dir/examples/bird/three_dialects.sh" "$bird")"
echo "$out"
for line in "sqlite     on sqlite gold         500/500 bind" "postgresql on pg     gold         500/500 bind" \
            "mysql      on maria  gold         500/500 bind" "sqlite     on sqlite gpt-4-turbo" \
            "postgresql on pg     gpt-4-turbo" \
            "  gold-sqlite              binds 500/500" "  gold-postgresql          binds 500/500" \
            "  gold-mysql               binds 500/500" "  gold-mysql               execution_accuracy: ok=500"; do
  if ! printf '%s\n' "$out" | grep -qF "$line"; then
    echo "FAIL: expected a line starting '$line'" >&2
    exit 1
  fi
done
echo "every gold query of the three dialects binds on its engine"
