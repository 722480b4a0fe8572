"""The league names a tower whose clock is off (docs/league.md, "Clocks"), on Debian's
mosquitto with the real league: a real `qwixx-tower run` tower, whose states say this
machine's time, is no news; a device posing as tower "kitchen" whose clock is 3 h 12 min
behind is named under "Tables now", from a state the broker forwarded as it came. The same
state from the broker's retained store (the league started again) measures nothing, and a
forged clock is counted as malformed while the page goes on."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from support import HANG
from support.league import League
from support.mosquitto import guest_client
from support.tower import Tower

BEHIND = "its clock is 3 h 12 min behind the league&#x27;s"


def kitchen_state(clock: object, **more: object) -> str:
    return json.dumps({"state": "attract", "variant": "classic", "seats": [], "clock": clock,
                       **more})  # fmt: skip


def page_says(league: League, words: str) -> str:
    """The front page once it says `words`: that very page (a further load, after polling,
    may be the page budget's "Too often" instead)."""
    seen: list[str] = []

    def says() -> str | None:
        seen.append(league.get("/")[1])
        return seen[-1] if words in seen[-1] else None

    found = league.output.wait_until(lambda _: says(), HANG, 0.1)
    assert found, seen[-1] if seen else "no page"
    return found


def test_the_league_names_the_tower_whose_clock_is_behind_its_own(tmp_path, broker):
    with League(tmp_path / "league", broker) as league:
        league.wait_on_the_bus()
        folder = tmp_path / "t1"
        folder.mkdir()
        with Tower("--players", "Ann,Ben", folder=folder, pace=0.05,
                   sections=broker.mqtt_section(tower_id="t1")):  # fmt: skip
            page_says(league, "t1</b>: classic: Ann")  # its game's live states came
            guest = guest_client(broker)
            guest.publish("qwixx/kitchen/availability", "online", qos=1, retain=True)
            league.output.wait_until(
                lambda _: "kitchen" in league.towers_online() or None, HANG, every=0.1
            )
            behind = datetime.now(UTC) - timedelta(hours=3, minutes=12)
            state = kitchen_state(behind.isoformat(timespec="milliseconds"))
            guest.publish("qwixx/kitchen/state", state, retain=True).wait_for_publish(HANG)
            page = page_says(league, BEHIND)
            t1 = page[page.index("<b>t1</b>") :].split("</li>")[0]
            assert "its clock" not in t1  # this machine's time, as the league's
            assert league.counts().get("malformed", 0) == 0  # every real state was read

        assert league.stop() == 0
        retained = kitchen_state(behind.isoformat(), state="roll", active="Zed",
                                 seats=[{"name": "Zed", "score": 5}])  # fmt: skip
        guest.publish("qwixx/kitchen/state", retained, retain=True).wait_for_publish(HANG)
        league.start()  # the broker sends kitchen's state from its store, flagged retained
        league.wait_on_the_bus()
        page = page_says(league, "Zed rolls")  # the retained state was read...
        assert "its clock" not in page  # ...and measured nothing: it may be hours old

        forged = kitchen_state("yesterday at eight", state="roll", seats=[{"name": "Eve"}])
        guest.publish("qwixx/kitchen/state", forged).wait_for_publish(HANG)
        counted = league.output.wait_until(
            lambda _: league.counts().get("malformed") == 1 or None, HANG, every=0.1
        )
        assert counted, league.counts()
        status, page = league.get("/")
        assert status == 200 and "Zed rolls" in page and "Eve" not in page
        guest.loop_stop()
        guest.disconnect()
