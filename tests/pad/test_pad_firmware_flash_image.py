"""The emulated Pico's flash (tools/pico_emulator/make_flash_image.py): the littlefs that
littlefs-python writes is what MicroPython's own VfsLfs2 reads, with the firmware as
`pad install` would copy it. Needs littlefs-python (the test extra)."""

import importlib.util
import subprocess

import pytest
from support import HANG
from support.paths import MICROPYTHON, ROOT

from firmware_py.app import pad_install as padinstall

littlefs = pytest.importorskip(
    "littlefs", reason="littlefs-python is not installed (pip install littlefs-python)"
)
TOOL = ROOT / "tools" / "pico_emulator" / "make_flash_image.py"
_spec = importlib.util.spec_from_file_location("make_flash_image", TOOL)
image_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(image_tool)


def test_micropython_mounts_the_image_and_finds_the_compiled_firmware(tmp_path):
    files = image_tool.firmware_files(tmp_path, source=False)
    image = tmp_path / "fs.bin"
    image.write_bytes(image_tool.filesystem(files))
    assert len(image.read_bytes()) == 1408 * 1024
    from support.fakes import micropython_binary

    check = MICROPYTHON / "lfs_mount_check.py"
    result = subprocess.run(
        [micropython_binary(), "-X", "heapsize=8M", str(check), str(image)],
        capture_output=True, text=True, timeout=HANG, check=True,
    )  # fmt: skip
    listed = dict(line.split() for line in result.stdout.splitlines()[:-1])
    assert sorted(listed) == sorted(path.name for path in files)
    assert int(listed["main.py"]) == len(padinstall.TINY_MAIN.encode())
    assert all(int(listed[path.name]) == path.stat().st_size for path in files)
