"""`run --screens DIR` writes every frame of every display as a numbered PNG. A second run
into the same folder numbers on after the first: issue 24, it numbered from 1 again and wrote
over the frames of the run before. Through those frames, a whole game of the longest names
shows each name whole (issue 39), and a run's last game ends on every page of its figures
(issue 40). A run of counted games now ends once the last game's end has shown each of its
pages (4 s a page: about 20 s for two players)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw
from support.drawn_words import display_pixels, shows
from support.tower import Tower

from drivers.display import SHIFT_OFFSETS
from firmware_py.journal.figures import story_of_log
from firmware_py.show.panel_charts import story_pages
from firmware_py.show.whole import TALL
from firmware_py.view import TableView


def play_one_game(screens: Path, state: Path, *extra: str) -> None:
    with Tower("--screens", str(screens), *extra, state=state, pace=0, games=1,
               stderr_apart=True) as tower:  # fmt: skip
        assert tower.wait_for_exit() == 0, tower.errors


def test_a_second_run_numbers_its_frames_on_after_the_first(tmp_path):
    screens = tmp_path / "frames"
    play_one_game(screens, tmp_path / "state")
    first = {path.name: path.read_bytes() for path in screens.glob("main-*.png")}
    play_one_game(screens, tmp_path / "state")
    both = {path.name: path.read_bytes() for path in screens.glob("main-*.png")}
    assert first and len(both) > len(first)
    assert all(both[name] == picture for name, picture in first.items())  # none written over
    numbers = sorted(int(name[len("main-") : -len(".png")]) for name in both)
    assert numbers == list(range(1, len(numbers) + 1))  # one count, on from the first run


def frames(screens: Path, display: str) -> list[Image.Image]:
    """The frames of one display, in the order they were drawn."""
    paths = sorted(screens.glob(f"{display}-*.png"), key=lambda path: int(path.stem.split("-")[1]))
    return [Image.open(path) for path in paths]


def test_a_game_of_the_longest_names_draws_each_whole(tmp_path):
    """Issue 39: the winner screen showed "Alexandra-C~", "waiting for" a page of "arlotte".
    Two players with the longest names (24 characters) play a game through `run`: the
    winner's name is whole on the last frame of the options display (tall letters, one line),
    and where the table waits for each, the main display shows it whole on two lines."""
    names = ("Alexandra-Charlotte Bell", "Alexandra-Charlotte Beck")
    screens = tmp_path / "frames"
    play_one_game(screens, tmp_path / "state", "--players", ",".join(names))
    assert any(shows(frames(screens, "options")[-1], name, TALL) for name in names)
    main = frames(screens, "main")
    for name in names:
        rest = name.removeprefix("Alexandra-")
        assert any(shows(frame, "Alexandra-") and shows(frame, rest) for frame in main), name


def drawn_alone(page, view: TableView) -> np.ndarray:
    """One of the game-over pages as the show stage draws it, on a 128x64 panel of its own."""
    image = Image.new("1", (128, 64))
    page(ImageDraw.Draw(image), view)
    return np.array(image, dtype=bool)


def seen(frame: np.ndarray, page: np.ndarray) -> bool:
    """The frame is the page, pixel for pixel, at one of the burn-in shifts (one pixel)."""
    for dx, dy in SHIFT_OFFSETS:
        shifted = np.zeros_like(page)
        shifted[max(0, dy) : 64 + min(0, dy), max(0, dx) : 128 + min(0, dx)] = page[
            max(0, -dy) : 64 - max(0, dy), max(0, -dx) : 128 - max(0, dx)
        ]
        if np.array_equal(frame, shifted):
            return True
    return False


def test_a_runs_last_game_ends_on_each_players_bar_chart_and_the_story(tmp_path):
    """Issue 40: at game over the 128x64 main display shows each player's breakdown as a bar
    chart (a bar a row, its points and crosses, the penalties) and the game's story, pages
    that take turns. `run --games 1 --screens` exited before they turned, so its frames
    missed them; the run now waits until each page of its last game's end was drawn. Its
    main display's frames hold each player's bar chart and the story, pixel for pixel as the
    show stage draws them from the game's log (within the burn-in shift)."""
    screens, state = tmp_path / "frames", tmp_path / "state"
    play_one_game(screens, state, "--players", "Ann,Ben")
    [log] = state.glob("game-*.jsonl")
    story = story_of_log(log, log.read_bytes().splitlines(keepends=True))
    assert story is not None
    view = TableView("over", story=story)
    *bars, story_chart = [drawn_alone(page, view) for page in story_pages(view)]
    heads = [player.name for player in story.breakdown.ranked()]
    assert sorted(heads) == ["Ann", "Ben"] and len(bars) == 2
    for name, page in zip(heads, bars, strict=True):  # a player's bars, penalties below
        picture = Image.fromarray(page)
        assert shows(picture, name) and shows(picture, "penalty"), name
    shown = [display_pixels(frame) for frame in frames(screens, "main")]
    for page in (*bars, story_chart):
        assert any(seen(frame, page) for frame in shown)
