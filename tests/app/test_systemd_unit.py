"""The kiosk's unit: hardened below 2 by systemd's own rating, devices still let through, and
log lines that carry their syslog priority under journald.

The rating is `systemd-analyze security --offline=true` on the unit file as shipped; where
systemd-analyze is absent (a container without systemd) those tests skip and say so.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import HANG, spawn
from support.paths import ROOT

from firmware_py.app import systemd

UNIT = ROOT / "systemd" / "qwixx-tower.service"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def security(unit: Path) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None
    return subprocess.run(
        [ANALYZE, "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )


def exposure(result: subprocess.CompletedProcess[str]) -> float:
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


@needs_analyze
def test_systemd_rates_the_units_exposure_below_2():
    assert exposure(security(UNIT)) < 2


@needs_analyze
def test_the_rating_sees_the_hardening_and_not_a_default_unit(tmp_path):
    """The control: the same unit without its hardening rates far worse, so the figure above
    comes from the settings and not from an analyzer that rates everything well."""
    keep = ("Type", "ExecStart", "User", "Group", "NotifyAccess", "WatchdogSec")
    bare = tmp_path / "qwixx-tower.service"
    lines = ["[Service]"] + [
        f"{key}={value}" for key, values in unit_settings().items() if key in keep
        for value in values
    ]  # fmt: skip
    bare.write_text("\n".join(lines) + "\n")
    assert exposure(security(bare)) > 5


def test_the_devices_stay_reachable_and_nothing_hides_them():
    settings = unit_settings()
    allowed = {value.split()[0] for value in settings["DeviceAllow"]}
    assert {"char-gpiochip", "char-i2c", "char-spi", "char-ttyACM", "char-ttyUSB"} <= allowed
    assert settings["DevicePolicy"] == ["closed"]
    groups = settings["SupplementaryGroups"][0].split()
    assert {"gpio", "i2c", "spi", "dialout", "bluetooth"} <= set(groups)
    assert "PrivateDevices" not in settings and "PrivateUsers" not in settings
    assert "ProcSubset" not in settings  # gpiozero reads the Pi's model in /proc


def test_the_modules_behind_the_allowed_devices_load_before_the_tower_starts():
    """systemd turns `DeviceAllow=char-NAME` into majors from /proc/devices when the unit
    starts; a group whose module loads later (cdc_acm, when the first pad is plugged in after
    boot) would stay refused until a restart."""
    settings = unit_settings()
    wanted = {unit for value in settings["Wants"] for unit in value.split()}
    after = {unit for value in settings["After"] for unit in value.split()}
    modules = {"cdc_acm", "usbserial", "i2c_dev", "spidev"}
    assert {f"modprobe@{module}.service" for module in modules} <= wanted & after


def test_the_phones_web_page_and_bluez_can_still_be_reached():
    settings = unit_settings()
    families = set(settings["RestrictAddressFamilies"][0].split())
    assert {"AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK"} <= families
    allowed = settings["IPAddressAllow"][0].split()
    assert "192.168.0.0/16" in allowed and "localhost" in allowed


def test_log_records_carry_their_syslog_priority_on_every_line():
    formatter = systemd.JournalFormatter("%(levelname)s %(name)s: %(message)s")
    warning = logging.LogRecord("pads", logging.WARNING, __file__, 1, "pad lost", None, None)
    assert formatter.format(warning) == "<4>WARNING pads: pad lost"
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        error = logging.LogRecord(
            "table", logging.ERROR, __file__, 1, "failed", None, sys.exc_info()
        )
    lines = formatter.format(error).splitlines()
    assert len(lines) > 2 and all(line.startswith("<3>") for line in lines)  # the traceback too
    assert [systemd.syslog_priority(level) for level in (10, 20, 25, 30, 40, 50, 60)] == [
        7, 6, 4, 4, 3, 2, 2,
    ]  # fmt: skip


def test_the_tower_prefixes_priorities_only_when_its_stderr_is_the_journal(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[[displays]]\nrole = "main"\nchip = "ssd1306"\nbus = 29\n')

    def tower_stderr(journal: bool) -> str:
        read_end, write_end = os.pipe()
        stat = os.fstat(write_end)
        env = dict(os.environ, JOURNAL_STREAM=f"{stat.st_dev}:{stat.st_ino}" if journal else "")
        with os.fdopen(read_end) as reader:
            spawn.run(
                [sys.executable, "-m", "firmware_py.app.cli", "run", "--config", str(config),
                 "--plain", "--games", "1", "--pace", "0", "--players", "Ann,Ben",
                 "--state-dir", str(tmp_path)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=write_end,
                env=env, timeout=HANG, check=True,
            )  # fmt: skip
            os.close(write_end)
            return reader.read()

    under_systemd = tower_stderr(journal=True)
    warned = [line for line in under_systemd.splitlines() if "display does not answer" in line]
    assert warned and warned[0].startswith("<4>WARNING ")
    assert all(re.match(r"<[2-7]>", line) for line in under_systemd.splitlines() if line)
    in_a_terminal = tower_stderr(journal=False)
    assert any(line.startswith("WARNING ") for line in in_a_terminal.splitlines())
    assert "<4>" not in in_a_terminal


def test_the_unit_lets_the_tower_hold_thousands_of_connections_open():
    """A thousand connections from one hostile device (closed after seconds of silence, but
    open meanwhile) would reach the default soft limit of 1024 open files, and then the
    journal could not open a game's log: the unit raises it."""
    (limit,) = unit_settings()["LimitNOFILE"]
    assert int(limit) >= 4096
