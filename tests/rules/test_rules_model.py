"""Random games checked against an independent model of the rules written from the rulebooks.

For classic, Longo and both Mixx variants (no bonus effects), every decision point compares the
engine's legal marks with the model's, tries a random illegal mark that must be refused without
a trace, and at the end checks the scores, the end of the game and that the journal replays to
the same state.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.rules import (
    CLASSIC_POINTS,
    COLOURS,
    LONGO_POINTS,
    cell_colour,
    faces,
    recording_game,
    refused,
    report,
    row_numbers,
    sheet_data,
)

from firmware_py.journal.lines import event_to_line, replay
from firmware_py.rules import Mark, Pass, Roll, game_report

VARIANTS = ["classic", "longo", "mixx-a", "mixx-b"]


class Model:
    """The rules as the rulebooks state them, over the replay report of the engine."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        data = sheet_data(variant)
        self.threshold = 6 if variant == "longo" else 5  # Longo: "at least six numbers"
        self.lock_count = 2 if variant == "longo" else 1  # Longo: "one of the last two numbers"
        self.points = LONGO_POINTS if variant == "longo" else CLASSIC_POINTS
        assert tuple(data["score"]) == self.points

    def numbers(self, row: str) -> list[int]:
        return row_numbers(self.variant, row)

    def can_cross(self, sheet: dict, locked: set[str], row: str, number: int) -> bool:
        numbers = self.numbers(row)
        if row in locked or number not in numbers or sheet["rows"][row]["locked"]:
            return False
        position = numbers.index(number)
        crossed = [numbers.index(n) for n in sheet["rows"][row]["marks"]]
        if crossed and position <= max(crossed):
            return False  # left to right; skipped numbers are gone for good
        if position >= len(numbers) - self.lock_count:
            return sheet["rows"][row]["crosses"] >= self.threshold
        return True

    def action1(self, sheet: dict, locked: set[str], total: int, lucky) -> set[tuple]:
        marks = {
            (row, total, False) for row in COLOURS if self.can_cross(sheet, locked, row, total)
        }
        if total in lucky:  # Longo: next available number of a row with the fewest crosses
            counts = {row: sheet["rows"][row]["crosses"] for row in COLOURS}
            for row in COLOURS:
                if counts[row] != min(counts.values()):
                    continue
                numbers = self.numbers(row)
                crossed = [numbers.index(n) for n in sheet["rows"][row]["marks"]]
                position = max(crossed, default=-1) + 1
                if position < len(numbers) and self.can_cross(
                    sheet, locked, row, numbers[position]
                ):
                    marks.add((row, numbers[position], True))
        return marks

    def action2(self, sheet: dict, locked: set[str], white, dice: dict) -> set[tuple]:
        marks = set()
        for colour, face in dice.items():
            if colour in locked:
                continue  # the die of a locked row is out of the game
            for number in {white[0] + face, white[1] + face}:
                for row in COLOURS:
                    if (
                        number in self.numbers(row)
                        and cell_colour(self.variant, row, number) == colour
                        and self.can_cross(sheet, locked, row, number)
                    ):
                        marks.add((row, number, False))
        return marks

    def total(self, sheet: dict) -> int:
        rows = sum(self.points[sheet["rows"][row]["crosses"]] for row in COLOURS)
        return rows - 5 * sheet["penalties"]


def offered(game, name: str) -> set[tuple]:
    return {(m.row, m.number, m.lucky) for m in game.legal_marks(name)}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    variant=st.sampled_from(VARIANTS),
    seats=st.integers(min_value=1, max_value=4),
    data=st.data(),
)
def test_random_games_follow_the_rulebooks(variant, seats, data):
    """Classic (seed 000): crosses left to right, action 1 the white sum for everyone, action 2 a
    white die plus a colour die for the active player, a misthrow only for an active player who
    crossed nothing, locks after five crosses (Longo: six, with either of the last two numbers),
    the die of a locked row out of the game, the end at two locks or a fourth misthrow, points
    from the printed table. Mixx A: action 2 in a box of the die's colour; Mixx B: the printed
    order. Longo: lucky crosses in a row with the fewest crosses."""
    model = Model(variant)
    players = ["Ann", "Ben", "Cleo", "Dan"][:seats]
    top = faces(variant)
    lucky = None
    if variant == "longo":
        lucky = {
            name: tuple(
                data.draw(st.lists(st.integers(2, 16), min_size=2, max_size=2, unique=True))
            )
            for name in players
        }
    game = recording_game(variant, players, lucky)
    die = st.integers(1, top)
    for turn in range(80):
        if game.phase == "over":
            break
        roller = players[turn % seats]
        at_start = report(game)
        assert at_start["turn"] == {"active": roller, "phase": "roll"}
        locked = set(at_start["locked"])
        white = (data.draw(die), data.draw(die))
        dice = {c: data.draw(die) for c in COLOURS if c not in locked}
        game.apply(Roll(white, dice))
        at_roll = report(game)

        # Action 1: every player once, in a random order.
        order = data.draw(st.permutations(players))
        crossed_in_1 = False
        for name in order:
            sheet = report(game)["players"][name]
            mine = lucky[name] if lucky else ()
            expected = model.action1(sheet, locked, sum(white), mine)
            assert offered(game, name) == expected
            bad = Mark(name, data.draw(st.sampled_from(COLOURS)), data.draw(st.integers(1, 17)))
            if (bad.row, bad.number, False) not in expected:
                refused(game, bad)
            choice = data.draw(st.sampled_from([None, *sorted(expected)]))
            if choice is None:
                game.apply(Pass(name))
            else:
                game.apply(Mark(name, choice[0], choice[1], lucky=choice[2]))
                crossed_in_1 |= name == roller
        # Rows locked in action 1 close at its end, for everybody.
        now = report(game)
        new_locks = [
            row
            for row in COLOURS
            if row not in locked and any(p["rows"][row]["locked"] for p in now["players"].values())
        ]
        assert now["locked"] == at_roll["locked"] + new_locks
        if len(now["locked"]) >= 2:
            assert now["over"] and now["reason"] == "locks"
            assert now["players"][roller]["penalties"] == at_roll["players"][roller]["penalties"]
            break

        # Action 2: the active player only.
        assert game.waiting_for() == [roller]
        for name in players:
            if name != roller:
                assert offered(game, name) == set()
        sheet = now["players"][roller]
        expected = model.action2(sheet, set(now["locked"]), white, dice)
        assert offered(game, roller) == expected
        choice = data.draw(st.sampled_from([None, *sorted(expected)]))
        if choice is None:
            game.apply(Pass(roller))
        else:
            game.apply(Mark(roller, choice[0], choice[1]))
        after = report(game)
        penalty = 0 if crossed_in_1 or choice is not None else 1
        assert after["players"][roller]["penalties"] == sheet["penalties"] + penalty
        for name in players:
            if name != roller:
                assert after["players"][name]["penalties"] == sheet_penalties(now, name)
        if len(after["locked"]) >= 2:
            assert after["reason"] == "locks"
        elif max(p["penalties"] for p in after["players"].values()) >= 4:
            assert after["reason"] == "penalties"
        else:
            assert after["over"] is False

    final = report(game)
    for sheet in final["players"].values():
        assert sheet["total"] == model.total(sheet)
        for row in COLOURS:
            state = sheet["rows"][row]
            assert state["points"] == model.points[state["crosses"]]
            assert state["crosses"] == len(state["marks"]) + state["locked"]
    best = max(sheet["total"] for sheet in final["players"].values())
    assert set(final["winners"]) == {n for n, s in final["players"].items() if s["total"] == best}
    journal = [event_to_line(event) for event in game.log]
    assert game_report(replay(journal)) == final


def sheet_penalties(state: dict, name: str) -> int:
    return state["players"][name]["penalties"]
