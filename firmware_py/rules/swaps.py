"""X-Change's swap fields: single-use trades of the white sum for another number.

The sheet prints a row of fields, each with two numbers (8 and 5, 9 and 7, ...). In action 1 a
player whose white sum is one number of a field may cross that field and cross the other number
instead of the white sum, in any row where they could cross it. A field is used once; fields
are used from left to right, so a field left of one used is gone, used or not. The fields score
nothing. docs/rules.md names the text and how the tower reads it.

A mark that uses a field says so (`Mark.swap`, 1 = the leftmost field), and the game log writes
it (`"swap": 3`), so that a referee outside the tower can check it from the line alone.

`SwapFields` is built once per sheet (`SheetTables.derived`) and holds no game state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sheets import COLOURS

from .crossing import Crossing
from .errors import Refused
from .events import Mark
from .player import PlayerSheet
from .state import ACTION1
from .tables import SheetTables

if TYPE_CHECKING:
    from .game import Game


class SwapFields:
    """Which swap fields a white sum lets a player use, and the words when it does not."""

    __slots__ = ("by_sum", "crossing", "fields", "positions")

    def __init__(self, tables: SheetTables) -> None:
        sheet = tables.sheet
        self.fields = sheet.swaps
        self.crossing = tables.derived(Crossing)
        self.positions = sheet.positions
        # Per white sum: (field index, the number it is traded for), fields left to right.
        self.by_sum: dict[int, tuple[tuple[int, int], ...]] = {}
        for k, (first, second) in enumerate(sheet.swaps):
            for rolled, other in ((first, second), (second, first)):
                self.by_sum[rolled] = (*self.by_sum.get(rolled, ()), (k, other))

    # ---- legal moves ---------------------------------------------------------------------

    def action1(
        self, player: PlayerSheet, marks: list[list[Mark]], white_sum: int, closed: int
    ) -> list[Mark]:
        """The swapped crosses open to the player: each usable field of the white sum, then
        the cells of its other number the player could cross, top row first."""
        legal: list[Mark] = []
        first = player.next_swap()
        for k, other in self.by_sum.get(white_sum, ()):
            if k < first:
                continue
            for row in range(len(COLOURS)):
                position = self.positions[row][other]
                if self.crossing.can_cross(player, row, position, closed):
                    legal.append(marks[row][position]._replace(swap=k + 1))
        return legal

    # ---- the referee's checks ------------------------------------------------------------

    def check(self, game: Game, player: PlayerSheet, mark: Mark) -> None:
        """The swap field a mark uses, in action 1 with this white sum; raises Refused with
        the rule it breaks. The cell itself is checked by the caller, as any cross."""
        name, field = player.name, mark.swap
        if not self.fields:
            raise Refused(f"{game.sheet.name} sheets have no X-Change fields")
        if type(field) is not int or not 1 <= field <= len(self.fields):
            raise Refused(
                f"there is no X-Change field {field!r}; the fields are 1 to {len(self.fields)}"
            )
        words = field_words(self.fields, field)
        if game.phase is not ACTION1:
            raise Refused(
                f"{name} cannot use {words} now: a field swaps the white sum, so only in action 1"
            )
        self._check_unused(player, field, words)
        first, second = self.fields[field - 1]
        total = game.white_sum
        if total not in (first, second):
            raise Refused(
                f"{name} cannot use {words}: the white sum is {total}, and the field swaps only "
                f"{first} or {second}"
            )
        other = second if total == first else first
        if mark.number != other:
            raise Refused(
                f"{name} cannot cross {mark.row} {mark.number} with {words}: it turns the white "
                f"sum {total} into {other}"
            )

    def _check_unused(self, player: PlayerSheet, field: int, words: str) -> None:
        if player.swaps >> field - 1 & 1:
            raise Refused(f"{player.name} has already used {words}; each field is used once")
        last = player.next_swap()
        if field <= last:
            raise Refused(
                f"{player.name} cannot use {words}: field {last} is already used, and fields "
                f"are used from left to right (a field left of a used one is gone)"
            )


def field_words(fields: tuple[tuple[int, int], ...], field: int) -> str:
    """ "X-Change field 3 (11 and 3)": a field as refusals and the news name it."""
    first, second = fields[field - 1]
    return f"X-Change field {field} ({first} and {second})"


def swaps_in_reach(game: Game) -> list[tuple[int, int]]:
    """X-Change, in action 1: the (field, number) the white sum may be traded for by a player
    still deciding who has not used or passed that field, as the displays list them; none on
    other sheets or in other phases."""
    if not game.sheet.swaps or game.phase is not ACTION1:
        return []
    fields = game.tables.derived(SwapFields)
    deciding = [game.player(name) for name in game.waiting_for()]
    return [
        (k + 1, other)
        for k, other in fields.by_sum.get(game.white_sum, ())
        if any(player.next_swap() <= k for player in deciding)
    ]
