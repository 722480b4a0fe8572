"""Build our own RP2040 boot ROM for rp2040js (bootrom/: rom_tables.S, rom.c, softfloat.c).

    python3 tools/pico_emulator/build_bootrom.py OUTDIR

Writes OUTDIR/rom.bin (16 KB at address 0) and OUTDIR/rom-ext.bin (the soft float and double
functions, loaded at flash offset 0xF00000: address 0x10F00000). Needs Debian's
gcc-arm-none-eabi. A maintainer's tool (README.md); nothing it makes is committed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "bootrom"
SOURCES = ["rom_tables.S", "rom.c", "softfloat.c"]
CFLAGS = ["-mcpu=cortex-m0plus", "-mthumb", "-Os", "-ffreestanding", "-nostdlib", "-fno-builtin"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path, default=Path("."), help="(default .)")
    out = parser.parse_args().outdir
    out.mkdir(parents=True, exist_ok=True)
    elf = out / "rom.elf"
    subprocess.run(
        ["arm-none-eabi-gcc", *CFLAGS, "-Wall", "-T", str(HERE / "rom.ld"), "-o", str(elf),
         *(str(HERE / name) for name in SOURCES), "-lgcc"],
        check=True,
    )  # fmt: skip
    for section, name in ((".rom", "rom.bin"), (".text", "rom-ext.bin")):
        subprocess.run(
            ["arm-none-eabi-objcopy", "-O", "binary", "-j", section, str(elf), str(out / name)],
            check=True,
        )
    rom = (out / "rom.bin").read_bytes()
    (out / "rom.bin").write_bytes(rom + b"\0" * (16384 - len(rom)))
    print(out / "rom.bin", out / "rom-ext.bin")
    return 0


if __name__ == "__main__":
    sys.exit(main())
