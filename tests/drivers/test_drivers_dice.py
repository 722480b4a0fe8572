"""Software dice: honest faces, only the dice asked for, and every face turning up."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.dice import SoftwareDice
from drivers.errors import DiceConfigError

COLOURS = ["red", "yellow", "green", "blue"]
MANY_ROLLS = 10_000


def faces_seen(dice, rolls=MANY_ROLLS):
    """Every face shown by any die over `rolls` rolls of the white and all coloured dice."""
    seen = set()
    for _ in range(rolls):
        white, coloured = dice.roll(COLOURS)
        seen.update(white, coloured.values())
    return seen


@given(
    faces=st.integers(min_value=2, max_value=20),
    colours=st.lists(st.sampled_from(COLOURS), unique=True),
)
def test_a_roll_is_two_white_dice_and_one_die_per_colour_asked_for(faces, colours):
    white, coloured = SoftwareDice(faces=faces).roll(colours)
    assert len(white) == 2
    assert set(coloured) == set(colours)
    assert all(1 <= face <= faces for face in (*white, *coloured.values()))


def test_locked_colours_left_out_get_no_die():
    _white, coloured = SoftwareDice().roll(["green"])
    assert list(coloured) == ["green"]
    assert SoftwareDice().roll([])[1] == {}


def test_six_sided_dice_show_every_face_and_nothing_else():
    # A face missing from 60,000 throws has probability about 6 * (5/6)**60000: never.
    assert faces_seen(SoftwareDice()) == {1, 2, 3, 4, 5, 6}


def test_eight_sided_dice_show_every_face_up_to_eight():
    assert faces_seen(SoftwareDice(faces=8)) == set(range(1, 9))


def test_no_face_is_badly_favoured_over_many_rolls():
    # Each face of 60,000 throws is expected 10,000 times (sd about 91); 9,000 is 11 sd away.
    counts = dict.fromkeys(range(1, 7), 0)
    dice = SoftwareDice()
    for _ in range(MANY_ROLLS):
        white, coloured = dice.roll(COLOURS)
        for face in (*white, *coloured.values()):
            counts[face] += 1
    assert all(9_000 < count < 11_000 for count in counts.values())


@pytest.mark.parametrize("faces", [1, 0, -6])
def test_dice_with_fewer_than_two_faces_are_refused(faces):
    with pytest.raises(DiceConfigError, match=r"dice\.faces"):
        SoftwareDice(faces=faces)


def test_lucky_numbers_drawn_with_the_dice_differ_and_every_number_can_come_up():
    """Longo: the tower draws two different lucky numbers from 2 to 16 for a player."""
    dice, numbers = SoftwareDice(faces=8), list(range(2, 17))
    draws = [dice.sample(numbers, 2) for _ in range(2000)]
    assert all(len(set(pair)) == 2 and set(pair) <= set(numbers) for pair in draws)
    assert {n for pair in draws for n in pair} == set(numbers)
