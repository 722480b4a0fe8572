"""`qwixx-tower history` with figures, as a user meets it: a player's games, wins, bests,
head to head and heat-map as text within 80 columns (`--player NAME`, names alike being one
player), one game's breakdown and story (`--game N`), every game or player as JSON for scripts
and CSV for a spreadsheet; what is left out said, and a name nobody had said in one sentence."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sys
import threading

from support import HANG, spawn
from support.paths import GOLDEN

from firmware_py.app.history_reading import refresh_saying
from firmware_py.journal import figures, index
from firmware_py.journal.index import HistoryIndex, Progress

KNOWN = GOLDEN / "story-game.jsonl"  # Ann 29, Ben 47, Cleo 43: Ben won


def history(state, *args: str):
    return spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "history", "--state-dir", str(state), *args],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def journal_of_three_games(state) -> None:
    """Games 1 and 2 the known game, game 3 abandoned half-way."""
    state.mkdir(exist_ok=True)
    shutil.copyfile(KNOWN, state / "game-000001.jsonl")
    shutil.copyfile(KNOWN, state / "game-000002.jsonl")
    lines = KNOWN.read_text().splitlines(keepends=True)
    (state / "game-000003.jsonl").write_text("".join(lines[:10]))
    (state / "game-000003.abandoned").touch()


def test_a_players_figures_as_text_within_80_columns(tmp_path):
    journal_of_three_games(tmp_path)
    result = history(tmp_path, "--player", "BEN")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Ben: 2 games, 2 wins (100 %)"
    assert lines[3].split()[:4] == ["classic", "2", "47", "47"]
    assert any(line.split()[:5] == ["Ann", "2", "2", "0", "0"] for line in lines)
    heading = lines.index("where the crosses went on classic (2 games): % of the games each number")
    assert lines[heading + 1] == "was crossed or skipped (the rest: left open)"
    red, crossed, skipped = (line.split() for line in lines[heading + 2 : heading + 5])
    assert red == ["R", *map(str, range(2, 13))]  # Ben's red in both games: 5 to 12 but 8
    assert crossed == ["crossed", "0", "0", "0", "100", "100", "100", "0", "100", "100", "100",
                       "100"]  # fmt: skip
    assert skipped == ["skipped", "100", "100", "100", "0", "0", "0", "100", "0", "0", "0", "0"]
    assert max(len(line) for line in lines) <= 80


def test_a_name_nobody_had_is_said_in_one_sentence(tmp_path):
    journal_of_three_games(tmp_path)
    result = history(tmp_path, "--player", "Zed")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines()[-1] == "no finished game has a player named 'Zed'"


def test_every_player_as_text_says_what_is_left_out(tmp_path):
    journal_of_three_games(tmp_path)
    lines = history(tmp_path, "--players").stdout.splitlines()
    assert lines[0].split() == ["Ann", "2", "games", "0", "wins", "0", "%"]
    assert lines[-1] == "Left out of the figures: 1 game abandoned."


def test_one_game_and_one_win_are_said_as_one(tmp_path):
    shutil.copyfile(KNOWN, tmp_path / "game-000001.jsonl")
    (tmp_path / "quarantine").mkdir()
    (tmp_path / "quarantine" / "game-000002.jsonl").write_text("not a game\n")
    lines = history(tmp_path, "--players").stdout.splitlines()
    assert lines[2].split() == ["Ben", "1", "game", "1", "win", "100", "%"]
    assert [line.index("win") for line in lines[0:6:2]] == [lines[0].index("win")] * 3  # a column
    assert [line.index("%") for line in lines[0:6:2]] == [lines[0].index("%")] * 3
    assert lines[-1] == "Left out of the figures: 1 game set aside in quarantine/."
    assert (
        history(tmp_path, "--player", "Ann").stdout.splitlines()[0] == "Ann: 1 game, 0 wins (0 %)"
    )


def test_no_finished_game_yet_is_said(tmp_path):
    assert history(tmp_path, "--players").stdout == f"No finished games yet in {tmp_path}.\n"


def test_a_games_story_in_block_characters_and_in_words(tmp_path):
    journal_of_three_games(tmp_path)
    text = history(tmp_path, "--game", "2").stdout
    assert text.startswith("game 2: ")
    assert "Ben won with 47 points." in text and "Roll 18: Ben locked red." in text
    refused = history(tmp_path, "--game", "3")
    assert refused.returncode == 1
    assert refused.stderr.endswith(
        "game 3 was abandoned before its end: it is not in the figures\n"
    )


def test_json_for_scripts_has_every_game_and_what_each_player_crossed(tmp_path):
    journal_of_three_games(tmp_path)
    data = json.loads(history(tmp_path, "--json").stdout)
    assert [(game["number"], game["state"]) for game in data["games"]] == [
        (1, "over"), (2, "over"), (3, "abandoned"),
    ]  # fmt: skip
    ben = data["games"][0]["players"][1]
    assert (ben["name"], ben["total"], ben["locked"]) == ("Ben", 47, ["red"])
    assert data["left_out"]["abandoned"] == [3]
    player = json.loads(history(tmp_path, "--player", "cleo", "--json").stdout)
    assert (player["name"], player["games"], player["wins"]) == ("Cleo", 2, 0)


def test_csv_for_a_spreadsheet_has_a_row_per_game_and_player(tmp_path):
    journal_of_three_games(tmp_path)
    rows = list(csv.DictReader(io.StringIO(history(tmp_path, "--csv").stdout)))
    assert [(row["game"], row["player"], row["total"]) for row in rows[:3]] == [
        ("1", "Ann", "29"), ("1", "Ben", "47"), ("1", "Cleo", "43"),
    ]  # fmt: skip
    assert {row["state"] for row in rows if row["game"] == "3"} == {"abandoned"}
    story = list(csv.reader(io.StringIO(history(tmp_path, "--game", "1", "--csv").stdout)))
    assert story[0] == ["roll", "Ann", "Ben", "Cleo"] and story[-1] == ["21", "29", "47", "43"]


def test_json_and_csv_together_are_a_mistake_in_one_sentence(tmp_path):
    result = history(tmp_path, "--json", "--csv")
    assert result.returncode == 2 and "not allowed with argument" in result.stderr


def journal_of(state, games: int) -> None:
    state.mkdir(exist_ok=True)
    for number in range(1, games + 1):
        shutil.copyfile(KNOWN, state / f"game-{number:06d}.jsonl")


def test_reading_a_journal_with_no_index_is_said_on_stderr_and_leaves_an_index(tmp_path):
    journal_of(tmp_path, 12)
    first = history(tmp_path, "--players", "--json")
    assert first.returncode == 0, first.stderr
    assert len(json.loads(first.stdout)["players"]) == 3  # stdout is only the figures
    told = first.stderr.splitlines()
    assert told[-1] == ("Read 12 games from the journal and indexed them in history-index.jsonl.")
    assert len(told) <= 6 and all(len(line) <= 80 for line in told)  # no flood, 80 columns
    assert (tmp_path / "history-index.jsonl").exists()
    again = history(tmp_path, "--players", "--json")
    assert again.returncode == 0 and again.stderr == ""  # the index read: nothing to say
    assert again.stdout == first.stdout


def test_a_game_new_since_the_index_is_read_without_a_word(tmp_path):
    journal_of(tmp_path, 2)
    history(tmp_path, "--players")
    shutil.copyfile(KNOWN, tmp_path / "game-000003.jsonl")
    result = history(tmp_path, "--player", "Ben")
    assert result.returncode == 0 and result.stderr == ""


def test_what_is_said_while_indexing_reads_right_for_none_one_and_many_games(tmp_path):
    """`Read 1 game ... and indexed it`, not `them`; an empty journal has nothing to index."""
    for games, said in ((1, "indexed it in"), (2, "indexed them in")):
        state = tmp_path / str(games)
        journal_of(state, games)
        told = history(state, "--players").stderr.splitlines()
        assert (
            told[-1] == f"Read {games} game{'s' * (games > 1)} from the journal and {said} "
            "history-index.jsonl."
        ), told
    state = tmp_path / "0"
    state.mkdir()
    empty = history(state, "--players")
    assert empty.returncode == 0 and empty.stderr == "" and "No finished games" in empty.stdout


def test_the_sheet_column_fits_the_longest_sheet_name_and_every_line_80_columns(tmp_path):
    """The sheet column was 10 characters: a game of Qwixx Connected (`connected-steps`, 15)
    pushed its row 5 columns right of the others, and the games' lines passed 80 columns. Now
    the column is as wide as the longest name listed, every row's next column starts at the
    same place, and a game's scores that would pass 80 columns go on under their column."""
    lines = KNOWN.read_text().splitlines(keepends=True)
    (tmp_path / "game-000001.jsonl").write_text(
        lines[0].replace('"classic"', '"connected-steps"') + "".join(lines[1:])
    )
    shutil.copyfile(KNOWN, tmp_path / "game-000002.jsonl")
    games = history(tmp_path).stdout.splitlines()
    assert [line.split()[:3] for line in games[0::2]] == [
        ["game-000001", "connected-steps", "won"], ["game-000002", "classic", "won"],
    ]  # fmt: skip
    assert games[0].index("won") == games[2].index("won") == games[0].index("connected") + 16
    assert games[1].strip() == "Cleo 49" and games[1].index("Cleo") == games[0].index("Ann 39")
    everyone = history(tmp_path, "--players").stdout.splitlines()
    sheets = [line for line in everyone if line.startswith("    ")]
    assert len(sheets) == 6 and {line.index(", mean") for line in sheets} == {4 + 15 + 1 + 10}
    ben = history(tmp_path, "--player", "Ben").stdout.splitlines()
    table = [line.split()[:4] for line in ben[3:5]]
    assert table == [["connected-steps", "1", "50", "50"], ["classic", "1", "47", "47"]]
    assert ben[3].index("50") == ben[4].index("47") and ben[2].index("games") == 16
    assert max(len(line) for line in games + everyone + ben) <= 80


class WatchedIndex(HistoryIndex):
    """An index whose reading of a game waits until someone looked at its progress while it
    read: the reading on a machine so busy that `history` looked before it was done."""

    def __init__(self, directory) -> None:
        self.looked_while_busy = threading.Event()
        super().__init__(directory)

    @property
    def progress(self) -> Progress:
        if self._progress.busy:
            self.looked_while_busy.set()
        return self._progress

    @progress.setter
    def progress(self, progress: Progress) -> None:
        self._progress = progress


def test_a_game_new_since_the_index_is_read_without_a_word_however_slow_the_machine(
    tmp_path, monkeypatch
):
    """At load 20 the game new since the index was said ("Reading 1 game ..."): a look at the
    progress had found it being read. What is said follows from what there is to read."""
    journal_of(tmp_path, 2)
    HistoryIndex(tmp_path).refresh()
    shutil.copyfile(KNOWN, tmp_path / "game-000003.jsonl")
    watched = WatchedIndex(tmp_path)

    def read_once_looked_at(*args, **kwargs):
        watched.looked_while_busy.wait(HANG)
        return figures.read_summary(*args, **kwargs)

    monkeypatch.setattr(index, "read_summary", read_once_looked_at)
    said = io.StringIO()
    refresh_saying(watched, said)
    assert watched.looked_while_busy.is_set()  # (the test proves something)
    assert said.getvalue() == ""
    assert [summary.number for summary in watched.summaries] == [1, 2, 3]
