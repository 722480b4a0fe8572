"""The league's tables in its file, as the league's own CREATE statements make them: checked at
the start, before any is made or read. SQLite's integrity_check reads pages, not meaning: a
column dropped, added or renamed (by hand, or through `PRAGMA writable_schema`), a table turned
into a view, a trigger or a unique index put on one, all pass it, and the league then failed
later in the evening (a page, a result from the bus: "no such column", "table games has 7
columns but 8 values were supplied"). What the file holds is compared with what the statements
make in an empty database in memory, so the schema is written once (`store.TABLES`).

A table missing is what an older league's file looks like (tables were added over the
versions): it is made, as are indexes missing (they follow from their table). Only a file
stamped as made with today's tables (its application_id) has lost one it lacks.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Sequence
from contextlib import closing

Objects = dict[str, tuple[str, str]]  # name: (table, view, index or trigger; the table it is on)
Row = tuple[object, ...]  # of a PRAGMA


class Model:
    """What `scripts` (CREATE ... IF NOT EXISTS) make: an empty database in memory."""

    def __init__(self, scripts: Sequence[str]) -> None:
        self.db = sqlite3.connect(":memory:")
        for script in scripts:
            self.db.executescript(script)
        self.objects = _objects(self.db)
        self.tables = sorted(name for name, (kind, _) in self.objects.items() if kind == "table")
        self.stamp = zlib.crc32(" ".join(self.tables).encode()) & 0x7FFFFFFF  # (never 0)

    def close(self) -> None:
        self.db.close()


def make_tables(db: sqlite3.Connection, scripts: Sequence[str]) -> None:
    """The league's tables made in `db` where missing, once what it holds of them is as
    `scripts` make it; sqlite3.DatabaseError saying what is not (the file is damaged)."""
    with closing(Model(scripts)) as model:
        why = unlike(db, model)
        if why is not None:
            raise sqlite3.DatabaseError(why)
        for script in scripts:
            db.executescript(script)
        if _stamp(db) != model.stamp:
            db.execute(f"PRAGMA application_id = {model.stamp}")


def unlike(db: sqlite3.Connection, model: Model) -> str | None:
    """What `db` holds of the league's tables that is not as `model` has them (None: all is),
    in a few words."""
    found = _objects(db)
    lost = [table for table in model.tables if table not in found]
    if lost and _stamp(db) == model.stamp:
        return f"table {lost[0]} is missing"
    for table in model.tables:
        why = _table_unlike(db, model, table, found) if table in found else None
        if why is not None:
            return why
    return _indexes_unlike(db, model, found)


def _table_unlike(db: sqlite3.Connection, model: Model, table: str, found: Objects) -> str | None:
    kind = found[table][0]
    if kind != "table":
        return f"{table} is a {kind}, not the league's table"
    ours, theirs = _columns(model.db, table), _columns(db, table)
    if theirs != ours:
        return _columns_unlike(table, ours, theirs)
    return _added_on(db, model, table, found)


def _columns_unlike(table: str, ours: list[Row], theirs: list[Row]) -> str:
    """The first difference: a column missing, one more, or one changed (its type, its place,
    its part in the key)."""
    names, found = [column[0] for column in ours], [column[0] for column in theirs]
    missing = [name for name in names if name not in found]
    if missing:
        return f"table {table} lacks the column {missing[0]}"
    more = [name for name in found if name not in names]
    if more:
        return f"table {table} has a column {more[0]} the league does not write"
    changed = next(mine[0] for mine, other in zip(ours, theirs, strict=True) if mine != other)
    return f"the column {changed} of table {table} is not as the league makes it"


def _added_on(db: sqlite3.Connection, model: Model, table: str, found: Objects) -> str | None:
    """What was put on the table that can change or refuse the league's writes: a trigger, a
    unique index (another index is only someone's faster query, and harmless)."""
    for name, (kind, on) in found.items():
        if on != table or name in model.objects:
            continue
        if kind == "trigger" or (kind == "index" and _index(db, table, name)[0][0]):
            what = "a trigger" if kind == "trigger" else "a unique index"
            return f"table {table} has {what} {name} the league does not make"
    return None


def _indexes_unlike(db: sqlite3.Connection, model: Model, found: Objects) -> str | None:
    for name, (kind, table) in model.objects.items():
        if kind != "index" or name not in found:
            continue
        if found[name] != (kind, table) or _index(db, table, name) != _index(model.db, table, name):
            return f"index {name} is not as the league makes it"
    return None


def _objects(db: sqlite3.Connection) -> Objects:
    rows = db.execute("SELECT lower(name), type, lower(tbl_name) FROM sqlite_master")
    return {name: (kind, table) for name, kind, table in rows}


def _columns(db: sqlite3.Connection, table: str) -> list[Row]:
    """Each column: its name, type, NOT NULL, default, place in the key, hidden."""
    return db.execute(
        'SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?)', (table,)
    ).fetchall()


def _index(db: sqlite3.Connection, table: str, name: str) -> tuple[Row, list[Row]]:
    """Whether it is unique and partial, and its columns in order (with their collation)."""
    listed = db.execute(
        'SELECT "unique", partial FROM pragma_index_list(?) WHERE lower(name) = ?', (table, name)
    ).fetchone()
    columns = db.execute("SELECT * FROM pragma_index_xinfo(?)", (name,)).fetchall()
    return tuple(listed or (0, 0)), columns


def _stamp(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA application_id").fetchone()[0])
