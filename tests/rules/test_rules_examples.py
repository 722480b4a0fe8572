"""Every worked example of the rulebooks (shared/seeds), played on the rules engine.

Seeds: 000 holds the classic rules (English), Longo, "Qwixx gemixxt" (Mixx A/B) and Bonus A/B;
001 and 003 are the Gamewright classic rules (English, Spanish); 002 holds the German originals
of all of them; 004 is a second English translation of the classic rules. Each test names the
rulebook and quotes the words of its example.
"""

import pytest
from support.rules import (
    CLASSIC_POINTS,
    COLOURS,
    LONGO_POINTS,
    active,
    advance_to,
    build,
    cell_colour,
    cross,
    crossable,
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
    row_numbers,
    row_report,
)

from firmware_py.rules import Mark, Pass, Roll

# ---- classic: crossing numbers from left to right ---------------------------------------------


def test_classic_left_to_right_example():
    """Classic (seeds 000, 001, 002, 003, 004), "Crossing numbers", example: "In the red row
    first the 5 and then the 7 were crossed out. The red 2, 3, 4 and 6 may therefore no longer
    be crossed out. In the yellow row only the 11 and the 12 may still be crossed out. In the
    green row the player has to proceed rightward from the 6. In the blue row he has to proceed
    rightward from the 10."

    The yellow row of the pictured sheet has five crosses up to the 10 (so its 12 may lock).
    """
    game = new_game("classic", ["Laura"])
    cross(game, "Laura", ("red", 5), ("red", 7))
    cross(game, "Laura", *[("yellow", n) for n in (3, 4, 7, 8, 10)])
    cross(game, "Laura", *[("green", n) for n in (12, 11, 9, 8, 6)])
    cross(game, "Laura", ("blue", 12), ("blue", 10))

    red = crossable(game, "Laura", "red")
    assert not red & {2, 3, 4, 5, 6, 7}
    assert red == {8, 9, 10, 11}  # 12 would lock red, which needs 5 crosses (Laura has 2)
    assert crossable(game, "Laura", "yellow") == {11, 12}
    assert crossable(game, "Laura", "green") == {5, 4, 3, 2}
    # Rightward from the blue 10; the blue 2 locks and needs 5 crosses (Laura has 2).
    assert crossable(game, "Laura", "blue") == {9, 8, 7, 6, 5, 4, 3}


def test_classic_left_to_right_holds_in_action_2_too():
    """Classic (seed 000): "the numbers must be crossed out from left to right in each of the
    four colour-rows ... Numbers that have been left out may not, however, be crossed out
    afterward" - whichever action the cross comes from."""
    game = new_game("classic", ["Laura"])
    cross(game, "Laura", ("red", 5), ("red", 7))
    game.apply(roll(game, (3, 2), red=3))  # white 3 + red 3 = 6, white 2 + red 3 = 5
    game.apply(Pass("Laura"))
    assert Mark("Laura", "red", 6) not in game.legal_marks("Laura")
    refused(game, Mark("Laura", "red", 6), "left to right")
    refused(game, Mark("Laura", "red", 5), "already")


# ---- classic: the two actions and misthrows ----------------------------------------------------


def test_classic_action_1_and_2_example_max_emma_laura_linus():
    """Classic (seeds 000, 002, 004), "1. Action": "Max is the active player. The two white dice
    show a 4 and a 1. Max says, loudly and clearly, "five". Emma crosses out, on her card, the
    yellow 5. Max crosses out the red 5. Laura and Linus prefer not to cross out any number."
    "2. Action": "Max adds together the white 4 with the blue 6 and crosses out, in the blue
    colour-row, the number 10." """
    game = new_game("classic", ["Max", "Emma", "Laura", "Linus"])
    game.apply(Roll((4, 1), {"red": 2, "yellow": 3, "green": 5, "blue": 6}))
    assert game.phase == "action1"
    for name in ("Max", "Emma", "Laura", "Linus"):  # each may cross the five in any row
        assert {(m.row, m.number) for m in game.legal_marks(name)} == {
            (colour, 5) for colour in COLOURS
        }
    game.apply(Mark("Emma", "yellow", 5))
    game.apply(Mark("Max", "red", 5))
    game.apply(Pass("Laura"))
    game.apply(Pass("Linus"))

    assert game.phase == "action2"
    assert game.waiting_for() == ["Max"]
    assert Mark("Max", "blue", 10) in game.legal_marks("Max")
    game.apply(Mark("Max", "blue", 10))

    assert marks(game, "Max", "red") == [5]
    assert marks(game, "Max", "blue") == [10]
    assert marks(game, "Emma", "yellow") == [5]
    for name in ("Laura", "Linus"):
        assert all(marks(game, name, colour) == [] for colour in COLOURS)
    assert penalties(game) == {"Max": 0, "Emma": 0, "Laura": 0, "Linus": 0}
    assert report(game)["turn"] == {"active": "Emma", "phase": "roll"}


def test_classic_gamewright_example_five_players_active_crosses_only_in_action_2():
    """Gamewright classic (seeds 001, 003; 2-5 players): "Chris is the active player. The two
    white dice show a 4 and a 1. Chris announces, "five." Tony crosses out the yellow 5 on his
    score sheet. Caroline crosses out the red 5. Annie and Nora choose not to cross out a
    number." and "Chris adds together the white 4 with the blue 6 and crosses out the 10 in the
    blue color-row." Chris crossed a number (in action 2), so he takes no penalty."""
    game = new_game("classic", ["Chris", "Tony", "Caroline", "Annie", "Nora"])
    game.apply(Roll((4, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 6}))
    game.apply(Mark("Tony", "yellow", 5))
    game.apply(Mark("Caroline", "red", 5))
    for name in ("Annie", "Nora", "Chris"):
        game.apply(Pass(name))
    game.apply(Mark("Chris", "blue", 10))
    assert marks(game, "Chris", "blue") == [10]
    assert marks(game, "Tony", "yellow") == [5]
    assert marks(game, "Caroline", "red") == [5]
    assert set(penalties(game).values()) == {0}
    assert active(game) == "Tony"


def test_classic_action_2_offers_each_white_die_with_each_colour_die():
    """Classic (seed 000), "2. Action": the active player adds "just one white dice together
    with ... just one coloured dice of his choosing" and crosses the sum in that colour's row.
    With white 4 and 1 and blue 6 the blue 10 and the blue 7 are both on offer."""
    game = new_game("classic", ["Max", "Emma"])
    game.apply(Roll((4, 1), {"red": 2, "yellow": 3, "green": 5, "blue": 6}))
    game.apply(Pass("Max"))
    game.apply(Pass("Emma"))
    offered = {(m.row, m.number) for m in game.legal_marks("Max")}
    expected = {
        (colour, white + face)
        for colour, face in {"red": 2, "yellow": 3, "green": 5, "blue": 6}.items()
        for white in (4, 1)
    }
    assert offered == expected
    assert ("blue", 10) in offered and ("blue", 7) in offered


def test_classic_misthrow_only_for_the_active_player():
    """Classic (seed 000): "If the active player crosses out a number neither in the first nor
    in the second action, he must make a cross in the column "Misthrows". The non-active players
    do not need to mark a misthrow, regardless of whether they have chosen to cross out a number
    or not." """
    game = new_game("classic", ["Max", "Emma", "Laura"])
    play_turn(game, white=(3, 3))  # nobody crosses anything
    assert penalties(game) == {"Max": 1, "Emma": 0, "Laura": 0}
    play_turn(game, {"Max": ("red", 6)}, white=(3, 3))  # Emma active, only Max crosses
    assert penalties(game) == {"Max": 1, "Emma": 1, "Laura": 0}
    assert report(game)["players"]["Max"]["total"] == 1 - 5


# ---- classic: locking a row --------------------------------------------------------------------


def test_classic_lock_example_laura_green_2():
    """Classic (seeds 000, 002): "If a player wishes to cross out the number at the extreme right
    end of a colour-row (red 12, yellow 12, green 2, blue 2) he must first have made at least five
    crosses in the colour-row in question ... make a cross on the field directly next to it which
    shows a lock symbol. This latter cross will also be counted ... This colour-row is now
    finished and closed off for all the players ... The dice of the colour corresponding to it is
    immediately removed from the game." Example: "Laura crosses out the green 2 and, after it,
    the lock symbol. The green dice is removed from the game." """
    game = new_game("classic", ["Laura", "Max"])
    build(
        game,
        {"Laura": [("green", n) for n in (12, 11, 10, 9, 8)], "Max": [("blue", 12), ("blue", 11)]},
    )
    assert crossable(game, "Laura", "green") >= {2}
    play_turn(game, {"Laura": ("green", 2)})

    green = row_report(game, "Laura", "green")
    assert green["marks"] == [12, 11, 10, 9, 8, 2]
    assert green["crosses"] == 7  # six numbers and the lock cross
    assert green["locked"] is True
    assert green["points"] == CLASSIC_POINTS[7] == 28
    assert locked_rows(game) == ["green"]
    # Closed for all players, and the green die is out of the game.
    assert crossable(game, "Max", "green") == set()
    assert crossable(game, "Laura", "green") == set()
    dice = {"red": 1, "yellow": 1, "green": 1, "blue": 1}
    refused(game, Roll((3, 4), dice), "green")
    game.apply(Roll((3, 4), {"red": 1, "yellow": 1, "blue": 1}))
    assert game.phase == "action1"


def test_classic_lock_example_alison_green_2_gamewright():
    """Gamewright classic (seeds 001, 003): "Alison crosses out the green 2 and after it, the lock
    symbol. The green die is removed from the game." and "The cross on the lock counts toward the
    total number of crosses marked in that color-row." Alison has exactly five crosses first."""
    game = new_game("classic", ["Alison"])
    cross(game, "Alison", *[("green", n) for n in (12, 10, 8, 6, 4)])
    cross(game, "Alison", ("green", 2))
    assert row_report(game, "Alison", "green") == {
        "marks": [12, 10, 8, 6, 4, 2],
        "crosses": 7,
        "locked": True,
        "points": 28,
    }
    assert in_play(game) == ["red", "yellow", "blue"]
    assert report(game)["over"] is False


def test_classic_two_players_lock_the_same_row_in_action_1():
    """Classic (seed 000): "If the closing-off of a row occurs during the first action, it is
    possible that other players may, at the same time, also conclude and close off the same
    colour-row and cross out the lock symbol at the end of it." (Gamewright, seed 001: "These
    players must also have previously crossed out at least five numbers in that row.")"""
    game = new_game("classic", ["Ann", "Ben"])
    build(
        game, {"Ann": [("red", n) for n in range(2, 7)], "Ben": [("red", n) for n in range(2, 7)]}
    )
    play_turn(game, {"Ann": ("red", 12), "Ben": ("red", 12)})
    for name in ("Ann", "Ben"):
        assert row_report(game, name, "red") == {
            "marks": [2, 3, 4, 5, 6, 12],
            "crosses": 7,
            "locked": True,
            "points": 28,
        }
    assert locked_rows(game) == ["red"]  # one row, locked once
    assert report(game)["over"] is False
    assert game.phase == "roll"
    assert in_play(game) == ["yellow", "green", "blue"]


def test_classic_fewer_than_five_crosses_may_not_lock_when_another_player_locks():
    """Classic (seed 000): "But if a particular player has hitherto made less than five crosses
    in the colour-row in question, he shall not have the right to make a cross in the
    extreme-right field, even if the row has been closed off by another player." """
    game = new_game("classic", ["Ann", "Ben"])
    build(
        game, {"Ann": [("red", n) for n in range(2, 7)], "Ben": [("red", n) for n in range(2, 6)]}
    )
    game.apply(roll(game, (6, 6)))
    game.apply(Mark("Ann", "red", 12))
    assert Mark("Ben", "red", 12) not in game.legal_marks("Ben")
    reason = refused(game, Mark("Ben", "red", 12))
    assert reason == "Ben cannot lock red: needs 5 crosses in red first, has 4"
    game.apply(Pass("Ben"))
    assert locked_rows(game) == ["red"]
    assert row_report(game, "Ben", "red")["locked"] is False
    assert row_report(game, "Ben", "red")["crosses"] == 4
    assert row_report(game, "Ann", "red")["locked"] is True


def _three_row_table(variant, lock_green, six):
    """Max, Emma, Laura, Linus; Laura locks green; Max and Linus get `six` red / yellow crosses."""
    game = new_game(variant, ["Max", "Emma", "Laura", "Linus"])
    top = 16 if variant == "longo" else 12
    green = [("green", n) for n in range(top, top - six, -1)] + [("green", lock_green)]
    build(
        game,
        {
            "Laura": green,
            "Max": [("red", n) for n in range(2, 2 + six)],
            "Linus": [("yellow", n) for n in range(2, 2 + six)],
            "Emma": [("blue", n) for n in range(top, top - six, -1)],
        },
    )
    assert locked_rows(game) == ["green"]
    advance_to(game, "Emma")
    return game


def test_classic_second_and_third_row_lock_at_once_example():
    """Classic (seeds 000, 002, 004): "It may occur (during the first action) that a third row is
    closed off simultaneously with the second row. Example: The green row was already closed off.
    Emma now throws two 6's with the white dice and says "twelve". Max crosses out the red 12 and
    thus finishes the red row. At the same time Linus crosses out the yellow 12 and finishes the
    yellow row." The game ends at once: no action 2, so Emma takes no misthrow."""
    game = _three_row_table("classic", 2, 5)
    before = penalties(game)
    game.apply(roll(game, (6, 6)))
    game.apply(Pass("Emma"))
    game.apply(Mark("Max", "red", 12))
    game.apply(Pass("Laura"))
    game.apply(Mark("Linus", "yellow", 12))

    state = report(game)
    assert state["over"] is True
    assert state["reason"] == "locks"
    assert state["turn"]["phase"] == "over"
    assert state["locked"] == ["green", "red", "yellow"]
    assert state["players"]["Max"]["rows"]["red"]["locked"] is True
    assert state["players"]["Linus"]["rows"]["yellow"]["locked"] is True
    assert penalties(game) == before


# ---- classic: scoring ---------------------------------------------------------------------------


def _score_sheet(variant, name, counts, misthrows, lucky=None):
    """One player's sheet with `counts` crosses in red, yellow, green, blue and `misthrows`."""
    game = new_game(variant, [name], lucky=lucky)
    for colour, count in zip(COLOURS, counts, strict=True):
        cross(game, name, *[(colour, n) for n in row_numbers(variant, colour)[:count]])
    for _ in range(misthrows):
        pass_turn(game)
    return game


def test_classic_scoring_example_laura_70():
    """Classic (seeds 000, 002, 004), "Scoring": "In red, Laura has 4 crosses, which gives her
    10 points; in yellow, she has 3 (= 6 points); in green 7 (= 28 points); and in blue 8
    (= 36 points). For her two misthrows she must subtract 10 minus-points. This means that
    Laura's total result is 70 points" """
    game = _score_sheet("classic", "Laura", (4, 3, 7, 8), 2)
    laura = report(game)["players"]["Laura"]
    assert [laura["rows"][c]["points"] for c in COLOURS] == [10, 6, 28, 36]
    assert laura["penalties"] == 2
    assert laura["total"] == 70
    assert game.total("Laura") == 70


def test_classic_scoring_example_alison_70_gamewright():
    """Gamewright classic (seeds 001, 003): "Alison has 4 crosses in red, which gives her 10
    points; in yellow, she has 3 (=6 points); in green 8 (=36 points); and in blue 7 (=28
    points). For her two penalties she must subtract 10 points. This means that Alison's total
    score is 70 points." """
    game = _score_sheet("classic", "Alison", (4, 3, 8, 7), 2)
    alison = report(game)["players"]["Alison"]
    assert [alison["rows"][c]["points"] for c in COLOURS] == [10, 6, 36, 28]
    assert alison["total"] == 70
    assert game.winners() == ["Alison"]


# ---- Longo --------------------------------------------------------------------------------------


def test_longo_left_to_right_example():
    """Longo (seeds 000, 002): "In the red row, you first crossed off the 5 and then the 7. This
    means you can no longer cross off the 2, 3, 4 and 6. In the yellow row, you can only cross
    off the 14, 15 and 16. In the green row, you need to continue to the right of the 11. In the
    blue row, you need to continue to the right of the 14. Note: The lucky numbers on this score
    sheet are 5 and 10." The pictured yellow row has seven crosses up to the 13."""
    game = new_game("longo", ["Laura"], lucky={"Laura": (5, 10)})
    cross(game, "Laura", ("red", 5), ("red", 7))
    cross(game, "Laura", *[("yellow", n) for n in (3, 4, 8, 9, 10, 11, 13)])
    cross(game, "Laura", *[("green", n) for n in (16, 15, 14, 13, 12, 11)])
    cross(game, "Laura", ("blue", 14))

    red = crossable(game, "Laura", "red")
    assert not red & {2, 3, 4, 5, 6, 7}
    assert red == set(range(8, 15))  # 15 and 16 lock red: six crosses needed, Laura has 2
    assert crossable(game, "Laura", "yellow") == {14, 15, 16}
    assert crossable(game, "Laura", "green") == set(range(2, 11))
    assert crossable(game, "Laura", "blue") == set(range(4, 14))  # 3 and 2 lock: six needed


def test_longo_action_examples_max_says_six():
    """Longo (seeds 000, 002): "Max is the active player. The white dice show a 5 and a 1. Max
    informs everyone that the sum is "six". Emma crosses off the yellow 6 on her score sheet. Max
    crosses off the red 6. Laura and Linus don't want to cross off a 6." and "Max combines the
    white 5 with the blue 8 and crosses off the blue 13." (eight-sided dice)"""
    players = ["Max", "Emma", "Laura", "Linus"]
    game = new_game("longo", players, lucky={n: (2, 3) for n in players})
    game.apply(Roll((5, 1), {"red": 7, "yellow": 2, "green": 4, "blue": 8}))
    game.apply(Mark("Emma", "yellow", 6))
    game.apply(Mark("Max", "red", 6))
    game.apply(Pass("Laura"))
    game.apply(Pass("Linus"))
    game.apply(Mark("Max", "blue", 13))
    assert marks(game, "Max", "red") == [6]
    assert marks(game, "Max", "blue") == [13]
    assert marks(game, "Emma", "yellow") == [6]
    assert set(penalties(game).values()) == {0}


@pytest.mark.parametrize(("row", "number"), [("red", 15), ("red", 16), ("green", 3), ("green", 2)])
def test_longo_lock_with_either_of_the_last_two_numbers_after_six_crosses(row, number):
    """Longo (seeds 000, 002): "Before you can cross off one of the rightmost numbers of a colored
    row (red 15/16, yellow 15/16, green 2/3, blue 2/3), you must first have crossed off at least
    six numbers in that colored row. As soon as you cross off one of the rightmost numbers in a
    row, you must also immediately cross off the space with the lock symbol." Example: "Emma
    crosses off the green 3 and immediately crosses off the lock symbol. The green die is removed
    from the game." """
    game = new_game("longo", ["Emma"], lucky={"Emma": (2, 3)})
    six = row_numbers("longo", row)[:6]
    cross(game, "Emma", *[(row, n) for n in six])
    assert crossable(game, "Emma", row) >= {number}
    cross(game, "Emma", (row, number))
    state = row_report(game, "Emma", row)
    assert state["marks"] == [*six, number]
    assert state["crosses"] == 8
    assert state["locked"] is True
    assert state["points"] == LONGO_POINTS[8] == 36
    assert locked_rows(game) == [row]
    assert row not in in_play(game)
    assert crossable(game, "Emma", row) == set()  # locked: neither last number any more


def test_longo_five_crosses_may_not_lock():
    """Longo (seed 000): "However, if you have fewer than six crosses in a colored row when
    another player locks it, you're not allowed to cross off either of the rightmost numbers." """
    game = new_game("longo", ["Ann", "Ben"], lucky={"Ann": (2, 3), "Ben": (2, 3)})
    build(
        game,
        {"Ann": [("red", n) for n in range(2, 8)], "Ben": [("red", n) for n in range(2, 7)]},
    )
    game.apply(roll(game, (8, 7)))
    game.apply(Mark("Ann", "red", 15))
    refused(game, Mark("Ben", "red", 15), "6", "5")
    game.apply(Pass("Ben"))
    assert locked_rows(game) == ["red"]
    assert row_report(game, "Ben", "red")["crosses"] == 5


def test_longo_second_and_third_row_lock_at_once_example():
    """Longo (seeds 000, 002): "Example: The green row is already locked. Emma rolls two 8s with
    the white dice and says "sixteen". Max crosses off the red 16 and locks the red row.
    Simultaneously, Linus crosses off the yellow 16 and locks the yellow row." """
    game = _three_row_table("longo", 3, 6)
    game.apply(roll(game, (8, 8)))
    game.apply(Mark("Max", "red", 16))
    game.apply(Mark("Linus", "yellow", 16))
    game.apply(Pass("Emma"))
    game.apply(Pass("Laura"))
    state = report(game)
    assert state["over"] is True
    assert state["reason"] == "locks"
    assert state["locked"] == ["green", "red", "yellow"]


def test_longo_lucky_number_example_laura_green_16():
    """Longo, German rules (seed 002): "Laura hat die 6 und die 11 als Glückszahlen. Anstelle der
    von Max angesagten 6 kreuzt sie die grüne 16 an." With no crosses yet, all four rows have the
    fewest crosses ("Hast du mehrere Reihen mit gleichermaßen den wenigsten Kreuzen, suchst du dir
    eine davon aus"), and the next available green number is the 16."""
    players = ["Max", "Emma", "Laura", "Linus"]
    lucky = {"Max": (2, 3), "Emma": (4, 8), "Laura": (6, 11), "Linus": (12, 14)}
    game = new_game("longo", players, lucky=lucky)
    game.apply(Roll((5, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    lucky_marks = {(m.row, m.number) for m in game.legal_marks("Laura") if m.lucky}
    assert lucky_marks == {("red", 2), ("yellow", 2), ("green", 16), ("blue", 16)}
    game.apply(Mark("Emma", "yellow", 6))
    game.apply(Mark("Max", "red", 6))
    game.apply(Mark("Laura", "green", 16, lucky=True))
    game.apply(Pass("Linus"))
    assert marks(game, "Laura", "green") == [16]
    assert marks(game, "Laura", "red") == []  # instead of the 6, not as well
    assert game.phase == "action2"


def test_longo_lucky_number_example_laura_green_15():
    """Longo (seed 000): "If during action 1 the sum of both white dice is one of the lucky
    numbers on your score sheet, instead of crossing off this number you may cross off the next
    available number in the colored row where you currently have the fewest crosses." Example:
    "Laura's lucky numbers are 6 and 11. Instead of the 6 that Max rolled, she crosses off her
    green 15." Here Laura's green row holds only the 16 and is her row with the fewest crosses."""
    players = ["Max", "Laura"]
    game = new_game("longo", players, lucky={"Max": (2, 3), "Laura": (6, 11)})
    laura = [("green", 16), ("red", 2), ("red", 3), ("yellow", 2), ("yellow", 3)]
    laura += [("blue", 16), ("blue", 15)]
    build(game, {"Laura": laura, "Max": [("blue", 16), ("blue", 15), ("blue", 14)]})
    assert {c: row_report(game, "Laura", c)["crosses"] for c in COLOURS} == {
        "red": 2,
        "yellow": 2,
        "green": 1,
        "blue": 2,
    }
    advance_to(game, "Max")
    game.apply(Roll((5, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    assert [(m.row, m.number) for m in game.legal_marks("Laura") if m.lucky] == [("green", 15)]
    game.apply(Mark("Laura", "green", 15, lucky=True))
    assert marks(game, "Laura", "green") == [16, 15]


def test_longo_lucky_numbers_count_every_time_they_are_rolled():
    """Longo (seed 000): "Lucky numbers are available to you throughout the entire game. You may
    use them each time they are rolled during action 1." A lucky cross is a cross, so the active
    player who makes one takes no failed roll."""
    game = new_game("longo", ["Laura"], lucky={"Laura": (6, 11)})
    play_turn(game, {"Laura": Mark("", "green", 16, lucky=True)}, white=(5, 1))
    play_turn(game, {"Laura": Mark("", "red", 2, lucky=True)}, white=(8, 3))
    play_turn(game, {"Laura": Mark("", "yellow", 2, lucky=True)}, white=(3, 3))
    play_turn(game, {"Laura": Mark("", "blue", 16, lucky=True)}, white=(6, 5))
    play_turn(game, {"Laura": Mark("", "blue", 15, lucky=True)}, white=(4, 2))
    assert {c: marks(game, "Laura", c) for c in COLOURS} == {
        "red": [2],
        "yellow": [2],
        "green": [16],
        "blue": [16, 15],
    }
    assert penalties(game) == {"Laura": 0}


def test_longo_lock_with_a_lucky_cross():
    """Longo (seed 000): "It's rare, but possible and allowed to lock a row using one of your
    lucky numbers, provided that all the rules of the game are followed." All four rows have six
    crosses; the next available red number is the 15, which locks red."""
    game = new_game("longo", ["Laura"], lucky={"Laura": (6, 11)})
    cross(game, "Laura", *[("red", n) for n in range(9, 15)])
    cross(game, "Laura", *[("yellow", n) for n in range(2, 8)])
    cross(game, "Laura", *[("green", n) for n in range(16, 10, -1)])
    cross(game, "Laura", *[("blue", n) for n in range(16, 10, -1)])
    play_turn(game, {"Laura": Mark("", "red", 15, lucky=True)}, white=(5, 1))
    red = row_report(game, "Laura", "red")
    assert red["marks"] == [9, 10, 11, 12, 13, 14, 15]
    assert red["locked"] is True
    assert red["crosses"] == 8
    assert locked_rows(game) == ["red"]


def test_longo_scoring_example_emma_87():
    """Longo (seeds 000, 002): "Emma has 4 red crosses, which scores her 10 points. She also has
    three yellow crosses (= 6 points), 9 green crosses (= 45 points) and 8 blue crosses (= 36
    points). Emma has two failed rolls, which costs her 10 points. Emma's final score is 87
    points." """
    game = _score_sheet("longo", "Emma", (4, 3, 9, 8), 2, lucky={"Emma": (2, 3)})
    emma = report(game)["players"]["Emma"]
    assert [emma["rows"][c]["points"] for c in COLOURS] == [10, 6, 45, 36]
    assert emma["penalties"] == 2
    assert emma["total"] == 87


# ---- Qwixx gemixxt, version A -------------------------------------------------------------------


def _mixx_a_top_row_locked():
    game = new_game("mixx-a", ["Tim"])
    cross(game, "Tim", *[("red", n) for n in (2, 3, 4, 5, 6)])
    play_turn(game, {"Tim": ("red", 12)}, white=(6, 6))
    return game


def test_mixx_a_top_row_locks_with_red_12_and_the_red_die_leaves():
    """Mixx A (seeds 000, 002): "So if, for example, a player completes the top row (with their
    at least 6th cross in this row) by crossing out the red 12, then the red dice comes out of
    play immediately and the top row is closed for all players from now on." """
    game = _mixx_a_top_row_locked()
    top = row_report(game, "Tim", "red")
    assert top["marks"] == [2, 3, 4, 5, 6, 12]
    assert top["locked"] is True
    assert top["points"] == 28  # "scored row by row, just like in the original game"
    assert locked_rows(game) == ["red"]
    assert crossable(game, "Tim", "red") == set()
    refused(game, Roll((1, 2), {"red": 3, "yellow": 1, "green": 1, "blue": 1}), "red")
    assert in_play(game) == ["yellow", "green", "blue"]


def test_mixx_a_red_cells_of_other_rows_stay_crossable_with_the_white_dice():
    """Mixx A (seeds 000, 002): "Note: In the other three rows, you may still cross out the red
    boxes (with the help of the two white dice)." """
    game = _mixx_a_top_row_locked()
    for row in ("yellow", "green", "blue"):
        red_cells = {
            n for n in row_numbers("mixx-a", row) if cell_colour("mixx-a", row, n) == "red"
        }
        assert red_cells
        assert red_cells <= crossable(game, "Tim", row)


def test_mixx_a_red_cells_cannot_be_crossed_in_action_2_once_the_red_die_is_gone():
    """Mixx A (seeds 000, 002): the red boxes stay crossable "with the help of the two white
    dice" only: the red die "comes out of play immediately", and action 2 crosses the sum of a
    white die and a colour die in a box of that die's colour (spec: "in a cell of that die's
    colour")."""
    game = _mixx_a_top_row_locked()
    dice = {"yellow": 4, "green": 4, "blue": 4}
    game.apply(Roll((4, 2), dice))
    game.apply(Pass("Tim"))
    offered = {(m.row, m.number) for m in game.legal_marks("Tim")}
    expected = {
        (row, number)
        for row in ("yellow", "green", "blue")
        for number in row_numbers("mixx-a", row)
        if (colour := cell_colour("mixx-a", row, number)) in dice
        and number in (4 + dice[colour], 2 + dice[colour])
    }
    assert offered == expected
    assert all(cell_colour("mixx-a", row, n) != "red" for row, n in offered)
    assert cell_colour("mixx-a", "blue", 8) == "red"
    refused(game, Mark("Tim", "blue", 8), "red")


def test_mixx_a_action_2_crosses_a_box_of_the_chosen_dies_colour():
    """Mixx A (seed 000): the colours "are divided into small segments"; the classic action 2
    crosses the sum "in the colour-row corresponding to the colour of the dice chosen", i.e. in a
    box of that colour (spec: a row is named by the colour of its lock)."""
    game = new_game("mixx-a", ["Tim"])
    dice = {"red": 4, "yellow": 6, "green": 6, "blue": 6}
    game.apply(Roll((4, 1), dice))
    game.apply(Pass("Tim"))
    offered = {(m.row, m.number) for m in game.legal_marks("Tim")}
    expected = {
        (row, number)
        for row in COLOURS
        for number in row_numbers("mixx-a", row)
        if number
        in (
            4 + dice[cell_colour("mixx-a", row, number)],
            1 + dice[cell_colour("mixx-a", row, number)],
        )
    }
    assert offered == expected
    # White 4 + red 4 = 8, but the 8 of the top (red-lock) row is a green box.
    assert cell_colour("mixx-a", "red", 8) == "green"
    refused(game, Mark("Tim", "red", 8), "green")


# ---- Qwixx gemixxt, version B -------------------------------------------------------------------


@pytest.mark.parametrize(("row", "lock"), [("red", 11), ("yellow", 10), ("green", 3), ("blue", 4)])
def test_mixx_b_rows_lock_with_their_last_printed_number(row, lock):
    """Mixx B (seeds 000, 002): "So if a player wants to close a row, i.e. cross the number on
    the far right off, then it has to be done in red with an 11, in yellow with a 10, in green
    with a 3 and in blue with a 4." """
    numbers = row_numbers("mixx-b", row)
    assert numbers[-1] == lock
    game = new_game("mixx-b", ["Ann"])
    cross(game, "Ann", *[(row, n) for n in numbers[:4]])
    assert lock not in crossable(game, "Ann", row)  # four crosses are not enough
    cross(game, "Ann", (row, numbers[4]))
    assert lock in crossable(game, "Ann", row)
    # The second-to-last number is an ordinary number: it does not lock.
    cross(game, "Ann", (row, numbers[-2]))
    assert row_report(game, "Ann", row)["locked"] is False
    cross(game, "Ann", (row, lock))
    state = row_report(game, "Ann", row)
    assert state["marks"] == [*numbers[:5], numbers[-2], lock]
    assert state["locked"] is True
    assert state["crosses"] == 8
    assert locked_rows(game) == [row]


def test_mixx_b_left_to_right_follows_the_printed_order():
    """Mixx B (seed 000): "The numbers in a row are no longer in ascending or descending order,
    but randomly mixed up." Left to right still holds, in the printed order: red is
    10 6 2 8 3 4 12 5 9 7 11, so after the red 12 only 5, 9 and 7 remain (11 locks and needs five
    crosses)."""
    game = new_game("mixx-b", ["Ann"])
    cross(game, "Ann", ("red", 12))
    assert crossable(game, "Ann", "red") == {5, 9, 7}


# ---- Qwixx Bonus, version A ---------------------------------------------------------------------


def test_bonus_a_tim_green_11_crosses_the_next_red_box():
    """Bonus A (seeds 000, 002): "When you cross a bonus box in any coloured row, you have to
    cross immediately out a bonus box in the bonus bar at the bottom ... you immediately put a
    cross in the specified coloured row (as a rule, the next possible box)." Example: "Now Tim
    crosses the green 11 for his turn. Since this is a bonus box, Tim immediately crosses out the
    first box in the bonus bar: it is red. Tim immediately puts a cross in the red row and marks
    the next possible box with a cross: the red 5." (Tim's last red cross was the 4.)"""
    game = new_game("bonus-a", ["Tim", "Sarah"])
    build(game, {"Tim": [("red", 2), ("red", 4)], "Sarah": [("blue", 12), ("blue", 11)]})
    advance_to(game, "Tim")
    play_turn(game, {"Tim": ("green", 11)})
    assert marks(game, "Tim", "green") == [11]
    assert marks(game, "Tim", "red") == [2, 4, 5]
    assert row_report(game, "Tim", "red")["crosses"] == 3


def test_bonus_a_sarah_chain_red_9_blue_5_yellow_10():
    """Bonus A (seeds 000, 002): "It is possible that "chain moves" are created by the bonus
    boxes. Chain moves are taken immediately one after the other." Example: "Sarah marks the red
    9 with a cross later in the game. As this is a bonus box, Sarah crosses out the next free box
    in her bonus bar: it is blue. Sarah now makes a cross in the blue row: it is the blue 5. Since
    this is also a bonus box, Sarah crosses out the next free bonus box: it is yellow. Sarah
    crosses the next box in her yellow row: the yellow 10."

    The bar reads red, yellow, green, blue, green, red, blue, yellow, ...; Sarah has used its
    first six boxes, crossing left to right without gaps."""
    game = new_game("bonus-a", ["Sarah"])
    cross(game, "Sarah", ("yellow", 5))  # bar 1: red -> red 2
    assert marks(game, "Sarah", "red") == [2]
    cross(game, "Sarah", ("yellow", 8))  # bar 2: yellow -> yellow 9
    assert marks(game, "Sarah", "yellow") == [5, 8, 9]
    cross(game, "Sarah", ("green", 11))  # bar 3: green -> green 10
    cross(game, "Sarah", ("blue", 10))  # bar 4: blue -> blue 9
    cross(game, "Sarah", ("blue", 8))  # bar 5: green -> green 9
    cross(game, "Sarah", ("red", 3))  # bar 6: red -> red 4
    cross(game, "Sarah", ("blue", 6))  # no bonus box
    assert {c: marks(game, "Sarah", c) for c in COLOURS} == {
        "red": [2, 3, 4],
        "yellow": [5, 8, 9],
        "green": [11, 10, 9],
        "blue": [10, 9, 8, 6],
    }

    cross(game, "Sarah", ("red", 9))
    assert marks(game, "Sarah", "red") == [2, 3, 4, 9]
    assert marks(game, "Sarah", "blue") == [10, 9, 8, 6, 5]
    assert marks(game, "Sarah", "yellow") == [5, 8, 9, 10]
    assert marks(game, "Sarah", "green") == [11, 10, 9]


def test_bonus_a_maria_locks_yellow_and_the_yellow_bar_boxes_are_skipped():
    """Bonus A (seeds 000, 002): "Once a colour has been completed during the course of the
    game, all players immediately cross out the corresponding coloured boxes in the bonus bar.
    These boxes in the bonus bar do not count from now on. They are forfeited and are then simply
    skipped." Example: "The yellow row was completed by Maria. Each player crosses off the
    remaining yellow squares in their bonus bar (without using them)." """
    game = new_game("bonus-a", ["Tim", "Maria"])
    build(
        game,
        {
            "Tim": [("yellow", 5), ("red", 4), ("red", 5), ("red", 7)],  # bar 1: red -> red 2
            "Maria": [("yellow", n) for n in (2, 3, 4, 6, 7, 12)],
        },
    )
    assert locked_rows(game) == ["yellow"]
    assert marks(game, "Tim", "red") == [2, 4, 5, 7]
    # Tim's next bar box is yellow: forfeited, so the blue 10 bonus uses the green box after it.
    play_turn(game, {"Tim": ("blue", 10)})
    assert marks(game, "Tim", "yellow") == [5]
    assert marks(game, "Tim", "green") == [12]
    # And the next bonus box is the blue one that follows.
    play_turn(game, {"Tim": ("blue", 8)})
    assert marks(game, "Tim", "blue") == [10, 8, 7]


def test_bonus_a_a_bonus_cross_can_lock_the_second_row_and_end_the_game():
    """Bonus A (seeds 000, 002): "It is possible that a player completes a row with the help of a
    bonus cross and ends the game as a result, if this completes the entire second row." Green is
    locked; Ann's red row runs to the 11 with seven crosses; her first bar box is red."""
    game = new_game("bonus-a", ["Ann", "Ben"])
    build(
        game,
        {
            "Ann": [("red", n) for n in (2, 4, 5, 7, 8, 10, 11)],
            "Ben": [("green", n) for n in (12, 10, 9, 8, 6, 2)],
        },
    )
    assert locked_rows(game) == ["green"]
    game.apply(roll(game, (4, 1)))
    game.apply(Mark("Ann", "yellow", 5))
    game.apply(Pass("Ben"))
    state = report(game)
    assert state["over"] is True
    assert state["reason"] == "locks"
    assert state["locked"] == ["green", "red"]
    red = state["players"]["Ann"]["rows"]["red"]
    assert red["marks"] == [2, 4, 5, 7, 8, 10, 11, 12]
    assert red["locked"] is True
    assert red["crosses"] == 9


# ---- Qwixx Bonus, version B ---------------------------------------------------------------------


def test_bonus_b_sarah_green_5_completes_the_star_and_penalties_cost_nothing():
    """Bonus B (seeds 000, 002): "Sarah crosses the green 5 and has therefore crossed both jagged
    bonus boxes. She immediately marks the corresponding bonus box" (the star: yellow 3 and green
    5). Its meaning: "Your mis-rolls don't count as minus points." """
    game = new_game("bonus-b", ["Sarah"])
    cross(game, "Sarah", ("yellow", 3))
    pass_turn(game)
    assert game.total("Sarah") == 1 - 5  # one cross, one penalty: the star is not complete
    cross(game, "Sarah", ("green", 5))
    assert game.total("Sarah") == 1 + 1  # both boxes: the penalty costs nothing
    pass_turn(game)
    pass_turn(game)
    assert penalties(game) == {"Sarah": 3}
    assert report(game)["players"]["Sarah"]["total"] == 2


def test_bonus_b_star_fourth_penalty_still_ends_the_game():
    """Bonus B (seeds 000, 002): "Note: The game ends with a player's 4th mis-roll, even when
    this player's mis-rolls do not count as minus points." """
    game = new_game("bonus-b", ["Sarah"])
    cross(game, "Sarah", ("yellow", 3), ("green", 5))
    for _ in range(3):
        pass_turn(game)
    assert report(game)["over"] is False
    pass_turn(game)
    state = report(game)
    assert state["over"] is True
    assert state["reason"] == "penalties"
    assert state["players"]["Sarah"]["penalties"] == 4
    assert state["players"]["Sarah"]["total"] == 2


def test_bonus_b_circle_two_crosses_in_the_row_with_the_fewest_crosses():
    """Bonus B (seeds 000, 002), circle (yellow 11 and green 9): "You immediately cross 2 boxes in
    the coloured row in which you have currently made the fewest crosses (the next possible 2
    boxes as a rule)." Blue is Ann's only row without a cross."""
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", ("red", 2), ("yellow", 11), ("green", 9))
    assert marks(game, "Ann", "blue") == [12, 11]
    assert marks(game, "Ann", "green") == [9]
    assert marks(game, "Ann", "red") == [2]


def test_bonus_b_circle_with_tied_rows_needs_a_choice():
    """Bonus B (seeds 000, 002), circle: "If you have several rows with equally few crosses, you
    choose one of them." Red and blue both have no cross when Ann crosses the green 9; the mark
    must say which (spec: "choice": {"row": ...})."""
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", ("yellow", 11))
    game.apply(roll(game, (5, 4)))
    choices = {m.choice for m in game.legal_marks("Ann") if (m.row, m.number) == ("green", 9)}
    assert choices == {"red", "blue"}
    refused(game, Mark("Ann", "green", 9), "choice")
    refused(game, Mark("Ann", "green", 9, choice="yellow"))
    game.apply(Mark("Ann", "green", 9, choice="red"))
    assert marks(game, "Ann", "red") == [2, 3]
    assert marks(game, "Ann", "blue") == []


def test_bonus_b_circle_crosses_are_forfeited_when_the_fewest_row_is_locked():
    """Bonus B (seeds 000, 002): "Note: Bonus crosses that cannot be made in the row with the
    fewest crosses (e.g. because the row is already completed) are forfeited." Ben has no red
    cross, and Ann has locked red."""
    game = new_game("bonus-b", ["Ann", "Ben"])
    build(
        game,
        {
            "Ann": [("red", n) for n in (2, 3, 4, 5, 7, 12)],
            "Ben": [("yellow", 2), ("yellow", 4), ("blue", 12), ("blue", 11), ("yellow", 11)],
        },
    )
    assert locked_rows(game) == ["red"]
    play_turn(game, {"Ben": ("green", 9)})
    assert marks(game, "Ben", "green") == [9]
    assert marks(game, "Ben", "red") == []
    assert {c: row_report(game, "Ben", c)["crosses"] for c in COLOURS} == {
        "red": 0,
        "yellow": 3,
        "green": 1,
        "blue": 2,
    }


def test_bonus_b_diamond_one_cross_in_every_row():
    """Bonus B (seeds 000, 002), diamond (yellow 7 and blue 7): "You immediately cross one box in
    each coloured row (the next possible box according to the rules)." """
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", ("red", 2), ("yellow", 7), ("blue", 7))
    assert {c: marks(game, "Ann", c) for c in COLOURS} == {
        "red": [2, 3],
        "yellow": [7, 8],
        "green": [12],
        "blue": [7, 6],
    }


def test_bonus_b_diamond_skips_a_locked_row():
    """Bonus B (seeds 000, 002): "Note: Under no circumstances can a box in a completed row be
    marked with a cross any more." Ben has locked green before Ann earns the diamond."""
    game = new_game("bonus-b", ["Ann", "Ben"])
    build(
        game,
        {
            "Ann": [("red", 2), ("red", 3), ("red", 4), ("yellow", 7)],
            "Ben": [("green", n) for n in (12, 11, 10, 8, 7, 2)],
        },
    )
    assert locked_rows(game) == ["green"]
    play_turn(game, {"Ann": ("blue", 7)})
    assert {c: marks(game, "Ann", c) for c in COLOURS} == {
        "red": [2, 3, 4, 5],
        "yellow": [7, 8],
        "green": [],
        "blue": [7, 6],
    }


def test_bonus_b_a_bonus_cross_may_lock_a_row():
    """Bonus B (seeds 000, 002): "It is possible and you are allowed to cross and complete the
    last box in a coloured row using a bonus cross." Ann's red row runs to the 11 with six
    crosses, so the diamond's red cross is the red 12, which locks red."""
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", *[("red", n) for n in (2, 3, 4, 5, 7, 11)])
    cross(game, "Ann", ("yellow", 7), ("blue", 7))
    red = row_report(game, "Ann", "red")
    assert red["marks"] == [2, 3, 4, 5, 7, 11, 12]
    assert red["locked"] is True
    assert locked_rows(game) == ["red"]
    assert in_play(game) == ["yellow", "green", "blue"]


def test_bonus_b_square_doubles_the_row_with_the_fewest_crosses():
    """Bonus B (seeds 000, 002), square (red 8 and blue 10): "The points you score for the
    coloured row with the fewest crosses are doubled." """
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", *[("red", n) for n in (2, 3, 4, 8)])  # 4 crosses: 10
    cross(game, "Ann", *[("yellow", n) for n in (2, 3, 4)])  # 3 crosses: 6
    cross(game, "Ann", *[("green", n) for n in (12, 11, 10, 8, 7)])  # 5 crosses: 15
    cross(game, "Ann", ("blue", 12))  # 1 cross: 1
    assert game.total("Ann") == 10 + 6 + 15 + 1
    cross(game, "Ann", ("blue", 10))  # 2 crosses: 3, the fewest, doubled
    assert game.total("Ann") == 10 + 6 + 15 + 3 + 3


def test_bonus_b_octagon_13_extra_points():
    """Bonus B (seeds 000, 002), octagon (red 6 and blue 4): "You get an extra 13 points." """
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", ("red", 6))
    assert game.total("Ann") == 1
    cross(game, "Ann", ("blue", 4))
    assert game.total("Ann") == 1 + 1 + 13
    assert report(game)["players"]["Ann"]["total"] == 15


def test_bonus_b_fewest_crosses_count_the_lock_cross():
    """Bonus B (seed 000), square: "The points you score for the coloured row with the fewest
    crosses are doubled." Spec, Terms: "Fewest crosses: counted over all four rows of the player's
    sheet, lock crosses included." Red has six numbers and its lock (7 crosses), yellow six
    numbers (6 crosses): yellow is the fewest and its 21 points are doubled."""
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", *[("red", n) for n in (2, 3, 4, 5, 8, 12)])
    cross(game, "Ann", *[("yellow", n) for n in (2, 4, 5, 6, 8, 9)])
    cross(game, "Ann", *[("green", n) for n in (12, 11, 10, 8, 7, 6, 4)])
    cross(game, "Ann", *[("blue", n) for n in (12, 10, 9, 8, 6, 5, 3)])
    counts = {c: row_report(game, "Ann", c)["crosses"] for c in COLOURS}
    assert counts == {"red": 7, "yellow": 6, "green": 7, "blue": 7}
    assert game.total("Ann") == 28 + 21 + 28 + 28 + 21


def test_bonus_a_a_bar_box_whose_cross_cannot_be_made_is_still_used():
    """Bonus A (seed 000): "When you cross a bonus box in any coloured row, you have to cross
    immediately out a bonus box in the bonus bar ... When you cross off one of these boxes, you
    immediately put a cross in the specified coloured row". Spec, Terms: if the next available
    cell "is a lock cell and the player lacks the crosses to lock ... a bonus cross there is
    lost." Ann's red row holds only the 11, so the red box's cross (the red 12) is lost; her next
    bonus uses the yellow box after it."""
    game = new_game("bonus-a", ["Ann"])
    cross(game, "Ann", ("red", 11), ("yellow", 5))
    assert marks(game, "Ann", "red") == [11]
    cross(game, "Ann", ("yellow", 8))
    assert marks(game, "Ann", "yellow") == [5, 8, 9]
    assert marks(game, "Ann", "red") == [11]


def test_bonus_b_circle_crosses_are_lost_on_a_lock_cell_without_enough_crosses():
    """Bonus B (seed 000): "Bonus crosses that cannot be made in the row with the fewest crosses
    ... are forfeited." Spec, Terms: the next available cell of a row that "is a lock cell and the
    player lacks the crosses to lock" means "there is no available cell ... a bonus cross there
    is lost." Ann's blue row holds only the 3, so its next cell is the blue 2 (the lock)."""
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", ("red", 2), ("red", 3), ("yellow", 2), ("yellow", 11), ("green", 12))
    cross(game, "Ann", ("blue", 3), ("green", 9))
    assert {c: marks(game, "Ann", c) for c in COLOURS} == {
        "red": [2, 3],
        "yellow": [2, 11],
        "green": [12, 9],
        "blue": [3],
    }
    assert locked_rows(game) == []
