# Sourced by the shell tests that read ../shared (the public benchmarks beside the checkout).
#
# require_shared PATH WHAT: returns when PATH exists; otherwise the test fails when
# SQLMORPH_REQUIRE_SHARED=1 (as CI runs it) and is skipped otherwise (CTest's SKIP_REGULAR_EXPRESSION
# matches SQLMORPH-SKIP), naming WHAT is missing.
require_shared() {
  [ -e "$1" ] && return 0
  if [ "${SQLMORPH_REQUIRE_SHARED:-}" = "1" ]; then
    echo "FAIL: ../shared is required (SQLMORPH_REQUIRE_SHARED=1) but missing" >&2
    exit 1
  fi
  echo "SQLMORPH-SKIP: ../shared ($2) is not next to the checkout"
  exit 0
}
