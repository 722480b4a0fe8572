"""The `qwixx-tower` command."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from firmware_py.app.arguments import (
    OneLineParser,
    VersionAction,
    names_list,
    number_from,
    player_name,
    say_and_fail,
    screens_folder,
    seat_level,
    sheet_named,
    variant_name,
    whole_number_from,
)
from firmware_py.app.collector import paused_while_starting
from firmware_py.app.league import league_command
from firmware_py.app.paths import default_state_dir
from firmware_py.journal.history import history_lines
from firmware_py.journal.lines import LogError, lines_of, replay
from firmware_py.rules import game_report
from sheets import SheetError, load_sheet, sheet_names
from sheets.loader import SHEET_DIR
from sheets.text import sheet_text

EXIT_BAD_LOG = 2

Handler = Callable[[argparse.Namespace], int]
"""What each command runs (its parser's `handler` default): arguments in, exit status out."""


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "handler"):
        parser.print_help()
        return 0
    handler: Handler = args.handler  # argparse's Namespace holds Any: set_defaults below
    try:
        return handler(args)
    except SheetError as error:  # a sheet file edited by hand and broken: said, not a traceback
        return say_and_fail(f"{error} (in {SHEET_DIR})")
    except BrokenPipeError:
        return _reader_went_away()
    except KeyboardInterrupt:
        return 130  # Ctrl-C: stopped on purpose, no traceback


def _reader_went_away() -> int:
    """Output piped into a reader that stopped early (`| head`): stop quietly, as Unix tools
    do. Python flushes standard output once more on the way out; let that go nowhere."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="qwixx-tower", description="The Qwixx tower.")
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(title="commands", parser_class=OneLineParser)
    for add_command in COMMANDS:
        add_command(commands.add_parser)
    return parser


STATE_DIR_HELP = (
    "where the games are kept (default: the configuration's state_dir, else "
    "~/.local/state/qwixx-tower)"
)


AddParser = Callable[..., argparse.ArgumentParser]
"""The `add_parser` of `qwixx-tower`'s subcommands: each function below adds one command."""


def _run_command(add_parser: AddParser) -> None:
    run_cmd = add_parser("run", help="run the tower (simulated hardware without --config)")
    run_cmd.add_argument("--config", type=Path, help="the tower's configuration (TOML)")
    run_cmd.add_argument(
        "--variant",
        type=variant_name,
        help="the sheet to play (default: the configuration's, else classic)",
    )
    _run_play_options(run_cmd)
    run_cmd.add_argument("--state-dir", type=Path, help=STATE_DIR_HELP)
    run_cmd.add_argument(
        "--plain", action="store_true", help="print the news as lines, no screen drawing"
    )
    run_cmd.add_argument(
        "--screens",
        type=screens_folder,
        metavar="DIR",
        help="also save every new frame as a PNG in DIR",
    )
    run_cmd.add_argument(
        "--new",
        action="store_true",
        help="start a new game: an unfinished saved game is set aside (abandoned), not resumed",
    )
    run_cmd.set_defaults(handler=_run)


def _run_play_options(run_cmd: argparse.ArgumentParser) -> None:
    """`run`'s options for the play: who sits where, how computer players play, how long."""
    run_cmd.add_argument(
        "--players",
        type=names_list,
        help="names in seat order, comma separated (default without --config: Ann,Ben,Cleo; "
        "with it: the configuration's computer players)",
    )
    run_cmd.add_argument(
        "--human",
        type=player_name,
        action="append",
        default=[],
        metavar="NAME",
        help="a seat you play at the keyboard",
    )
    run_cmd.add_argument(
        "--pace",
        type=number_from(0, 600),
        default=0.8,
        help="seconds computer players take to decide (0 to 600)",
    )
    run_cmd.add_argument(
        "--games", type=whole_number_from(1, 1_000_000), help="stop after this many games"
    )
    run_cmd.add_argument(
        "--look-ahead",
        type=whole_number_from(0, 100_000),
        metavar="N",
        help="computer players try each option in N played-out games instead of playing "
        "their level (slower, and weaker than hard; default: the configuration's, else 0: "
        "each plays its level)",
    )
    run_cmd.add_argument(
        "--level",
        type=seat_level,
        action="append",
        default=[],
        metavar="[NAME=]LEVEL",
        help="how well computer players play: easy, medium or hard, for every computer seat "
        "or for the seat NAME= names (default: the configuration's, else medium)",
    )


def _demo_command(add_parser: AddParser) -> None:
    demo_cmd = add_parser(
        "demo", help="computer players on simulated pads (real firmware) play one game"
    )
    demo_cmd.add_argument(
        "--variant", type=variant_name, default="classic", help="the sheet to play"
    )
    demo_cmd.add_argument(
        "--players",
        type=names_list,
        default="Ann,Ben,Cleo",
        help="names in seat order, comma separated (default: Ann,Ben,Cleo)",
    )
    demo_cmd.add_argument(
        "--pace",
        type=number_from(0, 600),
        default=0.6,
        help="seconds before each decision (0 to 600)",
    )
    demo_cmd.add_argument("--plain", action="store_true", help="print the news as lines")
    demo_cmd.add_argument(
        "--state-dir", type=Path, help="keep the game's log here (else it is thrown away)"
    )
    demo_cmd.set_defaults(handler=_demo)


def _pad_command(add_parser: AddParser) -> None:
    pad_cmd = add_parser("pad", help="the handheld pads")
    pad_actions = pad_cmd.add_subparsers(title="actions", required=True)
    install_cmd = pad_actions.add_parser("install", help="copy the pad firmware onto a Pico")
    install_cmd.add_argument("port", help="the Pico's serial port, e.g. /dev/ttyACM0")
    install_cmd.set_defaults(handler=_pad_install)


def _replay_command(add_parser: AddParser) -> None:
    replay_cmd = add_parser("replay", help="check a game log and print the game state")
    replay_cmd.add_argument("file", help="a game log (JSON Lines), or - for standard input")
    replay_cmd.set_defaults(handler=_replay)


def _doctor_command(add_parser: AddParser) -> None:
    doctor_cmd = add_parser("doctor", help="check the configured hardware, part by part")
    doctor_cmd.add_argument("--config", type=Path, help="the tower's configuration (TOML)")
    doctor_cmd.add_argument("--state-dir", type=Path, help=STATE_DIR_HELP)
    doctor_cmd.set_defaults(handler=_doctor)


def _history_command(add_parser: AddParser) -> None:
    history_cmd = add_parser("history", help="list past games with their scores")
    history_cmd.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help="where the games are kept (default ~/.local/state/qwixx-tower; the kiosk's: "
        "/var/lib/qwixx-tower)",
    )
    which = history_cmd.add_mutually_exclusive_group()
    which.add_argument("--players", action="store_true", help="every player's figures")
    which.add_argument("--player", metavar="NAME", type=str, help="one player's figures")
    game_number = whole_number_from(1, 999_999_999)
    which.add_argument("--game", metavar="N", type=game_number, help="one game's story")
    form = history_cmd.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="as JSON, for scripts")
    form.add_argument("--csv", action="store_true", help="as CSV, for a spreadsheet")
    history_cmd.set_defaults(handler=_history)


def _sheets_command(add_parser: AddParser) -> None:
    sheets_cmd = add_parser("sheets", help="list the score sheets, or show one")
    sheets_cmd.add_argument(
        "action",
        nargs="?",
        choices=["list", "show"],
        default="list",
        help="list them all (the default), or show one",
    )
    sheets_cmd.add_argument("name", nargs="?", help="the sheet to show")
    sheets_cmd.set_defaults(handler=_sheets)


COMMANDS = (
    _run_command, _demo_command, _pad_command, _replay_command, _doctor_command, _history_command,
    _sheets_command, league_command,
)  # fmt: skip
"""Each adds one of `qwixx-tower`'s commands, in the order its help lists them."""


def _run(args: argparse.Namespace) -> int:
    with paused_while_starting():  # until the tower has started (`service`)
        from firmware_py.app.asked import asked_seats
        from firmware_py.app.config import ConfigError, load_config

        try:
            config = load_config(args.config)
            seats = asked_seats(args, config)
        except ConfigError as error:
            return say_and_fail(str(error))
        from firmware_py.app.service import run_tower  # the hardware libraries: only for run

        return run_tower(args, config, seats)


def _demo(args: argparse.Namespace) -> int:
    from firmware_py.app.demo import run_demo  # imports the hardware libraries: only for demo

    return run_demo(args)


def _pad_install(args: argparse.Namespace) -> int:
    from firmware_py.app.pad_install import install

    return install(args.port)


def _replay(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            game = replay(lines_of(sys.stdin.buffer))
        else:
            with open(args.file, "rb") as log:
                game = replay(lines_of(log))
    except LogError as error:
        print(str(error), file=sys.stderr)
        return EXIT_BAD_LOG
    except OSError as error:
        print(f"cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return EXIT_BAD_LOG
    json.dump(game_report(game), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from firmware_py.app.config import ConfigError, load_config
    from firmware_py.app.doctor import report, run_checks

    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"[!!] {error}")
        return 2
    return report(run_checks(config, args.state_dir), sys.stdout)


def _history(args: argparse.Namespace) -> int:
    state_dir = args.state_dir or default_state_dir()
    if state_dir.exists() and not state_dir.is_dir():
        return say_and_fail(f"{state_dir} is a file: the games are kept in a folder")
    if args.players or args.player is not None or args.game or args.json or args.csv:
        return _history_figures(args, state_dir)
    lines = list(history_lines(state_dir))
    if not lines:
        print(f"No games yet in {state_dir}.")
    for line in lines:
        print(line)
    return 0


def _history_figures(args: argparse.Namespace, state_dir: Path) -> int:
    """`history` with figures: players, a player, a game, or the games as JSON or CSV."""
    from firmware_py.app import history_text as show

    form = "json" if args.json else "csv" if args.csv else "text"
    figures = show.standings(state_dir, sys.stderr)
    if args.player is not None:
        return show.show_player(figures, args.player, sys.stdout, form)
    if args.game:
        return show.show_game(figures, args.game, sys.stdout, form)
    if args.players or form == "text":
        return show.show_players(figures, sys.stdout, form)
    return show.show_games(figures, sys.stdout, form)


def _sheets(args: argparse.Namespace) -> int:
    if args.action == "list":
        names = sheet_names()
        cells = max(map(len, names))  # the titles in one column, however long a name
        for name in names:
            print(f"{name:<{cells}} {load_sheet(name).title}")
        return 0
    if not args.name:
        print("which sheet? e.g. qwixx-tower sheets show classic", file=sys.stderr)
        return 2
    try:  # `Longo` as `run --variant` takes it; an unknown name is the sheets' own refusal
        print(sheet_text(load_sheet(sheet_named(args.name) or args.name)), end="")
    except SheetError as error:
        print(error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
