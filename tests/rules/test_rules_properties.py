"""Invariants of whole games, for every variant, over games hypothesis plays at random.

Each game is played by players who pick uniformly among the engine's legal marks and a pass (and
now and then take a decision back), with dice drawn by hypothesis. After every event the state
must still obey the rulebooks: crosses only left to right, locks only after enough crosses, no
cross in a locked row, the game over exactly when two rows are locked or someone has four
penalties, totals equal to the score table, and a replay of the log equal to the game played.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.rules import PROPERTY_SETTINGS, starts

from firmware_py.journal.lines import event_to_line, replay
from firmware_py.rules import ACTION1, ACTION2, Game, Mark, Pass, Refused, Roll, Start, Undo
from firmware_py.rules import game_report as report
from sheets import COLOURS, load_sheet, sheet_names

VARIANTS = sheet_names()


def draw_roll(draw, game: Game) -> Roll:
    face = st.integers(1, game.sheet.dice_faces)
    white = (draw(face), draw(face))
    return Roll(white, {colour: draw(face) for colour in game.dice_in_play()})


def draw_decision(draw, game: Game, name: str):
    options = [*game.legal_marks(name), Pass(name)]
    return options[draw(st.integers(0, len(options) - 1))]


def play(draw, start: Start, check) -> list:
    """Play a game to its end with random legal decisions, calling check(game, event, before,
    after) with the game's report before and after each event (one event's after is the next
    one's before: the game is not touched between them)."""
    game = Game.start(start)
    log = [start]
    before = report(game)

    def apply(event):
        nonlocal before
        game.apply(event)
        log.append(event)
        after = report(game)
        check(game, event, before, after)
        before = after

    while not game.over:
        apply(draw_roll(draw, game))
        while game.phase == ACTION1:
            for name in game.waiting_for():
                apply(draw_decision(draw, game, name))
                if game.phase == ACTION1 and draw(st.integers(0, 9)) == 0:
                    apply(Undo(name))  # a change of mind, now and then
                    apply(draw_decision(draw, game, name))
        if game.phase == ACTION2:
            apply(draw_decision(draw, game, game.active_name))
    return log


class Invariants:
    """Checks run after every event; remembers each row's marks when the row locked."""

    def __init__(self, variant: str) -> None:
        self.sheet = load_sheet(variant)
        self.frozen: dict[str, dict[str, list[int]]] = {}

    def __call__(self, game: Game, event, before: dict, after: dict) -> None:
        self.left_to_right(before, after, event)
        self.locks_need_enough_crosses(after)
        self.locked_rows_stay_frozen(after)
        self.over_exactly_when_it_must(after)
        self.totals_follow_the_score_table(game, after)

    def left_to_right(self, before: dict, after: dict, event) -> None:
        """Crosses only to the right of a row's crosses; on the Chain ("Die Kette"), the cross
        a chain sets off lands wherever its cell is, and its partner is crossed with it."""
        if type(event) is Undo:
            return
        for name, player in after["players"].items():
            new_cells = self.new_cells(before["players"][name], player)
            linked = self.set_off(player, new_cells)
            for row, position in new_cells - linked:
                old = before["players"][name]["rows"][COLOURS[row]]["marks"]
                numbers = self.sheet.rows[row].numbers
                assert all(numbers.index(n) < position for n in old), "a cross left of a cross"

    def new_cells(self, old: dict, new: dict) -> set[tuple[int, int]]:
        cells = set()
        for colour, row in new["rows"].items():
            was = old["rows"][colour]["marks"]
            assert set(was) <= set(row["marks"]), "a cross was taken away"
            numbers = self.sheet.rows[COLOURS.index(colour)].numbers
            cells |= {
                (COLOURS.index(colour), numbers.index(n)) for n in row["marks"] if n not in was
            }
        return cells

    def set_off(self, player: dict, new_cells: set[tuple[int, int]]) -> set[tuple[int, int]]:
        """The Chain: new crosses whose partner was crossed in the same event; of each such
        pair, one end (the cross the player made) still follows the row's order."""
        pad = self.pad_of(player)
        if pad is None or not pad.links:
            return set()
        ends = {cell for cell in new_cells if pad.partner(*cell) in new_cells}
        assert len(ends) % 2 == 0
        return ends

    def pad_of(self, player: dict):
        return next((pad for pad in self.sheet.pads if pad.name == player.get("pad")), None)

    def locks_need_enough_crosses(self, after: dict) -> None:
        for player in after["players"].values():
            for row in player["rows"].values():
                if row["locked"]:
                    # the threshold, the lock number itself, and the lock cross
                    assert row["crosses"] >= self.sheet.lock_threshold + 2
                    # (Qwixx Double: and each number's second cross)
                    assert row["crosses"] == len(row["marks"]) + len(row.get("doubled", ())) + 1

    def locked_rows_stay_frozen(self, after: dict) -> None:
        """No cross in a locked row; on the Chain, but for a cell a chain joins to another
        ("whether its row is already locked")."""
        for colour in after["locked"]:
            row = COLOURS.index(colour)
            marks = {name: p["rows"][colour]["marks"] for name, p in after["players"].items()}
            frozen = self.frozen.setdefault(colour, marks)
            for name, numbers in marks.items():
                pad = self.pad_of(after["players"][name])
                linked = {
                    n
                    for n in numbers
                    if pad is not None and pad.partner(row, self.sheet.rows[row].numbers.index(n))
                }
                assert set(frozen[name]) <= set(numbers), f"a cross gone from locked {colour}"
                assert set(numbers) - set(frozen[name]) <= linked, f"a cross in locked {colour}"

    def over_exactly_when_it_must(self, after: dict) -> None:
        most_penalties = max(p["penalties"] for p in after["players"].values())
        locks = len(after["locked"])
        must_end = locks >= self.sheet.locks_to_end or most_penalties >= 4
        assert after["over"] == must_end
        assert (after["turn"]["phase"] == "over") == must_end
        if after["over"]:
            assert after["reason"] == ("locks" if locks >= 2 else "penalties")
        assert most_penalties <= 4

    def totals_follow_the_score_table(self, game: Game, after: dict) -> None:
        for player in after["players"].values():
            # Big Points scores a row by its crosses and the bonus boxes beside it, Qwixx Double
            # by its crosses up to the table's end ("counted").
            counted = [row.get("counted", row["crosses"]) for row in player["rows"].values()]
            rows = sum(self.sheet.score[crosses] for crosses in counted)
            assert [row["points"] for row in player["rows"].values()] == [
                self.sheet.score[crosses] for crosses in counted
            ]
            penalty = 5 * player["penalties"]
            if "star" in player.get("rewards", []):
                penalty = 0
            steps = player.get("steps", {"crosses": 0})["crosses"]  # Connected: the stair
            extras = player.get("reward_points", 0) + (self.sheet.score[steps] if steps else 0)
            assert player["total"] == rows + extras - penalty
        best = max(p["total"] for p in after["players"].values())
        assert after["winners"] == [n for n, p in after["players"].items() if p["total"] == best]


def variant_property(variant: str):
    @PROPERTY_SETTINGS
    @given(st.data())
    def check(data):
        start = data.draw(starts(variant))
        log = play(data.draw, start, Invariants(variant))
        game = replay(event_to_line(event) for event in log)
        played = Game.start(start)
        for event in log[1:]:
            played.apply(event)
        assert report(game) == report(played)
        assert game.over

    check.__name__ = f"test_random_{variant}_games_keep_every_invariant_and_replay_the_same"
    return check


for _variant in VARIANTS:
    _test = variant_property(_variant)
    globals()[_test.__name__] = _test


def every_candidate(game: Game, name: str) -> list[Mark]:
    """Every mark one could propose: each cell, plain or lucky, with each choice of row, and
    with each swap field where the sheet has them."""
    sheet = game.sheet
    # every row's cells: the colour rows, and Big Points' bonus rows
    rows = range(len(sheet.row_names))
    cells = [(sheet.row_names[r], n) for r in rows for n in sheet.row_numbers(r)]
    choices = [None, *COLOURS] if sheet.rewards else [None]
    luck = [False, True] if sheet.has_lucky_numbers else [False]
    swaps = [None, *range(1, len(sheet.swaps) + 1)]  # X-Change: each field (classic: none)
    return [
        Mark(name, colour, number, lucky, choice, swap)
        for (colour, number), lucky, choice, swap in itertools.product(cells, luck, choices, swaps)
    ]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(VARIANTS), st.integers(0, 30))
def test_legal_marks_are_exactly_the_marks_the_referee_accepts(data, variant, turns):
    """legal_marks is what pads and computer players offer: it must hold every mark the
    referee would accept, and nothing it would refuse; a refusal changes nothing."""
    game = Game.start(data.draw(starts(variant)))
    for turn in range(turns + 1):
        if game.over:
            return
        last = turn == turns  # the last turn stops at a random moment
        game.apply(draw_roll(data.draw, game))
        while game.phase == ACTION1 and (not last or data.draw(st.integers(0, 3))):
            name = game.waiting_for()[0]
            game.apply(draw_decision(data.draw, game, name))
        if game.phase == ACTION2 and (not last or data.draw(st.booleans())):
            game.apply(draw_decision(data.draw, game, game.active_name))
    state = report(game)
    for name in [p.name for p in game.players]:
        legal = set(game.legal_marks(name))
        for mark in every_candidate(game, name):
            trial = game.copy()
            try:
                trial.apply(mark)
            except Refused as refusal:
                assert mark not in legal, f"{mark} is offered but refused: {refusal.reason}"
                assert refusal.reason
                assert report(trial) == state
            else:
                assert mark in legal, f"{mark} is accepted but not offered"
