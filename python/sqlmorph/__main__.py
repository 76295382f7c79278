"""``python3 -m sqlmorph ARGS``: the sqlmorph command of this installation, with ARGS."""

import os
import sys

from . import home


def main() -> None:
    exe = home / "sqlmorph"
    if not exe.is_file():
        sys.exit(f"sqlmorph: the executable is not at {exe}")
    os.execv(str(exe), [str(exe)] + sys.argv[1:])


if __name__ == "__main__":
    main()
