#!/bin/sh
# A plugin built outside the source tree, the way docs/plugin-authoring.md says: install sqlmorph
# into a temporary prefix, build examples/plugins/columns_folded there from a three-line
# CMakeLists.txt with find_package(sqlmorph), and load it into that installed sqlmorph.
# Usage: build_and_load.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
source=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/sqlmorph-out-of-tree.XXXXXX")
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log"; echo "FAIL: cmake --install failed"; exit 1; }

mkdir "$work/plugin"
cp "$source/examples/plugins/columns_folded/folded_names.cpp" "$work/plugin/"
cat > "$work/plugin/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(my_plugin CXX)
find_package(sqlmorph REQUIRED)
sqlmorph_add_plugin(columns_folded SOURCES folded_names.cpp)
CMAKE
cmake -S "$work/plugin" -B "$work/plugin/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; echo "FAIL: configuring the plugin with find_package(sqlmorph) failed"; exit 1; }
cmake --build "$work/plugin/build" > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; echo "FAIL: building the plugin failed"; exit 1; }
so="$work/plugin/build/sqlmorph_columns_folded.so"
[ -f "$so" ] || { echo "FAIL: $so was not built"; exit 1; }

# The installed sqlmorph loads it (its own plugins and this one), and refuses nothing.
printf '[plugins]\ndirs = ["%s", "%s"]\n' "$work/prefix/lib/sqlmorph/plugins" "$work/plugin/build" > "$work/sqlmorph.toml"
"$work/prefix/bin/sqlmorph" --config "$work/sqlmorph.toml" plugins --json > "$work/plugins.json"
python3 - "$work/plugins.json" "$so" <<'PY'
import json, sys
listing = json.load(open(sys.argv[1]))
refused = listing["refused"]
if refused:
    sys.exit("FAIL: refused: %s" % refused)
mine = [c for c in listing["components"] if c["file"] == sys.argv[2]]
if not any(c["kind"] == "column_matcher" and c["name"] == "folded_names" for c in mine):
    sys.exit("FAIL: column_matcher folded_names from %s is not listed: %s" % (sys.argv[2], mine))
if not any(c["kind"] == "backend" and c["name"] == "sqlite" for c in listing["components"]):
    sys.exit("FAIL: the installed plugins are not listed")
print("ok: folded_names loaded from", sys.argv[2])
PY
