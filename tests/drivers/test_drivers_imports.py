"""The drivers are a package below the tower's: of firmware_py they import the pad's wire
protocol only, which both ends of the cable share (read from their source)."""

import ast

from support.paths import ROOT

SHARED = "firmware_py.pad.protocol"


def imported_modules(tree: ast.Module) -> list[tuple[str, int]]:
    """Each module a file imports, with the line: `from a.b import c` counts as a.b.c."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [(f"{node.module}.{alias.name}", node.lineno) for alias in node.names]
    return found


def test_the_drivers_import_nothing_of_the_tower_but_the_pad_protocol():
    upward = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted((ROOT / "drivers").rglob("*.py"))
        for name, line in imported_modules(ast.parse(path.read_text(encoding="utf-8")))
        if name.split(".")[0] == "firmware_py" and not name.startswith(SHARED)
    ]
    assert not upward, "; ".join(upward)
