"""The rules engine: pure Python, no I/O, clock, randomness or hardware.

`Game` holds the state of one game; `apply(event)` changes it or raises `Refused` with the
rule that was broken; `legal_marks(name)` lists what a player may do now.

One job per module:
- game.py: `Game`, the state and the turn (roll, action 1, action 2, next player);
  state.py: the phases and `GameState`, the state as values;
- moves.py: the legal moves; crossing.py: a cross and what it sets off (bonus boxes);
  checks.py: the checks of an event and the words of a refusal; lineup.py: who may play;
- player.py: one player's sheet; scoring.py: points; report.py: the replay report;
- tables.py: the lookup tables built once per sheet, which the modules above share;
- rollout.py: random playouts for computer players, by the referee's own steps or, on plain
  sheets, on integers (plain.py), both drawing their dice and choices as draws.py says.
"""

from .errors import ChoiceNeeded, Refused
from .events import Event, Mark, Pass, Roll, Start, Undo
from .game import ACTION1, ACTION2, OVER, ROLL, EndReason, Game, GameState, Phase
from .lineup import seat_pads
from .report import game_report

__all__ = [
    "ACTION1",
    "ACTION2",
    "OVER",
    "ROLL",
    "ChoiceNeeded",
    "EndReason",
    "Event",
    "Game",
    "GameState",
    "Mark",
    "Pass",
    "Phase",
    "Refused",
    "Roll",
    "Start",
    "Undo",
    "game_report",
    "seat_pads",
]
