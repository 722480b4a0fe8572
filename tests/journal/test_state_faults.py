"""Faults of the state directory, at start and mid-game: the tower always starts, says what is
wrong in words, never acknowledges an event it has not saved, pauses while it cannot save and
carries on by itself when it can again.

The table tests run the Table on simulated hardware with the one write function of the journal
(`disk.write_all`) failing (ENOSPC, EROFS, EIO). The matrix runs the real `qwixx-tower run`
process against real faults: files of every wrong kind, a full and a read-only tmpfs (mounting
needs root: skipped otherwise), an unreadable file or directory (as root the test drops
CAP_DAC_OVERRIDE from the tower, so file modes apply to it as to any user), a log deleted,
replaced or scribbled on while it is written.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support import HANG, spawn
from support.capabilities import without_dac_override
from support.disk import FULL, fill, tmpfs
from support.journal import EVENT_NEWS, is_in_order_within, journal_news
from support.table import make_table, shifted, until
from support.tower import Tower

from drivers.display import SHIFT_OFFSETS
from firmware_py.journal.journal import REPLACED, REWRITTEN, Journal, disk, read_game
from firmware_py.players.thumb import choose
from firmware_py.rules import Event, Game, Roll, game_report
from firmware_py.seating import KEYBOARD, PAD, SeatSpec
from firmware_py.show.screens import render
from firmware_py.table import STORAGE, LuckyNumber, Table
from firmware_py.table.storage import FIRST_RETRY
from firmware_py.view import TableView


def no_space(fd: int, data: bytes) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def failing(code: int) -> Callable[[int, bytes], None]:
    def write(fd: int, data: bytes) -> None:
        raise OSError(code, os.strerror(code))

    return write


def shows(table: Table, words: str) -> bool:
    """The main display shows the problem screen with `words`."""
    picture = render(TableView("error", message=words), "main")
    expected = {shifted(picture, offset) for offset in SHIFT_OFFSETS}
    return table.hardware.displays["main"].device.image.tobytes() in expected


def a_legal_event(game: Game) -> Event:
    if game.phase == "roll":
        return Roll((1, 1), dict.fromkeys(game.dice_in_play(), 1))
    return choose(game, game.waiting_for()[0])


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines()


# ---- the table, with the journal's writes failing -------------------------------------------


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (errno.ENOSPC, FULL),
        (errno.EROFS, "cannot save the game: the disk is read-only"),
        (errno.EIO, "cannot save the game: the disk fails (input/output error)"),
    ],
)
def test_a_failing_disk_mid_game_pauses_the_table_until_saving_works_again(
    tmp_path, monkeypatch, code, words
):
    table = make_table(tmp_path, [SeatSpec("Ann"), SeatSpec("Ben")])
    writes = disk.write_all

    async def play() -> None:
        task = asyncio.create_task(table.run(games=1))
        await until(
            lambda: (
                table.games.referee.game_log is not None
                and len(lines_of(table.games.referee.game_log.path)) > 8
            )
        )
        monkeypatch.setattr(disk, "write_all", failing(code))
        await until(lambda: table.games.storage.fault != "")
        assert table.games.storage.fault == words
        game, log = game_report(table.game), lines_of(table.games.referee.game_log.path)
        await asyncio.sleep(FIRST_RETRY / 2)  # computer players would play dozens of events
        assert shows(table, words)
        assert (
            game_report(table.game) == game and lines_of(table.games.referee.game_log.path) == log
        )
        refusal = table.submit(a_legal_event(table.game))  # what a pad is told, say
        assert refusal is not None and (refusal.kind, refusal.reason) == (STORAGE, words)
        monkeypatch.setattr(disk, "write_all", writes)  # space again
        await task  # the first retry finds it: the game goes on to its end by itself
        assert "Saving works again: play goes on" in table.newsfeed.lines

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    path = table.journal.games()[-1]
    saved = read_game(path).game
    assert saved.over and game_report(saved) == game_report(table.game)
    table.hardware.close()


def test_a_state_directory_that_cannot_be_written_at_start_is_shown_and_retried(
    tmp_path, monkeypatch
):
    """No acknowledgement without the disk: no game starts until saving works."""
    table = make_table(tmp_path, [SeatSpec("Ann")])
    writes = disk.write_all
    monkeypatch.setattr(disk, "write_all", no_space)

    async def play() -> None:
        task = asyncio.create_task(table.run(games=1))
        await until(lambda: table.games.storage.fault != "")
        assert table.games.storage.fault == "cannot save games: the disk is full"
        assert shows(table, table.games.storage.fault)
        await until(lambda: table.games.storage.delay > 2 * FIRST_RETRY)  # a retry has failed
        assert table.game is None and Journal(tmp_path).games() == []  # still waiting, no game
        assert table.games.storage.delay == 4 * FIRST_RETRY  # waits grow: 1 s, 2 s, 4 s ...
        monkeypatch.setattr(disk, "write_all", writes)
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    assert read_game(Journal(tmp_path).games()[-1]).game.over
    table.hardware.close()


def test_a_person_s_retry_that_saves_ends_the_pause_at_once(tmp_path, monkeypatch):
    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])
    writes = disk.write_all

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.button is not None)
        table.new_game()
        monkeypatch.setattr(disk, "write_all", no_space)
        table.press()  # the roll is not saved: the dice are not rolled
        await until(lambda: table.games.storage.fault == FULL)
        assert table.game.phase == "roll" and len(lines_of(table.games.referee.game_log.path)) == 1
        monkeypatch.setattr(disk, "write_all", writes)
        table.press()  # pressed again before the retry: it saves, and the game goes on
        await until(lambda: table.game.phase == "action1")
        assert table.games.storage.fault == "" and table.view().screen != "error"
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    table.hardware.close()


def test_lucky_numbers_complete_while_the_disk_is_full_start_the_game_when_it_has_room(
    tmp_path, monkeypatch
):
    table = make_table(tmp_path, [SeatSpec("Ann", PAD), SeatSpec("Bot")], "longo")
    writes = disk.write_all

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.button is not None)
        table.new_game()
        assert table.decide(LuckyNumber("Ann", 4)) is None
        monkeypatch.setattr(disk, "write_all", no_space)
        refusal = table.decide(LuckyNumber("Ann", 7))  # the last number: the game would begin
        words = "cannot save games: the disk is full"
        assert refusal is not None and (refusal.kind, refusal.reason) == (STORAGE, words)
        assert table.game is None and shows(table, words)
        monkeypatch.setattr(disk, "write_all", writes)
        await until(lambda: table.game is not None)  # the retry begins it
        assert table.game.player("Ann").lucky == (4, 7)
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    table.hardware.close()


def test_a_log_deleted_mid_game_is_written_again_and_the_game_loses_nothing(tmp_path):
    table = make_table(tmp_path, [SeatSpec("Ann"), SeatSpec("Ben")])

    async def play() -> None:
        task = asyncio.create_task(table.run(games=1))
        await until(
            lambda: (
                table.games.referee.game_log is not None
                and len(lines_of(table.games.referee.game_log.path)) > 8
            )
        )
        table.games.referee.game_log.path.unlink()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    assert REWRITTEN in table.newsfeed.lines
    resumed = read_game(Journal(tmp_path).games()[-1])
    assert game_report(resumed.game) == game_report(table.game) and resumed.game.over
    table.hardware.close()


# ---- the real process: every fault at start and mid-game ------------------------------------

PACE = 0.01
ROOT = os.geteuid() == 0


@pytest.fixture
def tower_on() -> Iterator[Callable[..., Tower]]:
    """Starts `qwixx-tower run` on a state directory (`games` games at PACE, its news and its
    standard error read apart; `modes_apply`: file modes hold for it even as root); every
    tower started is killed when the test is done."""
    started: list[Tower] = []

    def start(state: Path, games: int = 1, *, modes_apply: bool = False) -> Tower:
        tower = Tower(state=state, pace=PACE, games=games, stderr_apart=True,
                      modes_apply=modes_apply)  # fmt: skip
        started.append(tower)
        return tower

    yield start
    for tower in started:
        tower.kill()


def finishes_cleanly(tower: Tower) -> None:
    """The tower played its games and stopped by itself; no traceback; every event it
    announced (after its fsync) is in the journal, which replays."""
    err = tower.finish()
    assert tower.process.returncode == 0, err
    assert "Traceback" not in err and not any("Traceback" in line for line in tower.lines)
    journalled = journal_news(Journal(tower.state))
    assert tower.events() and is_in_order_within(tower.events(), journalled)
    assert read_game(Journal(tower.state).games()[-1]).game.over


@pytest.fixture(scope="module")
def good_game(tmp_path_factory) -> bytes:
    """The log of one whole game, played by the tower."""
    state = tmp_path_factory.mktemp("good")
    with Tower(state=state, pace=0, games=1) as tower:
        assert tower.wait_for_exit() == 0, tower.output
    return (state / "game-000001.jsonl").read_bytes()


def head(data: bytes, lines: int) -> bytes:
    return b"".join(data.splitlines(keepends=True)[:lines])


# Each: (what is put in the state directory, the sentence the tower says at start).
START_FAULTS: dict[str, tuple[Callable[[Path, bytes], None], str]] = {
    "bytes that are not UTF-8": (
        lambda s, good: (s / "game-000001.jsonl").write_bytes(head(good, 30) + b"\xff\xfe\n"),
        "game 1 could not be read: moved to quarantine/",
    ),
    "a line that is not JSON": (
        lambda s, good: (s / "game-000001.jsonl").write_bytes(head(good, 12) + b"oops\n"),
        "game 1 could not be read: moved to quarantine/",
    ),
    "a line that breaks the rules": (
        lambda s, good: (s / "game-000001.jsonl").write_bytes(good + good.splitlines()[1] + b"\n"),
        "game 1 could not be read: moved to quarantine/",
    ),
    "a game log that is a directory": (
        lambda s, good: (s / "game-000003.jsonl").mkdir(),
        "game 3 could not be read: moved to quarantine/",
    ),
    "a lucky-numbers note that is a directory": (
        lambda s, good: (s / "lucky-draft.json").mkdir(),
        "lucky-draft.json could not be read: moved to quarantine/",
    ),
    "a lucky-numbers note that is garbage": (
        lambda s, good: (s / "lucky-draft.json").write_bytes(b'\xff{"variant": "lon'),
        "The lucky numbers chosen before the restart are lost: choose them again",
    ),
    "a lucky-numbers note with a seat of no name (every press was a traceback, no game)": (
        lambda s, good: (s / "lucky-draft.json").write_text(
            '{"variant": "longo", "seats": [{"name": "Ann", "kind": "computer", "pad": ""}, '
            '{"name": " ", "kind": "computer", "pad": ""}], "lucky": {}, "after": null}'
        ),
        "The lucky numbers chosen before the restart are lost: choose them again",
    ),
    "a seats note that is a directory": (
        lambda s, good: (s / "game-000001.seats.json").mkdir(),
        "game-000001.seats.json could not be read: moved to quarantine/",
    ),
}


@pytest.mark.parametrize("fault", list(START_FAULTS))
def test_at_start_what_cannot_be_read_is_set_aside_in_one_sentence_and_the_tower_plays(
    tmp_path, good_game, tower_on, fault
):
    make, sentence = START_FAULTS[fault]
    make(tmp_path, good_game)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    tower = tower_on(tmp_path)
    finishes_cleanly(tower)
    assert tower.said(sentence)
    kept = tmp_path / "quarantine"
    for name, data in before.items():  # kept byte for byte for inspection
        assert (kept / name).read_bytes() == data


def test_a_second_tower_on_the_same_state_directory_is_refused_and_changes_nothing(
    tmp_path, tower_on
):
    """`run --config /etc/qwixx-tower/config.toml` typed beside the service, whose
    configuration names the same state_dir: both carried on the unfinished game and appended
    to its log, each taking the other's lines for damage. The second now says which tower
    holds the directory and stops; once the first is gone (killed: its lock left on disk
    holds nothing), a tower starts there and carries the game on."""
    first = tower_on(tmp_path, games=3)
    mid_game(first)
    second = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "run", "--plain", "--state-dir",
         str(tmp_path), "--games", "1", "--pace", "0"],
        capture_output=True, text=True, timeout=HANG,
    )  # fmt: skip
    assert second.returncode == 2, second.stdout + second.stderr
    assert second.stderr.strip() == (
        f"another tower is running on {tmp_path} (process {first.process.pid}): stop it first "
        "(Ctrl-C in its terminal, or sudo systemctl stop qwixx-tower for the kiosk's), or give "
        "this one its own --state-dir"
    )
    first.kill()
    played = (tmp_path / "game-000001.jsonl").read_bytes()
    assert read_game(tmp_path / "game-000001.jsonl").game  # replays: no stranger's lines
    assert (tmp_path / "tower.lock").exists()
    finishes_cleanly(tower_on(tmp_path))  # carried on, then played to its end
    assert (tmp_path / "game-000001.jsonl").read_bytes().startswith(played)


def test_a_second_tower_that_may_not_write_the_lock_is_refused_all_the_same(tmp_path, tower_on):
    """A maker's `run` as themself beside the service's directory, where they may read but
    not write: the lock is looked at read-only (flock takes that too), not skipped."""
    first = tower_on(tmp_path, games=3)
    mid_game(first)
    (tmp_path / "tower.lock").chmod(0o444)  # (root keeps its way in without DAC override)
    second = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "run", "--plain", "--state-dir",
         str(tmp_path), "--games", "1", "--pace", "0"],
        capture_output=True, text=True, timeout=HANG,
        preexec_fn=without_dac_override if ROOT else None,
    )  # fmt: skip
    assert second.returncode == 2, second.stdout + second.stderr
    assert second.stderr.startswith(f"another tower is running on {tmp_path} (process ")
    first.kill()


def test_a_seat_noted_at_a_level_this_tower_does_not_know_plays_at_the_default(
    tmp_path, good_game, tower_on
):
    """A seats note edited by hand (or written by a newer tower) with a computer seat at level
    "impossible": every one of that player's turns logged "a computer player's thought
    failed" and fell back on a default move. The seat plays at the default level."""
    (tmp_path / "game-000001.jsonl").write_bytes(head(good_game, 12))
    seats = [{"name": name, "kind": "computer", "pad": "", "level": "impossible"}
             for name in ("Ann", "Ben", "Cleo")]  # fmt: skip
    (tmp_path / "game-000001.seats.json").write_text(json.dumps(seats))
    tower = tower_on(tmp_path)
    finishes_cleanly(tower)
    assert "thought failed" not in tower.errors + "\n".join(tower.lines)


def test_at_start_an_empty_game_file_is_removed_without_a_word(tmp_path, tower_on):
    (tmp_path / "game-000001.jsonl").write_bytes(b"")  # stopped between creating and writing
    tower = tower_on(tmp_path)
    finishes_cleanly(tower)
    assert not tower.said("could not be read") and not (tmp_path / "quarantine").exists()
    assert [p.name for p in Journal(tmp_path).games()] == ["game-000001.jsonl"]


def test_at_start_an_unreadable_game_log_is_set_aside(tmp_path, good_game, tower_on):
    path = tmp_path / "game-000001.jsonl"
    path.write_bytes(head(good_game, 20))
    path.chmod(0)
    tower = tower_on(tmp_path, modes_apply=True)
    finishes_cleanly(tower)
    assert tower.said("game 1 could not be read: moved to quarantine/")
    assert (tmp_path / "quarantine" / "game-000001.jsonl").stat().st_mode & 0o777 == 0


def test_at_start_an_unreadable_state_directory_is_shown_until_it_can_be_used(tmp_path, tower_on):
    state = tmp_path / "state"
    state.mkdir(mode=0)
    tower = tower_on(state, modes_apply=True)
    tower.wait_until(lambda lines: any("Cannot save games:" in line for line in lines))
    assert tower.said(f"Cannot save games: the tower has no permission for {state}")
    state.chmod(0o755)
    finishes_cleanly(tower)


def remount(path: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(path)], check=True)


def test_at_start_a_full_disk_is_shown_and_the_tower_plays_once_there_is_room(tmp_path, tower_on):
    with tmpfs(tmp_path / "disk") as disk:
        filler = fill(disk)
        tower = tower_on(disk)
        tower.wait_until(lambda lines: any("Cannot save games:" in line for line in lines))
        assert tower.said("Cannot save games: the disk is full")
        time.sleep(1.5)  # a retry or two
        assert tower.process.poll() is None and Journal(disk).games() == []
        filler.unlink()
        finishes_cleanly(tower)
        assert tower.said("Saving works again: play goes on")


def test_at_start_a_read_only_state_directory_is_shown_until_it_can_be_written(tmp_path, tower_on):
    with tmpfs(tmp_path / "disk") as disk:
        remount(disk, "ro")
        tower = tower_on(disk)
        tower.wait_until(lambda lines: any("Cannot save games:" in line for line in lines))
        assert tower.said(f"Cannot save games: {disk} is read-only")
        remount(disk, "rw")
        finishes_cleanly(tower)


def test_at_start_on_a_read_only_disk_an_unreadable_game_is_skipped_where_it_is(
    tmp_path, good_game, tower_on
):
    with tmpfs(tmp_path / "disk") as disk:
        bad = head(good_game, 30) + b"\xff\xfe\n"
        (disk / "game-000001.jsonl").write_bytes(bad)
        remount(disk, "ro")
        tower = tower_on(disk)
        tower.wait_until(lambda lines: any("Cannot save games:" in line for line in lines))
        assert tower.said("game 1 could not be read: skipped")
        remount(disk, "rw")
        tower.process.wait(HANG)
        assert [p.name for p in Journal(disk).games()] == ["game-000001.jsonl", "game-000002.jsonl"]
        assert (disk / "game-000001.jsonl").read_bytes() == bad  # left as it was
        (disk / "game-000001.jsonl").unlink()  # (so that the journal can be checked)
        finishes_cleanly(tower)


def mid_game(tower: Tower, events: int = 10) -> None:
    tower.wait_until(lambda lines: sum(bool(EVENT_NEWS.match(line)) for line in lines) >= events)


def paused_then_carries_on(
    tower: Tower, fault: str, repair: Callable[[], None], keep_faulty: Callable[[], object] = list
) -> None:
    """The fault is announced; no event is announced while it lasts; after `repair` the tower
    says so and plays its game to the end. (A slow machine may let the log cross into a new
    page before the disk is full: the fault then comes a page of events later.)"""

    def announced(lines: list[str]) -> bool:
        keep_faulty()  # (until the fault is said: e.g. the disk filled again)
        return any(fault in line for line in lines)

    tower.wait_until(announced)
    tower.read_for(1.0)  # computer players at this pace would make dozens of events
    repair()
    tower.wait_until(lambda lines: any("Saving works again" in line for line in lines))
    start = next(i for i, line in enumerate(tower.lines) if fault in line)
    end = next(i for i, line in enumerate(tower.lines) if "Saving works again" in line)
    assert start < end and not [x for x in tower.lines[start:end] if EVENT_NEWS.match(x)]
    finishes_cleanly(tower)


def near_a_page_boundary(tower: Tower) -> None:
    """A game log is written into pages of 4 KiB: once the disk is full, a log can still grow
    to the end of its last page. Wait until the log is near that end, so that the game's next
    few events need a page the disk no longer has."""

    def near(lines: list[str]) -> bool:
        games = Journal(tower.state).games()
        return bool(games) and 3400 <= games[-1].stat().st_size < 4096

    tower.wait_until(near)


def test_mid_game_a_full_disk_pauses_the_tower_until_there_is_room(tmp_path, tower_on):
    with tmpfs(tmp_path / "disk") as disk:
        tower = tower_on(disk, games=4)
        near_a_page_boundary(tower)
        filler = fill(disk)
        # (should the game end in the last page, the next cannot begin: "cannot save games";
        # what the tower frees meanwhile, a note it rewrites, is taken by the filler too)
        paused_then_carries_on(tower, ": the disk is full", filler.unlink, lambda: fill(disk))


def test_a_game_resumed_on_a_read_only_disk_waits_until_it_can_write(tmp_path, tower_on):
    """A disk cannot be made read-only under a process writing to it (EBUSY), so the tower is
    stopped mid-game, the disk made read-only, and the tower started again: it shows the game
    it resumes cannot be saved, and carries on once the disk is writable."""
    with tmpfs(tmp_path / "disk") as disk:
        first = tower_on(disk)
        mid_game(first)
        first.kill()
        remount(disk, "ro")
        again = tower_on(disk)
        fault = "Cannot save the game: the disk is read-only"
        paused_then_carries_on(again, fault, lambda: remount(disk, "rw"))
        assert len(Journal(disk).games()) == 1  # the same game, carried on


def test_mid_game_a_state_directory_made_unreadable_pauses_the_tower(tmp_path, tower_on):
    state = tmp_path / "state"
    tower = tower_on(state, modes_apply=True)
    mid_game(tower)
    state.chmod(0)
    repair = lambda: state.chmod(0o755)  # noqa: E731
    paused_then_carries_on(tower, "Cannot save the game: the tower has no permission", repair)


def scribble(path: Path) -> None:
    with open(path, "ab") as file:
        file.write(b"\xff\xfe scribbled\n")


def replace_with_junk(path: Path) -> None:
    junk = path.with_name("junk")
    junk.write_bytes(b"\xff\xfe not a game\n")
    os.replace(junk, path)


def replace_with_a_directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


# Each: what happens to the log of the game being played, and what the tower says about it.
LOG_FAULTS: dict[str, tuple[Callable[[Path], None], str]] = {
    "deleted": (Path.unlink, REWRITTEN),
    "moved away": (lambda path: path.rename(path.with_name("moved")), REWRITTEN),
    "replaced by junk": (replace_with_junk, REPLACED),
    "written into by something else": (scribble, REPLACED),
    "replaced by a directory": (replace_with_a_directory, REPLACED),
}


@pytest.mark.parametrize("fault", list(LOG_FAULTS))
def test_mid_game_a_log_that_changes_under_the_tower_is_written_again_losing_nothing(
    tmp_path, tower_on, fault
):
    harm, words = LOG_FAULTS[fault]
    tower = tower_on(tmp_path)
    mid_game(tower)
    harm(tmp_path / "game-000001.jsonl")
    finishes_cleanly(tower)  # every event announced, before and after, is in the log
    assert tower.said(words.capitalize()) or tower.said(words)


def test_mid_game_a_log_made_unreadable_changes_nothing(tmp_path, tower_on):
    tower = tower_on(tmp_path, modes_apply=True)
    mid_game(tower)
    (tmp_path / "game-000001.jsonl").chmod(0)  # the tower's open file still takes its events
    finishes_cleanly(tower)


def test_mid_game_a_directory_where_the_next_game_s_notes_go_does_not_stop_it(tmp_path, tower_on):
    tower = tower_on(tmp_path, games=2)
    mid_game(tower)
    (tmp_path / "game-000002.seats.json").mkdir()
    (tmp_path / "lucky-draft.json").mkdir()
    finishes_cleanly(tower)
    assert [p.name for p in Journal(tmp_path).games()] == ["game-000001.jsonl", "game-000002.jsonl"]


def test_history_never_crashes_on_any_of_it(tmp_path, good_game):
    (tmp_path / "game-000001.jsonl").write_bytes(good_game)
    (tmp_path / "game-000002.jsonl").write_bytes(head(good_game, 30) + b"\xff\xfe\n")
    (tmp_path / "game-000003.jsonl").mkdir()
    (tmp_path / "game-000004.jsonl").write_bytes(head(good_game, 12) + b"oops\n")
    (tmp_path / "game-000005.jsonl").write_bytes(good_game)
    (tmp_path / "game-000005.jsonl").chmod(0)
    os.mkfifo(tmp_path / "game-000006.jsonl")
    (tmp_path / "game-000007.jsonl").write_bytes(b"")  # stopped before its start: no game
    (tmp_path / "lucky-draft.json").mkdir()
    done = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "history", "--state-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=HANG,
        preexec_fn=without_dac_override if ROOT else None,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr
    # (a game's scores go on under it, indented, when its line passes 80 columns: a tie
    # named "won by Ann and Cleo" does)
    lines = [line for line in done.stdout.splitlines() if not line.startswith(" ")]
    assert lines[0].startswith("game-000001 ") and re.search(r" classic +won by ", lines[0])
    assert lines[1:] == [
        "game-000002  unreadable: game-000002.jsonl: line 31: not UTF-8 text (byte 1 of the line)",
        "game-000003  unreadable: game-000003.jsonl: it is a directory, not a file",
        "game-000004  unreadable: game-000004.jsonl: line 13: not valid JSON "
        "(Expecting value at column 1)",
        "game-000005  unreadable: game-000005.jsonl: Permission denied",
        "game-000006  unreadable: game-000006.jsonl: it is not a regular file",
    ]
