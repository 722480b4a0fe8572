"""Every player's history, counted from the games' summaries: games, wins and win rate, mean
and best per sheet, the trend over the last games, head to head, the heat-map of the sheet;
names that look alike are one player (the seats' rule, "Ann" and "ANN"); only finished games
count, and the others are counted apart by why."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_py.journal.figures import (
    ABANDONED,
    OVER,
    QUARANTINED,
    UNFINISHED,
    UNREADABLE,
    GameSummary,
    Players,
    SeatSummary,
    everyone,
    last_games,
    left_out,
    names_in,
    player_history,
)
from firmware_py.seats.names import looks

NONE = (0, 0, 0, 0)


def game(number: int, *totals: tuple[str, int], state: str = OVER, variant: str = "classic",
         rows: tuple[int, ...] = NONE) -> GameSummary:  # fmt: skip
    players = tuple(SeatSummary(name, total, 0, rows) for name, total in totals)
    best = max(total for _, total in totals)
    winners = tuple(name for name, total in totals if total == best) if state == OVER else ()
    return GameSummary(number, "", variant, state, players, winners, rolls=10)


def history_of(summaries, name):
    return player_history(summaries, Players(names_in(summaries), looks), name)


GAMES = (
    game(1, ("Ann", 30), ("Ben", 20)),
    game(2, ("ann", 10), ("Ben", 40)),  # the same Ann, typed in lower case
    game(3, ("Ann", 50), ("Ben", 50), ("Cleo", 5)),  # a tie: both win
    game(4, ("Ann", 99), ("Ben", 0), state=ABANDONED),  # does not count
    game(5, ("ANN", 12), ("Cleo", 2), variant="mixx-a"),
)


def test_a_players_games_wins_and_win_rate_count_only_finished_games():
    ann = history_of(GAMES, "Ann")
    assert (ann.games, ann.wins) == (4, 3)
    assert ann.win_rate == 0.75
    assert set(ann.seated_as) == {"Ann", "ann", "ANN"}


def test_mean_and_best_are_per_sheet():
    ann = history_of(GAMES, "Ann")
    by_sheet = {sheet.variant: sheet for sheet in ann.sheets}
    assert by_sheet["classic"].games == 3 and by_sheet["classic"].mean == 30
    assert by_sheet["classic"].best == 50  # the abandoned game's 99 is not a best
    assert (by_sheet["mixx-a"].mean, by_sheet["mixx-a"].best) == (12, 12)
    assert ann.sheets[0].variant == "classic"  # the most played sheet first


def test_head_to_head_counts_ahead_behind_and_level_against_each_other_player():
    ann = history_of(GAMES, "ann")
    rivals = {rival.name: rival for rival in ann.rivals}
    ben = rivals["Ben"]
    assert (ben.games, ben.ahead, ben.behind, ben.level) == (3, 1, 1, 1)
    cleo = rivals["Cleo"]
    assert (cleo.games, cleo.ahead, cleo.behind, cleo.level) == (2, 2, 0, 0)


def test_the_trend_compares_the_last_ten_games_with_the_ten_before_once_there_are_twenty():
    summaries = [game(n, ("Ann", 10 if n <= 10 else 30), ("Ben", 20)) for n in range(1, 20)]
    assert history_of(summaries, "Ann").sheets[0].trend() is None
    summaries.append(game(20, ("Ann", 30), ("Ben", 20)))
    assert history_of(summaries, "Ann").sheets[0].trend() == (30, 10)


def test_the_heat_map_counts_each_number_crossed_skipped_or_left_open():
    """Classic red row 2..12: crossing 4 and 6 (positions 2, 4) skips 2, 3 and 5 and leaves
    7..12 open (classic rules, seed 000: "the numbers must be crossed out from left to right
    ... Numbers that have been left out may not, however, be crossed out afterward")."""
    red = 0b10100
    summaries = [game(1, ("Ann", 5), rows=(red, 0, 0, 0)), game(2, ("Ann", 0))]
    heat = history_of(summaries, "Ann").heat[0]
    assert heat.games == 2
    red_counts = heat.cells[0]
    assert red_counts[2] == (1, 0, 1) and red_counts[4] == (1, 0, 1)
    assert red_counts[0] == (0, 1, 1) and red_counts[3] == (0, 1, 1)
    assert red_counts[5] == (0, 0, 2)
    assert heat.numbers()[0][:3] == (2, 3, 4)


def test_a_name_never_seated_in_a_game_that_counts_has_no_history():
    assert history_of(GAMES, "Dora") is None
    assert history_of([game(1, ("Dora", 5), state=ABANDONED)], "Dora") is None


def test_everyone_is_listed_most_games_first_with_names_alike_as_one():
    lines = everyone(GAMES, Players(names_in(GAMES), looks))
    assert [(line.name, line.games, line.wins) for line in lines] == [
        ("Ann", 4, 3), ("Ben", 3, 2), ("Cleo", 2, 0),
    ]  # fmt: skip


def test_games_that_do_not_count_are_left_out_and_said_to_be():
    summaries = [
        game(1, ("Ann", 1)),
        game(2, ("Ann", 1), state=ABANDONED),
        game(3, ("Ann", 1), state=UNFINISHED),
        GameSummary(4, "", "", UNREADABLE, why="line 1"),
        GameSummary(5, "", "", QUARANTINED),
    ]
    out = left_out(summaries)
    assert (out.abandoned, out.unfinished, out.unreadable, out.quarantined) == (
        (2,), (3,), (4,), (5,),
    )  # fmt: skip
    assert out.words() == (
        "Left out of the figures: 1 game abandoned, 1 game unfinished, 1 game unreadable, "
        "1 game set aside in quarantine/."
    )
    assert left_out(summaries[:1]).words() == ""


def test_the_last_games_are_newest_first_a_page_before_a_number():
    summaries = [game(n, ("Ann", n)) for n in range(1, 8)]
    assert [s.number for s in last_games(summaries, 3)] == [7, 6, 5]
    assert [s.number for s in last_games(summaries, 3, before=3)] == [2, 1]


NAMES = st.sampled_from(["Ann", "ann", "Ben", "Cleo", "CLEO", "Dee"])
SEATS = st.lists(st.tuples(NAMES, st.integers(-20, 120)), min_size=1, max_size=5,
                 unique_by=lambda seat: seat[0].casefold())  # fmt: skip
STATES = st.sampled_from([OVER, OVER, OVER, ABANDONED, UNFINISHED])


@given(st.lists(st.tuples(SEATS, STATES), max_size=30))
def test_every_game_against_a_rival_is_ahead_behind_or_level_and_heat_counts_every_game(games):
    summaries = [game(n, *seats, state=state) for n, (seats, state) in enumerate(games, 1)]
    players = Players(names_in(summaries), looks)
    for name in players.everyone():
        history = player_history(summaries, players, name)
        assert history is not None and 0 <= history.wins <= history.games
        assert sum(sheet.games for sheet in history.sheets) == history.games
        for rival in history.rivals:
            assert rival.ahead + rival.behind + rival.level == rival.games <= history.games
        for heat in history.heat:
            assert all(sum(cell) == heat.games for row in heat.cells for cell in row)
    counted = sum(len(s.players) for s in summaries if s.counts)
    assert sum(line.games for line in everyone(summaries, players)) == counted
