"""A tournament's organiser at the league's page, as a browser without scripts is: forms posted
with a cookie jar (the organiser's session), redirects followed; a guest is the same without
having signed in. The league's tournament read beside its file, as another reader would."""

from __future__ import annotations

import html
import http.cookiejar
import json
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from support import HANG
from support.league import reading

PASSWORD = "the-organisers-secret"


class Browser:
    """One device's browser on the league's page at `url` (the pages' text unescaped)."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str = "/tournament") -> tuple[int, str]:
        return self._open(urllib.request.Request(self.url + path))

    def post(self, path: str, origin: str = "", **fields: str) -> tuple[int, str]:
        """A form posted from the page (or from another site's, `origin`); the status and
        text of where it leads."""
        body = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(
            self.url + path, data=body, headers={"Origin": origin or self.url}, method="POST"
        )
        return self._open(request)

    def sign_in(self, password: str = PASSWORD) -> str:
        return self.post("/tournament/sign-in", password=password)[1]

    def act(self, action: str, **fields: str) -> str:
        status, text = self.post(f"/tournament/{action}", **fields)
        assert status == 200, text
        return text

    def _open(self, request: urllib.request.Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=HANG) as answer:
                return answer.status, html.unescape(answer.read().decode())
        except urllib.error.HTTPError as error:
            return error.code, html.unescape(error.read().decode())


def seatings(database: Path) -> dict[int, dict[str, list[str]]]:
    """Each round's players by tower, as the league keeps them."""
    with reading(database) as db:
        rows = db.execute("SELECT round, tower, players FROM seatings ORDER BY round, tower")
        rounds: dict[int, dict[str, list[str]]] = {}
        for round_, tower, players in rows:
            rounds.setdefault(round_, {})[tower] = json.loads(players)
        return rounds


def round_games(database: Path) -> list[tuple[int, str, str]]:
    """(round, tower, game id) of every table's game counted."""
    with reading(database) as db:
        return db.execute("SELECT round, tower, game FROM round_games ORDER BY 1, 2").fetchall()
