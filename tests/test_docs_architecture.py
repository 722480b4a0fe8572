"""docs/architecture.md is true to the code: every file it names exists where it says, and
every step of its traces (a press of the roll button, a tap on a phone) names a function or a
method that is defined in the file the step names. A newcomer follows the trace with an
editor; a step renamed or moved must be renamed or moved in the trace too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from support.paths import ROOT

DOC = ROOT / "docs" / "architecture.md"
TOP = ("firmware_py/", "drivers/", "sheets/", "tests/", "bench/", "tools/", "systemd/", "docs/")
TICKED = re.compile(r"`([^`\n]+)`")


def text() -> str:
    """The page without its picture (a fenced block of drawing, not of names)."""
    return re.sub(r"```.*?```", "", DOC.read_text(encoding="utf-8"), flags=re.S)


def paths_named() -> list[str]:
    """Every backticked path from the repository's root (`firmware_py/table/core.py`)."""
    found = {token.rstrip("/") for token in TICKED.findall(text()) if token.startswith(TOP)}
    return sorted(found)


@pytest.mark.parametrize("path", paths_named())
def test_every_path_the_architecture_names_exists(path):
    assert (ROOT / path).exists(), f"docs/architecture.md names {path}, which is not there"


def section(title: str) -> str:
    body = text().split(f"## {title}", 1)[1]
    return body.split("\n## ", 1)[0]


def test_every_module_of_the_table_the_architecture_lists_exists():
    """The bullet list of the table's parts names its modules by file name."""
    listed = set(re.findall(r"`(\w+\.py)`", section("The table inside")))
    here = {path.name for path in (ROOT / "firmware_py" / "table").glob("*.py")}
    assert listed - here == set(), f"not in firmware_py/table/: {sorted(listed - here)}"
    assert here - listed - {"__init__.py"} == set(), f"not described: {sorted(here - listed)}"


def stage_rows() -> list[tuple[str, list[str]]]:
    """(folder, the files it names) of each row of the stages' table."""
    rows = []
    for line in section("Stages, and which way the arrows point").splitlines():
        cells = line.split("|")
        if len(cells) < 4 or not cells[2].strip().startswith("`firmware_py/"):
            continue
        folder = TICKED.findall(cells[2])[0]
        if folder.endswith("/"):
            rows.append((folder, re.findall(r"`([\w.]+(?:/)?)`", cells[3])))
    return rows


@pytest.mark.parametrize("folder, names", stage_rows(), ids=[row[0] for row in stage_rows()])
def test_every_file_a_stage_row_names_is_in_that_stage(folder, names):
    files = [name for name in names if name.endswith((".py", "/"))]
    missing = [name for name in files if not (ROOT / folder / name).exists()]
    assert missing == [], f"{folder} has none of {missing}"


def trace_steps() -> list[tuple[str, str]]:
    """(file, name) of every step of both traces, and of every "(`file`, `name`)" in them."""
    steps = []
    for title in ("One press of the roll button, file by file", "One tap on a phone, file by file"):
        for line in section(title).splitlines():
            cells = [cell.strip() for cell in line.split("|")]
            if len(cells) > 4 and cells[1].isdigit():
                steps.append((cells[2].strip("`"), cells[3].strip("`")))
                steps += re.findall(r"\(`([\w/.]+)`, `([\w.]+)`\)", cells[4])
    return steps


def defined(path: Path, name: str) -> bool:
    """True when `name` (a function, a class, or `Class.method`) is defined in `path`."""
    if path.suffix == ".js":
        return re.search(rf"\bfunction {re.escape(name)}\b", path.read_text()) is not None
    tree = ast.parse(path.read_text())
    owner, _, member = name.rpartition(".")
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if not owner and node.name == name:
            return True
        if owner and isinstance(node, ast.ClassDef) and node.name == owner:
            return any(getattr(item, "name", "") == member for item in node.body)
    return False


def test_the_traces_have_steps():
    assert len(trace_steps()) > 20


@pytest.mark.parametrize("path, name", trace_steps(), ids=lambda value: str(value))
def test_every_step_of_the_traces_is_where_it_says(path, name):
    assert (ROOT / path).exists(), f"the trace names {path}, which is not there"
    assert defined(ROOT / path, name), f"{name} is not defined in {path}"
