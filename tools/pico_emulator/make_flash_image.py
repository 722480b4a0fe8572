"""A Pico's flash with the pad firmware on it, for an emulated Pico (rp2040js): a maintainer's
tool (README.md beside this file); nothing it makes is committed.

    python tools/pico_emulator/make_flash_image.py OUT [--micropython firmware.bin] [--source]

OUT is the 2 MB flash of a Raspberry Pi Pico: MicroPython's rp2 port (firmware.bin from
tools/build_rp2_firmware.py; the first 640 KB) and its filesystem, littlefs version 2, in the
last 1408 KB, as MicroPython's RPI_PICO board lays it out in v1.28 and the 1.29 preview
(MICROPY_HW_FLASH_STORAGE_BYTES; _boot.py mounts vfs.VfsLfs2(rp2.Flash(), progsize=256)).
The filesystem holds what `qwixx-tower pad install` would copy: the firmware compiled with
mpy-cross and the three-line main.py (or, with --source, the .py sources). Without
--micropython, OUT is the filesystem alone. Needs littlefs-python (pip install littlefs-python).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from littlefs import LittleFS

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from firmware_py.app import pad_install as padinstall  # noqa: E402

FLASH_BYTES = 2 * 1024 * 1024  # a Pico's W25Q16JV
STORAGE_BYTES = 1408 * 1024
STORAGE_OFFSET = FLASH_BYTES - STORAGE_BYTES  # 0xA0000
BLOCK = 4096  # the flash's erase sector
PROG_SIZE = 256  # _boot.py: VfsLfs2(bdev, progsize=256)
READ_SIZE = 32  # extmod/vfs_lfs.c: readsize's default
LOOKAHEAD = 32  # extmod/vfs_lfs.c: lookahead's default


def firmware_files(folder: Path, source: bool) -> list[Path]:
    if source:
        return padinstall.source_files()
    return padinstall.compile_firmware(folder, padinstall.compiler_for(6))


def filesystem(files: list[Path]) -> bytes:
    """A littlefs image of `files` at the root, as MicroPython's VfsLfs2 reads it."""
    fs = LittleFS(
        block_size=BLOCK,
        block_count=STORAGE_BYTES // BLOCK,
        prog_size=PROG_SIZE,
        read_size=READ_SIZE,
        lookahead_size=LOOKAHEAD,
    )
    for path in files:
        with fs.open(path.name, "wb") as target:
            target.write(path.read_bytes())
    image = bytes(fs.context.buffer)
    check = LittleFS(block_size=BLOCK, block_count=STORAGE_BYTES // BLOCK, mount=False)
    check.context.buffer[:] = image
    check.mount()
    assert sorted(check.listdir("/")) == sorted(p.name for p in files), check.listdir("/")
    return image


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--micropython", type=Path, help="the rp2 port's firmware.bin")
    parser.add_argument("--source", action="store_true", help="copy .py sources, not .mpy")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        files = firmware_files(Path(folder), args.source)
        storage = filesystem(files)
    if args.micropython is None:
        args.out.write_bytes(storage)
        print(f"{args.out}: littlefs of {len(files)} files, {len(storage)} bytes")
        return 0
    code = args.micropython.read_bytes()
    if len(code) > STORAGE_OFFSET:
        print(f"{args.micropython} is larger than {STORAGE_OFFSET} bytes", file=sys.stderr)
        return 2
    flash = bytearray(b"\xff" * FLASH_BYTES)
    flash[: len(code)] = code
    flash[STORAGE_OFFSET:] = storage
    args.out.write_bytes(bytes(flash))
    print(f"{args.out}: {len(code)} bytes of MicroPython, littlefs at {STORAGE_OFFSET:#x}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
