"""The rules of a single cross: where a player may cross, and what a cross sets off.

`Crossing` is built once per sheet (`SheetTables.derived`) and holds no game state: each call is
given the player's sheet and the rows the table has closed, and returns the rows the cross
locked, which close when the action ends (game.py). A cross on a bonus number crosses the next
bonus-bar box (Bonus A); one that completes a symbol earns its reward (Bonus B); either may set
off more crosses, and a tied "fewest crosses" reward needs the mark's choice of row.
"""

from __future__ import annotations

from collections.abc import Iterable

from sheets import COLOURS

from .errors import ChoiceNeeded, Refused
from .naming import join, row_of
from .player import PlayerSheet
from .state import COLOUR_INDEX
from .tables import SheetTables


class _Effects:
    """One mark's way through its effects: the rows closed at the table, the rows locked so
    far, and the mark's row choice with whether a reward used it."""

    __slots__ = ("closed", "locks", "row", "used")

    def __init__(self, closed: int, row: str | None) -> None:
        self.closed = closed
        self.locks = 0
        self.row = row
        self.used = False


class Crossing:
    """Crossing cells on one sheet: the rules of a single cross and everything it sets off."""

    __slots__ = ("bonus_cells", "lock_positions", "numbers", "plain", "reward_cells", "sheet")

    def __init__(self, tables: SheetTables) -> None:
        self.sheet = sheet = tables.sheet
        self.numbers = tuple(row.numbers for row in sheet.rows)
        self.lock_positions = sheet.lock_positions
        self.bonus_cells = tables.bonus_cells
        self.reward_cells = tables.reward_cells
        self.plain = tables.plain

    # ---- where a player may cross ----------------------------------------------------------

    def closed_for(self, player: PlayerSheet, row: int, closed: int) -> bool:
        """Locked for this player: closed at the table, or locked by this player just now."""
        return bool(closed >> row & 1 or player.rows[row] & player.lock_bits[row])

    def can_cross(self, player: PlayerSheet, row: int, position: int, closed: int) -> bool:
        mask = player.rows[row]
        if closed >> row & 1 or mask >= 1 << position:
            return False  # locked, or a cell at or right of it is crossed (the lock bit too)
        if position in self.lock_positions[row]:
            return mask.bit_count() >= self.sheet.lock_threshold
        return True

    def crosses(self, player: PlayerSheet, row: int) -> int:
        """The crosses a row counts towards its lock (second crosses too, on Double sheets)."""
        return player.crosses(row)

    def may_cross_again(self, player: PlayerSheet, row: int, position: int) -> bool:
        """Whether a crossed cell may take a second cross: only on Double sheets."""
        return False

    def next_available(self, player: PlayerSheet, row: int, closed: int) -> int | None:
        """The cell right after the player's last cross in a row, if it can be crossed."""
        position = player.last_position(row) + 1
        if position >= len(self.numbers[row]) or not self.can_cross(player, row, position, closed):
            return None
        return position

    # ---- a cross and its effects -------------------------------------------------------------

    def cross_with_effects(
        self, player: PlayerSheet, row: int, position: int, closed: int, choice: str | None
    ) -> int:
        """Cross one cell and everything it sets off; return the mask of the rows it locked.
        Refuses a choice that no reward used (the player's sheet is then part-crossed: the
        caller puts it back)."""
        if self.plain and choice is None:
            player.rows[row] |= 1 << position
            if position in self.lock_positions[row]:
                player.rows[row] |= player.lock_bits[row]
                return 1 << row
            return 0
        effects = _Effects(closed, choice)
        self._cross(player, row, position, effects)
        if choice is not None and not effects.used:
            raise Refused(
                f"{player.name}'s mark earns no reward that needs a choice of row, "
                f"so the choice {choice!r} does not belong on it"
            )
        return effects.locks

    def _cross(self, player: PlayerSheet, row: int, position: int, effects: _Effects) -> None:
        player.rows[row] |= 1 << position
        if position in self.lock_positions[row]:
            player.rows[row] |= player.lock_bits[row]
            effects.locks |= 1 << row
        if position in self.bonus_cells[row]:
            self._bonus_bar_cross(player, effects)
        reward = self.reward_cells.get((row, position))
        if reward is not None:
            self._earn_reward(player, reward, effects)

    def _bonus_bar_cross(self, player: PlayerSheet, effects: _Effects) -> None:
        """Bonus-a: cross the next bonus-bar box, skipping forfeited colours, then its cell."""
        bar = self.sheet.bonus_bar
        box = player.bar_next
        while box < len(bar) and self.closed_for(player, COLOUR_INDEX[bar[box]], effects.closed):
            box += 1  # a locked colour's boxes are forfeited and skipped
        player.bar_next = box + 1
        if box >= len(bar):
            return
        player.bar_used |= 1 << box
        row = COLOUR_INDEX[bar[box]]
        position = self.next_available(player, row, effects.closed)
        if position is not None:
            self._cross(player, row, position, effects)

    def _earn_reward(self, player: PlayerSheet, index: int, effects: _Effects) -> None:
        """Bonus-b: once both cells of a symbol are crossed, grant its reward at once."""
        reward = self.sheet.rewards[index]
        if player.rewards >> index & 1:
            return
        if not all(player.rows[r] >> p & 1 for r, p in reward.cells):
            return
        player.rewards |= 1 << index
        if reward.effect == "two-crosses-in-fewest-row":
            row = self._fewest_row_choice(player, effects)
            self._bonus_crosses(player, (row, row), effects)
        elif reward.effect == "one-cross-in-every-row":
            self._bonus_crosses(player, range(len(COLOURS)), effects)

    def _bonus_crosses(self, player: PlayerSheet, rows: Iterable[int], effects: _Effects) -> None:
        """Cross the next available cell of each row in turn; one with none is forfeited."""
        for row in rows:
            position = self.next_available(player, row, effects.closed)
            if position is not None:
                self._cross(player, row, position, effects)

    def _fewest_row_choice(self, player: PlayerSheet, effects: _Effects) -> int:
        fewest = player.fewest_crosses_rows()
        if len(fewest) == 1:
            return fewest[0]  # no tie, so no choice: a choice on the mark is left unused, refused
        names = join([COLOURS[r] for r in fewest])
        if effects.row is None:
            raise ChoiceNeeded(
                f"{player.name} earns two crosses in the row with the fewest crosses, and "
                f'{names} tie: the mark must say which with "choice": {{"row": ...}}',
                fewest,
            )
        row = row_of(effects.row)
        if row not in fewest:
            raise Refused(
                f"{player.name} cannot take the two bonus crosses in {effects.row}: they go in "
                f"the row with the fewest crosses ({names}, with {player.crosses(fewest[0])})"
            )
        effects.used = True
        return row
