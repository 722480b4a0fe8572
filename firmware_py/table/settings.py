"""How the table is set up for an evening: fixed while it runs, read by the parts that need them."""

from __future__ import annotations

from dataclasses import dataclass

# Seconds the table waits for a player whose pad or phone has gone: time to reload a page or
# replug a cable, short of a wait the others would sit through in silence (docs/rules.md).
ABSENT_GRACE = 60.0


@dataclass(frozen=True)
class TableSettings:
    """The table's settings, from the command line and the configuration."""

    pace: float = 0.8  # seconds a computer player takes to decide; the dice's frames follow it
    action1_timer: float = 0.0  # seconds a person has to decide in action 1 (0: no limit)
    absent_grace: float = ABSENT_GRACE  # seconds to wait for a device gone (0: for ever)
    long_press: float = 1.5  # seconds the roll button is held to open the menu
    idle_dim: float = 300.0  # seconds without input before the displays dim (0: never)
    idle_blank: float = 1800.0  # and before they blank, for burn-in (0: never)
    look_ahead: int = 0  # playouts per option for computer players; 0: their level decides
    # Computer players alone at the table start their next game by themselves: only the
    # simulated tower on a PC, so that a newcomer sees a game. A kiosk waits for people.
    autoplay: bool = False
