"""The tower's topics, all named from [mqtt]'s prefix, tower id and discovery prefix."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_py.bus.settings import MqttConfig

ONLINE, OFFLINE = "online", "offline"  # the availability payloads (Home Assistant's defaults)
PRESS = "PRESS"  # what a button sends on its command topic (Home Assistant's default)


@dataclass(frozen=True)
class Topics:
    """Every topic of one tower ("qwixx/kitchen/..." and Home Assistant's)."""

    base: str  # "qwixx/kitchen"
    tower_id: str
    discovery_prefix: str  # "homeassistant"

    @classmethod
    def of(cls, settings: MqttConfig) -> Topics:
        return cls(settings.base, settings.tower_id, settings.discovery_prefix)

    @property
    def availability(self) -> str:
        """ "online" while the tower is connected, "offline" (its last will) when not."""
        return f"{self.base}/availability"

    @property
    def state(self) -> str:
        """The table now (retained): its phase, the game, the seats and their scores."""
        return f"{self.base}/state"

    @property
    def event(self) -> str:
        """What just happened in a game: a roll, a cross, a lock, a penalty, the end."""
        return f"{self.base}/event"

    @property
    def result(self) -> str:
        """A finished game's result, with its id (QoS 1, at least once)."""
        return f"{self.base}/result"

    @property
    def resend(self) -> str:
        """Asks the tower to publish every result in its journal again (a league rebuilding)."""
        return f"{self.base}/results/resend"

    @property
    def tournament(self) -> str:
        """A league's seating of this table for a tournament's round (retained, by the league)."""
        return f"{self.base}/tournament"

    @property
    def players(self) -> str:
        """The league's players, for the menu to name a pad's player (retained, by the league)."""
        return f"{self.base}/players"

    def command(self, name: str) -> str:
        """Where a named command comes in ("qwixx/kitchen/command/new_game")."""
        return f"{self.base}/command/{name}"

    @property
    def node_id(self) -> str:
        """The device's id in Home Assistant: "qwixx_kitchen"."""
        return f"qwixx_{self.tower_id}"

    @property
    def discovery(self) -> str:
        """Home Assistant's device-based discovery topic for this tower (retained)."""
        return f"{self.discovery_prefix}/device/{self.node_id}/config"

    @property
    def home_assistant_status(self) -> str:
        """Where Home Assistant says "online" when it starts (its birth message)."""
        return f"{self.discovery_prefix}/status"
