"""The web server in `qwixx-tower run`: started in the tower's loop before the table runs, its
address printed (with the code in it), its QR code on the main display and under the drawn
tower between games; a port that is taken is one sentence and the tower plays on."""

from __future__ import annotations

import asyncio
import io
import socket
from dataclasses import replace

import aiohttp
import zxingcpp
from support import HANG
from support.table import make_table, until

from firmware_py.app import service
from firmware_py.app import web as web_tower
from firmware_py.app.assembly import attach_pads, attach_phones, attach_terminal
from firmware_py.app.web import join_footer
from firmware_py.seating import COMPUTER, SeatSpec
from firmware_py.seats.phones.server import WebServer

CODE = "0815"


def tower(tmp_path, port: int = 0, full_screen: bool = False):
    table = make_table(tmp_path / "games", [SeatSpec("Ann", COMPUTER), SeatSpec("Ben", COMPUTER)])
    console, keys = attach_terminal(
        table, table.hardware, out=io.StringIO(), full_screen=full_screen
    )
    hub = attach_phones(table, code=CODE)
    return table, (console, keys), WebServer(hub, "127.0.0.1", port)


def serve(table, console, web, steps=None, games=None) -> None:
    """`run`'s loop (table, pads, console, web server) while `await steps()` plays."""
    terminal, keys = console
    doors = service.RunDoors(terminal, keys, attach_pads(table, []), web, keyboard=False)

    async def play() -> None:
        task = asyncio.create_task(service._serve(table, doors, games=games, port_note=None))
        if steps is not None:
            await until(lambda: table.button is not None)
            try:
                await steps()
            finally:
                table.stop()
        await task

    try:
        asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    finally:
        table.hardware.close()


def test_run_prints_the_join_address_and_the_display_shows_its_qr_code(tmp_path, capsys):
    table, console, web = tower(tmp_path)
    table.settings = replace(
        table.settings, pace=60
    )  # the computer players wait: the table stays between games

    async def steps() -> None:
        await until(lambda: table.join_address[0] != "")  # the screens with the code are out
        url = f"http://127.0.0.1:{web.port}/?code={web.hub.key}"
        assert capsys.readouterr().out.splitlines()[:2] == [
            f"Phones join at {url}",
            f"Table code {CODE}: to type on a phone that cannot scan the QR code",
        ]
        frame = table.hardware.displays["main"].frame
        assert [found.text for found in zxingcpp.read_barcodes(frame.convert("L"))] == [url]
        async with aiohttp.ClientSession() as session, session.get(url) as page:
            assert page.status == 200  # served while the tower runs

    serve(table, console, web, steps)
    with socket.socket() as probe:  # stopped with the tower: the port is free again
        probe.bind(("127.0.0.1", web.port))


def test_a_taken_port_is_one_sentence_and_phones_join_on_another(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        table, console, web = tower(tmp_path, port)
        serve(table, console, web, games=1)
    printed = capsys.readouterr().out.splitlines() + console[0].out.getvalue().splitlines()
    said = [line for line in printed if "is in use by another program" in line]
    assert said == [f"port {port} is in use by another program: phones join on port {web.port}"]
    url = f"http://127.0.0.1:{web.port}/?code={web.hub.key}"
    assert f"Phones join at {url}" in printed
    assert table.games.referee.games_finished == 1
    code = web.hub.code  # a new one after the game: who saw the old one cannot join with it
    assert code != CODE
    assert table.join_address == (url, code)  # the QR code's link stays


def test_the_drawn_tower_shows_the_qr_code_between_games_and_the_address_always(
    tmp_path, monkeypatch
):
    """... and the table code of the moment (it changes after every game)."""
    monkeypatch.setattr(web_tower, "QR_ROOM", 0)  # as on a tall terminal
    table, _, web = tower(tmp_path, port=8080)
    url = f"http://127.0.0.1:8080/?code={web.hub.key}"
    lines = join_footer(web)
    try:
        between = lines(table.view())
        table.new_game()
        playing = lines(table.view())
        web.hub.codes.renew()
        renewed = lines(table.view())
    finally:
        table.hardware.close()
    typed = "to type on a phone that cannot scan the QR code"
    assert len(between) > 10 and between[-2:] == [
        f"Phones join at {url}",
        f"Table code {CODE}: {typed}",
    ]
    assert playing == [f"Phones join at {url}", f"Table code {CODE}: {typed}"]
    assert renewed[-1] == f"Table code {web.hub.code}: {typed}" and web.hub.code != CODE
