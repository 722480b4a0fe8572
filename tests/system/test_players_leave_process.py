"""Issue 39, item 1, through the real `qwixx-tower run`: a phone that leaves mid-game is named at
once on the terminal, on the other phones and on a phone still in the lobby; a press of the roll
button (or the grace period running out) plays on without its player, who passes; the player
back with the seat token sits down in the same seat and plays from the next decision; and a new
game asked for on the menu once every phone has gone sets the old game aside as abandoned and
shows the set-up."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
from support.journal import journal_lines, saved_game
from support.phone import WAIT, Phone
from support.tower import Tower

from firmware_py.journal.history import history_lines
from firmware_py.rules import Roll
from firmware_py.seating import COMPUTER, PHONE, SeatSpec
from firmware_py.seats.phones.tokens import device_of

PRESS_AGAIN = 2.0  # seconds: a press that changed nothing by then (the button still bouncing)


async def joined(session: aiohttp.ClientSession, tower: Tower, name: str) -> tuple[Phone, str]:
    """A phone that joined with the table code as `name`: the phone, its seat token."""
    phone = await Phone.open(session, tower.ws_url)
    await phone.send(type="join", code=tower.code, name=name)
    token = (await phone.expect("joined"))["token"]
    return phone, token


async def view_where(phone: Phone, wanted) -> dict:
    """The first view pushed to `phone` for which `wanted(view)` holds (others passed over)."""
    while True:
        view = (await phone.expect("view"))["view"]
        if wanted(view):
            return view


async def press_until(tower: Tower, phone: Phone, phase: str) -> dict:
    """Press the roll button until `phone` shows `phase` (a press while the simulated button is
    still bouncing from the last one presses nothing: a player presses again)."""
    while True:
        tower.press()
        try:
            return await asyncio.wait_for(view_where(phone, lambda v: v["phase"] == phase),
                                          PRESS_AGAIN)  # fmt: skip
        except TimeoutError:
            continue


async def ann_and_leo_in_action_1(
    session: aiohttp.ClientSession, tower: Tower
) -> tuple[Phone, Phone, str]:
    """Ann and Leo join on their phones and a game begins; Ann's roll is in: action 1. Ann's
    phone, Leo's, and Leo's seat token."""
    ann, _ = await joined(session, tower, "Ann")
    leo, token = await joined(session, tower, "Leo")
    await press_until(tower, ann, "roll")  # the game begins: Ann rolls first
    await press_until(tower, ann, "action1")
    return ann, leo, token


async def decided(phone: Phone, request: str, action: str = "pass") -> dict:
    await phone.send(type="decide", request=request, action=action)
    return await phone.expect("answer", request=request)


def printed(tower: Tower, pattern: str) -> str:
    """The tower's next line (after the last one waited for) matching `pattern`."""
    return tower.wait_for(pattern).group(0)


def test_a_phone_that_leaves_in_action_1_is_named_at_once_and_a_press_plays_on_without_it(
    tmp_path,
):
    """Leo's page closes in action 1 (the reference configuration has no action-1 timer): the
    terminal, Ann's phone and a phone in the lobby say at once that Leo's phone has gone, and
    that a press plays on without him; the press makes him pass. Back with his token before his
    own roll, Leo is in his seat and decides his own action 1."""
    with Tower(folder=tmp_path, pace=30, web=True, keyboard=True) as tower:

        async def steps() -> None:
            async with aiohttp.ClientSession() as session:
                lobby = await Phone.open(session, tower.ws_url)
                ann, leo, token = await ann_and_leo_in_action_1(session, tower)
                await leo.close()
                await asyncio.to_thread(printed, tower, r"Leo's phone has gone")
                gone = "Leo's phone has gone: press the roll button to play on without Leo"
                await view_where(ann, lambda view: gone in view["text"])
                while gone not in (await lobby.expect("lobby"))["text"]:
                    pass
                assert (await decided(ann, "a/1"))["ok"] is True
                tower.press()  # play on without Leo
                await asyncio.to_thread(printed, tower, r"the game goes on without Leo")
                await asyncio.to_thread(printed, tower, r"^Leo passes$")
                await view_where(ann, lambda view: view["phase"] == "action2")
                assert (await decided(ann, "a/2"))["ok"] is True  # Leo's roll next
                leo = await Phone.open(session, tower.ws_url)
                await leo.send(type="hello", token=token)
                back = await view_where(leo, lambda view: view["phase"] == "roll")
                assert back["player"] == "Leo" and back["active"], back
                await asyncio.to_thread(printed, tower, r"^Leo's phone is back")
                mine = await press_until(tower, leo, "action1")
                assert mine["may_pass"] and "gone" not in mine["text"], mine
                assert (await decided(leo, "l/1"))["ok"] is True

        asyncio.run(steps())
    [log] = sorted((tmp_path / "state").glob("game-*.jsonl"))
    leo_s = [line for line in journal_lines(log) if line.get("player") == "Leo"]
    assert [line["event"] for line in leo_s] == ["pass", "pass"]
    assert "request" not in leo_s[0] and list(leo_s[1]["request"]) == ["Leo"], leo_s


def test_after_the_grace_period_the_table_plays_on_by_itself(tmp_path):
    """`[table] absent_grace = 1`: Leo's page closes in action 1 and nobody presses; a second
    later he passes by himself and Ann's action 2 comes. Stopped (Ctrl-C, `systemctl
    restart`) with Ann's page open, the tower does not say that her phone has gone: it goes
    with the tower, and comes back with it."""
    with Tower(
        folder=tmp_path, pace=30, web=True, keyboard=True, table="absent_grace = 1"
    ) as tower:

        async def steps() -> None:
            async with aiohttp.ClientSession() as session:
                ann, leo, _ = await ann_and_leo_in_action_1(session, tower)
                assert (await decided(ann, "a/1"))["ok"] is True
                await leo.close()
                await asyncio.to_thread(printed, tower, r"Leo's phone has gone")
                await asyncio.to_thread(printed, tower, r"the game goes on without Leo")
                await asyncio.to_thread(printed, tower, r"^Leo passes$")
                await view_where(ann, lambda view: view["phase"] == "action2")
                assert await asyncio.to_thread(tower.interrupt) == 0

        asyncio.run(steps())
        tower.wait_for_exit(WAIT)
    assert "Ann's phone has gone" not in tower.output


def test_a_new_game_once_every_phone_has_gone_sets_the_old_one_aside_and_shows_the_set_up(
    tmp_path: Path,
):
    """Issue 39: with every phone gone, the menu's new game confirmed left the old game on the
    screen and in the history as unfinished. Now it is set aside, abandoned, and the set-up
    says why no game starts."""
    with Tower(folder=tmp_path, pace=30, web=True, keyboard=True) as tower:

        async def steps() -> None:
            async with aiohttp.ClientSession() as session:
                ann, leo, _ = await ann_and_leo_in_action_1(session, tower)
                await ann.close()
                await leo.close()
                await asyncio.to_thread(printed, tower, r"Leo's phone has gone")

        asyncio.run(steps())
        tower.hold()  # the menu, on its first line: new game
        tower.wait_for(r"^menu: Menu")
        tower.hold()  # picked: a game is on, so the menu asks first
        tower.wait_for(r"^menu: New game\?")
        tower.press()  # yes
        tower.wait_for(r"^set aside unfinished game 1: Ann, Leo, classic")
        tower.wait_for(r"^every player's pad or phone has left: join again to play")
    [line] = history_lines(tmp_path / "state")
    assert "abandoned" in line, line


ANN_S_TOKEN = "ann-s-seat-token-0123456789"
ANN_AND_BOT = [SeatSpec("Ann", PHONE, device_of(ANN_S_TOKEN)), SeatSpec("Bot", COMPUTER)]
ROLLED = Roll((4, 1), dict.fromkeys(("red", "yellow", "green", "blue"), 3))


def test_after_a_restart_a_phone_that_never_comes_back_is_named_and_played_on_without(tmp_path):
    """Issue 39: the tower restarts in action 1 and Ann's phone never opens the page again: no
    device 'went' in this run, so the table waited for her in silence for ever. Now, once a
    phone had time to come back, she is named, and after the grace she passes."""
    saved_game(tmp_path / "state", ANN_AND_BOT, ROLLED)
    grace = "absent_grace = 1"
    with Tower(folder=tmp_path, pace=30, web=True, keyboard=True, table=grace) as tower:
        tower.wait_for(r"Ann's phone is not back since the restart")
        tower.wait_for(r"^Ann passes$")


def test_after_a_restart_a_phone_that_comes_back_in_time_is_no_news(tmp_path):
    """A restart is not news: Ann's phone reconnects with its token at once, and nobody is
    told that it was away."""
    saved_game(tmp_path / "state", ANN_AND_BOT, ROLLED)
    grace = "absent_grace = 3"
    with Tower(folder=tmp_path, pace=30, web=True, keyboard=True, table=grace) as tower:

        async def back() -> dict:
            async with aiohttp.ClientSession() as session:
                phone = await Phone.open(session, tower.ws_url)
                await phone.send(type="hello", token=ANN_S_TOKEN)
                view = await view_where(phone, lambda view: view["phase"] == "action1")
                await asyncio.sleep(4)  # past the grace: she is here, nothing is said
                return view

        assert asyncio.run(back())["player"] == "Ann"
        assert not tower.said("not back since the restart") and not tower.said("Ann passes")
