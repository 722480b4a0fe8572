"""`run --screens DIR` writes every frame of every display as a numbered PNG. A second run
into the same folder numbers on after the first: issue 24, it numbered from 1 again and wrote
over the frames of the run before. Through those frames, a whole game of the longest names
shows each name whole (issue 39)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from support.drawn_words import shows
from support.tower import Tower

from firmware_py.show.whole import TALL


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
