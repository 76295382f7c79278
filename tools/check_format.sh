#!/usr/bin/env bash
# Fails (exit 1) when a tracked C++ file is not formatted as .clang-format says; lists those files.
# `make format` applies the formatting.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check_format: clang-format is missing (Debian package clang-format)" >&2; exit 1; }
bad=()
while IFS= read -r f; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(git ls-files '*.cpp' '*.hpp' '*.h')
if ((${#bad[@]})); then
  echo "these files are not clang-formatted (run: make format):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check_format: every C++ file is formatted"
