"""Fuzz targets for every door a guest device or a careless pad can knock on (tools/fuzz.py).

Each target feeds its bytes to the tower's or the league's own code behind one door, built as
small as it can be and real (a real Table on simulated hardware, the real pad link and hub, the
real web hub, bus client and league), and raises only on a bug: an exception the door let
through, or a broken promise asserted here (a refused decision changes nothing in the game; the
tower writes only frames a pad can read). The HTTP, WebSocket and MQTT libraries are not fuzzed:
what reaches our handlers from them is a str or bytes, which is what the targets feed.

Inputs are read with `support.fuzz_input.FuzzInput`, so a saved input replays the same without
atheris (tests/fuzz/test_fuzz_found.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Callable
from urllib.parse import urlencode

import serial
from aiohttp.test_utils import make_mocked_request
from support.fakes import FakeClock
from support.fuzz_doors import (
    BOT,
    CODE,
    ROLL,
    game_log,
    history_pages_of_two_games,
    league_pages,
    league_with_a_tournament,
    mutated,
    quiet_link,
    record_payload,
    result_message,
    seating_message,
    state_message,
    table_for_fuzzing,
)
from support.fuzz_input import FuzzInput

from drivers.errors import DiceNotLandedError
from drivers.pixels import DiceEvent, PixelsReader
from drivers.simulated.pad import pad_hello
from drivers.simulated.pixels import SimulatedScanner, address_of
from firmware_py.app.assembly import attach_bus, attach_pads, attach_phones
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import Topics
from firmware_py.league.tournament import NotNow
from firmware_py.league.tournament_web import ACTIONS as ORGANISER_ACTIONS
from firmware_py.league.tournament_web import _from_our_page as from_our_page
from firmware_py.pad import protocol
from firmware_py.rules import Pass, Roll
from firmware_py.seats.phones.guard import OwnHosts
from firmware_py.seats.phones.hub import ACTIONS as PHONE_ACTIONS
from firmware_py.seats.phones.server import from_another_site
from sheets import COLOURS, sheet_names

VARIANTS = tuple(sheet_names())
PLAYERS = "Ann\nBen\nCleo\nRobo (hard)"  # a tournament's players as the organiser types them


# ---- the pads' serial line --------------------------------------------------------------------


def pad_frames(data: bytes) -> None:
    """Any bytes on a pad's cable, in chunks of any size: the decoder never raises, counts
    every frame it drops, and each message it keeps is one the protocol can write again."""
    fuzz = FuzzInput(data)
    decoder = protocol.FrameDecoder()
    kept: list[protocol.Message] = []
    while fuzz.left:
        chunk = fuzz.raw(fuzz.number(1, 300))
        if fuzz.flag():  # a frame whose CRC is right (what no mutation finds), any body
            chunk = b"\x00" + protocol.cobs_encode(
                chunk + protocol.crc32(chunk).to_bytes(4, "little")
            )
        kept += decoder.feed(chunk)
    kept += decoder.feed(b"\x00")
    assert decoder.stats["frames"] == len(kept)
    for message in kept:
        again = protocol.decode(protocol.encode(message.name, message.seq, message.fields))
        assert again == message, (message, again)


def pad_link(data: bytes) -> None:
    """A pad (or anything on its port) talking to the tower through the real pad link and hub,
    at a table with a computer player: raw bytes, hellos, joins and requests with any fields,
    heartbeats, the game moving on. Asserted: no callback of the link fails, every request in
    a session is answered, a refused one leaves the game's log as it was, and every frame the
    tower writes is one a pad reads."""
    fuzz = FuzzInput(data)
    asyncio.run(_pad_link(fuzz, fuzz.pick(VARIANTS)))


async def _pad_link(fuzz: FuzzInput, variant: str) -> None:
    with table_for_fuzzing(variant, [BOT]) as table:
        hub = attach_pads(table, [])
        link = quiet_link(hub)
        cable = serial.serial_for_url("loop://", timeout=0)
        link._port._serial = cable  # the link's own reading, on pyserial's loopback
        hub.links.append(link)
        heard = protocol.FrameDecoder()

        def say(name: str, fields: protocol.Fields | None, seq: int) -> list[protocol.Message]:
            cable.write(protocol.encode(name, seq, fields))
            link._read_once()
            return heard.feed(cable.read(cable.in_waiting))

        say("hello", pad_hello(), 1)
        say("request", {"action": protocol.JOIN}, 2)
        table.new_game()
        for step in range(fuzz.number(0, 16)):
            _pad_step(fuzz, table, link, cable, say, 3 + step)
            heard.feed(cable.read(cable.in_waiting))
        assert link.stats["callback_errors"] == 0, "a pad's message broke the hub: see the log"
        assert heard.dropped() == 0, f"the tower wrote frames a pad cannot read: {heard.stats}"


def _pad_step(fuzz, table, link, cable, say, seq: int) -> None:  # type: ignore[no-untyped-def]
    kind = fuzz.number(0, 5)
    if kind == 0:  # rubbish, or a frame cut anywhere
        cable.write(fuzz.raw())
        link._read_once()
    elif kind == 1:
        _pad_request(fuzz, table, link, say, seq)
    elif kind == 2:
        hello = {"protocol": fuzz.number(0, 8), "role": fuzz.number(0, 3), "boot": fuzz.byte(),
                 "ident": protocol.clip(fuzz.text(), 64),
                 "firmware": protocol.clip(fuzz.text(), 64)}  # fmt: skip
        say("hello", hello, seq)
    elif kind == 3:
        say("heartbeat", {"state": fuzz.number(0, 0xFFFF)}, seq)
    elif kind == 4 and table.game is not None:  # the game moves on: a roll, or Bot passes
        white = (fuzz.number(1, 6), fuzz.number(1, 6))
        table.submit(Roll(white, {c: fuzz.number(1, 6) for c in table.game.dice_in_play()})
                     if fuzz.flag() else Pass(BOT.name))  # fmt: skip
    else:  # a pad restarted, unplugged or silent: gone, then heard again
        link._set_present(False)
        say("heartbeat", {"state": 0}, seq)


def _pad_request(fuzz, table, link, say, seq: int) -> None:  # type: ignore[no-untyped-def]
    fields = {"action": fuzz.pick((1, 1, 2, 3, 4, 5, fuzz.byte())), "row": fuzz.number(0, 5),
              "number": fuzz.pick((fuzz.number(0, 13), fuzz.byte())), "flags": fuzz.byte(),
              "choice": fuzz.number(0, 5)}  # fmt: skip
    session = link.pad is not None
    before = game_log(table)
    answers = [m for m in say("request", fields, seq) if m.name == "answer" and m["req"] == seq]
    if session:
        assert len(answers) == 1, f"request {fields} was answered {len(answers)} times"
    if answers and answers[0]["status"] != protocol.OK:
        assert game_log(table) == before, f"refused {fields} but the game changed"


# ---- the phones' web page -------------------------------------------------------------------


def phone_messages(data: bytes) -> None:
    """What pages send over the phones' WebSocket, to the real web hub of a table with a
    computer player and a seated phone: JSON built of any values, or any text, from the seated
    phone, a guest's phone or a new connection, with the clock moving. Asserted: nothing
    raises, every message a phone is sent is JSON with its type, and a refused decision leaves
    the game's log as it was."""
    fuzz = FuzzInput(data)
    asyncio.run(_phones(fuzz, fuzz.pick(VARIANTS)))


async def _phones(fuzz: FuzzInput, variant: str) -> None:
    with table_for_fuzzing(variant, [BOT]) as table:
        hub = attach_phones(table, code=CODE)
        clock = FakeClock()
        hub.clock = clock
        ann = hub.open("10.0.0.7")
        assert ann is not None
        hub.receive(ann, json.dumps({"type": "join", "code": CODE, "name": "Ann"}))
        token = next(json.loads(m)["token"] for k, m in ann._outbox if k == "joined")
        table.new_game()
        if table.game is not None:  # (a longo game begins with the lucky numbers)
            table.submit(ROLL)
        phones = [ann, hub.open("10.0.0.8")]
        for _ in range(fuzz.number(0, 12)):
            clock.advance(fuzz.pick((0, 0, 0.05, 1, 30)))
            phone = fuzz.pick(phones)
            if phone is None or fuzz.number(0, 7) == 0:
                phones.append(hub.open(f"10.0.1.{fuzz.byte()}"))
                continue
            _phone_says(fuzz, table, hub, phone, token)


def _phone_says(fuzz, table, hub, phone, token: str) -> None:  # type: ignore[no-untyped-def]
    if fuzz.number(0, 5) == 0:
        hub.receive(phone, fuzz.raw(2100).decode("utf-8", "replace"))
        return
    kind = fuzz.pick(("decide", "decide", "decide", "join", "hello", "kept", "ping", None))
    message = {"type": kind if kind else fuzz.json(0)}
    if kind == "decide":
        message |= {"request": fuzz.pick((f"r{fuzz.byte()}", f"{fuzz.text(8)}/{fuzz.text(8)}",
                                           fuzz.json(0))),
                    "action": fuzz.pick((*PHONE_ACTIONS, fuzz.json(0))),
                    "row": fuzz.pick((*COLOURS, "red-yellow", "blue-green", fuzz.json(0))),
                    "number": fuzz.pick((fuzz.number(0, 13), fuzz.whole())),
                    "lucky": fuzz.json(0), "choice": fuzz.pick(("", *COLOURS, fuzz.json(0))),
                    "swap": fuzz.pick((0, fuzz.whole()))}  # fmt: skip
    elif kind == "join":
        message |= {"code": fuzz.pick((CODE, hub.key, fuzz.json(0))), "name": fuzz.text(),
                    "pad": fuzz.pick((None, None, fuzz.json(1)))}  # fmt: skip
    elif kind in ("hello", "kept"):
        message["token"] = fuzz.pick((token, fuzz.json(0)))
    for _ in range(fuzz.number(0, 2)):
        message[fuzz.text(8)] = fuzz.json()
    before = game_log(table)
    phone._outbox.clear()  # (the page has read what it was sent before)
    hub.receive(phone, json.dumps(message))
    sent = [json.loads(text) | {"queued as": kind} for kind, text in phone._outbox]
    assert all(one["type"] == one["queued as"] for one in sent), sent
    answers = [one for one in sent if one["type"] == "answer"]
    if answers and not any(one["ok"] for one in answers):
        assert game_log(table) == before, f"refused {message} but the game changed"


def phone_pages(data: bytes) -> None:
    """The history's pages on the phones' web server, asked for with any query: a page of
    older games (`before`), a player's page (`name`), a game's page (its number). Asserted:
    no page is the "cannot be shown just now" that a handler's exception turns into."""
    fuzz = FuzzInput(data)
    pages = history_pages_of_two_games()
    loop = asyncio.new_event_loop()
    try:
        for _ in range(fuzz.number(1, 4)):
            kind = fuzz.number(0, 2)
            if kind == 2:
                number = fuzz.pick(("1", "2", "3", "0", "٣", "999999999", str(fuzz.byte())))
                request = make_mocked_request("GET", f"/history/game/{number}",
                                              match_info={"number": number})  # fmt: skip
                handler = pages._game
            else:
                query = urlencode({("before", "name")[kind]: fuzz.text(120)})
                request = make_mocked_request("GET", f"/history{'/player' * kind}?{query}")
                handler = (pages._table, pages._player)[kind]
            page = loop.run_until_complete(pages._guarded(handler)(request))
            assert page.status != 500, f"{request.path_qs}: {page.text}"
    finally:
        loop.close()


@functools.cache
def own_hosts() -> OwnHosts:
    return OwnHosts()  # (it asks the resolver for the machine's names: once)


def web_origins(data: bytes) -> None:
    """The headers our own code reads before any page: the phones' server's Host guard
    (against DNS rebinding) and its WebSocket's Origin check, and the league's check that a
    form comes from its own page (Sec-Fetch-Site, Origin). Asserted: each answers yes or no,
    never raises, and a page of another host is never let in."""
    fuzz = FuzzInput(data)
    hosts = own_hosts()
    for _ in range(fuzz.number(1, 4)):
        host = fuzz.pick(("localhost", "localhost:8080", "127.0.0.1", "[::1]:80", fuzz.text(40)))
        origin = fuzz.pick((None, "null", f"http://{host}", "http://evil.example", "http://[",
                            fuzz.pick(("http://", "https://", "")) + fuzz.text(40)))  # fmt: skip
        headers = {"Host": host} | ({"Origin": origin} if origin is not None else {})
        if fuzz.flag():
            headers["Sec-Fetch-Site"] = fuzz.pick(("same-origin", "none", "cross-site", ""))
        try:
            request = make_mocked_request("GET", "/ws", headers=headers)
        except ValueError:
            continue  # (aiohttp refuses such a header before our code sees it)
        hosts.allows(host)
        crossed = from_another_site(request)
        ours = from_our_page(request)
        if origin == "http://evil.example" and host != "evil.example":
            assert crossed and not ours, headers


# ---- the dice's radio ------------------------------------------------------------------------


def dice_radio(data: bytes) -> None:
    """Bluetooth LE from anything in range to the Pixels dice reader while it reads a roll: a
    die's advertisements and messages with any state, face and battery, another device posing
    as one of the dice (their ids are printed on them), rubbish in the data, links up and
    down, the clock moving. Asserted: nothing raises but the roll's own time-out, and a roll
    read is of faces 1 to 6 only."""
    fuzz = FuzzInput(data)
    asyncio.run(_dice_radio(fuzz))


async def _dice_radio(fuzz: FuzzInput) -> None:
    dice = {"white 1": 11, "white 2": 12, "red": 13, "yellow": 14, "green": 15, "blue": 16}
    clock = FakeClock()
    scanner = SimulatedScanner(dice)
    reader = PixelsReader(dice, scanner=scanner, clock=clock, on_event=_a_sentence)
    await reader.start()
    roll = asyncio.create_task(reader.wait_for_roll(("red", "yellow", "green", "blue"), timeout=30))
    await asyncio.sleep(0)
    try:
        for _ in range(fuzz.number(0, 40)):
            _radio_says(fuzz, reader, scanner, dice)
            if fuzz.number(0, 7) == 0:
                clock.advance(fuzz.pick((1, 11, 31)))
                reader.poll()
            await asyncio.sleep(0)
        if roll.done() and roll.exception() is None:
            white, colours = roll.result()
            assert all(1 <= face <= 6 for face in (*white, *colours.values())), roll.result()
    finally:
        roll.cancel()
        with contextlib.suppress(asyncio.CancelledError, DiceNotLandedError):
            await roll
        await reader.close()


def _radio_says(fuzz: FuzzInput, reader: PixelsReader, scanner, dice) -> None:  # type: ignore[no-untyped-def]
    die_id = fuzz.pick((*dice.values(), fuzz.number(0, 2**32 - 1)))
    how = fuzz.number(0, 4)
    if how == 0:  # an advertisement as a die makes it
        state, face, battery = fuzz.number(0, 7), fuzz.number(1, 9), fuzz.number(0, 127)
        scanner.advertise(die_id, state, face, battery, fuzz.flag())
    elif how == 1:  # an advertisement of anything
        reader.on_advertisement(address_of(die_id), {fuzz.number(0, 0xFFFF): fuzz.raw(32)},
                                {fuzz.text(8): fuzz.raw(32)})  # fmt: skip
    elif how == 2:  # a message over a link: a roll state, a battery level, or anything
        kind = fuzz.pick((2, 3, 34, fuzz.byte()))
        reader.on_notification(address_of(die_id), bytes([kind]) + fuzz.raw(40))
    elif how == 3:
        reader.on_link(address_of(die_id), fuzz.flag())
    else:  # a whole throw of one die
        scanner.roll(fuzz.pick(tuple(dice)), fuzz.number(1, 9))


def _a_sentence(event: DiceEvent) -> None:
    assert isinstance(event.message, str) and event.message, event


# ---- the house's MQTT bus, as the tower hears it ----------------------------------------------


def bus_inbox(data: bytes) -> None:
    """Messages on the tower's topics (and others) from any device on the bus, to the real bus
    client of a table that takes "new_game", "tournament" and "players": Home Assistant's
    status, the resend of results, the roll button, a tournament's seating and its end, the
    league's players; well formed, mangled or rubbish, retained or not, with the clock
    moving. Asserted: taking a message never raises (nor does the table's change after it)."""
    fuzz = FuzzInput(data)
    asyncio.run(_bus_inbox(fuzz))


async def _bus_inbox(fuzz: FuzzInput) -> None:
    settings = MqttConfig(host="localhost", commands=("new_game", "tournament", "players"))
    topics = Topics.of(settings)
    with table_for_fuzzing("classic", [BOT]) as table:
        client = attach_bus(table, settings)
        assert client is not None, "aiomqtt is a test dependency"
        clock = FakeClock()
        client.inbox.clock = clock
        names = (topics.home_assistant_status, topics.resend, topics.command("new_game"),
                 topics.tournament, topics.players)  # fmt: skip
        for _ in range(fuzz.number(1, 12)):
            clock.advance(fuzz.pick((0, 0, 0.1, 1, 31)))
            topic = fuzz.pick((*names, topics.tournament, fuzz.text(32)))
            client.inbox.take(topic, _bus_payload(fuzz, topic, topics), retained=fuzz.flag())
            table.publish()


def _bus_payload(fuzz: FuzzInput, topic: str, topics: Topics) -> bytes:
    how = fuzz.number(0, 3)
    if how == 0:
        return fuzz.raw(2100)
    if topic == topics.tournament and how > 1:
        return mutated(fuzz, seating_message(fuzz))
    if topic == topics.players and how > 1:
        return mutated(fuzz, {"players": [fuzz.text(20) for _ in range(fuzz.number(0, 5))]})
    return fuzz.text(70).encode()


# ---- the league: the towers' messages, and the organiser's forms ------------------------------


def league_bus(data: bytes) -> None:
    """Messages the league takes from the bus (results, availability, state, the tournament's
    record), from towers or anything posing as one, in a league running a tournament; then
    what is left of the input, of any length (JSON nested past Python's depth needs more
    than the 255 bytes of a message above), as one last result or record; then its pages
    drawn. Asserted: nothing raises."""
    fuzz = FuzzInput(data)
    league = league_with_a_tournament(fuzz.number(0, 3))
    for _ in range(fuzz.number(1, 8)):
        tower = fuzz.pick(("t1", "t2", "t3", fuzz.text(12)))
        kind = fuzz.pick(("result", "result", "availability", "state", fuzz.text(8)))
        if fuzz.number(0, 7) == 0:
            league.take_record(record_payload(fuzz, league))
        elif kind == "result" and fuzz.flag():
            league.take(f"qwixx/{tower}/result", result_message(fuzz, tower))
        elif kind == "state" and fuzz.flag():  # a state saying its tower's clock
            league.take(f"qwixx/{tower}/state", state_message(fuzz), retained=fuzz.flag())
        else:
            league.take(f"qwixx/{tower}/{kind}", fuzz.raw(), retained=fuzz.flag())
    if fuzz.left:  # (after the messages above: an input saved before this means the same)
        last = fuzz.pick(("result", "state", "record"))
        if last == "record":
            league.take_record(fuzz.rest())
        else:
            league.take(f"qwixx/t1/{last}", fuzz.rest())
    league_pages(league)


def league_forms(data: bytes) -> None:
    """The organiser's forms on the league's tournament page (signed in): any action with any
    fields, at any point of a tournament; then the pages drawn. The form's handler turns
    NotNow into the words shown; anything else raising is a bug."""
    fuzz = FuzzInput(data)
    league = league_with_a_tournament(fuzz.number(0, 3))
    keys = ("rounds", "players", "towers", "name", "sure", "tower", "Ann", "Ben", "Robo")
    for _ in range(fuzz.number(1, 6)):
        action = fuzz.pick(tuple(ORGANISER_ACTIONS))
        fields = {fuzz.pick(keys): fuzz.pick(("yes", "2", "t1", "Ann", fuzz.text(80)))
                  for _ in range(fuzz.number(0, 6))}  # fmt: skip
        if fuzz.flag():  # players the form takes, or lines of anything
            typed = (fuzz.text(20) for _ in range(fuzz.number(0, 8)))
            fields["players"] = fuzz.pick(
                (PLAYERS, PLAYERS + "\n" + fuzz.text(20), "\n".join(typed))
            )
        with contextlib.suppress(NotNow):  # (the form's handler shows its words)
            ORGANISER_ACTIONS[action](league, fields)
        if fuzz.flag():
            tower = fuzz.pick(("t1", "t2", "t3"))
            league.take(f"qwixx/{tower}/result", result_message(fuzz, tower))
    league_pages(league)


TARGETS: dict[str, Callable[[bytes], None]] = {
    "pad_frames": pad_frames,
    "pad_link": pad_link,
    "phone_messages": phone_messages,
    "phone_pages": phone_pages,
    "web_origins": web_origins,
    "dice_radio": dice_radio,
    "bus_inbox": bus_inbox,
    "league_bus": league_bus,
    "league_forms": league_forms,
}
