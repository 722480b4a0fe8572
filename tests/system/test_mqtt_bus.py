"""The tower on a real MQTT broker (issue 41): Debian's mosquitto started here with TLS from a
CA made here and a password file, the real `run` process, and a listener that checks every
message the tower publishes against docs/home-assistant.md: the device for Home Assistant, the
state, the events, the results; Home Assistant's return, the commands [mqtt] allows and none
it does not, malformed messages; the device removed once [mqtt] is. The faults are in
test_mqtt_faults.py."""

from __future__ import annotations

import json
import subprocess
import sys
import time

from support import HANG
from support.bus_listener import BusListener
from support.bus_tower import (
    AVAILABILITY,
    DISCOVERY,
    EVENT,
    NEW_GAME,
    PLAYERS,
    RESEND,
    RESULT,
    ROLL_NEWS,
    STATE,
    WAITING,
    assert_every_message_as_documented,
    results,
    tower_folder,
)
from support.tower import Tower

from firmware_py.bus.settings import DEVICE_NOTE


def last_game(lines: list[str]) -> list[str]:
    """The news of the last game the tower began."""
    starts = [index for index, line in enumerate(lines) if line.startswith("New game of")]
    return lines[starts[-1] :]


def test_a_game_on_the_bus_every_message_as_documented(tmp_path, broker):
    """Two games over TLS with a password: the device for Home Assistant, "online", the state
    and every roll, cross and penalty the news told, each game's end, each result once with
    QoS 1, and "offline" when the tower stops; what is retained is there for a newcomer."""
    with BusListener(broker) as listener:
        with Tower(
            *PLAYERS,
            folder=tower_folder(tmp_path),
            pace=0.01,
            games=2,
            sections=broker.mqtt_section(),
        ) as tower:
            assert tower.wait_for_exit() == 0
        listener.wait_for(AVAILABILITY, lambda m: m.text == "offline")
        news = last_game(tower.lines)  # (the first roll may come before the connection)
        found = results(listener)
        events = [m.json() for m in listener.on(EVENT)]
        last = [e for e in events if e["game"] == found[-1]["id"]]
        kinds = [e["event_type"] for e in last]
        assert kinds.count("roll") == sum(bool(ROLL_NEWS.match(line)) for line in news)
        assert kinds.count("cross") == sum(" crosses " in line for line in news)
        assert kinds.count("penalty") == sum("takes penalty" in line for line in news)
        assert kinds.count("game_over") == 1
        locks = [e["row"] for e in last if e["event_type"] == "lock"]  # (none: ended by penalties)
        assert locks == [line.split()[0] for line in news if " is locked: " in line]
        assert [r["game"] for r in found] == [1, 2] and len({r["id"] for r in found}) == 2
        assert all(m.qos == 1 for m in listener.on(RESULT))
        over = [e for e in events if e["event_type"] == "game_over"]
        assert [e["game"] for e in over] == [r["id"] for r in found]
        assert [e["winners"] for e in over] == [r["winners"] for r in found]
        assert listener.on(AVAILABILITY)[0].text == "online"
        assert len(listener.on(DISCOVERY)) == 1
        assert_every_message_as_documented(listener)
    with BusListener(broker) as newcomer:  # retained: the device, the last state, "offline"
        newcomer.wait_until(
            lambda: {DISCOVERY, STATE, AVAILABILITY} <= {m.topic for m in newcomer.heard}
        )
        assert newcomer.on(AVAILABILITY)[-1].text == "offline"
        assert newcomer.on(STATE)[-1].json()["state"] == "game over"


def test_home_assistant_s_return_commands_and_malformed_messages(tmp_path, broker):
    """Home Assistant's birth message brings the device again; "new game" starts a game
    between games only; a request to resend publishes the results again (same id); whatever
    else comes on the tower's topics is counted and ignored, and the game goes on."""
    sections = broker.mqtt_section(extra='commands = ["new_game"]\n')
    with (
        BusListener(broker) as listener,
        Tower(folder=tower_folder(tmp_path), pace=0.05, table=WAITING, sections=sections) as tower,
    ):
        tower.wait_ready()
        listener.wait_for(STATE, lambda m: m.json()["state"] == "attract")
        button = listener.wait_for(DISCOVERY).json()["components"]["new_game"]
        assert button["command_topic"] == NEW_GAME
        listener.publish("homeassistant/status", "online")
        listener.wait_until(lambda: len(listener.on(DISCOVERY)) == 2)
        junk = [
            (NEW_GAME, b"HELLO"),
            ("homeassistant/status", b"\xff" * 9),
            (RESEND, b"1; DROP"),
            (NEW_GAME, b"P" * 5000),
        ]
        for topic, payload in junk:
            listener.publish(topic, payload)
        tower.wait_for(r"messages from the bus ignored since the start: \d+ malformed")
        time.sleep(1.1)  # (five messages a second are taken: the next second's budget)
        listener.publish(NEW_GAME, "PRESS")
        tower.wait_for(r"New game of Qwixx: Robo, Ada")
        listener.publish(NEW_GAME, "PRESS")  # a game is on: it waits
        tower.wait_for(r"^Game over")
        assert sum("New game of" in line for line in tower.lines) == 1
        first = listener.wait_for(RESULT).json()
        listener.publish(RESEND, "")
        listener.wait_until(lambda: len(listener.on(RESULT)) == 2)
        assert results(listener) == [first, first]
        assert "Traceback" not in tower.output
        tower.stop()
    assert_every_message_as_documented(listener)


def test_without_mqtt_nothing_of_the_client_is_loaded(tmp_path):
    """No [mqtt]: neither aiomqtt nor paho is imported by a whole game, nor by doctor."""
    state = repr(str(tmp_path))
    script = (
        "import sys\nfrom firmware_py.app.cli import main\n"
        f"main(['run', '--plain', '--pace', '0', '--games', '1', '--state-dir', {state}])\n"
        f"main(['doctor', '--state-dir', {state}])\n"
        "print('client:', sorted(m for m in sys.modules if m.startswith(('aiomqtt', 'paho'))))\n"
        "print('bus:', sorted(m for m in sys.modules if m.startswith('firmware_py.bus.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG
    )
    assert "client: []" in done.stdout, done.stdout[-2000:]
    assert "bus: ['firmware_py.bus.settings']" in done.stdout  # (the [mqtt] dataclass alone)
    assert "[ok] MQTT: off" in done.stdout


def test_a_tower_whose_mqtt_section_is_gone_leaves_home_assistant(tmp_path, broker):
    """The device it announced is removed (empty retained messages) at the next start
    without [mqtt], and the note of it is forgotten."""
    folder = tower_folder(tmp_path)
    with Tower(*PLAYERS, folder=folder, pace=0, games=1, sections=broker.mqtt_section()) as tower:
        assert tower.wait_for_exit() == 0
    assert (folder / "state" / DEVICE_NOTE).exists()
    with BusListener(broker) as listener:
        listener.wait_for(DISCOVERY)  # retained
        heard = len(listener.heard)
        with Tower(*PLAYERS, folder=folder, pace=0.01, games=1) as tower:
            assert tower.wait_for_exit() == 0
        emptied = listener.wait_for(DISCOVERY, lambda m: m.payload == b"", after=heard)
        assert emptied is not None
    assert not (folder / "state" / DEVICE_NOTE).exists()
    with BusListener(broker) as newcomer:
        time.sleep(0.5)
        assert [
            m.topic for m in newcomer.heard if m.topic.startswith(("qwixx/", "homeassistant/"))
        ] == []


def test_results_carry_json_a_league_can_read(tmp_path, broker):
    """A result's players: seat, kind, score, penalties and a place, ties sharing one."""
    with BusListener(broker) as listener:
        with Tower(
            *PLAYERS,
            folder=tower_folder(tmp_path),
            pace=0.02,
            games=1,
            sections=broker.mqtt_section(),
        ) as tower:
            assert tower.wait_for_exit() == 0
        result = listener.wait_for(RESULT).json()
    players = result["players"]
    assert [p["name"] for p in players] == ["Ann", "Ben", "Cleo"]
    assert {p["kind"] for p in players} == {"computer"}
    for player in players:
        assert player["place"] == 1 + sum(other["score"] > player["score"] for other in players)
    assert result["winners"] == [p["name"] for p in players if p["place"] == 1]
    assert json.loads(json.dumps(result)) == result


def test_without_commands_in_mqtt_nothing_from_the_bus_starts_a_game(tmp_path, broker):
    """[mqtt] without commands: Home Assistant gets no "New game" button (the component is
    its platform alone, which removes one it knew), and a press published on the command
    topic anyway starts nothing, though the tower hears the bus (Home Assistant's return)."""
    with (
        BusListener(broker) as listener,
        Tower(
            folder=tower_folder(tmp_path), pace=0.05, table=WAITING, sections=broker.mqtt_section()
        ) as tower,
    ):
        tower.wait_ready()
        assert listener.wait_for(DISCOVERY).json()["components"]["new_game"] == {
            "platform": "button"
        }
        for _ in range(3):
            listener.publish(NEW_GAME, "PRESS", qos=1)
        listener.publish("homeassistant/status", "online", qos=1)
        listener.wait_until(lambda: len(listener.on(DISCOVERY)) == 2)
        assert tower.quiet_for(2.0, "New game of") is None
        assert listener.on(STATE)[-1].json()["state"] == "attract"
        tower.stop()
    assert not tower.said("New game of")
