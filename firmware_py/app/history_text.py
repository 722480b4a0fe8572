"""`qwixx-tower history`'s figures: every player (`--players`), one player (`--player NAME`),
one game (`--game N`), as text for a person, JSON for scripts (`--json`) or CSV for a
spreadsheet (`--csv`). The same figures as the phones' history pages, from the same index of
the journal (`journal/standings.py`), names that look alike being one player as at the table.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from firmware_py.app.history_reading import refresh_saying
from firmware_py.journal.figures import GameSummary, HeatMap, PlayerHistory, PlayerLine
from firmware_py.journal.index import HistoryIndex
from firmware_py.journal.standings import Standings
from firmware_py.seats.names import clean_name, looks
from firmware_py.show.blocks import bar, breakdown_lines, in_cells, story_lines
from firmware_py.show.figures_html import trend_in_words
from firmware_py.show.svg import breakdown_words, story_words
from firmware_py.story import GameStory
from firmware_py.words import plural
from sheets import COLOURS, SheetError, load_sheet

FORMATS = ("text", "json", "csv")
NAME_CELLS = 14


def standings(state_dir: Path, err: TextIO | None = None) -> Standings:
    """The figures of the journal in `state_dir`, its index brought up to its logs first (a
    long read of the logs told on `err`, if given)."""
    index = HistoryIndex(state_dir)
    if err is None:
        index.refresh()
    else:
        refresh_saying(index, err)
    return Standings(index, looks)


def show_players(figures: Standings, out: TextIO, form: str = "text") -> int:
    """Every player: games, wins, and per sheet the games, mean and best."""
    lines = figures.everyone()
    if form == "json":
        _json(out, {"players": [dataclasses.asdict(line) for line in lines],
                    "left_out": dataclasses.asdict(figures.left_out())})  # fmt: skip
    elif form == "csv":
        _csv(out, ("player", "games", "wins", "sheet", "sheet games", "mean", "best"),
             _player_rows(lines))  # fmt: skip
    else:
        if not lines:
            out.write(f"No finished games yet in {figures.index.directory}.\n")
        sheet = _sheet_column(s.variant for line in lines for s in line.sheets)
        for line in lines:
            rate = round(100 * line.win_rate)
            games, wins = _counted(line.games, "game"), _counted(line.wins, "win")
            out.write(f"{in_cells(line.name, NAME_CELLS)} {games} {wins} {rate:>3} %\n")
            out.writelines(f"    {s.variant:<{sheet}} {plural(s.games, 'game'):>10}, mean "
                           f"{round(s.mean)}, best {s.best}\n" for s in line.sheets)  # fmt: skip
        _left_out(figures, out)
    return 0


def _sheet_column(variants: Iterable[str]) -> int:
    """The sheet column's width: the longest sheet name in it ('connected-steps')."""
    return max(map(len, variants), default=0)


def _counted(count: int, word: str) -> str:
    """A count in a column and its word, one or many ("    1 game ", "   12 games")."""
    return f"{count:>5,} {word if count == 1 else word + 's':<{len(word) + 1}}"


def _player_rows(lines: Iterable[PlayerLine]) -> Iterator[Sequence[object]]:
    for line in lines:
        for sheet in line.sheets:
            yield (line.name, line.games, line.wins, sheet.variant, sheet.games,
                   round(sheet.mean, 1), sheet.best)  # fmt: skip


def show_player(figures: Standings, name: str, out: TextIO, form: str = "text") -> int:
    """One player's figures; exit status 1 (and a sentence on standard error) when no game
    that counts has them."""
    history = figures.player(clean_name(name))
    if history is None:
        print(f"no finished game has a player named {clean_name(name)!r}", file=sys.stderr)
        return 1
    if form == "json":
        _json(out, dataclasses.asdict(history))
    elif form == "csv":
        _csv(out, ("figure", "sheet", "row", "number", "against", "value"), _figures_rows(history))
    else:
        out.writelines(line + "\n" for line in player_text(history))
    return 0


def player_text(history: PlayerHistory) -> list[str]:
    """A player's figures as lines of text of at most 80 columns."""
    rate = round(100 * history.win_rate)
    lines = [f"{history.name}: {plural(history.games, 'game')}, {plural(history.wins, 'win')} "
             f"({rate} %)"]  # fmt: skip
    alike = [name for name in history.seated_as if name != history.name]
    if alike:
        lines.append(f"  also seated as {', '.join(alike)}")
    lines.append("")
    wide = _sheet_column(["sheet", *(sheet.variant for sheet in history.sheets)])
    lines.append(f"{'sheet':<{wide}} {'games':>5} {'mean':>5} {'best':>5}  trend")
    most = max(sheet.best for sheet in history.sheets)
    for sheet in history.sheets:
        lines.append(f"{sheet.variant:<{wide}} {sheet.games:>5} {round(sheet.mean):>5} "
                     f"{sheet.best:>5}  {trend_in_words(sheet):<8} "
                     f"{bar(round(sheet.mean), most, 20)}")  # fmt: skip
    lines += ["", "head to head      games  ahead behind level"]
    lines += [f"{in_cells(r.name, 16)}  {r.games:>5} {r.ahead:>6} {r.behind:>6} {r.level:>5}"
              for r in history.rivals]  # fmt: skip
    for heat in history.heat:
        lines += ["", *heat_text(heat)]
    return lines


def heat_text(heat: HeatMap) -> list[str]:
    """A sheet's heat-map as text: each row's numbers, and under each the share of games it
    was crossed and the share it was skipped, in per cent (the rest of the games it was left
    open), as the phones' heat-map tells the three apart."""
    games = plural(heat.games, "game")
    lines = [f"where the crosses went on {heat.variant} ({games}): % of the games each number",
             "was crossed or skipped (the rest: left open)"]  # fmt: skip
    for row, numbers in enumerate(heat.numbers()):
        counts = heat.cells[row]
        lines.append(f"  {COLOURS[row][0].upper():<8}" + "".join(f"{n:>4}" for n in numbers))
        for state, label in enumerate(("crossed", "skipped")):
            lines.append(f"  {label:<8}" + "".join(
                f"{round(100 * c[state] / max(1, heat.games)):>4}" for c in counts))  # fmt: skip
    return lines


def _figures_rows(history: PlayerHistory) -> Iterator[Sequence[object]]:
    """A player's figures in long form, a figure a row, for a spreadsheet's pivot table."""
    yield ("games", "", "", "", "", history.games)
    yield ("wins", "", "", "", "", history.wins)
    for sheet in history.sheets:
        yield ("games", sheet.variant, "", "", "", sheet.games)
        yield ("mean", sheet.variant, "", "", "", round(sheet.mean, 1))
        yield ("best", sheet.variant, "", "", "", sheet.best)
    for rival in history.rivals:
        for figure in ("games", "ahead", "behind", "level"):
            yield (figure, "", "", "", rival.name, getattr(rival, figure))
    for heat in history.heat:
        for row, numbers in enumerate(heat.numbers()):
            colour = COLOURS[row]
            for number, counts in zip(numbers, heat.cells[row], strict=False):
                for figure, count in zip(("crossed", "skipped", "left open"), counts,
                                         strict=True):  # fmt: skip
                    yield (figure, heat.variant, colour, number, "", count)


def show_game(figures: Standings, number: int, out: TextIO, form: str = "text") -> int:
    """One game's breakdown and story; exit status 1 (and why) when it has none."""
    answer = figures.game(number)
    story = answer.story
    if story is None:
        print(answer.why, file=sys.stderr)
        return 1
    if form == "json":
        _json(out, dataclasses.asdict(story))
    elif form == "csv":
        _csv(out, ("roll", *story.names), ((roll, *totals) for roll, totals
                                            in enumerate(story.totals)))  # fmt: skip
    else:
        out.writelines(line + "\n" for line in game_text(story))
    return 0


def game_text(story: GameStory) -> list[str]:
    """A game's figures as the terminal draws them at its end, and in words."""
    breakdown = story.breakdown
    return [f"game {story.number}: {breakdown.title}", *breakdown_lines(breakdown), "",
            *story_lines(story), "", breakdown_words(breakdown), story_words(story)]  # fmt: skip


def show_games(figures: Standings, out: TextIO, form: str) -> int:
    """Every game's summary, as JSON or CSV (the text is `history` without options)."""
    summaries = figures.summaries
    if form == "json":
        _json(out, {"games": [summary_json(s) for s in summaries],
                    "left_out": dataclasses.asdict(figures.left_out())})  # fmt: skip
        return 0
    head = ("game", "began", "sheet", "state", "player", "total", "penalties", "won")
    _csv(out, head, _game_rows(summaries))
    return 0


def summary_json(summary: GameSummary) -> dict[str, Any]:
    """A game's summary for scripts: each player's crossed numbers per row (by the row's
    colour) and the rows whose lock they crossed, rather than the index's bit masks."""
    data = dataclasses.asdict(summary)
    try:
        rows = [row.numbers for row in load_sheet(summary.variant).rows]
    except SheetError:
        return data
    data["players"] = [
        {"name": seat.name, "total": seat.total, "penalties": seat.penalties,
         "crossed": {colour: [n for p, n in enumerate(rows[row]) if seat.rows[row] >> p & 1]
                     for row, colour in enumerate(COLOURS)},
         "locked": [colour for row, colour in enumerate(COLOURS) if seat.locked >> row & 1]}
        for seat in summary.players
    ]  # fmt: skip
    return data


def _game_rows(summaries: Iterable[GameSummary]) -> Iterator[Sequence[object]]:
    """A row per game and player (a game no player could be read of: a row of its own)."""
    for s in summaries:
        for seat in s.players:
            yield (s.number, s.began, s.variant, s.state, seat.name, seat.total,
                   seat.penalties, seat.name in s.winners)  # fmt: skip
        if not s.players:
            yield (s.number, s.began, s.variant, s.state, "", "", "", "")


def _left_out(figures: Standings, out: TextIO) -> None:
    words = figures.left_out().words()
    if words:
        out.write(words + "\n")


def _json(out: TextIO, data: Any) -> None:
    json.dump(data, out, ensure_ascii=False, indent=1)
    out.write("\n")


def _csv(out: TextIO, head: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(head)
    writer.writerows(rows)
