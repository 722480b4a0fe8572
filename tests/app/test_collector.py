"""`run` pauses Python's cycle collector while it starts and sets the start's objects aside
once it has (`app/collector.py`; the CPU it saves is in docs/development.md). A caller that
goes on after the tower, in the same process, finds the collector on again."""

from __future__ import annotations

import gc

from firmware_py.app.cli import main


def test_after_a_run_in_this_process_the_collector_is_on_with_the_start_set_aside(tmp_path):
    assert gc.isenabled()
    before = gc.get_freeze_count()
    status = main(["run", "--plain", "--pace", "0", "--games", "1", "--players", "Ann,Ben",
                   "--state-dir", str(tmp_path / "state")])  # fmt: skip
    assert status == 0
    assert gc.isenabled()
    assert gc.get_freeze_count() > before  # what the start made, never looked at again


def test_a_run_that_stops_at_its_configuration_leaves_the_collector_on(tmp_path, capsys):
    (tmp_path / "config.toml").write_text("[table]\nvariant = 12\n")
    assert main(["run", "--config", str(tmp_path / "config.toml")]) != 0
    assert "variant" in capsys.readouterr().err
    assert gc.isenabled()
