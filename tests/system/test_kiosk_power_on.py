"""The kiosk as a family meets it: `qwixx-tower run` with the shipped configuration
(systemd/config.example.toml) as a real process on a terminal, its pins gpiozero's mock ones
(GPIOZERO_PIN_FACTORY=mock: this machine has no GPIO), a pad on a pseudo-terminal cable where
its udev link would be. Enter at the terminal presses the mock roll button."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

from support import HANG
from support.paths import ROOT
from support.terminal import TowerTerminal

from drivers.simulated.pad import PtyPad, pad_hello
from firmware_py.journal.journal import Journal

EXAMPLE = ROOT / "systemd" / "config.example.toml"


def kiosk_config(tmp_path: Path) -> Path:
    """The example configuration, but its pads found in `tmp_path` and its web server on this
    machine only (tests listen on 127.0.0.1), on a free port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    text = EXAMPLE.read_text()
    replaced = {
        'ports = ["/dev/qwixx-pad-*"]': f'ports = ["{tmp_path}/pad-*"]',
        'host = "0.0.0.0"': 'host = "127.0.0.1"',
        "port = 8080": f"port = {port}",
        "speech = true": "speech = false",  # no voice from a test machine's speakers
    }
    for old, new in replaced.items():
        assert old in text, f"the example configuration no longer says {old}"
        text = text.replace(old, new)
    config = tmp_path / "config.toml"
    config.write_text(text)
    return config


def started_games(state: Path) -> list[list[dict]]:
    return [[json.loads(line) for line in log.read_text().splitlines()]
            for log in Journal(state).games()]  # fmt: skip


def test_at_power_on_the_kiosk_waits_for_people_and_one_press_starts_their_game(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    state = tmp_path / "state"
    pad = PtyPad(tmp_path / "pad-1", heartbeats=True)
    tower = TowerTerminal(["--config", str(kiosk_config(tmp_path)), "--state-dir", str(state),
                           "--pace", "0.05"])  # fmt: skip
    try:
        screen = tower.wait_for("press a button on a pad to join", timeout=HANG)
        assert "Qwixx" in screen
        time.sleep(3)  # a second game used to start 2.4 s after the first one ended
        tower.read()
        assert started_games(state) == []  # nobody sat down: nothing started by itself
        tower.type("\n")  # the roll button, with nobody seated
        tower.wait_for("nobody is seated: press a button on a pad to join")
        assert started_games(state) == []

        pad.send("hello", pad_hello())
        pad.expect("hello_ack")
        assert pad.expect("state")["flags"] & 16  # MAY_JOIN: "press any button to join"
        assert pad.ask_to_join()["status"] == 0  # OK: seated
        tower.wait_for("Player 1 joins the table")
        time.sleep(2)
        tower.read()
        assert started_games(state) == []  # seated, and still nothing starts by itself

        tower.type("\n")  # one press
        tower.wait_for("Player 1 rolls next")
        games = started_games(state)
        assert len(games) == 1
        assert games[0][0]["players"] == ["Player 1"]
        assert [event["event"] for event in games[0]] == ["start"]  # the next press rolls
    finally:
        tower.stop()
        pad.unplug()
