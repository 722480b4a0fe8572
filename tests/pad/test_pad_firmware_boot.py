"""The pad firmware booted as on a Pico (main.py, board_pico.py, the rp2 port's USB serial stood
in for under the MicroPython unix port): Ctrl-C off before anything can be interrupted, the whole
ident on the display, a refused hello said again with backoff. The box and its checks are
tests/support/micropython/pico_boot_checks.py; each check is a test here."""

import pytest
from support.fakes import run_check_script
from support.paths import MICROPYTHON

SCRIPT = MICROPYTHON / "pico_boot_checks.py"
CHECKS = [
    "check_ctrl_c_is_off_before_any_firmware_module_is_compiled",
    "check_the_pad_keeps_answering_a_tower_whose_frames_carry_ctrl_c",
    "check_undo_held_at_start_leaves_the_repl_with_ctrl_c_on",
    "check_the_screen_shows_the_whole_ident_of_a_pico",
    "check_a_refused_hello_is_said_again_with_backoff_and_the_reason_shown",
]


@pytest.fixture(scope="module")
def boot_run():
    """The output lines of the box's checks, run by MicroPython on the firmware folder."""
    return run_check_script(SCRIPT)


@pytest.mark.parametrize("name", CHECKS)
def test_pico_boot(boot_run, name):
    failures = [line for line in boot_run if line.startswith(f"FAIL {name}:")]
    assert f"pass {name}" in boot_run, failures


def test_every_check_in_the_box_is_a_test(boot_run):
    ran = [line.split()[1].rstrip(":") for line in boot_run if line.startswith(("pass", "FAIL"))]
    assert sorted(ran) == sorted(CHECKS)
