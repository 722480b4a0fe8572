"""The house rules of the whole package, read from its source (docs/architecture.md,
../shared/ARCHITECTURE.md): the arrows between the stages point one way, top to bottom; outside
`firmware_py/table/` nothing takes the whole `Table` or writes its fields; inside it, only
core writes them and the parts reach the table through narrow ports that hand out no mutable
part; no class or function grows past what one reader can hold. Someone who breaks a rule
hears which line does, and why the rule is there."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest
from support.paths import ROOT

PACKAGES = ("firmware_py", "drivers", "sheets")
TABLE = ROOT / "firmware_py" / "table"
ASSEMBLY = "firmware_py/app/assembly.py"  # the one place that builds the whole table

# Stages, top to bottom: a module may import its own stage and the ones below it, never one
# above, nor a sibling of its own height (seats and show, players and journal know nothing of
# each other; nor does the MQTT bus, a door and an output of its own). The package root holds
# the plain data several stages share.
RANK = {
    "app": 8,
    "league": 7,  # the café's league: over the bus, the seats' names and the phones' guards
    "seats": 6,
    "bus": 6,
    "show": 6,
    "table": 5,
    "players": 4,
    "journal": 4,
    "shared": 3,
    "rules": 2,
    "sheets": 1,
    "leaf": 0,
    "drivers": -1,
}
SHARED = {"view", "menu", "seating", "lucky", "transliterate", "story", "words"}
LEAVES = {
    "firmware_py",
    "firmware_py.errors",
    "firmware_py.json_text",
    "firmware_py.pad.protocol",
    "firmware_py.toml_text",
}
PURE = {"rules", "sheets", "players", "journal", "shared", "leaf"}  # no I/O stage below them
HARDWARE_LIBRARIES = {"drivers", "gpiozero", "luma", "serial", "bleak", "aiohttp", "PIL"}

MAX_PORT = 8  # members of a port, its facets included: a handful
MAX_CLASS = 300  # lines
MAX_FUNCTION = 60  # lines
# (file, function) -> the measured reason it stays whole
LONG_ON_PURPOSE: dict[tuple[str, str], str] = {
    ("firmware_py/rules/plain.py", "_play"): (
        "the playout's inner loop: split into one function per action it took 6.6 % more "
        "instructions a classic playout, 4.4 % on Longo (callgrind, bench/engine.py)"
    ),
}


def source_files() -> list[Path]:
    files = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]
    return sorted(path for path in files if "__pycache__" not in path.parts)


def product_files() -> list[Path]:
    """The tower's Python (the pad firmware's MicroPython modules are the pad's own program)."""
    pad_firmware = ROOT / "firmware_py" / "pad"
    keep = {pad_firmware / "protocol.py", pad_firmware / "robot.py"}
    return [p for p in source_files() if p.parent != pad_firmware or p in keep]


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def stage_of(module: str) -> str:
    """The stage a module belongs to (`firmware_py.table.core` -> "table")."""
    parts = module.split(".")
    if module in LEAVES or parts[:2] == ["firmware_py", "pad"]:
        return "leaf"
    if parts[0] in ("drivers", "sheets"):
        return parts[0]
    if len(parts) == 2 and parts[1] in SHARED:
        return "shared"
    if len(parts) == 2 and parts[1] == "cli":
        return "app"  # `python -m firmware_py.cli`: the command, at the top
    return parts[1] if len(parts) > 1 else "leaf"


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in the file, TYPE_CHECKING and functions included: a
    type is a dependency too. `from X import y` names `X.y` when `y` is a module of it."""
    found = []
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                is_module = any(
                    (ROOT / Path(*candidate.split("."))).with_suffix(suffix).exists()
                    for suffix in (".py", "")
                )
                found.append((node.lineno, candidate if is_module else base))
    return found


def ours(module: str) -> bool:
    return module.split(".")[0] in PACKAGES


# ---- the arrows between stages ---------------------------------------------------------------


def test_the_stages_are_where_the_rules_say():
    """The rules below read real code: every stage has modules, and each module has a stage."""
    stages = {stage_of(module_name(path)) for path in product_files()}
    assert stages == set(RANK), stages ^ set(RANK)


@pytest.mark.parametrize("path", product_files(), ids=relative)
def test_imports_point_down_the_stages(path):
    """app, then seats, show and bus (doors and outputs), then table, then players and journal,
    then the shared data, rules and sheets; drivers below the package, knowing nothing of it
    but the pad's wire protocol. An arrow back up would make a change at the bottom ripple up
    and a test of a lower stage need the ones above."""
    mine = stage_of(module_name(path))
    wrong = []
    for line, module in imports(path):
        if not ours(module):
            continue
        theirs = stage_of(module)
        if mine == "drivers":
            ok = theirs == "drivers" or module == "firmware_py.pad.protocol"
        elif theirs == mine:
            ok = True
        else:
            ok = RANK[theirs] < RANK[mine]
        if not ok:
            wrong.append(f"{relative(path)}:{line}: {mine} imports {module} ({theirs})")
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize(
    "path", [p for p in product_files() if stage_of(module_name(p)) in PURE], ids=relative
)
def test_the_pure_stages_touch_no_hardware(path):
    """The referee, the computer players, the journal and the sheets run anywhere, a test
    included, without a pin, a display, a serial port, a radio or a socket."""
    wrong = [
        f"{relative(path)}:{line}: imports {module}"
        for line, module in imports(path)
        if module.split(".")[0] in HARDWARE_LIBRARIES
    ]
    assert wrong == [], "\n".join(wrong)


# ---- the whole table, outside the table -------------------------------------------------------


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
    """Each assignment (line: target) to a field of a table the module was given, or to a
    field named as a Table's on any object but the module's own `self`."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)):
            continue
        own = isinstance(node.value, ast.Name) and node.value.id == "self"
        if holds_the_table(node.value) or (node.attr in fields and not own):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def names_in(annotation: ast.expr | None) -> set[str]:
    if annotation is None:
        return set()
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        annotation = ast.parse(annotation.value, mode="eval").body
    found = {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)}
    return found | {n.attr for n in ast.walk(annotation) if isinstance(n, ast.Attribute)}


OUTSIDE = [p for p in product_files() if TABLE not in p.parents]


@pytest.mark.parametrize("path", [p for p in OUTSIDE if relative(p) != ASSEMBLY], ids=relative)
def test_outside_the_table_nothing_takes_the_whole_table_or_writes_its_fields(path):
    """A door, an output or a command gets a port of the table (a `SeatDoor`, a place among
    its presenters, a Protocol of the few actions it uses): what it may change is said in one
    place, and the table can change behind it. `app/assembly.py` alone builds the table."""
    tree = parsed(path)
    wrong = [f"{relative(path)}:{line}" for line in writes_to_the_table(tree, table_fields())]
    for node in ast.walk(tree):
        from_table = isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "firmware_py.table"
        )
        if from_table and "Table" in {alias.name for alias in node.names}:
            wrong.append(f"{relative(path)}:{node.lineno}: imports Table")
        if isinstance(node, ast.arg | ast.AnnAssign) and "Table" in names_in(node.annotation):
            wrong.append(f"{relative(path)}:{node.lineno}: takes the whole Table")
        if isinstance(node, ast.arg) and node.arg == "table":
            named = names_in(node.annotation)
            if not named or "Any" in named:
                wrong.append(f"{relative(path)}:{node.lineno}: a table of no port (Any or none)")
    assert wrong == [], "\n".join(wrong)


# ---- inside the table ---------------------------------------------------------------------


PACKAGE_DOT = "firmware_py.table."
PARTS = sorted(path for path in TABLE.glob("*.py") if path.stem not in ("core", "__init__"))


def test_the_table_has_parts_to_check():
    assert {"games", "rolling", "planner", "seats", "showing"} <= {p.stem for p in PARTS}
    assert {"game", "message", "phase", "screen", "variant"} <= table_fields()


@pytest.mark.parametrize("part", PARTS, ids=lambda path: path.stem)
def test_only_core_writes_the_table_s_fields(part):
    assert writes_to_the_table(parsed(part), table_fields()) == [], (
        f"{part.name} writes the table's state; ask core for a named action instead"
    )


def table_modules_imported(tree: ast.Module) -> set[str]:
    names = {path.stem for path in TABLE.glob("*.py")}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "firmware_py.table":
            found |= {alias.name for alias in node.names} & names
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE_DOT):
            found.add((node.module or "").split(".")[2])
        elif isinstance(node, ast.Import):
            dotted = [a.name for a in node.names if a.name.startswith(PACKAGE_DOT)]
            found |= {name.split(".")[2] for name in dotted}
    return found


@pytest.mark.parametrize("part", PARTS, ids=lambda path: path.stem)
def test_no_part_imports_core_or_takes_the_whole_table(part):
    tree = parsed(part)
    assert "core" not in table_modules_imported(tree), f"{part.name} imports core"
    whole = [
        f"{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.arg) and "Table" in names_in(node.annotation)
    ]
    assert whole == [], f"{part.name} takes the whole Table; give it a port of what it uses"


def test_the_arrows_between_the_table_s_modules_point_one_way():
    """No circle: following imports from any module of table/ never leads back to it."""
    graph = {path.stem: table_modules_imported(parsed(path)) for path in TABLE.glob("*.py")}
    graph["__init__"] = set()  # the package's face re-exports; nothing inside imports it

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for step in graph[start] - seen:
            if step == goal or reaches(step, goal, seen | {step}):
                return True
        return False

    circles = sorted(name for name in graph if reaches(name, name, set()))
    assert circles == [], f"these modules of table/ import each other around: {circles}"


# ---- ports: narrow, and handing out no mutable part ---------------------------------------


def classes() -> dict[str, tuple[Path, ast.ClassDef]]:
    return {
        node.name: (path, node)
        for path in product_files()
        for node in parsed(path).body
        if isinstance(node, ast.ClassDef)
    }


def is_protocol(node: ast.ClassDef) -> bool:
    return any(ast.unparse(base) in ("Protocol", "typing.Protocol") for base in node.bases)


def port_members(name: str, known: dict[str, tuple[Path, ast.ClassDef]]) -> set[str]:
    """A Protocol's members, with those of the Protocols it combines (its facets)."""
    _, node = known[name]
    members = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
    members |= {
        item.target.id
        for item in node.body
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
    }
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in known and is_protocol(known[base.id][1]):
            members |= port_members(base.id, known)
    return members


def changes_itself(node: ast.ClassDef) -> bool:
    """True for a class whose instances change after they are made: a method other than
    `__init__` stores into `self` (a field, an item) or calls a mutating method on a field."""
    mutating = {"append", "pop", "clear", "update", "add", "remove", "extend", "insert"}
    for method in node.body:
        if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if method.name in ("__init__", "__post_init__"):
            continue
        for child in ast.walk(method):
            target = child.value if isinstance(child, ast.Subscript) else child
            stored = isinstance(child, ast.Attribute | ast.Subscript) and isinstance(
                child.ctx, ast.Store
            )
            if stored and holds_self(target):
                return True
            call = isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
            if call and child.func.attr in mutating and holds_self(child.func.value):
                return True
    return False


def holds_self(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


# The game is the referee's value: the table never changes it in place (every event is applied
# to a copy, which replaces it: `Referee.submit`), so a part that reads it reads a value.
# `test_a_game_is_changed_only_on_a_copy_of_it` checks that promise.
VALUES = {"Game"}


def mutable_parts(known: dict[str, tuple[Path, ast.ClassDef]]) -> set[str]:
    return {name for name, (_, node) in known.items() if changes_itself(node)} - VALUES


def protocols() -> list[str]:
    """The package's protocols (drivers' mirror the libraries' own devices: luma's, bleak's)."""
    known = classes()
    package = ROOT / "firmware_py"
    found = [name for name, (path, node) in known.items() if package in path.parents]
    return sorted(name for name in found if is_protocol(known[name][1]))


@pytest.mark.parametrize("protocol", protocols())
def test_a_protocol_is_narrow(protocol):
    """A protocol (a port of the table, a door, an output) lists a handful of members, its
    facets included: what depends on it can be read, faked and changed in one sitting."""
    members = port_members(protocol, classes())
    assert len(members) <= MAX_PORT, f"{protocol} has {len(members)} members: {sorted(members)}"


@pytest.mark.parametrize("port", [name for name in protocols() if name.endswith("Table")])
def test_a_port_hands_out_no_mutable_part(port):
    """A port (`...Table`: what a part or a door is handed of the table) hands out values
    only: a part that could change another part's state through the table (`table.applied
    .remember_all`, `table.button_menu.close()`) would change the table without core knowing."""
    known = classes()
    parts = mutable_parts(known)
    path, node = known[port]
    handed = [
        f"{relative(path)}:{item.lineno}: {item.name} hands out {sorted(names & parts)}"
        for item in node.body
        if isinstance(item, ast.FunctionDef)
        if (names := names_in(item.returns)) & parts
    ]
    assert handed == [], "\n".join(handed)


def test_the_mutable_parts_are_found():
    """The check above knows a part when it sees one (the rule would pass on nothing)."""
    parts = mutable_parts(classes())
    assert {"ButtonMenu", "LuckyStep", "StorageGuard", "AppliedRequests", "Seating"} <= parts
    assert {"TableView", "SeatSpec", "TableSettings"}.isdisjoint(parts)


HOLDERS = ("app", "seats", "show", "table")  # the stages the table's game passes through


@pytest.mark.parametrize(
    "path", [p for p in product_files() if stage_of(module_name(p)) in HOLDERS], ids=relative
)
def test_a_game_is_changed_only_on_a_copy_of_it(path):
    """Where the table's game is handed round (the table, its doors and outputs, the
    commands), `apply` is called only on a copy made in the same function: nothing changes
    the game the table shows. (The engine, the players' search and the journal's replay apply
    events to games of their own.)"""
    wrong = []
    for function in ast.walk(parsed(path)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        copies = {
            target.id
            for node in ast.walk(function)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
            if isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "copy"
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                on = node.func.value
                if node.func.attr == "apply" and not (isinstance(on, ast.Name) and on.id in copies):
                    wrong.append(f"{relative(path)}:{node.lineno}: {ast.unparse(node)}")
    assert wrong == [], "\n".join(wrong)


# ---- sizes ----------------------------------------------------------------------------------


def too_long() -> list[str]:
    found = []
    for path in source_files():
        for node in ast.walk(parsed(path)):
            lines = getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1
            where = f"{relative(path)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.ClassDef) and lines > MAX_CLASS:
                found.append(f"{where}: class {node.name} is {lines} lines")
            function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            excused = function and (relative(path), node.name) in LONG_ON_PURPOSE
            if function and lines > MAX_FUNCTION and not excused:
                found.append(f"{where}: {node.name} is {lines} lines")
    return found


def test_no_class_or_function_grows_past_what_one_reader_holds():
    """Classes of at most 300 lines, functions of at most 60 (a data table is not a
    function); a longer one is split by job, or named in LONG_ON_PURPOSE with the figure that
    shows splitting it costs speed."""
    assert too_long() == [], "\n".join(too_long())


def test_no_two_classes_of_the_package_share_a_name():
    """One name, one thing: two `Refused`, two `_Checker`s or two `Referee`s in the package
    make a reader (and an import) take one for the other. The pad firmware is a program of
    its own (its boards are one interface on two boards, on purpose)."""
    pad_firmware = ROOT / "firmware_py" / "pad"
    seen: dict[str, str] = {}
    twice = []
    for path in product_files():
        for node in parsed(path).body:
            if not isinstance(node, ast.ClassDef) or path.parent == pad_firmware:
                continue
            if node.name in seen:
                twice.append(f"{node.name}: {seen[node.name]} and {relative(path)}")
            seen.setdefault(node.name, relative(path))
    assert twice == [], "\n".join(twice)
