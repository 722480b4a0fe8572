"""`python -m firmware_py.cli`: the `qwixx-tower` command where scripts and checks outside the
project have always called it; the command itself is `firmware_py/app/cli.py`."""

import sys

from firmware_py.app.cli import main

if __name__ == "__main__":
    sys.exit(main())
