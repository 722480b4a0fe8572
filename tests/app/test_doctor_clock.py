"""A tower whose clock no time server sets dates its games by a guess: `doctor` says so (a
part that needs attention on a tower that publishes its results), and `run` says it once in
its log, the systemd journal, never on the displays.

The clock's state is the probe's answer (`drivers/clock.py`), injected here as the other
doctor tests inject the parts they check.
"""

from __future__ import annotations

import io
import logging

import pytest
from support.paths import ROOT

from firmware_py.app import doctor, service
from firmware_py.app.cli import main
from firmware_py.app.config import SIMULATED, parse_config
from firmware_py.app.doctor import report, run_checks

ON_THE_BUS = {"mqtt": {"host": "127.0.0.1", "port": 9, "tower_id": "kitchen"}}


def doctor_says(config, tmp_path, monkeypatch, synchronised: bool | None):
    monkeypatch.setattr(doctor, "clock_synchronised", lambda: synchronised)
    monkeypatch.setattr(doctor, "_mqtt", lambda config: (True, "MQTT: not asked here"))
    out = io.StringIO()
    status = report(run_checks(config, tmp_path), out)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line[5:].startswith("clock:"))
    end = start + 1
    while lines[end].startswith("     "):  # the check's own lines go on, indented
        end += 1
    return status, lines, lines[start:end]


def test_a_clock_set_from_a_time_server_is_one_line_of_ok(tmp_path, monkeypatch):
    status, lines, told = doctor_says(SIMULATED, tmp_path, monkeypatch, True)
    assert told == ["[ok] clock: set from a time server"]
    assert status == 0 and lines[-1] == "everything answers"


def test_a_league_tower_whose_clock_is_a_guess_needs_attention(tmp_path, monkeypatch):
    status, lines, told = doctor_says(parse_config(ON_THE_BUS), tmp_path, monkeypatch, False)
    assert told == [
        "[!!] clock: not set from any time server: the games' dates are a guess",
        "     (the history, the results on the bus, the league's evening); a Pi keeps",
        '     no time without power: see docs/kiosk.md, "The clock"',
    ]
    assert status == 1 and lines[-1] == "1 part(s) need attention"


def test_a_tower_that_keeps_its_games_to_itself_is_told_but_not_failed(tmp_path, monkeypatch):
    """Offline, only the history's dates are wrong: the maker is told why, doctor passes."""
    status, _, told = doctor_says(SIMULATED, tmp_path, monkeypatch, False)
    assert told == [
        "[ok] clock: not set from any time server: the history's dates are a guess;",
        '     a Pi keeps no time without power: see docs/kiosk.md, "The clock"',
    ]
    assert status == 0 and all(len(line) <= 80 for line in told)


def test_a_system_that_cannot_tell_is_no_failure(tmp_path, monkeypatch):
    status, _, told = doctor_says(parse_config(ON_THE_BUS), tmp_path, monkeypatch, None)
    assert told == ["[ok] clock: cannot tell whether a time server sets it (`timedatectl` may)"]
    assert status == 0


def run_one_game(tmp_path, monkeypatch, caplog, synchronised: bool | None) -> list[str]:
    """`qwixx-tower run` for one quick game; what its log said at warning level and above."""
    monkeypatch.setattr(service, "clock_synchronised", lambda: synchronised)
    with caplog.at_level(logging.INFO, logger="qwixx-tower"):
        status = main(
            ["run", "--plain", "--pace", "0", "--games", "1", "--players", "Ann,Ben",
             "--state-dir", str(tmp_path / "state")]
        )  # fmt: skip
    assert status == 0
    return [r.getMessage() for r in caplog.records if r.name == "qwixx-tower"]


@pytest.mark.parametrize(("synchronised", "said"), [
    (False, ("WARNING", service.CLOCK_UNSET)),
    (True, ("INFO", "the clock is set from a time server")),
])  # fmt: skip
def test_run_logs_the_clocks_state_once(tmp_path, monkeypatch, caplog, synchronised, said):
    logged = run_one_game(tmp_path, monkeypatch, caplog, synchronised)
    about = [(r.levelname, r.getMessage()) for r in caplog.records if "clock" in r.getMessage()]
    assert about == [said], logged
    if not synchronised:
        assert "not set from any time server" in said[1] and "docs/kiosk.md" in said[1]


def test_run_says_nothing_of_a_clock_it_cannot_read(tmp_path, monkeypatch, caplog):
    run_one_game(tmp_path, monkeypatch, caplog, None)
    assert not [r for r in caplog.records if "clock" in r.getMessage()]


def test_the_places_the_words_point_at_are_there():
    """doctor and the log send the maker to docs/kiosk.md, "The clock", which sends the
    league's organiser on to docs/league.md, "Clocks"."""
    kiosk = (ROOT / "docs" / "kiosk.md").read_text(encoding="utf-8")
    league = (ROOT / "docs" / "league.md").read_text(encoding="utf-8")
    assert '"The clock"' in doctor.CLOCK_HINT and '"The clock"' in service.CLOCK_UNSET
    assert "\n## The clock\n" in kiosk and '[league.md](league.md), "Clocks"' in kiosk
    assert "\n## Clocks\n" in league
    assert "/etc/systemd/timesyncd.conf.d/qwixx.conf" in kiosk
