"""Who may run a tournament (firmware_py/league/organiser.py): the organiser's password gives a
browser a session; a guest's wrong guesses are limited per device, so guessing it on the café's
Wi-Fi takes years; an unreadable or short password file is said at the start; a form from
anywhere but the league's own page is refused in words."""

from __future__ import annotations

import asyncio

import pytest
from support.organiser import PASSWORD, Browser

from firmware_py.league.core import League
from firmware_py.league.organiser import (
    COOKIE,
    TRIES,
    WINDOW,
    OrganiserPasswordError,
    Organisers,
    read_password,
)
from firmware_py.league.store import Store
from firmware_py.league.web import Evening, LeaguePage

SECRET = "the-organisers-secret"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_password_gives_a_session_and_a_guess_does_not():
    organisers = Organisers(SECRET, Clock())
    assert organisers.sign_in("10.0.0.9", "guess") is None
    token = organisers.sign_in("10.0.0.2", SECRET)
    assert token and organisers.is_organiser(token)
    assert not organisers.is_organiser(None) and not organisers.is_organiser("forged")


def test_a_device_guessing_waits_while_the_organisers_device_does_not():
    clock = Clock()
    organisers = Organisers(SECRET, clock)
    for _ in range(TRIES):
        assert organisers.sign_in("10.0.0.9", "guess") is None
    assert organisers.sign_in("10.0.0.9", SECRET) is None  # even the right one waits
    assert organisers.sign_in("10.0.0.2", SECRET) is not None
    clock.now += WINDOW
    assert organisers.sign_in("10.0.0.9", SECRET) is not None


def test_without_a_password_nobody_is_the_organiser():
    organisers = Organisers(None)
    assert not organisers.on and organisers.sign_in("10.0.0.2", "") is None


def test_a_short_or_missing_password_file_is_said(tmp_path):
    short = tmp_path / "short"
    short.write_text("1234\n")
    with pytest.raises(OrganiserPasswordError, match="at least 8 characters"):
        read_password(short)
    with pytest.raises(OrganiserPasswordError, match="missing"):
        read_password(tmp_path / "missing")


def test_a_guest_s_cookie_beyond_ascii_is_a_guest_s_not_an_error(tmp_path):
    """While the organiser was signed in, a guest's browser sending the session cookie as "é"
    made compare_digest raise TypeError (it compares only ASCII text): every page answered
    that guest 500, with a traceback in the league's log. It is a guest's cookie: the page."""

    async def guest_with_a_strange_cookie() -> None:
        league = League(Store(tmp_path / "league.sqlite"), "qwixx")
        server = LeaguePage(league, "127.0.0.1", 0, Evening(6), Organisers(PASSWORD))
        url = f"http://127.0.0.1:{await server.start()}"
        try:
            await asyncio.to_thread(Browser(url).sign_in)  # the organiser, elsewhere
            guest = Browser(url)
            guest.opener.addheaders = [("Cookie", f"{COOKIE}=\xe9t\xe9")]
            for path in ("/", "/tournament"):
                status, text = await asyncio.to_thread(guest.get, path)
                assert status == 200, text
            assert "Sign in" in (await asyncio.to_thread(guest.get))[1]  # no organiser's forms
        finally:
            await server.stop()

    asyncio.run(guest_with_a_strange_cookie())


def test_a_form_whose_origin_is_no_url_is_refused_in_words_not_an_error(tmp_path):
    """A form posted with Origin "http://[" (no URL) made urlsplit raise: the league's page
    answered 500 with a traceback in its log (found by tools/fuzz.py web_origins); it is no
    page of the league's, refused as another site's form is."""

    async def post_from_nowhere() -> None:
        league = League(Store(tmp_path / "league.sqlite"), "qwixx")
        server = LeaguePage(league, "127.0.0.1", 0, Evening(6), Organisers(PASSWORD))
        browser = Browser(f"http://127.0.0.1:{await server.start()}")
        try:
            for origin in ("http://[", "http://[::1"):
                status, text = await asyncio.to_thread(
                    browser.post, "/tournament/sign-in", origin, password=PASSWORD
                )
                assert status == 403 and "only the league's own page may sign in" in text
        finally:
            await server.stop()

    asyncio.run(post_from_nowhere())


def test_rounds_typed_in_other_digits_are_refused_in_words_not_an_error(tmp_path):
    """Rounds typed as "²" (a phone's keyboard offers it; a digit to str.isdigit, not to
    int) answered the signed-in organiser 500 with a traceback in the league's log (found by
    tools/fuzz.py league_forms): the form says what it takes, and nothing is created."""

    async def create(rounds: str) -> str:
        league = League(Store(tmp_path / f"league-{len(rounds)}.sqlite"), "qwixx")
        server = LeaguePage(league, "127.0.0.1", 0, Evening(6), Organisers(PASSWORD))
        browser = Browser(f"http://127.0.0.1:{await server.start()}")
        try:
            await asyncio.to_thread(browser.sign_in)
            typed = {"rounds": rounds, "players": "Ann\nBen\nCleo"}
            status, text = await asyncio.to_thread(browser.post, "/tournament/create", **typed)
            assert status == 200 and league.tournament.header is None, text
            return text
        finally:
            await server.stop()

    for rounds in ("²", "1²"):
        assert "the number of rounds is a number, 1 to 10" in asyncio.run(create(rounds))


def test_an_action_while_another_program_holds_the_file_is_said_and_changes_nothing(tmp_path):
    """The organiser's own `sqlite3` holding the league's file mid-edit (BEGIN IMMEDIATE):
    "create" waited 5 s and answered 500, with a traceback in the league's log. It answers
    in words; once the file is free the same form creates the tournament."""
    import sqlite3

    async def create_while_held() -> None:
        database = tmp_path / "league.sqlite"
        league = League(Store(database), "qwixx")
        server = LeaguePage(league, "127.0.0.1", 0, Evening(6), Organisers(PASSWORD))
        browser = Browser(f"http://127.0.0.1:{await server.start()}")
        held = sqlite3.connect(database, isolation_level=None)
        try:
            await asyncio.to_thread(browser.sign_in)
            typed = {"rounds": "2", "players": "Ann\nBen\nCleo"}
            held.execute("BEGIN IMMEDIATE")
            status, text = await asyncio.to_thread(browser.post, "/tournament/create", **typed)
            assert status == 200 and league.tournament.header is None, text
            said = "the league's file cannot be written now (database is locked): try again"
            assert said in text
            held.execute("ROLLBACK")
            status, text = await asyncio.to_thread(browser.post, "/tournament/create", **typed)
            assert status == 200 and league.tournament.header is not None, text
        finally:
            held.close()
            await server.stop()

    asyncio.run(create_while_held())
