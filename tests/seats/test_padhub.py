"""Pads at the table: a pad joins as a seat when asked (a press), sees its sheet and its legal
marks, marks its own player's sheet only, and a repeated request is answered again but applied
once."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from functools import partial

import pytest
from support.table import clocked_table, hold, make_table, run_table, tap, until

from drivers.simulated.pad import PtyPad, pad_hello
from firmware_py.app.assembly import attach_pads
from firmware_py.journal.journal import Journal
from firmware_py.pad import protocol
from firmware_py.rules import Game, Mark, Pass, Roll, Start, Undo
from firmware_py.seating import COMPUTER, PAD, SeatSpec
from firmware_py.seats.pads import request_event, state_fields
from sheets import load_sheet, sheet_names

ROLL = Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6})
JOIN_PROMPT = "press any button to join"


@pytest.mark.parametrize("variant", sheet_names())
def test_every_state_of_every_variant_fits_one_frame(variant):
    """The largest sheets (longo's long rows, mixx-a's coloured cells) with five players."""
    names = tuple(f"Player {i}" for i in range(1, 6))
    lucky = {n: (2, 16) for n in names} if load_sheet(variant).has_lucky_numbers else None
    game = Game.start(Start(variant, names, lucky))
    game.apply(Roll((1, 1), {c: 1 for c in game.dice_in_play()}))
    for name in names:
        frame = protocol.encode("state", 65535, state_fields(game, name))
        message = protocol.FrameDecoder().feed(frame)[0]
        assert message.fields["player"] == name
        # the four colour rows, then any bonus rows (Big Points' two), then on a Double sheet
        # with double cells printed (B) each row's second crosses, then on a Connected sheet
        # each row with connections on the player's pad
        sheet = load_sheet(variant)
        printed = any(row.double for row in sheet.rows)
        pad = game.player(name).pad
        cells = [*pad.steps, *(cell for pair in pad.links for cell in pair)] if pad else []
        linked = len({row for row, _ in cells})
        assert len(message.fields["rows"]) == 4 + len(sheet.bonus_rows) + 4 * printed + linked


def test_a_long_status_line_is_cut_to_fit_the_largest_state():
    """docs/pad-protocol.md: every state fits one frame. Connected Chain's connections, eight
    moves of action 2 and a 24-letter name left no room for a 60-letter status line (a long
    name waited for): the STATE needed 262 bytes and could not be sent at all."""
    names = tuple("W" * 23 + str(seat) for seat in range(1, 6))
    game = Game.start(Start("connected-chain", names))
    game.apply(Roll((1, 2), {"red": 3, "yellow": 4, "green": 5, "blue": 6}))
    for name in names:
        game.apply(Pass(name))
    line = "press the roll button to play on without " + names[1]
    message = protocol.FrameDecoder().feed(
        protocol.encode("state", 65535, state_fields(game, names[0], text=line))
    )[0]
    assert len(message.fields["moves"]) == 8
    assert line.startswith(message.fields["text"]) and len(message.fields["text"]) >= 40
    short = state_fields(Game.start(Start("classic", ("Ann", "Ben"))), "Ann", text=line)
    assert short["text"] == line[:60]


def test_a_connected_state_says_where_the_players_connections_lie():
    """docs/pad-protocol.md, row flag 16: per colour row, its stair or chain cells and the
    cell each is joined to (0 0 on the stair); pad A of sheets/connected-*.toml."""
    chain = Game.start(Start("connected-chain", ("Ann", "Ben")))
    records = [r for r in state_fields(chain, "Ann")["rows"] if r["flags"] & protocol.ROW_LINKS]
    assert [(r["colour"], r["numbers"], r["cells"]) for r in records] == [
        (1, bytes([6, 11]), bytes([2, 6, 2, 11])),  # red 6-yellow 6, red 11-yellow 11
        (2, bytes([3, 6, 8, 11]), bytes([3, 11, 1, 6, 3, 6, 1, 11])),
        (3, bytes([11, 9, 6, 4]), bytes([2, 3, 4, 9, 2, 8, 4, 4])),
        (4, bytes([9, 4]), bytes([3, 9, 3, 4])),
    ]
    steps = Game.start(Start("connected-steps", ("Ann",)))
    records = [r for r in state_fields(steps, "Ann")["rows"] if r["flags"] & protocol.ROW_LINKS]
    assert [(r["colour"], r["numbers"], r["cells"]) for r in records] == [
        (1, bytes([2, 3, 4]), bytes(6)),
        (2, bytes([5, 6, 7]), bytes(6)),
        (3, bytes([6, 5, 4]), bytes(6)),
        (4, bytes([3, 2]), bytes(4)),
    ]
    classic = Game.start(Start("classic", ("Ann",)))
    assert not any(r["flags"] & protocol.ROW_LINKS for r in state_fields(classic, "Ann")["rows"])


def test_a_state_shows_the_sheet_the_dice_and_exactly_the_legal_marks():
    game = Game.start(Start("classic", ("Ann", "Ben")))
    game.apply(ROLL)
    game.apply(Mark("Ann", "red", 5))
    ann = state_fields(game, "Ann")
    assert ann["dice"] == bytes([4, 1, 6, 2, 3, 6])
    assert ann["rows"][0]["crossed"] == 1 << 3  # red 5 is the fourth cell of 2..12
    assert ann["flags"] & protocol.MAY_UNDO and ann["flags"] & protocol.DECIDED
    assert ann["moves"] == []  # Ann has decided in action 1
    ben = state_fields(game, "Ben")
    moves = {(protocol.row_colour(m["row"]), m["number"]) for m in ben["moves"]}
    assert moves == {(m.row, m.number) for m in game.legal_marks("Ben")}
    assert ben["text"] == "your move"


def test_requests_become_the_pads_own_players_decisions():
    mark = {"action": protocol.MARK, "row": 2, "number": 7, "flags": 0, "choice": 0}
    assert request_event("Ann", mark) == Mark("Ann", "yellow", 7)
    lucky = {**mark, "flags": protocol.LUCKY, "choice": 3}
    assert request_event("Ann", lucky) == Mark("Ann", "yellow", 7, True, "green")
    assert request_event("Ann", {**mark, "action": protocol.PASS}) == Pass("Ann")
    assert request_event("Ann", {**mark, "action": protocol.UNDO}) == Undo("Ann")
    with pytest.raises(ValueError):
        request_event("Ann", {**mark, "row": 9})


def test_a_pad_joins_marks_and_a_repeated_request_is_applied_once(tmp_path):
    pad = PtyPad(tmp_path / "pad")
    table = make_table(tmp_path / "games", [SeatSpec("Bot", COMPUTER)])
    table.settings = replace(
        table.settings, pace=60
    )  # the computer player waits, so the test decides the order
    hub = attach_pads(table, [str(pad.path)])

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", pad_hello())
        prompt = await asyncio.to_thread(pad.expect, "state", flags=protocol.MAY_JOIN)
        assert prompt.fields["text"] == JOIN_PROMPT and prompt.fields["player"] == ""
        assert [s.name for s in table.seating.seats] == ["Bot"], "plugged in is not seated"
        assert (await asyncio.to_thread(pad.ask_to_join))["status"] == protocol.OK
        assert [s.name for s in table.seating.seats] == ["Bot", "Player 2"]
        table.new_game()
        table.submit(ROLL)  # Bot's roll: white 4 + 1
        state = await asyncio.to_thread(pad.expect, "state", phase=2)  # action 1
        move = state.fields["moves"][0]
        request = {"action": protocol.MARK, "flags": 0, "choice": 0, **move}
        seq = pad.send("request", request)
        answer = await asyncio.to_thread(pad.expect, "answer", req=seq)
        assert answer.fields["status"] == protocol.OK
        pad.send("request", request, seq=seq)  # the answer was lost: the pad asks again
        again = await asyncio.to_thread(pad.expect, "answer", req=seq)
        assert again.fields == answer.fields
        crossed = [table.game.player("Player 2").crosses(r) for r in range(4)]
        assert sum(crossed) == 1  # applied once
        refused = pad.send("request", request)  # a second mark in the same action
        no = await asyncio.to_thread(pad.expect, "answer", req=refused)
        assert no.fields["status"] == protocol.RULE
        assert "already marked in action 1" in no.fields["text"]

    run_table(table, play, hub)


def test_a_pad_plugged_in_after_start_is_found_and_greeted(tmp_path, monkeypatch):
    import firmware_py.seats.pads as padhub

    monkeypatch.setattr(padhub, "RESCAN_SECONDS", 0.05)
    table = make_table(tmp_path / "games", [])
    hub = attach_pads(table, [str(tmp_path / "qwixx-pad-*")])

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.sleep(0.2)
        assert hub.links == []  # nothing plugged in yet
        pad = PtyPad(tmp_path / "qwixx-pad-1")
        await asyncio.to_thread(pad.expect, "hello")  # the tower found it and said hello
        pad.send("hello", pad_hello())
        state = await asyncio.to_thread(pad.expect, "state", flags=protocol.MAY_JOIN)
        assert state.fields["text"] == JOIN_PROMPT and table.seating.seats == []

    run_table(table, play, hub)


def test_before_a_longo_game_the_pad_enters_its_lucky_numbers_and_hears_refusals(tmp_path):
    pad = PtyPad(tmp_path / "pad")
    table = make_table(tmp_path / "games", [SeatSpec("Bot", COMPUTER)], "longo")
    table.settings = replace(table.settings, pace=60)
    hub = attach_pads(table, [str(pad.path)], {"pad-1": "Ann"})
    lucky_phase = protocol.PHASES.index("lucky")

    def ask(number: int) -> dict:
        seq = pad.send("request", {"action": protocol.LUCKY_NUMBER, "number": number})
        return pad.expect("answer", req=seq).fields

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", {**pad_hello(), "ident": "pad-1"})
        assert (await asyncio.to_thread(pad.ask_to_join))["status"] == protocol.OK
        assert [s.name for s in table.seating.seats] == ["Bot", "Ann"]  # named in the configuration
        table.new_game()
        state = await asyncio.to_thread(pad.expect, "state", phase=lucky_phase)
        assert [m["number"] for m in state.fields["moves"]] == list(range(2, 17))
        assert state.fields["text"] == "choose 2 numbers"
        no = await asyncio.to_thread(ask, 17)
        assert (no["status"], no["text"]) == (
            protocol.RULE,
            "lucky numbers go from 2 to 16; 17 is not one",
        )
        assert (await asyncio.to_thread(ask, 6))["status"] == protocol.OK
        state = await asyncio.to_thread(pad.expect, "state", lucky=b"\x06")
        assert state.fields["flags"] & protocol.MAY_UNDO and len(state.fields["moves"]) == 14
        again = await asyncio.to_thread(ask, 6)
        assert again["text"] == "6 is already your lucky number: choose a different one"
        assert table.game is None  # nothing starts before Ann has both
        assert (await asyncio.to_thread(ask, 0))["status"] == protocol.OK  # the tower draws
        state = await asyncio.to_thread(pad.expect, "state", phase=protocol.PHASES.index("roll"))
        assert state.fields["lucky"][0] == 6 and len(state.fields["lucky"]) == 2
        assert table.game.player("Ann").lucky == tuple(state.fields["lucky"])

    run_table(table, play, hub)


def test_a_pad_goes_on_choosing_its_lucky_numbers_after_a_tower_restart(tmp_path):
    """Ann's pad has chosen one lucky number when the plug is pulled. After the restart the
    pad says hello, gets Ann's seat back without a press, still shows that number, and her
    second number starts the game with both."""
    pad = PtyPad(tmp_path / "pad")
    games = tmp_path / "games"
    lucky_phase = protocol.PHASES.index("lucky")

    def tower():
        table = make_table(games, [SeatSpec("Bot", COMPUTER)], "longo")
        table.settings = replace(table.settings, pace=60)
        return table, attach_pads(table, [str(pad.path)])

    async def meet(hub) -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", {**pad_hello(), "ident": "pad-1"})

    async def before_the_cut(table, hub) -> None:
        await meet(hub)
        assert (await asyncio.to_thread(pad.ask_to_join))["status"] == protocol.OK
        table.new_game()
        await asyncio.to_thread(pad.expect, "state", phase=lucky_phase)
        seq = pad.send("request", {"action": protocol.LUCKY_NUMBER, "number": 9})
        assert (await asyncio.to_thread(pad.expect, "answer", req=seq)).fields[
            "status"
        ] == protocol.OK

    async def after_the_restart(table, hub) -> None:
        await meet(hub)
        state = await asyncio.to_thread(pad.expect, "state", phase=lucky_phase)
        assert state.fields["player"] == "Player 2" and state.fields["lucky"] == b"\x09"
        seq = pad.send("request", {"action": protocol.LUCKY_NUMBER, "number": 4})
        assert (await asyncio.to_thread(pad.expect, "answer", req=seq)).fields[
            "status"
        ] == protocol.OK
        await asyncio.to_thread(pad.expect, "state", phase=protocol.PHASES.index("roll"))
        assert table.game.player("Player 2").lucky == (9, 4)

    for steps in (before_the_cut, after_the_restart):
        table, hub = tower()
        run_table(table, partial(steps, table, hub), hub)
        pad.drain()


def test_a_request_retried_after_a_tower_restart_is_answered_yes_not_refused(tmp_path):
    """The tower is killed after journalling Ann's mark and before answering it; after the
    restart the pad sends the same request again: it hears ok, and the mark is there once."""
    pad = PtyPad(tmp_path / "pad")
    games = tmp_path / "games"
    request = {"action": protocol.MARK, "row": 1, "number": 5, "flags": 0, "choice": 0}
    sent: dict[str, int] = {}

    def tower():
        table = make_table(games, [SeatSpec("Bot", COMPUTER), SeatSpec("Ann", PAD)])
        table.settings = replace(table.settings, pace=60)
        return table, attach_pads(table, [str(pad.path)], {"pad-1": "Ann"})

    async def meet(table, hub) -> None:
        await until(lambda: table.button is not None)
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", {**pad_hello(boot=9), "ident": "pad-1"})
        await until(lambda: "pad-1" in hub.seated)

    async def before_the_kill(table, hub) -> None:
        await meet(table, hub)
        table.new_game()
        table.submit(ROLL)  # Bot rolls white 4 + 1
        await asyncio.to_thread(pad.expect, "state", phase=2)
        hub.links[0].answer = lambda *args, **kwargs: None  # killed before the answer is out
        sent["seq"] = pad.send("request", request)
        await until(lambda: table.game.player("Ann").crosses(0) == 1)

    async def after_the_restart(table, hub) -> None:
        await meet(table, hub)
        assert table.game.player("Ann").crosses(0) == 1  # resumed from the journal
        pad.send("request", request, seq=sent["seq"])  # the pad never heard: it asks again
        answer = await asyncio.to_thread(pad.expect, "answer", req=sent["seq"])
        assert (answer.fields["status"], answer.fields["text"]) == (protocol.OK, "")
        assert table.game.player("Ann").crosses(0) == 1  # applied once
        refused = pad.send("request", request)  # a new request, the same mark: refused
        no = await asyncio.to_thread(pad.expect, "answer", req=refused)
        assert "already marked in action 1" in no.fields["text"]

    for steps in (before_the_kill, after_the_restart):
        table, hub = tower()
        run_table(table, partial(steps, table, hub), hub)
        pad.drain()
    marks = [line for line in Journal(games).games()[0].read_text().splitlines() if "mark" in line]
    assert marks == [
        '{"event": "mark", "player": "Ann", "row": "red", "number": 5, '
        f'"request": {{"Ann": ["pad-1/9/{sent["seq"]}"]}}}}'
    ]  # once, with the pad's request id: its boot number and the request's sequence number


@pytest.mark.parametrize(
    ("seats", "playing", "status", "words"),
    [
        (1, True, protocol.NOT_NOW, "a game is being played: you can join when it ends"),
        (5, False, protocol.RULE, "the table is full: five players"),
    ],
)
def test_a_pad_that_cannot_join_now_says_why_and_a_press_is_refused_in_those_words(
    tmp_path, seats, playing, status, words
):
    pad = PtyPad(tmp_path / "pad")
    table = make_table(tmp_path / "games", [SeatSpec(f"Bot {n}") for n in range(seats)])
    table.settings = replace(table.settings, pace=60)
    hub = attach_pads(table, [str(pad.path)])

    async def play() -> None:
        if playing:
            table.new_game()
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", pad_hello())
        state = await asyncio.to_thread(pad.expect, "state", flags=protocol.MAY_JOIN)
        assert (state.fields["phase"], state.fields["text"]) == (0, words)
        answer = await asyncio.to_thread(pad.ask_to_join)
        assert (answer["status"], answer["text"]) == (status, words)
        assert len(table.seating.seats) == seats and hub.seated == {}

    run_table(table, play, hub)


def test_a_pad_that_joined_keeps_its_seat_when_it_restarts_without_a_press(tmp_path):
    pad = PtyPad(tmp_path / "pad")
    table = make_table(tmp_path / "games", [SeatSpec("Bot", COMPUTER)])
    table.settings = replace(table.settings, pace=60)
    hub = attach_pads(table, [str(pad.path)])

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", pad_hello(boot=1))
        assert (await asyncio.to_thread(pad.ask_to_join))["status"] == protocol.OK
        await asyncio.to_thread(pad.expect, "state", player="Player 2")
        pad.send("hello", pad_hello(boot=2))  # restarted: a new boot number, the same ident
        state = await asyncio.to_thread(pad.expect, "state", player="Player 2")
        assert not state.fields["flags"] & protocol.MAY_JOIN
        assert [s.name for s in table.seating.seats] == ["Bot", "Player 2"]
        assert table.newsfeed.lines.count("Player 2 joins the table") == 1

    run_table(table, play, hub)


def game_of_two_pads(games):
    """A game of Ann and Ben under way in the journal at `games`, their seats noted on the
    pads pad-a and pad-b (as the tower finds it after a restart); `games`."""
    journal = Journal(games)
    with journal.begin(Start("classic", ("Ann", "Ben"))) as game_log:
        game_log.append(ROLL)
        seats = [SeatSpec("Ann", PAD, "pad-a"), SeatSpec("Ben", PAD, "pad-b")]
        journal.note_seats(game_log.path, seats)
    return games


def test_after_a_restart_each_pad_takes_back_its_own_seat_and_a_stranger_none(tmp_path):
    """Every pad says hello at once when the tower comes back, in no particular order: Ben's
    pad first must still get Ben's sheet, and a pad that never sat at this game gets none."""
    games = game_of_two_pads(tmp_path / "games")
    pads = {ident: PtyPad(tmp_path / ident) for ident in ("pad-b", "pad-x", "pad-a")}
    table = make_table(games, [])
    hub = attach_pads(table, [str(pad.path) for pad in pads.values()])

    async def play() -> None:
        assert [seat.name for seat in table.seating.seats] == ["Ann", "Ben"]  # resumed
        hub.open(asyncio.get_running_loop())
        for ident, pad in pads.items():  # Ben's pad first, then a stranger, then Ann's
            await asyncio.to_thread(pad.expect, "hello")
            pad.send("hello", {**pad_hello(), "ident": ident})
            await asyncio.to_thread(pad.expect, "state")
        assert hub.seated == {"pad-b": "Ben", "pad-a": "Ann"}
        stranger = await asyncio.to_thread(pads["pad-x"].expect, "state", flags=protocol.MAY_JOIN)
        assert stranger.fields["player"] == ""

    run_table(table, play, hub)


def test_a_seat_noted_without_a_name_is_not_given_back_and_the_next_game_begins(tmp_path):
    """The note of the table's seats (table-seats.json) edited by hand, or half written, with
    pad-7's seat named " ": pad-7 got that seat back at its hello, and every press of the roll
    button then ended in a traceback (the rules refuse a blank name), no game beginning; now
    the seat is not taken back, pad-7 may join as any pad, and the game begins."""
    games = tmp_path / "games"
    games.mkdir()
    (games / "table-seats.json").write_text('[{"name": " ", "kind": "pad", "pad": "pad-7"}]')
    pad = PtyPad(tmp_path / "pad")
    table = make_table(games, [SeatSpec("Bot", COMPUTER)])
    table.settings = replace(table.settings, pace=60)  # (Bot alone would begin by itself)
    hub = attach_pads(table, [str(pad.path)])

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", {**pad_hello(), "ident": "pad-7"})
        state = await asyncio.to_thread(pad.expect, "state")
        assert state["player"] == "" and state["flags"] & protocol.MAY_JOIN  # a join prompt
        table.press()
        await until(lambda: table.game is not None)
        assert [player.name for player in table.game.players] == ["Bot"]

    run_table(table, play, hub)


def test_a_pad_whose_seat_the_menu_took_away_can_ask_to_join_again(tmp_path):
    """Five taps on the menu's players page go from two seats round to one: the pad's player
    leaves. Its pad then shows the join prompt again (not a dead 'no game'), and a press
    brings the player back."""
    pad = PtyPad(tmp_path / "pad")
    table, clock = clocked_table(tmp_path / "games", [SeatSpec("Bot", COMPUTER)])
    table.settings = replace(
        table.settings, pace=60
    )  # Bot alone would start a game by itself before the pad can join again
    hub = attach_pads(table, [str(pad.path)])

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", pad_hello())
        assert (await asyncio.to_thread(pad.ask_to_join))["status"] == protocol.OK
        await hold(table, clock)  # the menu
        await tap(table, clock)
        await tap(table, clock)  # "players"
        await hold(table, clock)
        for _ in range(5):  # 3, 4, 5, none, then 1 seat
            await tap(table, clock)
        await hold(table, clock)  # keep
        assert [seat.name for seat in table.seating.seats] == ["Bot"]
        await asyncio.to_thread(pad.expect, "state", flags=protocol.MAY_JOIN, text=JOIN_PROMPT)
        assert (await asyncio.to_thread(pad.ask_to_join))["status"] == protocol.OK
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Player 2"]

    run_table(table, play, hub)


def test_a_pad_gets_every_name_in_letters_its_ascii_font_can_draw():
    """The Pico draws with framebuf's 8x8 ASCII font, where Ł or محمد would be a row of
    blocks: the tower sends names and words transliterated (the journal keeps them as typed)."""
    game = Game.start(Start("classic", ("محمد", "Łukasz")))
    game.apply(ROLL)
    mohammed, lukasz = state_fields(game, "محمد"), state_fields(game, "Łukasz")
    assert (mohammed["player"], lukasz["player"]) == ("Mhmd", "Lukasz")
    idle = state_fields(None, "राहुल", text="waiting for राहुल, สมชาย")
    assert (idle["player"], idle["text"]) == ("Rahul", "waiting for Rahul, Smchay")
    assert all(state["text"].isascii() for state in (mohammed, lukasz, idle))


def test_a_pad_without_a_seat_that_went_quiet_joins_at_its_next_press(tmp_path):
    """A pad left on the table unplayed (its player thinking, its cable loose for a moment)
    falls silent for longer than the missed beats: the next press still joins."""
    pad = PtyPad(tmp_path / "pad")
    table, clock = clocked_table(tmp_path / "games", [SeatSpec("Bot", COMPUTER)])
    table.settings = replace(table.settings, pace=60)
    hub = attach_pads(table, [str(pad.path)], clock=clock)

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", pad_hello())
        await asyncio.to_thread(pad.expect, "state", flags=protocol.MAY_JOIN)
        [link] = hub.links
        clock.advance(protocol.MISSED_BEATS * protocol.BEAT_SECONDS + 1)
        await until(lambda: not link.present)  # the tower calls the quiet pad gone
        answer = await asyncio.to_thread(pad.ask_to_join)
        assert (answer["status"], answer["text"]) == (protocol.OK, "")
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Player 2"]

    run_table(table, play, hub)


def test_a_seat_whose_pad_left_sits_the_next_game_out_and_plays_again_once_back(tmp_path):
    """Issue 22: the next game waited for a pad that had left until someone found the menu's
    players page. A seat whose pad is gone when a game is asked for sits it out, said in the
    news; back between games, the pad takes its seat again and plays the game after."""
    pad = PtyPad(tmp_path / "pad")
    table, clock = clocked_table(tmp_path / "games", [SeatSpec("Bot", COMPUTER)])
    table.settings = replace(
        table.settings, pace=60
    )  # Bot alone would start a game by itself before the pad joins
    hub = attach_pads(table, [str(pad.path)])

    async def play() -> None:
        nonlocal pad
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", pad_hello())
        assert (await asyncio.to_thread(pad.ask_to_join))["status"] == protocol.OK
        table.settings = replace(
            table.settings, pace=0
        )  # a person is seated: the computer player's game starts at a press
        pad.unplug()
        await until(lambda: not hub.seats.here("Player 2"))
        await tap(table, clock)  # the next game, asked for
        assert table.game is not None and [p.name for p in table.game.players] == ["Bot"]
        assert "Player 2's pad has left: Player 2 sits this one out" in table.newsfeed.lines
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Player 2"]  # the seat stays
        await until(lambda: table.game.over)  # Bot plays alone
        pad = PtyPad(tmp_path / "pad")  # back between games
        await asyncio.to_thread(pad.expect, "hello")
        pad.send("hello", pad_hello())
        await asyncio.to_thread(pad.expect, "state", player="Player 2")
        await tap(table, clock)
        assert [p.name for p in table.game.players] == ["Bot", "Player 2"]

    run_table(table, play, hub)


def test_a_request_the_tower_cannot_read_is_refused_in_a_player_s_words():
    from firmware_py.seats.pads import pad_decision

    mark = {"action": protocol.MARK, "row": 0, "number": 7, "flags": 0, "choice": 0}
    with pytest.raises(ValueError, match=r"^that mark names no row: choose it again$"):
        pad_decision(mark)
    with pytest.raises(ValueError, match=r"update the pad$"):
        pad_decision({**mark, "action": 99})


def test_after_a_restart_a_pads_first_state_already_shows_its_seat(tmp_path):
    """Issue 39: a pad's hello is taken on its link's thread and its seat given back later on
    the table's loop; another pad's publication in between sent it a STATE without its seat,
    which cleared the move its player had selected. Here the loop is held while both pads'
    hellos are taken (as on a busy tower), so Ann's seat given back publishes before Ben's
    hello reaches the loop: every STATE Ben's pad gets shows Ben."""
    games = game_of_two_pads(tmp_path / "games")
    pads = {ident: PtyPad(tmp_path / ident, heartbeats=True) for ident in ("pad-a", "pad-b")}
    table = make_table(games, [])
    hub = attach_pads(table, [str(pad.path) for pad in pads.values()])

    def greeted_while_the_loop_is_busy() -> None:
        for ident, pad in pads.items():
            pad.expect("hello")
            pad.send("hello", {**pad_hello(), "ident": ident})
            pad.expect("hello_ack")
        while not all(link.pad for link in hub.links):  # both sessions open on their threads
            time.sleep(0.001)

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        greeted_while_the_loop_is_busy()  # the loop waits meanwhile
        await asyncio.to_thread(pads["pad-a"].expect, "state", player="Ann")
        await asyncio.to_thread(pads["pad-b"].expect, "state", player="Ben")
        await asyncio.sleep(0.2)  # any STATE still on its way
        for ident, name in (("pad-a", "Ann"), ("pad-b", "Ben")):
            pads[ident].names()  # read what has come
            states = [m for m in pads[ident].inbox if m.name == "state"]
            assert all(state["player"] == name for state in states), (ident, states)

    run_table(table, play, hub)
