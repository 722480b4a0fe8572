"""Publishing: each change of the table, as one view, to the displays and every presenter.

The displays draw first (the terminal shows their frames), then the presenters in the order
they subscribed. A change may announce what happened with it (a game started, rows locked, the
end), which presenters other than screens act on (the lock lights' blink, the tunes); the
version counts the changes, so a presenter can tell a new change from another frame of the
same one (the rolling dice) and a delayed action that it is stale.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from firmware_py.table.outputs import Presenter, Screens
from firmware_py.view import TableView


class Moments:
    """The presenters (`screens` first), the count of changes, and what the next announces."""

    def __init__(self, screens: Screens) -> None:
        self.screens = screens
        self.presenters: list[Presenter] = [screens]
        self.version = 0
        self._changed: dict[str, Any] = {}

    def subscribe(self, presenter: Presenter) -> None:
        self.presenters.append(presenter)

    def announce(self, **changes: Any) -> None:
        """What the next view presented announces: a game started, rows locked, the end."""
        self._changed.update(changes)

    def next_change(self) -> int:
        """A new change is being shown: its version."""
        self.version += 1
        return self.version

    def present(self, view: TableView) -> None:
        """`view` (with what this change announces) to every presenter, the displays first."""
        if self._changed:
            view = replace(view, **self._changed)
            self._changed = {}
        for presenter in self.presenters:
            presenter(view)
