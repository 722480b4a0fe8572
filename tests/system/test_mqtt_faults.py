"""The tower on a real MQTT broker when things go wrong (issue 41): Debian's mosquitto with
TLS and a password file, the real `run` process. The broker killed mid-game and started again,
started only after the tower, a wrong password, a full-speed flood on the tower's command
topic, a port that accepts and never answers, the tower itself dying (its last will). Whatever
the bus does, the game at the table goes on as it would without it, and doctor says what is
wrong in one sentence."""

from __future__ import annotations

import os
import time

import paho.mqtt.client as mqtt
from support import HANG
from support.bus_listener import BusListener
from support.bus_tower import (
    AVAILABILITY,
    DISCOVERY,
    EVENT,
    NEW_GAME,
    NOT_ANSWERING,
    PLAYERS,
    STATE,
    WAITING,
    assert_every_message_as_documented,
    doctor_on_mqtt,
    published,
    results,
    said_once,
    tower_folder,
)
from support.mosquitto import Broker, SilentBroker, free_port, guest_client
from support.tower import Tower


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
    lines = doctor_on_mqtt(tower_folder(tmp_path))
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
        sent = flood(broker, NEW_GAME, seconds=3.0)
        tower.wait_until(stopped_listening_and_game_over)  # (in either order on a busy machine)
        assert sum("New game of" in line for line in tower.lines) == 1
        assert "Traceback" not in tower.output
        tower.stop()
    assert sent > 1000


def stopped_listening_and_game_over(lines: list[str]) -> bool:
    """The tower said it stops listening, and the game at the table ended: a slow machine may
    take the flood's messages after the last roll."""
    stopped = any("it stops listening for 30 s" in line for line in lines)
    return stopped and any(line.startswith("Game over") for line in lines)


def flood(broker: Broker, topic: str, seconds: float) -> int:
    """PRESS on `topic`, as fast as a client can, for `seconds`; how many were sent."""
    client = guest_client(broker, "flood", queue=10_000)
    sent, end = 0, time.monotonic() + seconds
    while time.monotonic() < end and sent < 500_000:
        if client.publish(topic, "PRESS").rc == mqtt.MQTT_ERR_SUCCESS:
            sent += 1
    client.loop_stop()
    client.disconnect()
    return sent


def test_a_tower_that_dies_is_offline_by_its_last_will(tmp_path, broker):
    """The tower's plug pulled: the broker says "offline" for it (Home Assistant shows its
    entities unavailable). doctor says in one sentence that the broker answers, and how the
    tower logs in; once the broker is gone too, why it does not."""
    folder = tower_folder(tmp_path)
    with BusListener(broker) as listener:
        with Tower(
            folder=folder, pace=0.05, table=WAITING, sections=broker.mqtt_section()
        ) as tower:
            listener.wait_for(AVAILABILITY, lambda m: m.text == "online")
            listener.wait_for(STATE)
            heard = len(listener.heard)
            tower.kill()
        will = listener.wait_for(AVAILABILITY, after=heard)
        assert will.text == "offline"
    assert doctor_on_mqtt(folder) == [
        f"[ok] MQTT broker localhost:{broker.port} (TLS) answers: logged in as tower; the tower "
        f"publishes under qwixx/t1/, Home Assistant finds it at {DISCOVERY}"
    ]
    broker.kill()
    assert doctor_on_mqtt(folder) == [
        f"[!!] MQTT broker localhost:{broker.port} (TLS): refused the connection: is it "
        "running, on that port?"
    ]


def test_notes_in_the_state_directory_that_are_fifos_hold_nothing_up(tmp_path, broker):
    """The bus's notes (what the broker acknowledged, the device it declared, the tournament's
    rounds) and the web port's note were read with read_bytes/read_text: a FIFO by one of
    those names (a maker's tool, a damaged card) held the tower's start for ever, no screen,
    no game. They are read as the journal reads its files: a FIFO is no note."""
    folder = tower_folder(tmp_path)
    state = folder / "state"
    state.mkdir()
    for note in ("mqtt-results.json", "mqtt-device.json", "tournament-rounds.json",
                 "web-port.json"):  # fmt: skip
        os.mkfifo(state / note)
    section = broker.mqtt_section(extra='commands = ["tournament"]\n')
    with (
        BusListener(broker) as listener,
        Tower(*PLAYERS, folder=folder, pace=0, games=1, web=True, sections=section) as tower,
    ):
        assert tower.wait_for_exit() == 0
        listener.wait_until(lambda: [r["game"] for r in results(listener)] == [1])
