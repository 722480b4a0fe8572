"""The table put together with the tower's parts: the one place that knows the whole `Table`.

Everything else outside `firmware_py.table` gets a narrow port of it: the doors a `SeatDoor`
of their kind (pads, phones, the keyboard), the outputs a place among its presenters. The
command that runs the tower (`service`), the demo and the tests build their table here, so
that the displays, lock lights and the service manager are attached the same way everywhere.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from firmware_py import __version__
from firmware_py.app import systemd
from firmware_py.app.hardware import Hardware
from firmware_py.journal.journal import Journal
from firmware_py.seating import KEYBOARD, PAD, PHONE, SeatSpec
from firmware_py.seats.devices import RemoteSeats
from firmware_py.seats.keyboard import Keyboard, RollFinger
from firmware_py.seats.pad_menu import PadNamesOnMenu
from firmware_py.seats.pads import PadHub
from firmware_py.seats.phones.hub import WebHub
from firmware_py.show.presenters import DisplayPower, Displays, LightPresenter
from firmware_py.show.terminal import Terminal
from firmware_py.table import Table, TableSettings

if TYPE_CHECKING:  # the bus is imported only when [mqtt] is on (`attach_bus`)
    from firmware_py.bus.client import BusClient
    from firmware_py.bus.settings import MqttConfig
    from firmware_py.story import GameStory

log = logging.getLogger(__name__)
NO_MQTT_CLIENT = (
    "[mqtt] is set, but the MQTT client aiomqtt is not installed: pip install "
    "'qwixx-tower[mqtt]' (docs/home-assistant.md); the tower plays without the bus"
)


def build_table(
    hardware: Hardware,
    *,
    seats: list[SeatSpec],
    variant: str,
    journal: Journal,
    clock: Callable[[], float] = time.monotonic,
    **settings: Any,
) -> Table:
    """A table on `hardware`: its displays draw every view first (dimmed and woken with the
    players' input), its lock lights follow, and systemd hears when it is ready."""
    chosen = TableSettings(**settings)
    power = DisplayPower(hardware.displays, clock, chosen.idle_dim, chosen.idle_blank)
    screens = Displays(power, whole_ends=hardware.frames_kept)  # --screens: every page kept
    table = Table(seats=seats, variant=variant, journal=journal, hardware=hardware,
                  screens=screens, service=systemd, clock=clock, **settings)  # fmt: skip
    table.subscribe(LightPresenter(hardware.lights))
    table.name_pads_by(PadNamesOnMenu(table.door(PAD)))  # the menu's "name a pad"
    return table


def attach_terminal(
    table: Table, hardware: Hardware, *, keyboard: bool = True, **options: Any
) -> tuple[Terminal, Keyboard]:
    """The terminal drawing the table (`options`: out, full_screen, size), with the keyboard
    as its prompt: keyboard seats decide there, Enter presses the simulated roll button. The
    keyboard sees each change before the terminal draws it, so its question is this change's."""
    finger = RollFinger(
        hardware.button_factory,
        hardware.button_pin,
        long_press=table.settings.long_press,
        debounce=hardware.button_debounce,
    )
    keys = Keyboard(table.door(KEYBOARD), finger)
    terminal = Terminal(hardware.displays, hardware.lights, prompt=keys if keyboard else None,
                        **options)  # fmt: skip
    table.subscribe(keys.see)
    table.subscribe(terminal.refresh)
    return terminal, keys


def attach_pads(
    table: Table, ports: list[str], names: dict[str, str] | None = None, **link_options: Any
) -> PadHub:
    """The pad hub on `ports`: pads' seats through the table's door for pads, a STATE to
    every pad after each change."""
    link_options.setdefault("tower_version", __version__)  # said in the tower's hello
    hub = PadHub(table.door(PAD), ports, names, now=table.clock, **link_options)
    table.subscribe(hub.sync_all)
    return hub


def attach_phones(table: Table, code: str | None = None, key: str | None = None) -> WebHub:
    """The web hub: phones' seats through the table's door for phones, each phone's view
    after every change (at game over with the game's figures, drawn by the show stage);
    `key` is the QR link's (kept across restarts by the caller)."""
    hub = WebHub(RemoteSeats(table.door(PHONE)), table.journal, code, key, phones_figures)
    table.subscribe(hub.push_all)
    return hub


def phones_figures(story: GameStory) -> str:
    """A finished game's charts and tables for the phones, drawn by the show stage."""
    from firmware_py.show.figures_html import game_figures  # (at game over, not at the start)

    return game_figures(story)


def attach_bus(table: Table, settings: MqttConfig) -> BusClient | None:
    """The bus client for [mqtt] (imported here, and only with [mqtt]): a presenter of every
    change, with the journal's results; the roll button between games is its door only where
    [mqtt] commands names "new_game". None (and the news says why) without aiomqtt."""
    try:
        from firmware_py.bus.client import BusClient
    except ImportError:
        log.warning("%s", NO_MQTT_CLIENT)
        table.tell(NO_MQTT_CLIENT)
        return None
    button = table if "new_game" in settings.commands else None
    seats = table if "tournament" in settings.commands else None  # a league seats the rounds
    players = table.know_players if "players" in settings.commands else None  # for the menu
    client = BusClient(settings, table.journal, table.tell, button, seats, players)
    table.subscribe(client.present)
    return client
