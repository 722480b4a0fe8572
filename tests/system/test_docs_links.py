"""The documentation a maker follows: every page it sends a reader to is in the repository
(issue 24: the README sent readers to shared/spec/game-log.md and shared/seeds/, which are
not), and what the docs say matches what the tower does."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "wiring.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_link_of_a_page_leads_to_a_file_in_the_repository(page):
    text = page.read_text()
    assert "shared/" not in text, f"{page.name} sends readers outside the repository"
    for target in LINK.findall(text):
        if "://" in target:
            continue
        assert (page.parent / target).exists(), f"{page.name}: {target} is not there"


def test_the_docs_describe_the_game_log_and_every_page_the_brief_names():
    for name in ("game-log.md", "pads.md", "configuration.md", "kiosk.md"):
        assert (ROOT / "docs" / name).is_file(), name
    assert "docs/game-log.md" in (ROOT / "README.md").read_text()


def test_the_reference_build_uses_the_panels_wiring_md_recommends():
    example = tomllib.loads((ROOT / "systemd" / "config.example.toml").read_text())
    chips = {display["chip"] for display in example["displays"]}
    assert chips == {"sh1106"}
    assert 'The reference build takes two **1.3" SH1106** panels' in (
        (ROOT / "wiring.md").read_text()
    )


def documented_options() -> list[tuple[str, str]]:
    """(command, option) for every option and every word of a choice (`pad install`, `sheets
    show`) of every `qwixx-tower` command, as its parser has it."""
    from firmware_py.app.cli import _parser

    found = []
    commands = next(action.choices for action in _parser()._actions if action.choices)
    for name, command in commands.items():
        for action in command._actions:
            found += [(name, option) for option in action.option_strings if option != "--help"]
            if action.choices and not action.option_strings:
                found += [(name, choice) for choice in action.choices]
    return [(name, option) for name, option in found if option != "-h"]


@pytest.mark.parametrize(("command", "option"), documented_options())
def test_every_option_of_every_command_is_in_commands_md(command, option):
    """The README sends a newcomer to docs/commands.md for "every command and option";
    `doctor --state-dir` and the demo's options were not there."""
    text = " ".join((ROOT / "docs" / "commands.md").read_text().split())
    start = text.index(f"- `qwixx-tower {command}")
    end = text.find("- `qwixx-tower ", start + 1)
    assert option in text[start : end if end > 0 else None], f"{command} {option}"


def test_every_line_of_the_roll_buttons_menu_is_in_the_readme():
    """The README lists the menu's lines for a player at the tower: "name a pad" was not
    there."""
    from firmware_py.menu import ITEMS

    text = (ROOT / "README.md").read_text()
    assert [item for item in ITEMS if f"- **{item}**" not in text] == []


def test_the_mistake_configuration_md_quotes_is_the_towers_own():
    from firmware_py.app.config import ConfigError, parse_config

    with pytest.raises(ConfigError) as refused:
        parse_config({"lights": {"red": 40, "yellow": 6, "green": 13, "blue": 19}})
    text = " ".join((ROOT / "docs" / "configuration.md").read_text().split())
    assert f"`{refused.value}`" in text


def test_every_key_of_the_tower_the_displays_and_the_table_is_explained_somewhere():
    """configuration.md said the example file explains every key; idle_dim, idle_blank,
    state_dir and a display's rotate were explained nowhere."""
    from firmware_py.app.config.displays import DISPLAY_KEYS
    from firmware_py.app.config.loading import TOWER_KEYS
    from firmware_py.app.config.seats import TABLE_KEYS

    explained = (ROOT / "systemd" / "config.example.toml").read_text() + (
        ROOT / "docs" / "configuration.md"
    ).read_text()
    keys = [*TOWER_KEYS, *DISPLAY_KEYS, *TABLE_KEYS]
    assert [key for key in keys if not re.search(rf"\b{key}\b", explained)] == []


def test_the_phone_pages_words_the_readme_quotes_are_the_pages_own():
    """The README told a player to choose "the pad of Player 2"; the page's line reads "the
    pad of Player 2: name its player"."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    page = (ROOT / "firmware_py" / "seats" / "phones" / "static" / "app.js").read_text()
    assert 'choose "the pad of Player 2: name its player"' in readme
    assert "`the pad of ${name}: name its player`" in page
    assert 'tap "Name the pad\'s player"' in readme and '"Name the pad\'s player"' in page
