"""Shared fixtures: gpiozero's own mock pin factory, restored afterwards as gpiozero's tests do.
The shared builders are in tests/support (on the path: pyproject.toml's pythonpath); their
asserts are rewritten as a test's are, so a failing helper says what it saw."""

import gc
import os

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, settings

from drivers.simulated.pad import PtyPad

pytest.register_assert_rewrite("support")

# Hypothesis judges by the wall clock unless told not to: an example slower than 200 ms fails
# (its deadline) and slow data generation fails a health check. On a loaded machine both fail
# good code, so neither applies here; every property still runs all its examples.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


@pytest.fixture
def mock_factory():
    """A fresh `MockFactory`, also made the default so no device can reach real pins."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        # reset() clears reservations that gpiozero keeps at class level between factories.
        Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture(autouse=True, scope="session")
def simulated_pads_wait_as_long_as_a_hang():
    """A simulated pad waits for what it expects as long as the suite waits for anything
    (support.HANG): only a hang takes that long, however busy the machine."""
    from support import HANG  # (imported once its asserts are set to be rewritten)

    saved = PtyPad.wait
    PtyPad.wait = HANG
    yield
    PtyPad.wait = saved


@pytest.fixture(autouse=True, scope="session")
def towers_side_by_side():
    """Every tower a test starts listens for phones on a free port ($QWIXX_WEB_PORT=0), so tests
    run side by side (pytest-xdist) and beside a tower on 8080 without one taking the other's
    port; tests of the configured port set the variable themselves."""
    saved = os.environ.get("QWIXX_WEB_PORT")
    os.environ["QWIXX_WEB_PORT"] = "0"
    yield
    if saved is None:
        os.environ.pop("QWIXX_WEB_PORT", None)
    else:
        os.environ["QWIXX_WEB_PORT"] = saved


@pytest.fixture(autouse=True, scope="session")
def towers_without_certificate_stores(tmp_path_factory):
    """Towers the tests start skip loading CA certificates (support.__init__ says why):
    OpenSSL reads an empty file and an empty folder instead, also where the machine names its
    own stores in SSL_CERT_FILE and SSL_CERT_DIR (pip and npm get those back)."""
    import support  # (its module-level record of the machine's stores is made before this)

    empty = tmp_path_factory.mktemp("no-certificates")
    (empty / "none.pem").write_text("")
    os.environ.update({"SSL_CERT_FILE": str(empty / "none.pem"), "SSL_CERT_DIR": str(empty)})
    yield
    for name in support.EMPTY_CERTIFICATE_STORES:
        if name in support.MACHINE_CERTIFICATE_STORES:
            os.environ[name] = support.MACHINE_CERTIFICATE_STORES[name]
        else:
            os.environ.pop(name, None)


@pytest.fixture(scope="module")
def browser_for_the_module():
    """A browser module's chromium and Playwright driver end with its last test, while the
    run goes on beside them, rather than at the worker's exit, which the whole run waits for."""
    yield
    from support.browser import end_browser

    end_browser()


# The tests that take longest, started first so that they run beside the rest (pytest-xdist
# hands out tests in this order): whole systems, then games played by whole processes, then the
# property tests of many seconds each. Short tests are left for the end, where they fill the
# workers evenly: a long test among the last kept the run going on one worker while the others
# had finished (the last workers finished 4 to 9 s after the first; now 3 to 4 s).
STARTED_FIRST = (
    "system/test_systemd_boot.py",
    "system/test_kiosk_install.py",
    "app/test_demo.py",
    "app/test_screens_folder.py",
    "system/test_web_browser.py",
    "system/test_phone_access.py",
    "system/test_power_cuts.py",
    "system/",
    "journal/test_state_faults.py",
    "pad/test_pad_firmware.py",
    "pad/test_pad_firmware_install.py",
    "app/test_cli.py",
    "rules/test_rules_model.py",
    "pad/test_pad_protocol.py",
    "rules/test_rules_properties.py",
    "seats/test_web.py",
    "players/test_levels.py",
    "rules/test_replay_contract.py",
    "table/test_table.py",
    "show/test_terminal.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    """What collection made (about 110,000 objects a worker: modules, tests, fixtures) lives to
    the end of the run, so it is frozen: the garbage collector's full passes, pytest's at the
    end included, then read only what the tests made (the workers' collector took 6.4 s of CPU
    in a run, against 8.8 s)."""
    gc.freeze()


def pytest_collection_modifyitems(items):
    def start_order(item) -> int:
        path = item.nodeid.split("::")[0].removeprefix("tests/")
        return next(
            (rank for rank, prefix in enumerate(STARTED_FIRST) if path.startswith(prefix)),
            len(STARTED_FIRST),
        )

    items.sort(key=start_order)  # stable: the order within each file is kept
