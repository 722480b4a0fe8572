"""What `run` was asked for, read before the tower's libraries load: the configuration and the
seats at power-on. A mistake in either is said in one sentence at once, not after the half
second of CPU the displays', GPIO and web libraries take to load."""

from __future__ import annotations

import argparse

from firmware_py.app.arguments import one_of
from firmware_py.app.config import ConfigError, TowerConfig
from firmware_py.seating import COMPUTER, KEYBOARD, MAX_SEATS, SeatSpec

SIMULATED_PLAYERS = ("Ann", "Ben", "Cleo")  # without --config: computer players, to watch


def asked_seats(args: argparse.Namespace, config: TowerConfig) -> list[SeatSpec]:
    """The seats at power-on. --players names them (--human ones among them play at the
    keyboard); else the configuration's computer players (none: people join on pads), or
    without a configuration Ann, Ben and Cleo, and each --human name takes its seat or joins.
    A name is a seat's whatever its letters' case, as --players tells names apart."""
    if args.players is not None:
        names = list(args.players)
        humans = [seated(human, names) for human in args.human]
        for human in humans:
            if human not in names:
                raise ConfigError(
                    f"--human {human}: not one of the players ({', '.join(names)}); "
                    f"name them all with --players"
                )
    else:
        names = list(config.computer_players if args.config else SIMULATED_PLAYERS)
        humans = [seated(human, names) for human in args.human]
        names += [human for human in dict.fromkeys(humans) if human not in names]
        if len(names) > MAX_SEATS:
            raise ConfigError(
                f"--human: at most {MAX_SEATS} players, not {len(names)} ({', '.join(names)})"
            )
    levels = asked_levels(args, config, names)
    return [
        SeatSpec(name, KEYBOARD, level="")
        if name in humans
        else SeatSpec(name, COMPUTER, level=levels.get(name, ""))
        for name in names
    ]


def seated(name: str, names: list[str]) -> str:
    """The seat among `names` that `name` names whatever its letters' case (`--human ann` is
    Ann's), else `name` itself."""
    return one_of(names, name) or name


def asked_levels(args: argparse.Namespace, config: TowerConfig, names: list[str]) -> dict[str, str]:
    """Each computer seat's level: --level NAME=LEVEL, else --level LEVEL, else the
    configuration's (a seat without any plays at the default level)."""
    levels = dict(config.computer_levels)
    given = sorted(getattr(args, "level", []), key=lambda pair: bool(pair[0]))  # names win
    for name, level in given:
        seat = one_of(names, name) if name else None
        if name and seat is None:
            raise ConfigError(f"--level {name}={level}: {name} is not one of the players")
        for each in [seat] if seat else names:
            levels[each] = level
    return levels
