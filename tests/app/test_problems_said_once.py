"""Each hardware problem is said once: as a warning in the log (standard error, with its
priority in the systemd journal), not again as a line of news on standard output, which shares
the journal with it under systemd. Issue 24: a display that did not answer was said four times;
issue 39: still twice in the journal (the warning and the news line). Drawn in a terminal,
where the log shows errors only, the news keeps it in sight (tests/show)."""

from __future__ import annotations

from support.tower import Tower


def test_a_display_that_does_not_answer_is_said_once_in_the_journal(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[[displays]]\nrole = "main"\nchip = "sh1106"\nbus = 29\naddress = 0x3C\n')
    with Tower("--config", str(config), "--players", "Ann", state=tmp_path / "state", pace=0,
               games=1, stderr_apart=True) as tower:  # fmt: skip
        assert tower.wait_for_exit() == 0, tower.errors
    said = "the main display does not answer"
    assert tower.errors.count(said) == 1, tower.errors  # a warning, with its priority
    assert tower.output.count(said) == 0, tower.output  # not a second time as news
    assert "Ann" in tower.output  # the news is printed: the game's


def test_drawn_in_a_terminal_the_problem_stays_in_sight_in_the_news(tmp_path):
    from support.terminal import TowerTerminal

    config = tmp_path / "config.toml"
    config.write_text('[[displays]]\nrole = "main"\nchip = "sh1106"\nbus = 29\naddress = 0x3C\n')
    tower = TowerTerminal(["--config", str(config), "--state-dir", str(tmp_path / "state"),
                           "--human", "Ann"], columns=100, lines=40)  # fmt: skip
    try:
        tower.wait_for("the main display does not answer")
    finally:
        tower.stop()
