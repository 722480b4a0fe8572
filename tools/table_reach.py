"""How far the table's parts reach into the `Table`: figures for issues 21 and 38, from the source.

Prints, for `firmware_py/table/`:
- the import circle: the largest group of modules that import each other (directly or
  around), counting imports under `TYPE_CHECKING` too, since a type is a dependency;
- the distinct `Table` members the parts use (an attribute read on `table` or `self.table`,
  or on a name annotated with `Table`);
- the assignments to a table's fields outside `core.py` (`table.x = ...`, `self.table.x += ...`);
- the width of the ports: the members the parts' own `Protocol`s declare, each part's and in all.

Run it from the repository's root: `python tools/table_reach.py`.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

TABLE = Path("firmware_py/table")
PACKAGE = "firmware_py.table"


def modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text()) for path in sorted(TABLE.glob("*.py"))}


def imports_of(tree: ast.Module, names: set[str]) -> set[str]:
    """The modules of `firmware_py.table` this module imports (any import, anywhere in it)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PACKAGE:
                found |= {alias.name for alias in node.names if alias.name in names}
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module.removeprefix(PACKAGE + ".").split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name.removeprefix(PACKAGE + ".").split(".")[0])
    return found & names


def largest_circle(graph: dict[str, set[str]]) -> list[str]:
    """The largest strongly connected group of modules (Tarjan), one module alone is none."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            groups.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    biggest = max(groups, key=len, default=[])
    return biggest if len(biggest) > 1 else []


def is_table(node: ast.expr, typed: set[str]) -> bool:
    """True for `table`, `self.table` or a name annotated as a `Table`."""
    if isinstance(node, ast.Name):
        return node.id == "table" or node.id in typed
    return isinstance(node, ast.Attribute) and node.attr == "table"


def reaches_table(node: ast.expr, typed: set[str]) -> bool:
    """True for a table or one of its fields' fields (`table.seating` in `table.seating.seats`)."""
    while isinstance(node, ast.Attribute) and not is_table(node, typed):
        node = node.value
    return is_table(node, typed)


def names_typed_table(tree: ast.Module) -> set[str]:
    typed: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.arg) or node.annotation is None:
            continue
        if "Table" in ast.unparse(node.annotation).split("."):
            typed.add(node.arg)
    return typed


def members_used(tree: ast.Module) -> set[str]:
    typed = names_typed_table(tree)
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and is_table(node.value, typed)
    }


def writes(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, target) of every assignment to a table's field, or to a field of one of its fields."""
    typed = names_typed_table(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for part in ast.walk(target):
                if not isinstance(part, ast.Attribute) or not isinstance(part.ctx, ast.Store):
                    continue
                if reaches_table(part.value, typed):
                    found.append((node.lineno, ast.unparse(part)))
    return found


def protocols(tree: ast.Module) -> dict[str, tuple[list[str], set[str]]]:
    """Each `Protocol` class of a module: (its bases' names, the members it declares)."""
    found: dict[str, tuple[list[str], set[str]]] = {}
    for node in tree.body:
        bases = [ast.unparse(base) for base in node.bases] if isinstance(node, ast.ClassDef) else []
        if isinstance(node, ast.ClassDef) and any(base.endswith("Protocol") for base in bases):
            members = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
            found[node.name] = ([b for b in bases if not b.endswith("Protocol")], members)
    return found


def port_members(name: str, known: dict[str, tuple[list[str], set[str]]]) -> set[str]:
    """A port's members, with those of the facets it is made of (`state.GameOn`, ...)."""
    bases, members = known[name]
    return members.union(*(port_members(base, known) for base in bases if base in known))


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    trees = modules()
    names = set(trees)
    graph = {name: imports_of(tree, names) for name, tree in trees.items()}
    circle = largest_circle(graph)
    print(f"import circle: {len(circle)} modules {circle}")
    parts = {name: tree for name, tree in trees.items() if name not in ("core", "__init__")}
    used = {name: members_used(tree) for name, tree in parts.items()}
    union = set().union(*used.values())
    total = sum(len(members) for members in used.values())
    print(f"Table members used from parts: {len(union)} distinct, {total} summed over the parts")
    for name, members in used.items():
        if members:
            print(f"  {name}: {len(members)} {sorted(members)}")
    found = [(name, line, target) for name, tree in parts.items() for line, target in writes(tree)]
    print(f"writes to the table's fields outside core.py: {len(found)}")
    for name, line, target in found:
        print(f"  {name}.py:{line}: {target}")
    known = {port: found for tree in trees.values() for port, found in protocols(tree).items()}
    ports = {
        f"{name}.{port}": port_members(port, known)
        for name, tree in parts.items()
        if name != "state"  # the read-only facets the ports are made of
        for port in protocols(tree)
    }
    widest = set().union(*ports.values()) if ports else set()
    print(f"ports: {len(ports)}, distinct members declared in all: {len(widest)}")
    for port, members in ports.items():
        print(f"  {port}: {len(members)} {sorted(members)}")


if __name__ == "__main__":
    main()
