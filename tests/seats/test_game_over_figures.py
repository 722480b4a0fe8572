"""The phones at game over: each player's view carries the game's figures (charts and tables
drawn by the tower) and the game's number in the history; a new game takes them away."""

from __future__ import annotations

import asyncio
import json

import aiohttp
from support.web import CODE, run_with_server, web_tower

from firmware_py.rules import Pass, Roll
from firmware_py.seats.phones.game_over import GameOverFigures
from firmware_py.story import story_of

ALL_ONES = Roll((1, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1})


async def views(socket):
    """The views the tower pushes to a phone, as they come (other messages skipped)."""
    while True:
        message = json.loads((await asyncio.wait_for(socket.receive(), 5)).data)
        if message["type"] == "view":
            yield message["view"]


def test_a_players_view_at_game_over_has_the_figures_drawn_once(tmp_path):
    table, hub, server = web_tower(tmp_path)
    drawn = []
    hub.game_over.figures = lambda story: drawn.append(story) or f"<svg>{story.rolls}</svg>"

    async def steps() -> None:
        async with aiohttp.ClientSession() as session:
            socket = await session.ws_connect(f"http://127.0.0.1:{server.port}/ws")
            await socket.send_json({"type": "join", "code": CODE, "name": "Dora"})
            pushed = views(socket)
            await anext(pushed)
            table.new_game()
            for _ in range(4):  # Dora alone, crossing nothing: four penalties end it
                for event in (ALL_ONES, Pass("Dora"), Pass("Dora")):
                    assert table.submit(event) is None
            view = await anext(pushed)
            while view["phase"] != "over":
                view = await anext(pushed)
            assert view["figures"] == "<svg>4</svg>" and view["game"] == 1
            await socket.send_json({"type": "ping"})
            assert (await anext(pushed))["figures"] == view["figures"]
            assert len(drawn) == 1, "the figures were drawn again for each view"
            table.new_game()
            assert "figures" not in await anext(pushed)
            await socket.close()

    run_with_server(table, server, steps)


def test_the_figures_follow_the_story_they_are_of():
    figures = GameOverFigures(lambda story: f"drawn {story.rolls}")
    view = {"phase": "over"}
    figures.add_to(view)
    assert "figures" not in view  # nothing to show yet
    from firmware_py.rules import Start

    story = story_of([Start("classic", ("Solo",)), *[ALL_ONES, Pass("Solo"), Pass("Solo")] * 4])
    figures.keep(story)
    figures.add_to(view)
    assert view["figures"] == "drawn 4"
    playing = {"phase": "roll"}
    figures.add_to(playing)
    assert "figures" not in playing
    figures.keep(None)
    assert figures.drawn == ""
