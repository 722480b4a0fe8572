"""The history's index: each game log read once into a summary and kept beside the logs; the
logs stay the one source of truth (the index is written from them, read back only for logs
it still matches, and read afresh from them when it is missing, of another format or broken);
games that do not count are kept apart, by why."""

from __future__ import annotations

import json
import shutil

import pytest
from support.paths import GOLDEN

from firmware_py.journal import figures, index
from firmware_py.journal.figures import ABANDONED, OVER, QUARANTINED, UNFINISHED, UNREADABLE
from firmware_py.journal.index import INDEX, HistoryIndex
from firmware_py.journal.journal import Journal, read_game
from firmware_py.rules import Pass, Roll, Start

ALL_ONES = Roll((1, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1})
KNOWN = GOLDEN / "story-game.jsonl"  # Ann 29, Ben 47, Cleo 43: Ben won


def solo_game(journal: Journal, name: str = "Solo", turns: int = 4) -> None:
    """A game of one player who crosses nothing: four turns end it (-20)."""
    with journal.begin(Start("classic", (name,))) as log:
        for _ in range(turns):
            for event in (ALL_ONES, Pass(name), Pass(name)):
                log.append(event)


def known_game(directory, number: int) -> None:
    shutil.copyfile(KNOWN, directory / f"game-{number:06d}.jsonl")


@pytest.fixture
def journal(tmp_path):
    """Games 1 and 2 finished (the known game, a solo game), 3 abandoned, 4 unreadable, 5
    set aside in quarantine/, 6 unfinished (the newest)."""
    journal = Journal(tmp_path)
    known_game(tmp_path, 1)
    journal._newest = None
    solo_game(journal)
    solo_game(journal, turns=2)
    journal.abandon(tmp_path / "game-000003.jsonl")
    (tmp_path / "game-000004.jsonl").write_text('{"event": "start"}\n')
    (tmp_path / "quarantine").mkdir()
    (tmp_path / "quarantine" / "game-000005.jsonl").write_text("not json\n")
    journal._newest = None
    solo_game(journal, turns=1)
    return journal


def test_each_log_is_summed_up_as_its_replay_says(journal, tmp_path):
    summaries = HistoryIndex(tmp_path).refresh()
    assert [(s.number, s.state) for s in summaries] == [
        (1, OVER), (2, OVER), (3, ABANDONED), (4, UNREADABLE), (5, QUARANTINED), (6, UNFINISHED),
    ]  # fmt: skip
    known = summaries[0]
    game = read_game(tmp_path / "game-000001.jsonl").game
    assert [(seat.name, seat.total) for seat in known.players] == [
        (p.name, game.total(p.name)) for p in game.players
    ]
    assert known.winners == ("Ben",) and known.rolls == 21 and known.variant == "classic"
    ben = game.player("Ben")
    assert known.players[1].rows == tuple(r & ~b for r, b in zip(ben.rows, ben.lock_bits,
                                                                 strict=True))  # fmt: skip
    assert known.players[1].locked == 0b0001  # red
    assert summaries[1].players[0].total == -20 and summaries[1].players[0].penalties == 4
    assert "line 1" in summaries[3].why
    assert [s.counts for s in summaries] == [True, True, False, False, False, False]


def test_a_log_the_tower_created_but_never_wrote_is_no_game(tmp_path):
    (tmp_path / "game-000001.jsonl").write_bytes(b"")
    assert HistoryIndex(tmp_path).refresh() == ()


def test_the_index_is_kept_and_read_back_without_reading_the_logs_again(journal, tmp_path,
                                                                         monkeypatch):  # fmt: skip
    first = HistoryIndex(tmp_path).refresh()
    assert (tmp_path / INDEX).exists()
    header, *lines = (tmp_path / INDEX).read_text().splitlines()
    assert json.loads(header) == {"history-index": index.FORMAT}
    assert len(lines) == 4  # the unfinished game is read again at every start: it grows

    def never(*args, **kwargs):
        raise AssertionError("a log the index matches was read again")

    monkeypatch.setattr(index, "read_summary", lambda *a, **k: never() if "000006" not in
                        str(a[0]) else figures.read_summary(*a, **k))  # fmt: skip
    assert HistoryIndex(tmp_path).refresh() == first


def test_the_index_never_changes_a_log(journal, tmp_path):
    logs = {path.name: path.read_bytes() for path in tmp_path.glob("game-*")}
    HistoryIndex(tmp_path).refresh()
    (tmp_path / INDEX).write_text("garbage\n")
    HistoryIndex(tmp_path).refresh()
    assert {path.name: path.read_bytes() for path in tmp_path.glob("game-*")} == logs


@pytest.mark.parametrize(
    "index_text",
    ["", "not json\n", '{"history-index": 999}\n', '{"history-index": 1}\n{"log": 3}\n',
     "[" * 100_000 + "\n", '{"history-index": 1}\n' + "[" * 100_000 + "\n",
     '{"history-index": 1}\n{"log": "game-000001.jsonl", "size": Infinity, "time": 0, '
     '"abandoned": false, "game": {}}\n'],
    ids=["empty", "garbage", "another format", "a broken line", "a header nested too deeply",
         "a line nested too deeply", "a size of Infinity"],
)  # fmt: skip
def test_an_index_that_cannot_be_trusted_is_read_afresh_from_the_logs(journal, tmp_path,
                                                                     index_text):  # fmt: skip
    truth = HistoryIndex(tmp_path).refresh()
    (tmp_path / INDEX).write_text(index_text)
    assert HistoryIndex(tmp_path).refresh() == truth


@pytest.mark.parametrize("index_text", ["", "not json\n", '{"history-index": 999}\n'])
def test_an_index_read_afresh_is_written_again_whole_for_the_next_start(journal, tmp_path,
                                                                        index_text):  # fmt: skip
    """Found by fuzzing: an index left empty (a power cut) or of another format had the fresh
    lines appended after it, with no header of this format, so every later start read every
    log again (half a minute with 10,000 games) and the file grew at each."""
    (tmp_path / INDEX).write_text(index_text)
    HistoryIndex(tmp_path).refresh()
    header = (tmp_path / INDEX).read_text().splitlines()[0]
    assert json.loads(header) == {"history-index": index.FORMAT}


def test_a_stale_index_follows_the_logs_at_the_next_start(journal, tmp_path):
    HistoryIndex(tmp_path).refresh()
    (tmp_path / "game-000002.jsonl").unlink()
    known_game(tmp_path, 4)  # the unreadable log replaced by a good one
    summaries = HistoryIndex(tmp_path).refresh()
    assert [(s.number, s.state) for s in summaries if s.number in (2, 4)] == [(4, OVER)]
    assert summaries[[s.number for s in summaries].index(4)].winners == ("Ben",)


def test_while_running_new_games_and_the_growing_one_are_read_as_they_come(journal, tmp_path):
    history = HistoryIndex(tmp_path)
    history.refresh()
    version = history.version
    assert history.refresh() and history.version == version  # nothing changed: nothing read
    with open(tmp_path / "game-000006.jsonl", "a") as log:  # the unfinished game goes on
        log.write("".join(json.dumps(line) + "\n" for line in (
            {"event": "roll", "dice": {"white": [1, 1], "red": 1, "yellow": 1, "green": 1,
                                       "blue": 1}},
            {"event": "pass", "player": "Solo"}, {"event": "pass", "player": "Solo"},
        )))  # fmt: skip
    counted = history.figures_version
    assert history.refresh()[-1].players[0].penalties == 2 and history.version > version
    assert history.figures_version == counted  # a game being played changes no figure
    Journal(tmp_path).begin(Start("classic", ("Ann", "Ben"))).close()
    assert history.refresh()[-1].number == 7


def test_reading_counts_its_progress(journal, tmp_path):
    history = HistoryIndex(tmp_path)
    assert not history.progress.busy
    history.refresh()
    assert history.progress.read == history.progress.to_read == 5
    assert not history.progress.busy


def test_an_index_that_cannot_be_written_is_only_said(journal, tmp_path, caplog):
    (tmp_path / INDEX).mkdir()  # a directory where the index goes
    summaries = HistoryIndex(tmp_path).refresh()
    assert len(summaries) == 6
    assert "cannot be written" in caplog.text
