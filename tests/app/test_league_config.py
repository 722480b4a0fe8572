"""The league's file (firmware_py/app/config/league.py): the café's broker as a tower's
[mqtt] names it, and [league]; every mistake said with its key and how to fix it."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import HANG, spawn
from support.lines import Lines

from firmware_py.app.config.league import ConfigError, load_league_config, parse_league_config

BROKER = {"host": "cafe.local", "username": "league", "password_file": "/etc/league-password"}


def test_a_league_file_as_docs_league_md_shows_it():
    config = parse_league_config(
        {"mqtt": {**BROKER, "ca_file": "/etc/ca.pem"},
         "league": {"port": 8091, "database": "/var/lib/l.sqlite", "day_starts": 5}},
        "league.toml",
    )  # fmt: skip
    assert (config.mqtt.host, config.mqtt.port, config.mqtt.tls) == ("cafe.local", 8883, True)
    assert (config.port, config.database, config.day_starts) == (8091, Path("/var/lib/l.sqlite"), 5)
    assert config.host == "0.0.0.0"


@pytest.mark.parametrize(
    "data, words",
    [
        ({"league": {}}, "[mqtt]: is missing: the café's broker the towers publish to"),
        ({"mqtt": {**BROKER, "commands": ["new_game"]}}, "[mqtt] commands: unknown key"),
        ({"mqtt": BROKER, "league": {"port": 70000}}, "[league] port: must be a whole number"),
        ({"mqtt": BROKER, "league": {"day_starts": 24}}, "[league] day_starts: must be"),
        ({"mqtt": BROKER, "league": {"database": "league.sqlite"}}, "must be an absolute path"),
        ({"mqtt": BROKER, "league": {"database": "/l\0.sqlite"}}, "database: holds a NUL"),
        ({"mqtt": BROKER, "league": {"host": "a b"}}, "[league] host: must be an address"),
        ({"mqtt": BROKER, "tower": {}}, "tower: unknown key"),
        ({"mqtt": {"host": "cafe.local", "prefix": "qwixx/#"}}, "[mqtt] prefix: must be"),
    ],
)
def test_mistakes_are_said_with_the_key_and_the_fix(data, words):
    with pytest.raises(ConfigError) as refused:
        parse_league_config(data, "league.toml")
    assert words in str(refused.value)


def test_a_file_nested_past_python_s_depth_is_one_sentence(tmp_path):
    """tomllib reads nested tables by recursion: 3,000 ended the league in a traceback."""
    deep = tmp_path / "league.toml"
    deep.write_text("x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n")
    with pytest.raises(ConfigError, match=r"^league\.toml: not valid TOML: nested too deeply"):
        load_league_config(deep)


def test_the_command_says_a_missing_file_in_one_line(tmp_path):
    done = spawn.run([*spawn.TOWER, "league", "--config", str(tmp_path / "none.toml")],
                     capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2
    missing = tmp_path / "none.toml"
    assert done.stderr.strip() == f"{missing}: no such file (docs/league.md shows one)"


def test_a_league_file_that_cannot_be_had_is_said_in_one_line(tmp_path):
    """A folder where the league's SQLite file goes (likewise no permission, a card gone
    read-only): the league says which file and why, and starts nothing (a new file would not
    help, and nothing is moved)."""
    database = tmp_path / "league.sqlite"
    database.mkdir()
    config = tmp_path / "league.toml"
    config.write_text(f'[mqtt]\nhost = "localhost"\n[league]\ndatabase = "{database}"\n')
    done = spawn.run([*spawn.TOWER, "league", "--config", str(config)],
                     capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2
    assert f"the league's file {database} cannot be used: " in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and database.is_dir()
    assert "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("host", ["cafe..local", "a" * 64 + ".local"])
def test_a_page_host_no_resolver_can_encode_is_said_in_one_line(tmp_path, host):
    """[league] host = "cafe..local" (a typo) or a part of 64 letters: the page's socket asked
    the resolver, which raised UnicodeError, and the league ended in a traceback before its
    page (found by the league_config fuzz target once it encoded the hosts as the socket
    does). Now the file is refused, naming the key and the rule, and nothing starts."""
    config = tmp_path / "league.toml"
    database = tmp_path / "league.sqlite"
    config.write_text(f'[mqtt]\nhost = "localhost"\nport = 1\n[league]\nhost = "{host}"\n'
                      f'port = 0\ndatabase = "{database}"\n')  # fmt: skip
    done = spawn.run([*spawn.TOWER, "league", "--config", str(config)],
                     capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f'league.toml: [league] host: {host!r} is not an address such as "0.0.0.0" nor a host '
        "name: each part between dots is 1 to 63 letters, digits or '-'"
    ]
    assert not database.exists()


def test_a_league_file_that_is_not_a_database_is_set_aside_and_the_league_starts(tmp_path):
    """The league's SQLite file overwritten by something else (the file is a cache, filled
    again by the towers): kept in quarantine/ as it was, said in the log, a new one begun."""
    database = tmp_path / "league.sqlite"
    database.write_bytes(b"not a database, " * 100)
    with started_league(without_a_broker(tmp_path, database)) as (_, said):
        pass
    assert "league.sqlite is kept in" in said.text, said.text
    assert (tmp_path / "quarantine" / "league.sqlite").read_bytes() == b"not a database, " * 100
    assert "Traceback" not in said.text


def test_a_second_league_on_the_same_file_is_refused_and_empties_nothing(tmp_path):
    """`qwixx-tower league` typed in a terminal beside the service: the two pushed each other
    off the broker (one client id), and `--rebuild` emptied the file under the running one.
    The second now says which league holds the file and stops; the file is kept as it is."""
    database = tmp_path / "league.sqlite"
    config = without_a_broker(tmp_path, database)
    with started_league(config) as (first, _):
        kept = database.read_bytes()
        for more in ([], ["--rebuild"]):
            done = spawn.run([*spawn.TOWER, "league", "--config", str(config), *more],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
            assert done.returncode == 2, done.stdout + done.stderr
            assert done.stderr.strip() == (
                f"another league is running on {database} (process {first.pid}): stop it "
                "first (Ctrl-C in its terminal, or sudo systemctl stop qwixx-league for the "
                "service)"
            )
            assert database.read_bytes() == kept


def without_a_broker(folder: Path, database: Path) -> Path:
    """A league's configuration whose broker never answers (port 1), its page on a free port."""
    config = folder / "league.toml"
    config.write_text(
        f'[mqtt]\nhost = "localhost"\nport = 1\n[league]\nhost = "127.0.0.1"\nport = 0\n'
        f'database = "{database}"\n'
    )
    return config


@contextlib.contextmanager
def started_league(config: Path) -> Iterator[tuple[subprocess.Popen[str], Lines]]:
    """`league --config CONFIG` until it has said how many games it keeps; stopped after."""
    league = spawn.Popen([*spawn.TOWER, "league", "--config", str(config)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    try:
        assert league.stdout is not None
        said = Lines(league.stdout)
        assert said.first(r"^0 games kept", 0, HANG), said.text
        yield league, said
    finally:
        league.terminate()
        league.wait(timeout=HANG)
