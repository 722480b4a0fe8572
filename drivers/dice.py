"""Software dice: faces from the operating system's cryptographic random source."""

from __future__ import annotations

import secrets

from drivers.errors import DiceConfigError

WHITE_DICE = ("white 1", "white 2")


class SoftwareDice:
    """Rolls the named dice with `secrets`, so nobody can predict or steer a roll."""

    def __init__(self, *, faces: int = 6) -> None:
        if faces < 2:
            raise DiceConfigError(f"dice.faces = {faces}; dice need at least 2 faces (6 or 8)")
        self.faces = faces

    def roll(self, colours: list[str]) -> tuple[tuple[int, int], dict[str, int]]:
        """Both white dice and one die per colour in `colours`."""
        white = (self._face(), self._face())
        return white, {colour: self._face() for colour in colours}

    def sample(self, population: list[int], count: int) -> list[int]:
        """`count` different values of `population`, drawn the same unpredictable way (the
        tower draws Longo's lucky numbers with it)."""
        return secrets.SystemRandom().sample(population, count)

    def _face(self) -> int:
        return secrets.randbelow(self.faces) + 1
