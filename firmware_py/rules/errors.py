"""Why the referee says no."""


class Refused(Exception):
    """An event breaks a rule; `reason` says which, in words a player understands.

    The game state is unchanged after a refusal.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ChoiceNeeded(Refused):
    """A mark earns a reward that needs a choice of row (several rows tie), and none was given."""

    def __init__(self, reason: str, rows: list[int]) -> None:
        super().__init__(reason)
        self.rows = rows
