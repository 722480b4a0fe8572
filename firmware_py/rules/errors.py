"""Why the referee says no."""

from firmware_py.errors import TowerError


class Refused(TowerError):
    """An event breaks a rule (the game stays as it was); `reason` says which, in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ChoiceNeeded(Refused):
    """A mark earns a reward that needs a choice of row (several rows tie), and none was given."""

    def __init__(self, reason: str, rows: list[int]) -> None:
        super().__init__(reason)
        self.rows = rows
