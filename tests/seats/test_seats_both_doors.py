"""One suite of seat behaviour, run against both doors a player's device comes in by: a pad
through the pad hub and a phone through the web server. Whatever the wire, a device joins a
seat, is offered exactly the marks the referee allows, has a decision applied once however
often it is sent, and hears the referee's own words when a mark is refused."""

from __future__ import annotations

import pytest
from support.doors import door_at
from support.table import run_table, until
from support.web import BOT, ROLL

from firmware_py.rules import Pass

DOORS = ["pad", "phone"]


def play(kind: str, tmp_path, steps) -> None:
    """Run a table with Bot (a computer player who waits) and one device of `kind` while
    `await steps(table, door, name)` plays; `name` is the seat the device took."""
    table, door = door_at(kind, tmp_path, [BOT])

    async def with_door() -> None:
        await door.open()
        try:
            assert (await door.join("Dora")).ok
            await until(lambda: len(table.seating.seats) == 2)
            await steps(table, door, table.seating.seats[-1].name)
        finally:
            await door.close()

    run_table(table, with_door)


def start_with_bots_roll(table) -> None:
    """A new game and Bot's first roll: action 1 with white 4 + 1."""
    table.new_game()
    table.submit(ROLL)


@pytest.mark.parametrize("kind", DOORS)
def test_a_device_joins_a_seat_at_the_end_of_the_table(tmp_path, kind):
    async def steps(table, door, name) -> None:
        assert [seat.name for seat in table.seating.seats] == ["Bot", name]
        assert table.seating.kind_of(name) == kind

    play(kind, tmp_path, steps)


@pytest.mark.parametrize("kind", DOORS)
def test_a_device_is_offered_exactly_the_marks_the_referee_allows(tmp_path, kind):
    async def steps(table, door, name) -> None:
        start_with_bots_roll(table)
        offered = await door.moves(phase=2)
        assert offered == {(mark.row, mark.number) for mark in table.game.legal_marks(name)}
        assert offered  # white 4 + 1: a 5 in every row

    play(kind, tmp_path, steps)


@pytest.mark.parametrize("kind", DOORS)
def test_a_decision_sent_again_is_answered_again_and_applied_once(tmp_path, kind):
    async def steps(table, door, name) -> None:
        start_with_bots_roll(table)
        row, number = sorted(await door.moves(phase=2))[0]
        first = await door.mark("first", row, number)
        assert first.ok
        assert await door.mark("first", row, number) == first  # its answer was lost
        player = table.game.player(name)
        assert sum(player.crosses(index) for index in range(4)) == 1
        second = await door.mark("second", row, number)  # a new request: a second mark
        assert not second.ok and "already marked in action 1" in second.words

    play(kind, tmp_path, steps)


@pytest.mark.parametrize("kind", DOORS)
def test_a_mark_the_rules_forbid_is_refused_in_the_referees_words(tmp_path, kind):
    async def steps(table, door, name) -> None:
        start_with_bots_roll(table)
        await door.moves(phase=2)
        refused = await door.mark("nine", "red", 9)  # white 4 + 1 makes 5, not 9
        assert not refused.ok and "9" in refused.words
        assert table.game.player(name).crosses(0) == 0

    play(kind, tmp_path, steps)


@pytest.mark.parametrize("kind", DOORS)
def test_a_pass_in_action_1_is_taken_and_the_table_waits_no_more_for_that_player(tmp_path, kind):
    async def steps(table, door, name) -> None:
        start_with_bots_roll(table)
        await door.moves(phase=2)
        assert (await door.pass_("pass")).ok
        await until(lambda: name not in table.game.waiting_for())

    play(kind, tmp_path, steps)


@pytest.mark.parametrize("kind", DOORS)
def test_a_retry_is_answered_with_the_first_outcome_and_never_taken_as_a_later_decision(
    tmp_path, kind
):
    """The exactly-once check: a mark the rules refused, sent again, hears the same refusal;
    a pass applied in one turn and sent again in the next (its answer lost, and a newer request
    sent since, so that a pad's link cannot answer it from its memory of the last frame) hears
    ok and is not taken as the player's pass of the new turn."""

    async def steps(table, door, name) -> None:
        start_with_bots_roll(table)
        await door.moves(phase=2)
        refused = await door.mark("nine", "red", 9)  # white 4 + 1 makes 5, not 9
        assert not refused.ok
        assert await door.mark("nine", "red", 9) == refused
        assert (await door.pass_("pass")).ok
        table.submit(Pass("Bot"))  # action 1 is over; Bot, the active player, passes action 2
        table.submit(Pass("Bot"))
        table.submit(ROLL)  # the next turn, the device's player's: action 1 again
        await door.moves(phase=2)
        assert not (await door.mark("nine again", "red", 9)).ok  # red 6 + 4 or 6 + 1: no 9
        assert (await door.pass_("pass")).ok  # the first pass's answer was lost
        assert name in table.game.waiting_for(), "the retry was taken as a new pass"
        assert table.game.player(name).penalties == 0

    play(kind, tmp_path, steps)
