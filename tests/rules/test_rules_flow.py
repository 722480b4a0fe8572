"""Game flow as shared/spec/game-log.md fixes it: phases, seats, actions, penalties, the end of
the game, undo, and when locks take effect."""

import pytest
from support.rules import (
    CLASSIC_POINTS,
    COLOURS,
    active,
    build,
    cross,
    in_play,
    locked_rows,
    marks,
    new_game,
    pass_turn,
    penalties,
    play_turn,
    refused,
    report,
    roll,
    row_report,
)

from firmware_py.rules import Mark, Pass, Roll, Undo

# ---- phases and seats ------------------------------------------------------------------------


def test_a_new_game_waits_for_the_first_seat_to_roll():
    """Spec, start: "players[0] is the first active player"; replay output: turn.phase "roll"
    while waiting for a roll, reason null while the game goes on."""
    game = new_game("classic", ["Ann", "Ben", "Cleo"])
    assert game.phase == "roll"
    assert game.waiting_for() == ["Ann"]
    state = report(game)
    assert state["turn"] == {"active": "Ann", "phase": "roll"}
    assert state["over"] is False
    assert state["reason"] is None
    assert state["locked"] == []
    assert sorted(state["winners"]) == ["Ann", "Ben", "Cleo"]  # all tie on 0
    for name in ("Ann", "Ben", "Cleo"):
        assert game.legal_marks(name) == []
        assert not game.can_pass(name)
        assert not game.can_undo(name)


def test_a_roll_opens_action_1_for_every_player():
    """Spec, mark: "Action 1 (after a roll, until every player has marked or passed once): any
    player, at most once per turn"."""
    game = new_game("classic", ["Ann", "Ben", "Cleo"])
    game.apply(Roll((2, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    assert game.phase == "action1"
    assert report(game)["turn"] == {"active": "Ann", "phase": "action1"}
    assert game.waiting_for() == ["Ann", "Ben", "Cleo"]
    for name in ("Ann", "Ben", "Cleo"):
        assert game.can_pass(name)
        assert {m.number for m in game.legal_marks(name)} == {5}


def test_action_1_ends_when_every_player_has_marked_or_passed_once_in_any_order():
    """Spec, pass: "Action 1 ends when every player has marked or passed once." """
    game = new_game("classic", ["Ann", "Ben", "Cleo"])
    game.apply(Roll((2, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    game.apply(Pass("Cleo"))
    assert game.waiting_for() == ["Ann", "Ben"]
    assert not game.can_pass("Cleo")
    assert game.legal_marks("Cleo") == []
    game.apply(Mark("Ben", "green", 5))
    assert game.waiting_for() == ["Ann"]
    assert game.phase == "action1"
    game.apply(Pass("Ann"))
    assert game.phase == "action2"
    assert report(game)["turn"] == {"active": "Ann", "phase": "action2"}


def test_action_2_belongs_to_the_active_player_only():
    """Classic (seed 000), "2. Action": "The active player (but not the others!) may then ..."
    Spec: "Action 2 (after action 1 is complete): the active player only, at most once"."""
    game = new_game("classic", ["Ann", "Ben", "Cleo"])
    game.apply(Roll((2, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    for name in ("Ann", "Ben", "Cleo"):
        game.apply(Pass(name))
    assert game.waiting_for() == ["Ann"]
    assert game.can_pass("Ann")
    assert game.legal_marks("Ann")
    for name in ("Ben", "Cleo"):
        assert game.legal_marks(name) == []
        assert not game.can_pass(name)
    game.apply(Mark("Ann", "red", 3))
    assert game.phase == "roll"  # action 2 ends when the active player marks or passes


def test_the_active_seat_moves_one_place_each_turn_and_wraps_around():
    """Spec, start: "the active seat then moves one place on each turn, wrapping around"."""
    game = new_game("classic", ["Ann", "Ben", "Cleo"])
    seen = []
    for _ in range(7):
        seen.append(active(game))
        play_turn(game, {active(game): ("red", 2 + len(seen))})
    assert seen == ["Ann", "Ben", "Cleo", "Ann", "Ben", "Cleo", "Ann"]
    assert active(game) == "Ben"


# ---- penalties --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("in_action_1", "in_action_2", "penalty"),
    [(False, False, 1), (True, False, 0), (False, True, 0), (True, True, 0)],
)
def test_the_active_player_takes_a_penalty_only_when_crossing_nothing_in_either_action(
    in_action_1, in_action_2, penalty
):
    """Classic (seed 000): "If the active player crosses out a number neither in the first nor in
    the second action, he must make a cross in the column "Misthrows"." Spec: "an active player
    who crossed nothing in either action takes a penalty"."""
    game = new_game("classic", ["Ann", "Ben"])
    game.apply(Roll((2, 3), {"red": 4, "yellow": 1, "green": 1, "blue": 1}))
    game.apply(Mark("Ann", "red", 5) if in_action_1 else Pass("Ann"))
    game.apply(Pass("Ben"))
    game.apply(Mark("Ann", "red", 7) if in_action_2 else Pass("Ann"))
    assert penalties(game) == {"Ann": penalty, "Ben": 0}
    crosses = in_action_1 + in_action_2
    assert report(game)["players"]["Ann"]["total"] == CLASSIC_POINTS[crosses] - 5 * penalty


def test_non_active_players_never_take_a_penalty():
    """Classic (seed 000): "The non-active players do not need to mark a misthrow, regardless of
    whether they have chosen to cross out a number or not." """
    game = new_game("classic", ["Ann", "Ben", "Cleo"])
    play_turn(game, {"Ann": ("red", 7)}, white=(3, 4))
    play_turn(game, {"Ben": ("red", 7)}, white=(3, 4))
    play_turn(game, {"Cleo": ("red", 7)}, white=(3, 4))
    assert penalties(game) == {"Ann": 0, "Ben": 0, "Cleo": 0}


def test_the_fourth_penalty_ends_the_game_at_the_end_of_that_turn():
    """Classic (seed 000): "The game ends immediately as soon as someone has marked his fourth
    misthrow." Spec: reason "penalties"."""
    game = new_game("classic", ["Ann", "Ben"])
    for _ in range(3):
        pass_turn(game)  # Ann
        play_turn(game, {"Ben": ("red", 2 + len(marks(game, "Ben", "red")))})  # Ben crosses
    assert penalties(game) == {"Ann": 3, "Ben": 0}
    assert report(game)["over"] is False
    pass_turn(game)
    state = report(game)
    assert state["over"] is True
    assert state["reason"] == "penalties"
    assert state["turn"]["phase"] == "over"
    assert game.phase == "over"
    assert game.reason == "penalties"
    assert game.waiting_for() == []
    assert state["winners"] == ["Ben"]


def test_a_game_that_ends_after_action_1_has_no_action_2_and_no_penalty():
    """Spec: "The game ends at the end of an action in which ... the second locked row came
    about. A game that ends after action 1 has no action 2 and no penalty." Classic: "as soon as
    two colour-rows have been completed and closed off (regardless by which players)". Ann, the
    active player, passes while Ben locks the second row."""
    game = new_game("classic", ["Ann", "Ben"])
    build(
        game,
        {
            "Ann": [("green", n) for n in (12, 11, 10, 9, 8, 2)],
            "Ben": [("red", n) for n in (2, 3, 4, 5, 6, 7)],
        },
    )
    assert locked_rows(game) == ["green"]
    if active(game) != "Ann":
        play_turn(game, {"Ben": ("yellow", 2)}, white=(1, 1))
    assert active(game) == "Ann"
    before = penalties(game)
    game.apply(roll(game, (6, 6)))
    game.apply(Pass("Ann"))
    game.apply(Mark("Ben", "red", 12))
    assert game.phase == "over"
    assert game.reason == "locks"
    assert penalties(game) == before
    assert locked_rows(game) == ["green", "red"]
    assert game.legal_marks("Ann") == []
    assert not game.can_pass("Ann")


def test_a_second_lock_in_action_2_ends_the_game_at_the_end_of_action_2():
    """Classic (seed 000): the game ends "as soon as two colour-rows have been completed and
    closed off"; a row locked in action 2 is the active player's."""
    game = new_game("classic", ["Ann"])
    cross(game, "Ann", *[("green", n) for n in (12, 11, 10, 9, 8, 2)])
    cross(game, "Ann", *[("red", n) for n in (2, 3, 4, 5, 6)])
    game.apply(roll(game, (6, 1), red=6))
    game.apply(Pass("Ann"))
    assert game.phase == "action2"
    assert report(game)["over"] is False
    game.apply(Mark("Ann", "red", 12))
    assert game.phase == "over"
    assert game.reason == "locks"
    assert locked_rows(game) == ["green", "red"]


def test_events_after_the_game_is_over_are_refused():
    """Spec: "Any event after the game is over is refused." """
    game = new_game("classic", ["Ann"])
    for _ in range(4):
        pass_turn(game)
    assert game.phase == "over"
    refused(game, Roll((1, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1}), "over")
    refused(game, Mark("Ann", "red", 2), "over")
    refused(game, Pass("Ann"), "over")
    refused(game, Undo("Ann"), "over")


# ---- undo ---------------------------------------------------------------------------------------


def test_undo_takes_back_a_mark_while_action_1_is_open():
    """Spec, undo: "Takes back the player's own last decision (a mark or a pass) while the action
    it belongs to is still open." The player may then decide again."""
    game = new_game("classic", ["Ann", "Ben"])
    game.apply(Roll((2, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    before = report(game)
    game.apply(Mark("Ben", "red", 5))
    assert game.can_undo("Ben")
    assert not game.can_undo("Ann")
    game.apply(Undo("Ben"))
    assert report(game) == before
    assert game.waiting_for() == ["Ann", "Ben"]
    assert Mark("Ben", "red", 5) in game.legal_marks("Ben")
    game.apply(Mark("Ben", "yellow", 5))
    assert marks(game, "Ben", "yellow") == [5]
    assert marks(game, "Ben", "red") == []


def test_undo_takes_back_a_pass_while_action_1_is_open():
    """Spec, undo: a pass is a decision that can be taken back while its action is open."""
    game = new_game("classic", ["Ann", "Ben"])
    game.apply(Roll((2, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    game.apply(Pass("Ann"))
    game.apply(Undo("Ann"))
    assert game.waiting_for() == ["Ann", "Ben"]
    game.apply(Mark("Ann", "blue", 5))
    game.apply(Pass("Ben"))
    assert game.phase == "action2"
    game.apply(Pass("Ann"))
    assert penalties(game) == {"Ann": 0, "Ben": 0}  # the undone pass left no trace


def test_undo_of_a_lock_in_action_1_leaves_the_row_open():
    """Spec: a row locked in action 1 is locked from the end of action 1; a lock taken back
    before then never happened."""
    game = new_game("classic", ["Ann", "Ben"])
    build(game, {"Ann": [("red", n) for n in range(2, 7)], "Ben": [("blue", 12), ("blue", 11)]})
    game.apply(roll(game, (6, 6)))
    game.apply(Mark("Ann", "red", 12))
    game.apply(Undo("Ann"))
    game.apply(Pass("Ann"))
    game.apply(Pass("Ben"))
    assert locked_rows(game) == []
    assert row_report(game, "Ann", "red")["locked"] is False
    assert "red" in in_play(game)


def test_undo_is_refused_outside_an_open_action_1_decision():
    """Spec, undo: "Anything else is refused." """
    game = new_game("classic", ["Ann", "Ben"])
    refused(game, Undo("Ann"))  # nothing decided yet: waiting for the roll
    game.apply(Roll((2, 3), {"red": 4, "yellow": 1, "green": 1, "blue": 1}))
    refused(game, Undo("Ann"))  # Ann has not decided
    game.apply(Mark("Ben", "red", 5))
    refused(game, Undo("Ann"))  # Ben's decision is not Ann's to take back
    game.apply(Pass("Ann"))  # action 1 is complete
    refused(game, Undo("Ben"))
    refused(game, Undo("Ann"))
    game.apply(Mark("Ann", "red", 7))  # action 2 ends at once
    refused(game, Undo("Ann"))
    assert marks(game, "Ann", "red") == [7]
    assert marks(game, "Ben", "red") == [5]


def test_undo_twice_is_refused():
    """Spec, undo: it takes back the player's last decision; after that there is none open."""
    game = new_game("classic", ["Ann", "Ben"])
    game.apply(Roll((2, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    game.apply(Mark("Ann", "red", 5))
    game.apply(Undo("Ann"))
    refused(game, Undo("Ann"))


# ---- when locks take effect -------------------------------------------------------------------


def test_a_row_locked_in_action_1_closes_for_everyone_at_the_end_of_action_1():
    """Spec: "A row locked in action 1 is locked for everyone from the end of action 1, so several
    players can lock the same row ... in one action 1." Classic: "The dice of the colour
    corresponding to it is immediately removed from the game": action 2 cannot use it."""
    game = new_game("classic", ["Ann", "Ben"])
    build(
        game, {"Ann": [("red", n) for n in range(2, 7)], "Ben": [("red", n) for n in range(2, 7)]}
    )
    player = active(game)
    game.apply(roll(game, (6, 6), red=5, yellow=1))
    game.apply(Mark("Ann", "red", 12))
    assert Mark("Ben", "red", 12) in game.legal_marks("Ben")  # still open within action 1
    game.apply(Mark("Ben", "red", 12))
    assert locked_rows(game) == ["red"]
    assert game.phase == "action2"
    assert all(m.row != "red" for m in game.legal_marks(player))
    refused(game, Mark(player, "red", 11), "red")  # white 6 + red 5, but red is out
    game.apply(Mark(player, "yellow", 7))  # white 6 + yellow 1
    refused(game, Roll((1, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1}), "red")


def test_a_row_locked_in_action_2_is_closed_at_once():
    """Classic (seed 000): the die "is immediately removed from the game": the next roll must not
    hold it."""
    game = new_game("classic", ["Ann", "Ben"])
    build(game, {"Ann": [("red", n) for n in range(2, 7)], "Ben": [("blue", 12), ("blue", 11)]})
    assert active(game) == "Ann"
    play_turn(game, second=("red", 12))
    assert locked_rows(game) == ["red"]
    assert game.phase == "roll"
    refused(game, Roll((1, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1}), "red")
    assert in_play(game) == ["yellow", "green", "blue"]


def test_the_lock_threshold_counts_the_action_1_cross_of_the_same_turn():
    """Classic (seed 000): "he must first have made at least five crosses": the active player's
    fifth red cross in action 1 lets them lock red in action 2 of the same turn."""
    game = new_game("classic", ["Ann"])
    cross(game, "Ann", *[("red", n) for n in (2, 3, 4, 5)])
    game.apply(roll(game, (6, 1), red=6))
    game.apply(Mark("Ann", "red", 7))  # the fifth red cross
    game.apply(Mark("Ann", "red", 12))  # white 6 + red 6
    assert row_report(game, "Ann", "red")["locked"] is True
    assert row_report(game, "Ann", "red")["crosses"] == 7


def test_rows_locked_in_the_same_action_are_reported_in_colour_order():
    """Spec, replay output: "locked: locked rows in the order they locked (rows locked in the same
    action in red, yellow, green, blue order)". Blue locked first; then Ben locks yellow before
    Ann locks red in the same action 1."""
    game = new_game("classic", ["Ann", "Ben", "Cleo"])
    build(
        game,
        {
            "Cleo": [("blue", n) for n in (12, 11, 10, 9, 8, 2)],
            "Ann": [("red", n) for n in (2, 3, 4, 5, 6, 7)],
            "Ben": [("yellow", n) for n in (2, 3, 4, 5, 6, 7)],
        },
    )
    assert locked_rows(game) == ["blue"]
    game.apply(roll(game, (6, 6)))
    for name in game.waiting_for():
        if name not in ("Ann", "Ben"):
            game.apply(Pass(name))
    game.apply(Mark("Ben", "yellow", 12))
    game.apply(Mark("Ann", "red", 12))
    assert game.phase == "over"
    assert locked_rows(game) == ["blue", "red", "yellow"]
    assert [COLOURS[row] for row in game.locked] == ["blue", "red", "yellow"]
