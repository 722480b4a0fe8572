"""The rules engine: pure Python, no I/O, clock, randomness or hardware.

`Game` holds the state of one game; `apply(event)` changes it or raises `Refused` with the
rule that was broken; `legal_marks(name)` lists what a player may do now.
"""

from .errors import ChoiceNeeded, Refused
from .events import Event, Mark, Pass, Roll, Start, Undo
from .game import ACTION1, ACTION2, OVER, ROLL, EndReason, Game, GameState, Phase
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
]
