# Sourced by the example scripts: where the sqlmorph programs are, so that each script works with
# a sqlmorph built in the checkout or installed.
#
# find_sqlmorph BUILD_DIR: sets `sqlmorph` to $SQLMORPH when it is set (a path, or a command on
# PATH), else to BUILD_DIR/sqlmorph when it was built there, else to `sqlmorph` on PATH; stops the
# script (exit 2) saying how to get one when there is none.
find_sqlmorph() {
  if [ -n "${SQLMORPH:-}" ]; then
    sqlmorph="$(program_path "$SQLMORPH")" || {
      echo "$(basename "$0"): SQLMORPH=$SQLMORPH is not a program" >&2
      exit 2
    }
  elif [ -f "$1/sqlmorph" ] && [ -x "$1/sqlmorph" ]; then
    sqlmorph="$1/sqlmorph"
  else
    sqlmorph="$(program_path sqlmorph)" || {
      echo "$(basename "$0"): no sqlmorph: set SQLMORPH to it, build it (make build: $1/sqlmorph)," \
        "or put it on PATH" >&2
      exit 2
    }
  fi
}

# find_sqlmorph_load: after find_sqlmorph, sets `sqlmorph_load` to $SQLMORPH_LOAD when it is set,
# else to the sqlmorph-load beside sqlmorph, else to sqlmorph-load on PATH; stops the script when
# there is none.
find_sqlmorph_load() {
  if [ -n "${SQLMORPH_LOAD:-}" ]; then
    sqlmorph_load="$(program_path "$SQLMORPH_LOAD")" || {
      echo "$(basename "$0"): SQLMORPH_LOAD=$SQLMORPH_LOAD is not a program" >&2
      exit 2
    }
  else
    sqlmorph_load="$(program_path "$(dirname "$sqlmorph")/sqlmorph-load")" ||
      sqlmorph_load="$(program_path sqlmorph-load)" || {
      echo "$(basename "$0"): no sqlmorph-load beside $sqlmorph nor on PATH: set SQLMORPH_LOAD to it" >&2
      exit 2
    }
  fi
}

# program_path NAME_OR_PATH: the program it names (a file that can be run, or a command on PATH);
# fails when there is none.
program_path() {
  case "$1" in
    */*) [ -f "$1" ] && [ -x "$1" ] && printf '%s\n' "$1" ;;
    *) command -v "$1" 2>/dev/null ;;
  esac
}
