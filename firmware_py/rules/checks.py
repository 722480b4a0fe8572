"""The referee's checks: whether an event may be applied now, and if not, why, in words.

`Checks` is built once per sheet (`SheetTables.derived`) and holds no game state: each check is
given the game, reads it, and either returns (for a mark: the row and position it crosses) or
raises `Refused` with the rule that was broken. `Game.apply` (game.py) calls it before changing
anything, so a refused event leaves the game exactly as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from sheets import COLOURS

from .bonus_rows import BonusBoxes
from .crossing import Crossing
from .doubles import crossing_for, second_cross_words
from .errors import Refused
from .events import Mark, Roll
from .naming import cell_name, join, position_of, row_of
from .player import COLOUR_ROWS, PlayerSheet
from .state import ACTION1, ACTION2, COLOUR_INDEX, ROLL
from .swaps import SwapFields
from .tables import SheetTables

if TYPE_CHECKING:
    from .game import Game


class Checks:
    """The checks of table events on one sheet, each with the words of its refusal."""

    __slots__ = ("bonus", "crossing", "mixed", "numbers", "row_index", "sheet", "swaps")

    def __init__(self, tables: SheetTables) -> None:
        self.sheet = tables.sheet
        self.crossing: Crossing = tables.derived(crossing_for)
        self.numbers = tuple(row.numbers for row in tables.sheet.rows)
        self.mixed = tables.mixed
        self.row_index = tables.row_index
        self.bonus = tables.derived(BonusBoxes) if tables.sheet.bonus_rows else None
        self.swaps = tables.derived(SwapFields)

    # ---- the events ------------------------------------------------------------------------

    def check_roll(self, game: Game, roll: Roll, in_play: Mapping[str, None]) -> None:
        """A roll now, of both white dice and exactly the colour dice `in_play`."""
        if game.phase is not ROLL:
            raise Refused(f"cannot roll now: {self.waiting_words(game)}")
        faces = self.sheet.dice_faces
        white = roll.white
        if (
            roll.colours.keys() == in_play.keys()
            and type(white) in (tuple, list)
            and len(white) == 2
        ):
            for face in (*white, *roll.colours.values()):
                if type(face) is not int or not 1 <= face <= faces:
                    break
            else:
                return
        self._explain_bad_dice(roll, list(in_play))

    def check_mark(self, game: Game, seat: int, mark: Mark) -> None:
        """A mark by the player in `seat` now."""
        player = game.players[seat]
        if game.phase is ACTION1:
            if seat in game.decisions:
                self._check_undecided(game, seat)
            self._check_action1_mark(game, player, mark)
        elif game.phase is ACTION2:
            self._check_active(game, seat, "mark")
            self._check_action2_mark(game, player, mark)
        else:
            raise Refused(f"{player.name} cannot mark yet: waiting for {game.active_name} to roll")

    def check_pass(self, game: Game, seat: int) -> None:
        """A pass by the player in `seat` now."""
        if game.phase is ACTION1:
            if seat in game.decisions:
                self._check_undecided(game, seat)
        elif game.phase is ACTION2:
            self._check_active(game, seat, "pass")
        else:
            name = game.players[seat].name
            raise Refused(f"{name} cannot pass yet: waiting for {game.active_name} to roll")

    def refuse_undo(self, game: Game, seat: int) -> None:
        """An undo with nothing to take back: always refused, with the reason."""
        if game.phase is ACTION1:
            why = "they have not decided in action 1 yet"
        elif game.phase is ACTION2:
            why = "action 1 is over, and a decision can only be taken back while its action is open"
        else:
            why = (
                "the last turn is over, and a decision can only be taken back while its action "
                "is open"
            )
        raise Refused(f"{game.players[seat].name} has nothing to take back: {why}")

    def waiting_words(self, game: Game) -> str:
        if game.phase is ACTION1:
            return f"action 1 is still open, waiting for {join(game.waiting_for())}"
        return f"waiting for {game.active_name} to decide action 2"

    # ---- who may decide --------------------------------------------------------------------

    def _check_undecided(self, game: Game, seat: int) -> None:
        if seat in game.decisions:
            name = game.players[seat].name
            done = "passed" if game.decisions[seat] is None else "marked"
            raise Refused(
                f"{name} has already {done} in action 1 of this turn (undo takes it back)"
            )

    def _check_active(self, game: Game, seat: int, what: str) -> None:
        if seat != game.active:
            raise Refused(
                f"{game.players[seat].name} cannot {what} in action 2: only the active player, "
                f"{game.active_name}, may"
            )

    # ---- the mark --------------------------------------------------------------------------

    def _check_action1_mark(self, game: Game, player: PlayerSheet, mark: Mark) -> tuple[int, int]:
        row = COLOUR_INDEX.get(mark.row)
        if row is None:
            row = self._row_of(mark.row)  # a bonus row, or raises: no such row
        if mark.lucky:
            return self._check_lucky_cross(game, player, row, mark)
        if mark.swap is not None:  # X-Change: the field, then the number it trades the sum for
            self.swaps.check(game, player, mark)
            return self._check_swapped_cross(player, row, mark, game.closed)
        if mark.number != game.white_sum:
            dice = game.dice
            assert dice is not None  # rolled: this is a mark in action 1
            white1, white2 = dice.white
            raise Refused(
                f"{player.name} cannot cross {mark.row} {mark.number} in action 1: the white dice "
                f"show {white1} and {white2}, so the number to cross is {game.white_sum}"
            )
        if row >= COLOUR_ROWS:
            return self._check_box(game, player, row, mark)
        position = position_of(self.sheet, row, mark.number)
        if not self.crossing.can_cross(player, row, position, game.closed):
            self._check_crossable(player, row, position, game.closed)  # raises with the reason
        return row, position

    def _check_swapped_cross(
        self, player: PlayerSheet, row: int, mark: Mark, closed: int
    ) -> tuple[int, int]:
        if row >= COLOUR_ROWS:
            raise Refused(f"{player.name} cannot use an X-Change field on a bonus row")
        position = position_of(self.sheet, row, mark.number)
        if not self.crossing.can_cross(player, row, position, closed):
            self._check_crossable(player, row, position, closed)  # raises with the reason
        return row, position

    def _check_action2_mark(self, game: Game, player: PlayerSheet, mark: Mark) -> tuple[int, int]:
        if mark.swap is not None:
            self.swaps.check(game, player, mark)  # refuses: a field swaps the white sum only
        row = COLOUR_INDEX.get(mark.row)
        if row is None:
            row = self._row_of(mark.row)  # a bonus row, or raises: no such row
            if not mark.lucky:
                return self._check_box(game, player, row, mark)
        if mark.lucky:
            raise Refused(f"{player.name} cannot make a lucky cross in action 2: only in action 1")
        position = position_of(self.sheet, row, mark.number)
        if self.crossing.closed_for(player, row, game.closed):
            raise Refused(
                f"{player.name} cannot cross {self._cell(row, position)}: "
                f"the {mark.row} row is locked"
            )
        self._check_die_sum(game, player, row, position)
        self._check_crossable(player, row, position, game.closed)
        return row, position

    def _check_die_sum(self, game: Game, player: PlayerSheet, row: int, position: int) -> None:
        colour = self.sheet.cell_colour(row, position)
        cell = self._cell(row, position)
        if game.closed >> COLOUR_INDEX[colour] & 1:
            raise Refused(
                f"{player.name} cannot cross {cell} in action 2: the {colour} die is out of "
                f"the game ({colour} is locked)"
            )
        dice = game.dice
        assert dice is not None  # rolled: this is a mark in action 2
        face = dice.colours[colour]
        white1, white2 = dice.white
        number = self.numbers[row][position]
        if number not in (white1 + face, white2 + face):
            sums = join(sorted({str(white1 + face), str(white2 + face)}), "or")
            raise Refused(
                f"{player.name} cannot cross {cell} in action 2: a white die plus the {colour} "
                f"die makes {sums} (whites {white1} and {white2}, {colour} {face})"
            )

    def _check_crossable(self, player: PlayerSheet, row: int, position: int, closed: int) -> None:
        colour = COLOURS[row]
        cell = self._cell(row, position)
        if self.crossing.closed_for(player, row, closed):
            raise Refused(f"{player.name} cannot cross {cell}: the {colour} row is locked")
        last = player.last_position(row)
        if position == last:
            if self.crossing.may_cross_again(player, row, position):
                return  # Double A: the second cross of the cell crossed last
            if self.sheet.has_doubles:
                raise Refused(second_cross_words(player, row, position, cell))
            raise Refused(f"{player.name} has already crossed {cell}")
        if position < last:
            raise Refused(
                f"{player.name} cannot cross {cell}: {colour} is already crossed up to "
                f"{self.numbers[row][last]}, and numbers are crossed from left to right"
            )
        if position not in self.sheet.lock_positions[row]:
            return
        crosses = self.crossing.crosses(player, row)
        if crosses < self.sheet.lock_threshold:
            raise Refused(
                f"{player.name} cannot lock {colour}: needs {self.sheet.lock_threshold} crosses "
                f"in {colour} first, has {crosses}"
            )

    def _check_lucky_cross(
        self, game: Game, player: PlayerSheet, row: int, mark: Mark
    ) -> tuple[int, int]:
        name, total = player.name, game.white_sum
        if not self.sheet.has_lucky_numbers:
            raise Refused(f"{self.sheet.name} sheets have no lucky numbers")
        if total not in player.lucky:
            raise Refused(
                f"{name} cannot make a lucky cross: the white sum {total} is not one of "
                f"{name}'s lucky numbers ({join([str(n) for n in player.lucky])})"
            )
        fewest = player.fewest_crosses_rows()
        if row not in fewest:
            raise Refused(
                f"{name} cannot make a lucky cross in {mark.row}: it has {player.crosses(row)} "
                f"crosses, and a lucky cross goes in a row with the fewest crosses "
                f"({join([COLOURS[r] for r in fewest])}, with {player.crosses(fewest[0])})"
            )
        position = self.crossing.next_available(player, row, game.closed)
        if position is None:
            why = self._no_cell_words(player, row, game.closed)
            raise Refused(f"{name} cannot make a lucky cross in {mark.row}: {why}")
        number = self.numbers[row][position]
        if mark.number != number:
            raise Refused(
                f"{name}'s lucky cross in {mark.row} must be on {mark.row} {number}, the next "
                f"available number, not {mark.number}"
            )
        return row, position

    def _no_cell_words(self, player: PlayerSheet, row: int, closed: int) -> str:
        if self.crossing.closed_for(player, row, closed):
            return f"the {COLOURS[row]} row is locked"
        if player.last_position(row) + 1 >= len(self.numbers[row]):
            return f"the {COLOURS[row]} row is full"
        return (
            f"its next number locks the row, which needs {self.sheet.lock_threshold} crosses "
            f"in {COLOURS[row]} first, and {player.name} has {player.crosses(row)}"
        )

    def _check_box(self, game: Game, player: PlayerSheet, row: int, mark: Mark) -> tuple[int, int]:
        """A mark on a bonus row (Big Points), which `_row_of` found on this sheet."""
        assert self.bonus is not None and row >= COLOUR_ROWS  # (only sheets with bonus rows)
        self.bonus.check(game, player, row, mark.number)
        return row, 0

    def _row_of(self, name: object) -> int:
        """The index of the row a mark names: a colour row, or a bonus row on sheets with
        them (Big Points); refuses any other name."""
        row = self.row_index.get(name) if isinstance(name, str) else None
        return row_of(name, self.sheet.row_names) if row is None else row

    def _cell(self, row: int, position: int) -> str:
        return cell_name(self.sheet, self.mixed, row, position)

    # ---- the dice --------------------------------------------------------------------------

    def _explain_bad_dice(self, roll: Roll, in_play: list[str]) -> None:
        faces = self.sheet.dice_faces
        white = roll.white
        if not isinstance(white, (tuple, list)) or len(white) != 2:
            raise Refused("a roll needs both white dice, as a list of two faces")
        for colour in in_play:
            if colour not in roll.colours:
                raise Refused(f"the roll has no {colour} die, but {colour} is still in play")
        for colour in roll.colours:
            if colour not in in_play:
                why = "its row is locked" if colour in COLOURS else "there is no such die"
                raise Refused(f"the roll has a {colour} die, but {why}")
        for name, face in [("white", w) for w in white] + list(roll.colours.items()):
            if type(face) is not int or not 1 <= face <= faces:
                raise Refused(f"the {name} die shows {face!r}, but dice here show 1 to {faces}")
