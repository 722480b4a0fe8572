"""What the fuzzers found stays fixed: every input under tests/fuzz/found/TARGET/ (saved by
tools/fuzz.py when it made TARGET fail) and tests/fuzz/seeds/TARGET/ runs through its target
again, without atheris. And every target a module offers is one the runner finds."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

FUZZ = ROOT / "tests" / "fuzz"


def runner():  # the fuzzing tool itself, tools/fuzz.py, as a module
    spec = importlib.util.spec_from_file_location("fuzz_tool", ROOT / "tools" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TARGETS = runner().load_targets()


def saved_inputs() -> list[Path]:
    return sorted(path for kind in ("found", "seeds") for path in (FUZZ / kind).glob("*/*"))


@pytest.mark.parametrize("path", saved_inputs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_saved_input_runs_through_its_target(path):
    name = path.parent.name
    assert name in TARGETS, f"{path.relative_to(ROOT)} is kept for {name}, which is no target"
    TARGETS[name](path.read_bytes())


def test_every_target_of_every_module_is_found_by_the_runner():
    modules = sorted(FUZZ.glob("targets_*.py"))
    assert FUZZ / "targets_doors.py" in modules
    offered = {}
    for path in modules:
        spec = importlib.util.spec_from_file_location(f"check_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assert module.TARGETS, f"{path.name} offers no target"
        offered |= {name: target.__qualname__ for name, target in module.TARGETS.items()}
    assert {name: target.__qualname__ for name, target in TARGETS.items()} == offered


def test_the_runner_lists_the_targets_and_says_how_to_get_atheris_without_it():
    """--list, and a fuzz run asked for where atheris is not installed (here: hidden), which
    ends with one line saying how to install it, not a traceback."""
    hide = "import sys, runpy; sys.modules['atheris'] = None; sys.argv = ['fuzz.py', *sys.argv[1:]]"
    script = f"{hide}; runpy.run_path('tools/fuzz.py', run_name='__main__')"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-c", script, *args]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)

    listed = run("--list")
    assert listed.returncode == 0 and listed.stdout.split() == sorted(TARGETS)
    asked = run("pad_frames", "--seconds", "1")
    assert asked.returncode == 1 and asked.stdout == ""
    assert asked.stderr.strip().splitlines() == [runner().NO_ATHERIS]
