"""Drawing the screens: milliseconds per 128x64 picture, in the shipped Unicode font.

Every screen of a game, on both displays, with Latin, Cyrillic and Chinese names; the first
picture (loading the font) is timed apart. Run:

    .venv/bin/python bench/screens.py
    .venv/bin/python bench/screens.py --rounds 200
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_py.show.screens import render
from firmware_py.view import Seat, TableView

NAMES = ("Ann", "Łukasz", "Дмитрий", "李雷", "Alexandra")
SEATS = tuple(Seat(name, 10 * i, i % 3, lucky=(5, 9)) for i, name in enumerate(NAMES))
DICE = {"red": 6, "yellow": 2, "green": 1, "blue": 6}
VIEWS = [
    TableView("attract", title="Qwixx Longo", seats=SEATS),
    TableView("roll", active="Łukasz", seats=SEATS),
    TableView("rolling", active="Łukasz", seats=SEATS, frame=2),
    TableView("action1", active="李雷", seats=SEATS, white=(4, 1), colours=DICE,
              waiting_for=NAMES),
    TableView("action2", active="李雷", seats=SEATS, white=(4, 1), colours=DICE),
    TableView("lock", active="Ann", seats=SEATS, white=(6, 6), colours=DICE, locked=("red",)),
    TableView("over", seats=SEATS, winners=("Alexandra",)),
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    rounds = parser.parse_args().rounds
    start = time.perf_counter()
    render(VIEWS[0])
    print(f"first picture (loads the font): {(time.perf_counter() - start) * 1000:.1f} ms")
    start = time.perf_counter()
    for _ in range(rounds):
        for view in VIEWS:
            render(view, "main")
            render(view, "options")
    pictures = rounds * len(VIEWS) * 2
    per_picture = (time.perf_counter() - start) / pictures * 1000
    print(f"{pictures} pictures: {per_picture:.2f} ms per picture")


if __name__ == "__main__":
    main()
