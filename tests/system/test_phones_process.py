"""Phones at a real table, through the real `qwixx-tower run` with its web server on: exactly
once across a power cut (a tap journalled, then the plug pulled, is answered from the journal
after the restart, with its request id, and never applied again, not even in the next game),
seats that survive a restart between games, and a stop in well under a second with a phone
connected."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import aiohttp
from support import HANG
from support.journal import journal_lines, saved_game
from support.phone import WAIT, Phone
from support.terminal import TowerTerminal
from support.tower import Tower

from firmware_py.journal.journal import read_game
from firmware_py.rules import Pass, Roll
from firmware_py.seating import COMPUTER, PHONE, SeatSpec
from firmware_py.seats.phones.hub import device_of

TOKEN = "ann-s-seat-token-0123456789"
ROLLED = Roll((4, 1), dict.fromkeys(("red", "yellow", "green", "blue"), 3))
SEATS = [SeatSpec("Ann", PHONE, device_of(TOKEN)), SeatSpec("Bot", COMPUTER)]


def one_pass_from_the_end(state: Path) -> Path:
    """A game of Ann (on her phone) and Bot that Ann's next pass ends (her fourth penalty)."""
    turns = []
    for turn in range(7):  # Ann passes through turns 0, 2, 4 (three penalties) and Bot likewise
        turns += [ROLLED, Pass("Bot"), Pass("Ann"), Pass("Ann" if turn % 2 == 0 else "Bot")]
    log = saved_game(state, SEATS, *turns[:-2], Pass("Ann"))  # turn 6: action 2 is Ann's
    assert read_game(log).game.phase == "action2"
    return log


def kill_once_journalled(tower: Tower, log: Path, count: int) -> None:
    """Pull the plug the moment the game log has `count` lines (the tap is fsynced)."""
    deadline = time.monotonic() + WAIT
    while len(log.read_text().splitlines()) < count:
        assert time.monotonic() < deadline, "the tower never journalled the tap"
        time.sleep(0.001)
    tower.kill()


async def seated_phone(session: aiohttp.ClientSession, tower: Tower) -> Phone:
    """Ann's phone, back with its token (no code typed): her view."""
    phone = await Phone.open(session, tower.ws_url)
    await phone.send(type="hello", token=TOKEN)
    assert (await phone.expect("view"))["view"]["player"] == "Ann"
    return phone


def ids_in_journal(state: Path, tail: str) -> list[str]:
    """Every journalled request id of every game that ends in `/tail`."""
    found = []
    for log in sorted(state.glob("game-*.jsonl")):
        for line in journal_lines(log):
            for ids in line.get("request", {}).values():
                found += [request for request in ids if request.endswith("/" + tail)]
    return found


def test_a_game_ending_tap_killed_after_its_fsync_is_answered_from_the_journal_once(tmp_path):
    """Ann's pass ends the game; the plug is pulled once it is on disk. After the restart her
    phone is back in her seat without the code (a restart between games keeps seats), its retry
    is answered ok with its request id, and in the next game the same retry is answered ok
    again and applied to nothing: the id is in the journal once."""
    log = one_pass_from_the_end(tmp_path / "state")
    count = len(log.read_text().splitlines())
    with Tower(folder=tmp_path, pace=30, web=True, keyboard=True) as tower:

        async def tap_then_power_cut() -> None:
            async with aiohttp.ClientSession() as session:
                phone = await seated_phone(session, tower)
                await phone.send(type="decide", request="a1b2/7", action="pass")
                await asyncio.to_thread(kill_once_journalled, tower, log, count + 1)

        async def retry_after_restart() -> None:
            async with aiohttp.ClientSession() as session:
                phone = await seated_phone(session, tower)
                await phone.send(type="decide", request="a1b2/7", action="pass")
                answer = await phone.expect("answer", request="a1b2/7")
                assert answer["ok"] is True, answer
                await press_until(tower, phone, "roll")  # the next game: Ann alone (Bot was
                await press_until(tower, phone, "action1")  # in the old game only); her roll
                await phone.send(type="decide", request="a1b2/7", action="pass")
                assert (await phone.expect("answer", request="a1b2/7"))["ok"] is True

        asyncio.run(tap_then_power_cut())
        tower.start()
        tower.join_url()
        asyncio.run(retry_after_restart())
    assert read_game(log).game.over
    assert ids_in_journal(tmp_path / "state", "a1b2/7") == [f"{device_of(TOKEN)}/a1b2/7"]
    newest = sorted((tmp_path / "state").glob("game-*.jsonl"))[-1]
    assert newest != log and [line["event"] for line in journal_lines(newest)] == [
        "start",
        "roll",
    ], "the retry was applied in the next game"


async def press_until(tower: Tower, phone: Phone, phase: str) -> None:
    """Press the roll button until the phone shows `phase` (a press while the simulated
    button is still down from the last one presses nothing: a player presses again)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        tower.press()
        try:
            await asyncio.wait_for(until_phase(phone, phase), 2.0)
            return
        except TimeoutError:
            continue
    raise AssertionError(f"the phone never showed {phase}")


async def until_phase(phone: Phone, phase: str) -> dict:
    """The first view in `phase` (views of other phases before it are passed over)."""
    while True:
        message = await phone.expect("view")
        if message["view"]["phase"] == phase:
            return message


def test_a_phone_that_joined_between_games_keeps_its_seat_across_a_power_cut(tmp_path):
    """Dora joins with the table code; the plug is pulled before any game; after the restart
    her phone's token alone (no code) gives her seat back."""
    with Tower(folder=tmp_path, pace=30, web=True) as tower:

        async def join() -> str:
            async with aiohttp.ClientSession() as session:
                phone = await Phone.open(session, tower.ws_url)
                await phone.send(type="join", code=tower.code, name="Dora")
                return (await phone.expect("joined"))["token"]

        async def back(token: str) -> dict:
            async with aiohttp.ClientSession() as session:
                phone = await Phone.open(session, tower.ws_url)
                await phone.send(type="hello", token=token)
                return (await phone.expect("view"))["view"]

        token = asyncio.run(join())
        tower.kill()
        tower.start()
        tower.join_url()
        view = asyncio.run(back(token))
    assert (view["player"], view["phase"]) == ("Dora", "idle")


def test_ctrl_c_with_phones_connected_tells_them_the_tower_restarts_and_ends(tmp_path):
    """Ctrl-C (and so `systemctl restart`) with a seated phone and a page still in the lobby:
    each is told the tower is restarting, its socket closes with the WebSocket code for a
    restart (the page reconnects by itself), and the process ends cleanly."""
    with Tower(folder=tmp_path, pace=30, web=True) as tower:

        async def connected_then_stopped() -> list[tuple[dict, int | None]]:
            async with aiohttp.ClientSession() as session:
                seated = await Phone.open(session, tower.ws_url)
                await seated.send(type="join", code=tower.code, name="Dora")
                await seated.expect("joined")
                lobby = await Phone.open(session, tower.ws_url)
                await lobby.expect("lobby")
                status = await asyncio.to_thread(tower.interrupt)
                assert status == 0
                told = []
                for phone in (seated, lobby):
                    words = await phone.expect("restarting")
                    closed = await phone.socket.receive()
                    told.append((words, closed.data if closed.type.name == "CLOSE" else None))
                return told

        told = asyncio.run(connected_then_stopped())
    for words, code in told:
        assert words["text"] == "the tower is restarting: this phone reconnects by itself"
        assert code == aiohttp.WSCloseCode.SERVICE_RESTART


def test_the_plain_terminal_prints_the_new_table_code_when_a_game_ends(tmp_path):
    """`run --plain`: Ann's pass ends the game, a new table code is drawn, and the terminal
    prints it in one line of at most 80 columns (with the QR code's link, which stays); a phone
    joins with that code, not the old."""
    one_pass_from_the_end(tmp_path / "state")
    with Tower(folder=tmp_path, pace=30, web=True) as tower:
        old, key = tower.typed_code(), tower.code

        async def last_pass_then_join(new: asyncio.Future[str]) -> tuple[dict, dict]:
            async with aiohttp.ClientSession() as session:
                ann = await seated_phone(session, tower)
                await ann.send(type="decide", request="c3d4/1", action="pass")
                assert (await ann.expect("answer", request="c3d4/1"))["ok"] is True
                code = await new
                guest = await Phone.open(session, tower.ws_url)
                await guest.send(type="join", code=old, name="Eve")
                refused = await guest.expect("refused")
                await guest.send(type="join", code=code, name="Eve")
                return refused, await guest.expect("joined")

        async def run() -> tuple[str, dict, dict]:
            loop = asyncio.get_running_loop()
            new: asyncio.Future[str] = loop.create_future()
            playing = asyncio.create_task(last_pass_then_join(new))
            line = await asyncio.to_thread(tower.wait_for, r"New table code \d+.*")
            new.set_result(line.group(0).split()[3].rstrip(":"))
            refused, joined = await playing
            return line.group(0), refused, joined

        line, refused, joined = asyncio.run(run())
    code = line.split()[3].rstrip(":")
    assert len(line) <= 80 and code != old and line.endswith(f"?code={key}"), line
    assert f"{old} is not this table's code" in refused["reason"]
    assert joined["player"] == "Eve"


def test_seat_tokens_are_renewed_at_every_hello_and_kept_across_power_cuts(tmp_path):
    """Dora's hello is answered with a new token, and the plug is pulled before her page can
    keep it (the answer lost): after the restart her old token still gets her in. Once her
    page has kept the next new token, the tokens before it (what someone who read an old frame
    on the network has) are refused, also after another restart; the newest one gets in."""
    with Tower(folder=tmp_path, pace=30, web=True) as tower:

        async def hello(token: str, keep: bool = False) -> tuple[dict, str | None]:
            """Dora's page says hello with `token`: the view (or refusal), the new token."""
            async with aiohttp.ClientSession() as session:
                phone = await Phone.open(session, tower.ws_url)
                await phone.send(type="hello", token=token)
                first = await phone.expect_any("view", "refused")
                if first["type"] == "refused":
                    return first, None
                fresh = (await phone.expect("token"))["token"]
                if keep:
                    await phone.send(type="kept", token=fresh)
                    await phone.expect("view")  # the tower answered: the new one is kept
                return first, fresh

        async def join() -> str:
            async with aiohttp.ClientSession() as session:
                phone = await Phone.open(session, tower.ws_url)
                await phone.send(type="join", code=tower.code, name="Dora")
                return (await phone.expect("joined"))["token"]

        joined = asyncio.run(join())
        view, lost = asyncio.run(hello(joined))
        assert view["view"]["player"] == "Dora" and lost not in (None, joined)
        tower.kill()  # the new token never reached the page
        tower.start()
        tower.join_url()
        view, kept = asyncio.run(hello(joined, keep=True))
        assert view["view"]["player"] == "Dora" and kept not in (None, joined, lost)
        tower.kill()
        tower.start()
        tower.join_url()
        for old in (joined, lost):
            refused, _ = asyncio.run(hello(old))
            assert refused["type"] == "refused" and refused["forget"] is True, refused
            assert refused["reason"].endswith("join with the table code"), refused
        view, newest = asyncio.run(hello(kept))
    assert view["view"]["player"] == "Dora" and newest not in (None, kept)


def test_names_that_differ_only_by_characters_nobody_sees_are_numbered(tmp_path):
    """Issue 39, through the real tower: "Ann" + a variation selector, + a Hangul filler,
    + a braille blank each joined as a new, unnumbered "Ann"; now each is numbered."""
    typed = ["Ann", "Ann\ufe0f", "Ann\u3164", "\u2800Ann\U000e0100"]
    with Tower(folder=tmp_path, pace=30, web=True) as tower:

        async def join_all() -> list[str]:
            async with aiohttp.ClientSession() as session:
                seated = []
                for name in typed:
                    phone = await Phone.open(session, tower.ws_url)
                    await phone.send(type="join", code=tower.code, name=name)
                    seated.append((await phone.expect("joined"))["player"])
                return seated

        seated = asyncio.run(join_all())
    assert seated == ["Ann", "Ann 2", "Ann 3", "Ann 4"]


def test_the_qr_codes_link_stays_the_same_across_games_and_restarts(tmp_path):
    """Issue 39: the QR code's link carried the four-digit code, new after every game and at
    every start, so a printed QR code stopped working (docs/kiosk.md promises it keeps
    working). Ann's pass ends a game, the tower restarts: the link is the same (its port is
    kept too, by `web-port.json`: here each start takes a free one), and a phone that opens it
    joins with it."""
    one_pass_from_the_end(tmp_path / "state")
    with Tower(folder=tmp_path, pace=30, web=True) as tower:
        printed = tower.join_url()

        async def last_pass() -> None:
            async with aiohttp.ClientSession() as session:
                ann = await seated_phone(session, tower)
                await ann.send(type="decide", request="e5f6/1", action="pass")
                assert (await ann.expect("answer", request="e5f6/1"))["ok"] is True

        async def join_from_the_link() -> dict:
            async with aiohttp.ClientSession() as session:
                phone = await Phone.open(session, tower.ws_url)
                await phone.send(type="join", code=printed.rsplit("code=", 1)[1], name="Eve")
                return await phone.expect_any("joined", "refused")

        asyncio.run(last_pass())
        tower.wait_for(r"New table code \d+")
        tower.kill()
        tower.start()
        assert tower.join_url().split("?")[1] == printed.split("?")[1]  # (a free port each start)
        joined = asyncio.run(join_from_the_link())
    assert joined["type"] == "joined" and joined["player"] == "Eve", joined


def code_on_screen(text: str) -> str | None:
    """The four-digit table code the drawn tower shows (by itself, or in the join address)."""
    found = re.search(r"[Tt]able code (\d{4})", text) or re.search(r"\?code=(\d{4})\b", text)
    return found.group(1) if found else None


def test_the_full_screen_terminal_shows_the_new_table_code_after_a_game(tmp_path):
    """Issue 39: under the drawn tower the join address kept the code of the tower's start,
    refused after the first game. Ann's pass ends the game: the terminal shows the new code,
    and a phone joins with what it shows."""
    one_pass_from_the_end(tmp_path / "state")
    config = tmp_path / "config.toml"
    config.write_text('[web]\nhost = "127.0.0.1"\nport = 8080\n')  # ($QWIXX_WEB_PORT: a free one)
    args = ["--config", str(config), "--state-dir", str(tmp_path / "state"), "--pace", "30"]
    terminal = TowerTerminal(args, columns=100, lines=58)
    try:
        url = re.search(r"Phones join at (http://\S+)", terminal.wait_for("Phones join at "))[1]
        ws_url = url.split("/?")[0] + "/ws"
        before = code_on_screen(terminal.text())

        async def last_pass() -> None:
            async with aiohttp.ClientSession() as session:
                ann = await Phone.open(session, ws_url)
                await ann.send(type="hello", token=TOKEN)
                await ann.expect("view")
                await ann.send(type="decide", request="a7b8/1", action="pass")
                assert (await ann.expect("answer", request="a7b8/1"))["ok"] is True

        async def join(code: str) -> dict:
            async with aiohttp.ClientSession() as session:
                phone = await Phone.open(session, ws_url)
                await phone.send(type="join", code=code, name="Eve")
                return await phone.expect_any("joined", "refused")

        asyncio.run(last_pass())
        deadline = time.monotonic() + HANG
        while (shown := code_on_screen(terminal.text())) == before:
            assert time.monotonic() < deadline, f"the code shown stayed {before}"
            terminal.read(0.05)
        joined = asyncio.run(join(shown))
    finally:
        terminal.stop()
    assert joined["type"] == "joined", joined
