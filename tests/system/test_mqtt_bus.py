"""The tower on a real MQTT broker (issue 41): Debian's mosquitto started here with TLS from a
CA made here and a password file, the real `run` process, and a listener that checks every
message the tower publishes against docs/home-assistant.md. Then the faults: the broker killed
mid-game and started again, started only after the tower, a wrong password, a flood on the
tower's command topic, a port that accepts and never answers. Whatever the bus does, the game
at the table goes on as it would without it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
import uuid

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from support import HANG
from support.bus_listener import BusListener
from support.bus_schema import message_problems
from support.mosquitto import LISTENER, LISTENER_PASSWORD, Broker, Pki, SilentBroker, free_port
from support.mosquitto import need_mosquitto as needs_mosquitto
from support.tower import Tower

from firmware_py.bus.settings import DEVICE_NOTE

PLAYERS = ("--players", "Ann,Ben,Cleo")
BASE = "qwixx/t1"
STATE, EVENT, RESULT = f"{BASE}/state", f"{BASE}/event", f"{BASE}/result"
AVAILABILITY, DISCOVERY = f"{BASE}/availability", "homeassistant/device/qwixx_t1/config"
WAITING = 'computer_players = ["Robo", "Ada"]'  # [table]: seated, waiting for a press
NOT_ANSWERING = "the tower tries again by itself, and the game goes on"
ROLL_NEWS = re.compile(r"^\S+ rolls ")


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    needs_mosquitto()
    return Pki.make(tmp_path_factory.mktemp("pki"))


@pytest.fixture
def broker(tmp_path, pki):
    with Broker(tmp_path / "broker", pki) as running:
        yield running


def tower_folder(tmp_path, name="tower"):
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    return folder


def said_once(lines: list[str], words: str) -> bool:
    """`words` said once in run's output: a warning in the log, which the plain terminal
    does not print again as news (the pads and phones have it as news)."""
    return sum(words in line for line in lines) == 1


def last_game(lines: list[str]) -> list[str]:
    """The news of the last game the tower began."""
    starts = [index for index, line in enumerate(lines) if line.startswith("New game of")]
    return lines[starts[-1] :]


def published(listener: BusListener) -> list:
    """What the tower published (not what the test itself sent)."""
    ours = (f"{BASE}/command/", f"{BASE}/results/", "homeassistant/status")
    return [m for m in listener.heard if not m.topic.startswith(ours)]


def assert_every_message_as_documented(listener: BusListener) -> None:
    problems = [p for m in published(listener) for p in message_problems(m.topic, m.payload)]
    assert problems == [], problems[:10]


def results(listener: BusListener) -> list[dict]:
    return [m.json() for m in listener.on(RESULT)]


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
        kinds = [e["event_type"] for e in events if e["game"] == found[-1]["id"]]
        assert kinds.count("roll") == sum(bool(ROLL_NEWS.match(line)) for line in news)
        assert kinds.count("cross") == sum(" crosses " in line for line in news)
        assert kinds.count("penalty") == sum("takes penalty" in line for line in news)
        assert kinds.count("game_over") == 1 and kinds.count("lock") >= 1
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
        assert button["command_topic"] == f"{BASE}/command/new_game"
        listener.publish("homeassistant/status", "online")
        listener.wait_until(lambda: len(listener.on(DISCOVERY)) == 2)
        junk = [
            (f"{BASE}/command/new_game", b"HELLO"),
            ("homeassistant/status", b"\xff" * 9),
            (f"{BASE}/results/resend", b"1; DROP"),
            (f"{BASE}/command/new_game", b"P" * 5000),
        ]
        for topic, payload in junk:
            listener.publish(topic, payload)
        tower.wait_for(r"messages from the bus ignored since the start: \d+ malformed")
        time.sleep(1.1)  # (five messages a second are taken: the next second's budget)
        listener.publish(f"{BASE}/command/new_game", "PRESS")
        tower.wait_for(r"New game of Qwixx: Robo, Ada")
        listener.publish(f"{BASE}/command/new_game", "PRESS")  # a game is on: it waits
        tower.wait_for(r"^Game over")
        assert sum("New game of" in line for line in tower.lines) == 1
        first = listener.wait_for(RESULT).json()
        listener.publish(f"{BASE}/results/resend", "")
        listener.wait_until(lambda: len(listener.on(RESULT)) == 2)
        assert results(listener) == [first, first]
        assert "Traceback" not in tower.output
        tower.stop()
    assert_every_message_as_documented(listener)


def test_the_broker_killed_mid_game_and_started_again(tmp_path, broker):
    """The game goes on while the broker is gone; the tower says so once, is back by itself
    after the broker is, publishes the state again and every result (none lost)."""
    with (
        BusListener(broker) as listener,
        Tower(
            *PLAYERS,
            folder=tower_folder(tmp_path),
            pace=0.05,
            games=2,
            sections=broker.mqtt_section(),
        ) as tower,
    ):
        listener.wait_for(EVENT)
        broker.kill()
        tower.wait_for(NOT_ANSWERING)
        rolls = len(tower.events())
        tower.wait_until(lambda lines: len(tower.events()) > rolls + 3)  # played on meanwhile
        heard = len(listener.heard)
        broker.start()
        back = time.monotonic()
        listener.wait_for(AVAILABILITY, lambda m: m.text == "online", after=heard)
        print(f"reconnected {time.monotonic() - back:.2f} s after the broker was back")
        listener.wait_for(STATE, after=heard)  # the state again, at once
        tower.wait_for("answers again: the tower is back on the bus")
        assert tower.wait_for_exit() == 0
        listener.wait_until(lambda: {r["game"] for r in results(listener)} == {1, 2})
    assert said_once(tower.lines, NOT_ANSWERING)
    assert_every_message_as_documented(listener)


def test_games_finished_while_the_broker_was_away_are_published_when_it_is_back(tmp_path, pki):
    """A tower plays two games with no broker there (said once), stops; started again, it
    meets the broker only after a while: the results of all its games arrive, oldest first."""
    broker = Broker(tmp_path / "broker", pki, port=free_port())
    folder = tower_folder(tmp_path)
    with Tower(*PLAYERS, folder=folder, pace=0, games=2, sections=broker.mqtt_section()) as away:
        assert away.wait_for_exit() == 0
    assert said_once(away.lines, NOT_ANSWERING)
    with Tower(
        *PLAYERS, folder=folder, pace=0.02, games=1, sections=broker.mqtt_section()
    ) as tower:
        tower.wait_for(NOT_ANSWERING)
        with broker, BusListener(broker) as listener:
            listener.wait_until(lambda: [r["game"] for r in results(listener)][:2] == [1, 2])
            assert tower.wait_for_exit() == 0
            listener.wait_until(lambda: [r["game"] for r in results(listener)] == [1, 2, 3])
            assert_every_message_as_documented(listener)


def test_a_wrong_password_changes_nothing_at_the_table(tmp_path, broker):
    """Refused, said once in words; the games are played as without the bus; doctor says it
    in one sentence."""
    section = broker.mqtt_section(password="not-the-password")
    with BusListener(broker) as listener:
        with Tower(
            *PLAYERS, folder=tower_folder(tmp_path), pace=0, games=2, sections=section
        ) as tower:
            assert tower.wait_for_exit() == 0
        assert published(listener) == []
    assert said_once(tower.lines, "refused the user name or password") and tower.said("Game over")
    doctor = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware_py.app.cli",
            "doctor",
            "--config",
            str(tower_folder(tmp_path) / "config.toml"),
            "--state-dir",
            str(tmp_path / "doctor"),
        ],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    lines = [line for line in doctor.stdout.splitlines() if "MQTT" in line]
    assert lines == [
        f"[!!] MQTT broker localhost:{broker.port} (TLS): refused the user name or "
        "password: check username and password_file"
    ]


def test_a_broker_that_accepts_and_never_answers(tmp_path):
    """The connection hangs in the handshake: the tower says so once and plays; it stops
    in good time all the same."""
    silent = SilentBroker()
    section = f'[mqtt]\nhost = "127.0.0.1"\nport = {silent.port}\ntower_id = "t1"\n'
    try:
        with Tower(
            *PLAYERS, folder=tower_folder(tmp_path), pace=0.05, games=2, sections=section
        ) as tower:
            tower.wait_for("accepted the connection but did not answer within 5 s")
            began = time.monotonic()
            assert tower.wait_for_exit() == 0
        assert silent.accepted >= 1 and time.monotonic() - began < HANG
        assert said_once(tower.lines, NOT_ANSWERING)
    finally:
        silent.close()


def test_a_flood_on_the_command_topic(tmp_path, broker):
    """A client publishes on the tower's command topic as fast as it can: one press starts
    the game, the rest are counted and ignored, the tower stops listening for a while, and the
    game at the table is played to its end."""
    sections = broker.mqtt_section(extra='commands = ["new_game"]\n')
    with Tower(folder=tower_folder(tmp_path), pace=0.02, table=WAITING, sections=sections) as tower:
        tower.wait_ready()
        with BusListener(broker, topic=STATE) as listener:
            listener.wait_for(STATE)
        sent = flood(broker, f"{BASE}/command/new_game", seconds=3.0)
        tower.wait_for("it stops listening for 30 s")
        tower.wait_for(r"^Game over")
        assert sum("New game of" in line for line in tower.lines) == 1
        assert "Traceback" not in tower.output
        tower.stop()
    assert sent > 1000


def flood(broker: Broker, topic: str, seconds: float) -> int:
    """PRESS on `topic`, as fast as a client can, for `seconds`; how many were sent."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"flood-{uuid.uuid4()}")
    client.username_pw_set(LISTENER, LISTENER_PASSWORD)
    client.tls_set(ca_certs=str(broker.pki.ca))
    client.max_queued_messages_set(10_000)
    connected = threading.Event()
    client.on_connect = lambda *args: connected.set()
    client.connect("localhost", broker.port)
    client.loop_start()
    assert connected.wait(HANG)
    sent, end = 0, time.monotonic() + seconds
    while time.monotonic() < end and sent < 500_000:
        if client.publish(topic, "PRESS").rc == mqtt.MQTT_ERR_SUCCESS:
            sent += 1
    client.loop_stop()
    client.disconnect()
    return sent


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
