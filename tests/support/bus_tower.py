"""What the MQTT tests of a real tower share: its topics (tower id "t1"), what it says once
the broker does not answer, what of a listener's messages the tower published, the check of
each against docs/home-assistant.md, and doctor's lines about the broker."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from support import HANG
from support.bus_listener import BusListener
from support.bus_schema import message_problems

PLAYERS = ("--players", "Ann,Ben,Cleo")
BASE = "qwixx/t1"
STATE, EVENT, RESULT = f"{BASE}/state", f"{BASE}/event", f"{BASE}/result"
AVAILABILITY, DISCOVERY = f"{BASE}/availability", "homeassistant/device/qwixx_t1/config"
NEW_GAME, RESEND = f"{BASE}/command/new_game", f"{BASE}/results/resend"
WAITING = 'computer_players = ["Robo", "Ada"]'  # [table]: seated, waiting for a press
NOT_ANSWERING = "the tower tries again by itself, and the game goes on"
ROLL_NEWS = re.compile(r"^\S+ rolls ")


def tower_folder(tmp_path: Path, name: str = "tower") -> Path:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    return folder


def said_once(lines: list[str], words: str) -> bool:
    """`words` said once in run's output: a warning in the log, which the plain terminal
    does not print again as news (the pads and phones have it as news)."""
    return sum(words in line for line in lines) == 1


def published(listener: BusListener) -> list:
    """What the tower published (not what the test itself sent)."""
    ours = (f"{BASE}/command/", f"{BASE}/results/", "homeassistant/status")
    return [m for m in listener.heard if not m.topic.startswith(ours)]


def assert_every_message_as_documented(listener: BusListener) -> None:
    problems = [p for m in published(listener) for p in message_problems(m.topic, m.payload)]
    assert problems == [], problems[:10]


def results(listener: BusListener) -> list[dict]:
    return [m.json() for m in listener.on(RESULT)]


def doctor_on_mqtt(folder: Path) -> list[str]:
    """What `qwixx-tower doctor` says of MQTT for the tower of `folder` (its config.toml)."""
    doctor = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware_py.app.cli",
            "doctor",
            "--config",
            str(folder / "config.toml"),
            "--state-dir",
            str(folder / "doctor"),
        ],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    return [line for line in doctor.stdout.splitlines() if "MQTT" in line]
