"""The pad's logic on a fake clock (debounce, one request in flight sent again with its number,
the tower gone and back, pass by a hold, refusals), the same checks under the real MicroPython
interpreter and under CPython: tests/support/micropython/padapp_checks.py."""

import importlib.util

import pytest
from support.fakes import run_check_script
from support.paths import MICROPYTHON

CHECKS_SCRIPT = MICROPYTHON / "padapp_checks.py"
RIG_SCRIPT = MICROPYTHON / "firmware_rig.py"


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


checks = _load("padapp_checks", CHECKS_SCRIPT)
rig = _load("firmware_rig", RIG_SCRIPT)
CHECK_NAMES = [check.__name__ for check in checks.CHECKS]


@pytest.fixture(scope="module")
def micropython_run():
    """The output lines of padapp_checks.py run by MicroPython on the firmware folder."""
    return run_check_script(CHECKS_SCRIPT)


@pytest.mark.parametrize("name", CHECK_NAMES)
def test_pad_logic_under_micropython(micropython_run, name):
    failures = [line for line in micropython_run if line.startswith(f"FAIL {name}:")]
    assert f"pass {name}" in micropython_run, failures


@pytest.mark.parametrize("check", checks.CHECKS, ids=CHECK_NAMES)
def test_pad_logic_under_cpython(check):
    check()


def test_every_check_ran_under_micropython(micropython_run):
    ran = [line.split()[1].rstrip(":") for line in micropython_run if line != "done"]
    assert ran == CHECK_NAMES


BOARD_SCRIPT = MICROPYTHON / "board_checks.py"
BOARD_CHECKS = [
    "check_oled_sends_only_the_lines_that_changed_to_their_page",
    "check_oled_starts_again_after_the_display_was_missing",
    "check_oled_starts_the_chip_then_draws_every_line",
    "check_pico_and_unix_boards_offer_the_same_methods",
    "check_usb_reader_takes_what_is_waiting_up_to_its_limit_without_blocking",
]


@pytest.fixture(scope="module")
def board_run():
    """The output of board_checks.py: the Pico board's display driver and interface, checked
    by MicroPython (framebuf and friends exist only there)."""
    return run_check_script(BOARD_SCRIPT)


@pytest.mark.parametrize("name", BOARD_CHECKS)
def test_pico_board_under_micropython(board_run, name):
    failures = [line for line in board_run if line.startswith(f"FAIL {name}:")]
    assert f"pass {name}" in board_run, failures
    assert board_run[-1] == "done"


@pytest.mark.parametrize("attribute", ["self.ident = ", "self.timing = "])
def test_both_boards_set_the_attributes_the_loop_reads(attribute):
    for board in ("board_pico.py", "board_unix.py"):
        assert attribute in (rig.PAD_DIR / board).read_text(), board
