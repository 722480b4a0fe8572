"""The tower and the outside referee (outside_referee.py) over the same log lines: at every
decision both offer the same marks, every line is legal to both, and the end scores alike."""

from __future__ import annotations

from firmware_py.journal.lines import parse_event
from firmware_py.rules import ACTION1, ACTION2, Game, Start, game_report
from support.outside_referee import OutsideReferee

SHEETS_IT_READS = (
    "classic",
    "longo",
    "mixx-a",
    "mixx-b",
    "big-points",
    "double-a",
    "double-b",
    "x-change",
    "connected-steps",
    "connected-chain",
)


def hold_to_the_outside_referee(lines: list[dict]) -> Game:
    """Play a whole game's log lines on both; fail at the first line where they differ."""
    start = parse_event(lines[0])
    assert isinstance(start, Start)
    game, other = Game.start(start), OutsideReferee(lines[0])
    for number, line in enumerate(lines[1:], 2):
        if game.phase in (ACTION1, ACTION2):
            for name in game.waiting_for():
                tower = {(m.row, m.number, m.swap, m.lucky) for m in game.legal_marks(name)}
                theirs = other.legal(name)
                assert tower == theirs, (
                    f"line {number}: {name} may make {sorted(tower - theirs)} at the tower "
                    f"only, {sorted(theirs - tower)} at the outside referee only"
                )
        other.line(line)
        game.apply(parse_event(line))
    _same_scores(game, other)
    return game


def _same_scores(game: Game, other: OutsideReferee) -> None:
    report = game_report(game)
    assert (other.phase == "over") == report["over"]
    for name, theirs in other.scores().items():
        ours = report["players"][name]
        assert {row: r["points"] for row, r in ours["rows"].items()} == theirs["rows"], name
        assert ours.get("steps", {}).get("points", 0) == theirs["steps"], name
        assert ours["total"] == theirs["total"], name
