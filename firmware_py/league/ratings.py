"""The players' ratings: openskill's Plackett-Luce model, a free-for-all of up to five players
(not a two-player Elo), updated game by game in the evening's order.

A rating is a belief: `mu` the skill it expects, `sigma` how unsure it is (25 and 8.3 for
someone new). Standings rank by `mu - 3 sigma` (openskill's ordinal: a rating the player is
almost surely above), so one lucky game does not top the table.

Results reach the league in any order and some twice (at least once, from many towers). The
ratings are always those of one pass over the distinct games in their order (`Result.order`):
a game later than every game rated is rated at once; an earlier one (a tower catching up after
an hour, or one of two games that ended in the same second) takes the ratings back to the last
checkpoint before it and rates again from there, so a late game costs the games after it, not
the whole league: checkpoints are kept every CHECKPOINT games among the RECENT last ones (where
late games land) and every SPARSE games before them, a few hundred for 100,000 games.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from openskill.models import PlackettLuce

from firmware_py.league.identity import named, player_key
from firmware_py.league.incoming import Result

CHECKPOINT = 10  # games between two saved states of every rating, among the RECENT last games
RECENT = 500  # games: older checkpoints are thinned to one every SPARSE games
SPARSE = 500
Order = tuple[str, str, str]
Since = Callable[[Order | None], Iterable[Result]]  # the games after an order, in order


@dataclass(frozen=True)
class Standing:
    """A player's rating after the games rated so far."""

    key: str
    name: str  # as spelled in their latest game
    kind: str | None
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """What standings rank by: a rating the player is almost surely above."""
        return self.mu - 3 * self.sigma


class Ratings:
    """Every player's `Standing`, as one ordered pass over the distinct games gives them."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.players: dict[str, Standing] = {}
        self.last: Order | None = None  # the order of the latest game rated
        self.rated = 0  # games rated since the start of the pass
        self._checkpoints: list[tuple[Order, int, dict[str, Standing]]] = []

    def add(self, result: Result, since: Since) -> None:
        """A game not rated before: rated now when it is the latest, else the ratings go
        back to the checkpoint before it and every game from there (`since`, which holds
        this one) is rated again."""
        if self.last is None or result.order > self.last:
            self._rate(result)
            return
        at = bisect.bisect_left([order for order, _, _ in self._checkpoints], result.order)
        del self._checkpoints[at:]
        start: Order | None = None
        if self._checkpoints:
            start, self.rated, saved = self._checkpoints[-1]
            self.players = dict(saved)
        else:
            self.players, self.rated = {}, 0
        self.last = start
        for game in since(start):
            self._rate(game)

    def restore(self, players: dict[str, Standing], last: Order, rated: int) -> None:
        """Start from ratings saved after `rated` games, the last of order `last`."""
        self.players, self.last, self.rated = dict(players), last, rated
        self._checkpoints = [(last, rated, dict(players))]

    def replay(self, games: Iterable[Result]) -> None:
        """Rate every game of `games`, given in order, from nothing (the league's start)."""
        self.players, self.last, self.rated, self._checkpoints = {}, None, 0, []
        for game in games:
            self._rate(game)

    def _rate(self, result: Result) -> None:
        """The game's named players rated by their places among themselves (a seat nobody
        named is nobody's); one named player alone has the game counted, the rating kept."""
        players = [player for player in result.players if named(player)]
        keys = [player_key(player) for player in players]
        before = [self.players.get(key) or self._newcomer(key, player.kind)
                  for key, player in zip(keys, players, strict=True)]  # fmt: skip
        teams = [[self.model.rating(mu=one.mu, sigma=one.sigma)] for one in before]
        after = teams
        if len(teams) > 1:
            after = self.model.rate(teams, ranks=[player.place for player in players])
        for one, [rating], player in zip(before, after, players, strict=True):
            self.players[one.key] = replace(
                one,
                name=player.name,
                mu=rating.mu,
                sigma=rating.sigma,
                games=one.games + 1,
                wins=one.wins + (player.place == 1),
            )
        self.last = result.order
        self.rated += 1
        if self.rated % CHECKPOINT == 0:
            self._checkpoints.append((result.order, self.rated, dict(self.players)))
            self._checkpoints = [
                kept
                for kept in self._checkpoints
                if kept[1] % SPARSE == 0 or kept[1] > self.rated - RECENT
            ]

    def _newcomer(self, key: str, kind: str | None) -> Standing:
        fresh = self.model.rating()
        return Standing(key=key, name="", kind=kind, mu=fresh.mu, sigma=fresh.sigma)

    def standings(self) -> list[Standing]:
        """Every player, the highest ordinal first (ties by name)."""
        return sorted(self.players.values(), key=lambda one: (-one.ordinal, one.name))
