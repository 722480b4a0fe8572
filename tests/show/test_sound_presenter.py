"""What the table sounds like: a tune on the buzzer and a sentence spoken for a roll (the white
sum, said aloud as the rulebooks ask of the active player), a penalty, a lock (announced "loudly
and clearly", seed 000) and the end of the game; nothing for changes nobody needs to hear."""

from __future__ import annotations

import asyncio
import logging
import shutil
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from support import HANG
from support.sound import measure

from drivers.buzzer import GAME_OVER, LOCK, PENALTY, ROLL, Buzzer
from drivers.speech import Speech
from firmware_py.app.assembly import build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal, read_game
from firmware_py.rules import Game, Pass, Roll, Start
from firmware_py.seating import SeatSpec
from firmware_py.show.sound import SoundPresenter
from firmware_py.view import TableView, table_view
from sheets import COLOURS, load_sheet

WAIT = HANG
DICE = dict.fromkeys(COLOURS, 3)


@pytest.fixture
def buzzer():
    with Buzzer(18, speed=1000, pin_factory=MockFactory(pin_class=MockPWMPin)) as made:
        yield made


@pytest.fixture
def speech(tmp_path):
    """The real speech driver where espeak-ng is missing: it keeps what it was asked to say."""
    with Speech(command="no-such-espeak-ng", record_to=tmp_path) as made:
        yield made


def view_of(game: Game, **changed) -> TableView:
    """The table's view of `game`, as the table publishes it (the game travels with it)."""
    return replace(table_view(game), game=game, **changed)


def after(game: Game, *events) -> Game:
    """The game after `events`, the old one left as it was (as the table's referee does)."""
    trial = game.copy()
    for event in events:
        trial.apply(event)
    return trial


@pytest.fixture
def game():
    return Game.start(Start("classic", ("Ann", "Ben")))


def test_a_roll_ticks_and_says_the_white_sum(buzzer, speech, game):
    present = SoundPresenter(buzzer, speech)
    present(view_of(game, started=True))
    present(view_of(after(game, Roll((3, 4), DICE))))
    assert list(buzzer.history) == [ROLL]
    assert list(speech.said) == ["7"]


def test_a_penalty_is_heard_and_named(buzzer, speech, game):
    present = SoundPresenter(buzzer, speech)
    rolled = after(game, Roll((3, 4), DICE))
    present(view_of(rolled))
    present(view_of(after(rolled, Pass("Ann"), Pass("Ben"), Pass("Ann"))))
    assert list(buzzer.history) == [PENALTY]
    assert list(speech.said) == ["Ann takes a penalty"]


def test_a_lock_is_announced_with_its_colour(buzzer, speech, game):
    present = SoundPresenter(buzzer, speech)
    present(view_of(game))
    present(view_of(game, new_locks=("red",)))
    present(view_of(game, new_locks=("yellow", "blue")))
    assert list(buzzer.history) == [LOCK, LOCK]
    assert list(speech.said) == ["red is locked", "yellow and blue are locked"]


def test_the_fourth_penalty_ends_the_game_with_the_fanfare_and_the_winner(buzzer, speech, game):
    present = SoundPresenter(buzzer, speech)
    present(view_of(game, started=True))
    for _turn in range(7):  # each active player crosses nothing: Ann's 4th penalty ends it
        active = game.active_name
        game = after(game, Roll((3, 4), DICE), Pass("Ann"), Pass("Ben"), Pass(active))
        present(view_of(game, ended=game.over))
    assert game.over
    assert list(buzzer.history) == [PENALTY] * 6 + [GAME_OVER]
    assert list(speech.said)[-3:] == [
        "Ben takes a penalty",
        "Ann takes a penalty",
        "game over: Ben wins with -15",
    ]


def test_a_tie_names_every_winner(buzzer, speech):
    game = Game.start(Start("classic", ("Ann", "Ben", "Cleo")))
    present = SoundPresenter(buzzer, speech)
    for _turn in range(10):  # Ann's 4th penalty ends it; Ben and Cleo have 3 each
        active = game.active_name
        passes = [Pass(name) for name in ("Ann", "Ben", "Cleo")]
        game = after(game, Roll((3, 4), DICE), *passes, Pass(active))
    assert game.over
    present(view_of(game, ended=True))
    assert speech.said[-1] == "game over: Ben and Cleo win with -15"


def test_nothing_is_heard_for_a_resumed_game_a_new_game_or_a_redraw(buzzer, speech, game):
    present = SoundPresenter(buzzer, speech)
    rolled = after(game, Roll((3, 4), DICE))
    present(view_of(rolled))  # after a restart: the dice were rolled before it
    present(view_of(rolled))  # the same moment drawn again (a notice ends, an alert)
    present(view_of(game, started=True))
    present(TableView("attract"))
    assert list(buzzer.history) == [] and list(speech.said) == []


def test_a_buzzer_that_is_gone_is_logged_once_and_the_table_goes_on(speech, game, caplog):
    closed = Buzzer(18, pin_factory=MockFactory(pin_class=MockPWMPin))
    closed.close()
    present = SoundPresenter(closed, speech)
    with caplog.at_level(logging.WARNING):
        present(view_of(game, new_locks=("red",)))
        present(view_of(game, new_locks=("green",)))
    assert [r.getMessage() for r in caplog.records] == [
        "the tower cannot sound: the buzzer is closed"
    ]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_a_lock_is_spoken_aloud(tmp_path, game):
    with Speech(record_to=tmp_path) as voice:
        present = SoundPresenter(None, voice)
        present(view_of(game))
        present(view_of(game, new_locks=("red",)))
        assert voice.wait_until_quiet(WAIT)
    assert list(voice.said) == ["red is locked"]
    seconds, loudness = measure(tmp_path / "speech-0001.wav")
    assert 0.5 < seconds < 3.0 and loudness > 0.02


def test_a_whole_game_at_the_table_sounds_every_roll_penalty_lock_and_the_end(
    tmp_path, buzzer, speech
):
    hardware = build_hardware(SIMULATED, load_sheet("classic").dice_faces)
    seats = [SeatSpec(name) for name in ("Ann", "Ben", "Cleo")]
    table = build_table(
        hardware,
        seats=seats,
        variant="classic",
        journal=Journal(tmp_path),
        pace=0.005,
        autoplay=True,
    )
    table.subscribe(SoundPresenter(buzzer, speech))
    asyncio.run(asyncio.wait_for(table.run(games=1), timeout=HANG))
    hardware.close()
    game = read_game(Journal(tmp_path).games()[-1]).game
    rolls = sum('"event": "roll"' in line for line in Journal(tmp_path).games()[-1].open())
    said = list(speech.said)
    assert buzzer.history.count(ROLL) == rolls
    assert buzzer.history[-1] == GAME_OVER
    penalties = sum(player.penalties for player in game.players)
    assert sum(s.endswith("takes a penalty") for s in said) == penalties
    for row in game.locked:
        assert any(COLOURS[row] in s and "locked" in s for s in said)
    winners = game.winners()
    total = max(game.total(player.name) for player in game.players)
    assert said[-1].startswith("game over: ") and said[-1].endswith(f" with {total}")
    for player in game.players:  # every winner named, a tie too (a random game may end in one)
        assert (player.name in said[-1]) == (player.name in winners)
