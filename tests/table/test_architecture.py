"""The table's house rules, read from its source (docs/architecture.md, ../shared/ARCHITECTURE.md:
"`core` owns the state and the phase; each part gets a read-only view of the state and the few
actions it needs, and never writes the table's fields"): only core.py writes a `Table`'s
fields, no part imports core or takes the whole `Table`, and the arrows between the table's
modules point one way. Someone who breaks a rule hears which line does."""

from __future__ import annotations

import ast

import pytest
from support.paths import ROOT

TABLE = ROOT / "firmware_py" / "table"
PACKAGE = "firmware_py.table"
PARTS = sorted(path for path in TABLE.glob("*.py") if path.stem not in ("core", "__init__"))


def parsed(path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def table_fields() -> set[str]:
    """Every name a `Table` has: its fields (`self.x = ...` in core.py), methods, properties."""
    table = next(
        node
        for node in parsed(TABLE / "core.py").body
        if isinstance(node, ast.ClassDef) and node.name == "Table"
    )
    names = {item.name for item in table.body if isinstance(item, ast.FunctionDef)}
    stored = [
        n for n in ast.walk(table) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
    ]
    names |= {n.attr for n in stored if isinstance(n.value, ast.Name) and n.value.id == "self"}
    return names


def holds_the_table(node: ast.expr) -> bool:
    """`table`, `self.table`, or anything reached through them (`table.seating`)."""
    while isinstance(node, ast.Attribute):
        if node.attr == "table":
            return True
        node = node.value
    return isinstance(node, ast.Name) and node.id == "table"


def writes_to_the_table(tree: ast.Module, fields: set[str]) -> list[str]:
    """Each assignment (line: target) to a field of the table the part was given, or to a field
    named as a Table's on any object but the part's own `self`."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)):
            continue
        own = isinstance(node.value, ast.Name) and node.value.id == "self"
        if holds_the_table(node.value) or (node.attr in fields and not own):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def table_modules_imported(tree: ast.Module) -> set[str]:
    """The modules of firmware_py.table this one imports, anywhere (TYPE_CHECKING too)."""
    names = {path.stem for path in TABLE.glob("*.py")}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == PACKAGE:
            found |= {alias.name for alias in node.names} & names
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE + "."):
            found.add((node.module or "").split(".")[2])
        elif isinstance(node, ast.Import):
            dotted = [alias.name for alias in node.names if alias.name.startswith(PACKAGE + ".")]
            found |= {name.split(".")[2] for name in dotted}
    return found


def test_the_table_has_parts_to_check():
    """The rules below read real code: the parts are where they are said to be."""
    assert {"games", "rolling", "planner", "seats", "showing"} <= {p.stem for p in PARTS}
    assert {"game", "message", "phase", "screen", "variant"} <= table_fields()


@pytest.mark.parametrize("part", PARTS, ids=lambda path: path.stem)
def test_only_core_writes_the_table_s_fields(part):
    assert writes_to_the_table(parsed(part), table_fields()) == [], (
        f"{part.name} writes the table's state; ask core for a named action instead"
    )


@pytest.mark.parametrize("part", PARTS, ids=lambda path: path.stem)
def test_no_part_imports_core_or_takes_the_whole_table(part):
    tree = parsed(part)
    assert "core" not in table_modules_imported(tree), f"{part.name} imports core"
    whole = [
        f"{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.arg) and node.annotation is not None
        if "Table" in {n.id for n in ast.walk(node.annotation) if isinstance(n, ast.Name)}
    ]
    assert whole == [], f"{part.name} takes the whole Table; give it a port of what it uses"


def test_the_arrows_between_the_table_s_modules_point_one_way():
    """No circle: following imports from any module of table/ never leads back to it."""
    graph = {path.stem: table_modules_imported(parsed(path)) for path in TABLE.glob("*.py")}
    graph["__init__"] = set()  # the package's face re-exports core; nothing inside imports it

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for step in graph[start] - seen:
            if step == goal or reaches(step, goal, seen | {step}):
                return True
        return False

    circles = sorted(name for name in graph if reaches(name, name, set()))
    assert circles == [], f"these modules of table/ import each other around: {circles}"
