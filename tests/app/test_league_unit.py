"""The league's unit (systemd/qwixx-league.service): hardened as the tower's and tighter, by
systemd's own rating (`systemd-analyze security --offline=true`, skipped where it is absent),
ready and watched as the tower is, and reaching the local network only."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from support import HANG
from support.paths import ROOT

LEAGUE = ROOT / "systemd" / "qwixx-league.service"
TOWER = ROOT / "systemd" / "qwixx-tower.service"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
HARDENING = ("NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateTmp", "ProtectProc",
             "RestrictNamespaces", "SystemCallFilter", "RestrictAddressFamilies",
             "IPAddressDeny", "IPAddressAllow", "CapabilityBoundingSet", "UMask")  # fmt: skip


def settings(unit) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def exposure(unit) -> float:
    assert ANALYZE is not None
    result = subprocess.run([ANALYZE, "security", "--offline=true", "--no-pager", str(unit)],
                            capture_output=True, text=True, timeout=HANG, check=False)  # fmt: skip
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


@needs_analyze
def test_systemd_rates_the_league_no_more_exposed_than_the_tower():
    assert exposure(LEAGUE) <= exposure(TOWER) and exposure(LEAGUE) < 2


# The one allowance the tower has and the league needs not: reading the clock's state, to say
# when no time server sets the clock its games are dated by (docs/kiosk.md, "The clock").
CLOCK_READING = "adjtimex clock_adjtime clock_adjtime64"


def test_the_league_keeps_every_hardening_setting_of_the_tower():
    league, tower = settings(LEAGUE), settings(TOWER)
    tower["SystemCallFilter"].remove(CLOCK_READING)
    assert {key: league.get(key) for key in HARDENING} == {key: tower[key] for key in HARDENING}
    assert "ProtectClock" not in tower and league["ProtectClock"] == ["yes"]
    assert league["DevicePolicy"] == ["closed"] and "DeviceAllow" not in league
    assert league["PrivateDevices"] == ["yes"]  # no device at all, unlike the tower


def test_it_runs_the_league_ready_and_watched_with_a_state_directory_of_its_own():
    league = settings(LEAGUE)
    assert league["ExecStart"][0].split()[1:3] == ["league", "--config"]
    assert league["Type"] == ["notify"] and league["WatchdogSec"]
    assert league["StateDirectory"] == ["qwixx-league"]
    assert league["User"] != settings(TOWER)["User"]  # a tower's journal is not the league's
