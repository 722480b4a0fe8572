"""Every exception of the tower's own code derives from one base and says in one line what it is.

The exceptions are found by reading the source, so one added later is held to this too, even in
the pad firmware's modules, which CPython cannot import. `firmware_py` and `sheets` share
`TowerError` (firmware_py/errors.py); the drivers, a package below them, have `DriverError`.
A class is an exception when one of its bases, followed through the classes of these packages
and the names a module binds (`import X as Y`, `Y = X`), is a built-in exception.
"""

from __future__ import annotations

import ast
import builtins
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.paths import ROOT

BUILT_IN = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
PACKAGES = [(("firmware_py", "sheets"), "TowerError"), (("drivers",), "DriverError")]


@dataclass(frozen=True)
class ClassSource:
    """A class as its source defines it: where, its docstring, and the names of its bases, each
    base a tuple of what the name may stand for in its module."""

    name: str
    where: str  # path:line
    path: Path
    docstring: str | None
    bases: tuple[frozenset[str], ...]


def bound_names(tree: ast.Module) -> dict[str, set[str]]:
    """What each name a module binds to another stands for: `from m import X as Y` and `Y = X`
    (in any branch) make Y stand for X."""
    names: dict[str, set[str]] = defaultdict(set)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname].add(alias.name.rsplit(".", 1)[-1])
        elif isinstance(node, ast.Assign) and isinstance(node.value, (ast.Name, ast.Attribute)):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id].add(last_name(node.value))
    return names


def last_name(node: ast.expr) -> str:
    """`ValueError` for `ValueError`, `BadFrame` for `protocol.BadFrame`."""
    return node.attr if isinstance(node, ast.Attribute) else ast.unparse(node)


def classes_in(root: Path, folders: tuple[str, ...]) -> list[ClassSource]:
    found = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            names = bound_names(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    bases = tuple(
                        frozenset({last_name(base), *names.get(last_name(base), ())})
                        for base in node.bases
                    )
                    where = f"{path.relative_to(root)}:{node.lineno}"
                    found.append(
                        ClassSource(node.name, where, path, ast.get_docstring(node), bases)
                    )
    return found


class Family:
    """The classes of some packages, and which of them reach a base."""

    def __init__(self, classes: list[ClassSource]) -> None:
        self.classes = classes
        self.by_name: dict[str, list[ClassSource]] = defaultdict(list)
        for cls in classes:
            self.by_name[cls.name].append(cls)

    def reaches(self, cls: ClassSource, targets: frozenset[str], seen: frozenset = frozenset()):
        """Whether one of `cls`'s bases is, or derives from, one of `targets` (by name). A base
        named like a class of its own module is that class; else every class of that name must
        reach a target."""
        for meanings in cls.bases:
            for name in meanings:
                if name in targets:
                    return True
                same = [c for c in self.by_name.get(name, []) if c.path == cls.path]
                defined = [c for c in same or self.by_name.get(name, []) if c.where not in seen]
                if defined and all(self.reaches(c, targets, seen | {cls.where}) for c in defined):
                    return True
        return False

    def exceptions(self) -> list[ClassSource]:
        return [cls for cls in self.classes if self.reaches(cls, BUILT_IN)]


def without_the_base(family: Family, base: str) -> list[str]:
    return [
        f"{cls.name} ({cls.where})"
        for cls in family.exceptions()
        if cls.name != base and not family.reaches(cls, frozenset({base}))
    ]


def not_said_in_one_line(family: Family) -> list[str]:
    return [
        f"{cls.name} ({cls.where})"
        for cls in family.exceptions()
        if not cls.docstring or "\n" in cls.docstring.strip()
    ]


@pytest.mark.parametrize(("folders", "base"), PACKAGES)
def test_every_exception_derives_from_its_packages_base(folders, base):
    stray = without_the_base(Family(classes_in(ROOT, folders)), base)
    assert not stray, f"derive from {base} (keeping their other bases): {', '.join(stray)}"


@pytest.mark.parametrize(("folders", "base"), PACKAGES)
def test_every_exception_says_what_it_is_in_a_one_line_docstring(folders, base):
    unsaid = not_said_in_one_line(Family(classes_in(ROOT, folders)))
    assert not unsaid, f"give each a docstring of one line: {', '.join(unsaid)}"


@pytest.mark.parametrize(("folders", "base"), PACKAGES)
def test_each_exception_has_a_name_of_its_own(folders, base):
    """One name, one exception: a reader (and this file) can tell which is meant."""
    names = [cls.name for cls in Family(classes_in(ROOT, folders)).exceptions()]
    twice = sorted({name for name in names if names.count(name) > 1})
    assert not twice, f"rename all but one of each: {', '.join(twice)}"


def test_the_exceptions_of_every_stage_are_found():
    """The search is not empty-handed: the known exceptions of each stage are among it, the
    pad protocol's (a base that stands for TowerError on the tower only) too."""
    found = {cls.name for cls in Family(classes_in(ROOT, ("firmware_py", "sheets"))).exceptions()}
    known = {"TowerError", "ConfigError", "LogError", "JournalError", "Refused", "ChoiceNeeded"}
    known |= {"ProtocolError", "BadFrame", "BadMessage", "PageRefused", "SheetError"}
    assert known <= found


def test_an_exception_without_the_base_is_named_with_its_file_and_line(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "errors.py").write_text('class TowerError(Exception):\n    """Base."""\n')
    (package / "a.py").write_text(
        "from pkg.errors import TowerError\n"
        "from pkg import b\n"
        'class Fine(TowerError, ValueError):\n    """Fine."""\n'
        "class Stray(ValueError):\n    pass\n"
        "class Helper:\n    pass\n"
        "class Also(b.Stray2):\n"
        '    """Derives from a stray one.\n\n    In two paragraphs."""\n'
    )
    (package / "b.py").write_text(
        "from pkg.a import Fine as Base\n"
        'class Chained(Base):\n    """Fine through an alias."""\n'
        'class Stray2(LookupError):\n    """Not fine."""\n'
    )
    family = Family(classes_in(tmp_path, ("pkg",)))
    assert {cls.name for cls in family.exceptions()} == {
        "TowerError", "Fine", "Stray", "Also", "Chained", "Stray2"
    }  # fmt: skip
    assert without_the_base(family, "TowerError") == [
        "Stray (pkg/a.py:5)",
        "Also (pkg/a.py:9)",
        "Stray2 (pkg/b.py:4)",
    ]
    assert not_said_in_one_line(family) == ["Stray (pkg/a.py:5)", "Also (pkg/a.py:9)"]
