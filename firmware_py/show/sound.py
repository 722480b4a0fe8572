"""The table heard: a buzzer tune and spoken sentences for what each view says changed.

The rulebooks want the white sum said aloud at every roll and a lock announced "loudly and
clearly" so that everyone knows the row is out of the game. The sound presenter reads that from
the published views: a roll landed (the game went from waiting for a roll to action 1), a
player's penalties went up, `new_locks`, `ended`. It plays one tune per view, the weightiest
(game over, then a lock, a penalty, a roll), on the buzzer and says every sentence. Both drivers
work in the background, so presenting never waits for a sound.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from drivers.buzzer import GAME_OVER, LOCK, PENALTY, ROLL, Buzzer
from drivers.errors import DriverError
from drivers.speech import Speech
from firmware_py.rules import ACTION1, Game
from firmware_py.rules import ROLL as WAITING_FOR_ROLL
from firmware_py.view import TableView

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Sign:
    """What one change sounds like: a tune and the sentences said. A roll's sign is
    `replaceable`: if the next news comes before it is heard, it is skipped."""

    tune: str
    sentences: tuple[str, ...]
    replaceable: bool = False


class SoundPresenter:
    """Plays each view's sign on `buzzer` and says it with `speech` (either may be None)."""

    def __init__(self, buzzer: Buzzer | None, speech: Speech | None) -> None:
        self.buzzer = buzzer
        self.speech = speech
        self._game: Game | None = None  # the game of the last view, to see what changed
        self._failed = False

    def __call__(self, view: TableView) -> None:
        sign = self.sign_for(view)
        if sign is not None:
            self._sound(sign)

    def sign_for(self, view: TableView) -> Sign | None:
        """The sign of what changed since the last view (None: nothing to hear)."""
        before, game = self._game, view.game
        self._game = game
        if game is None:
            return None
        if before is None or view.started or not _same_players(before, game):
            return _sign(view, game, rolled=False, penalised=[])  # nothing to compare with
        rolled = before.phase is WAITING_FOR_ROLL and game.phase is ACTION1
        return _sign(view, game, rolled=rolled, penalised=_penalised(before, game))

    def _sound(self, sign: Sign) -> None:
        try:
            if self.buzzer is not None:
                self.buzzer.play(sign.tune, replaceable=sign.replaceable)
            if self.speech is not None:
                for sentence in sign.sentences:
                    self.speech.say(sentence, replaceable=sign.replaceable)
        except DriverError as error:  # a closed or broken part: the game goes on silently
            if not self._failed:
                log.warning("the tower cannot sound: %s", error)
            self._failed = True


def _same_players(before: Game, game: Game) -> bool:
    return [p.name for p in before.players] == [p.name for p in game.players]


def _penalised(before: Game, game: Game) -> list[str]:
    """The players whose penalties went up between the two games."""
    return [
        new.name
        for old, new in zip(before.players, game.players, strict=True)
        if new.penalties > old.penalties
    ]


def _sign(view: TableView, game: Game, *, rolled: bool, penalised: list[str]) -> Sign | None:
    sentences = [f"{name} takes a penalty" for name in penalised]
    if view.new_locks:
        sentences.append(locked_words(view.new_locks))
    if view.ended:
        sentences.append(game_over_words(game))
        return Sign(GAME_OVER, tuple(sentences))
    if view.new_locks:
        return Sign(LOCK, tuple(sentences))
    if penalised:
        return Sign(PENALTY, tuple(sentences))
    if rolled and game.dice is not None:
        white = game.dice.white
        return Sign(ROLL, (str(white[0] + white[1]),), replaceable=True)  # the sum, aloud
    return None


def locked_words(colours: tuple[str, ...]) -> str:
    """'red is locked', 'red and yellow are locked'."""
    if len(colours) == 1:
        return f"{colours[0]} is locked"
    return f"{', '.join(colours[:-1])} and {colours[-1]} are locked"


def game_over_words(game: Game) -> str:
    """'game over: Ben wins with 54', 'game over: Ann and Ben win with 40'."""
    winners = game.winners()
    if not winners:
        return "game over"
    best = game.total(winners[0])
    if len(winners) == 1:
        return f"game over: {winners[0]} wins with {best}"
    return f"game over: {', '.join(winners[:-1])} and {winners[-1]} win with {best}"
