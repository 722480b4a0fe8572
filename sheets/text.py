"""A sheet as readable text, the way it is printed: rows left to right, locks, score table."""

from __future__ import annotations

import textwrap

from .model import COLOURS, BonusRow, Row, Sheet

_LETTER = {colour: colour[0].upper() for colour in COLOURS}
WIDTH = 80  # an 80x24 terminal: the rules' sentences wrap within it, the rows never do


def sheet_text(sheet: Sheet) -> str:
    """The whole sheet as lines of text, for `qwixx-tower sheets show NAME`."""
    lines = [f"{sheet.title} ({sheet.name})", ""]
    mixed = any(set(row.colours) != {row.lock} for row in sheet.rows)
    for index, row in enumerate(sheet.rows):
        lines.append(_row_line(sheet, row, mixed))
        lines.extend(_bonus_line(b) for b in sheet.bonus_rows if b.between[0] == index)
    if sheet.swaps:
        lines.append(_swaps_line(sheet.swaps))
    lines.append("")
    lines.extend(_wrapped(_rules_lines(sheet, mixed)))
    lines.append("")
    lines.extend(_wrapped([_score_line(sheet)]))
    return "\n".join(lines) + "\n"


def _wrapped(lines: list[str]) -> list[str]:
    """Each sentence within WIDTH columns, its further lines indented under its first word,
    rather than cut mid-word by the terminal."""
    return [part for line in lines
            for part in textwrap.wrap(line, WIDTH - 1, subsequent_indent="  ",
                                      break_long_words=False, break_on_hyphens=False)]  # fmt: skip


def _row_line(sheet: Sheet, row: Row, mixed: bool) -> str:
    cells = []
    for number, colour in zip(row.numbers, row.colours, strict=True):
        cell = f"{number:>2}"
        if mixed:
            cell += _LETTER[colour]
        if number in row.bonus:
            cell += "*"
        if number in row.double:
            cell += "x2"
        cell += "".join(_reward_marks(sheet, row.lock, number))
        cell += _pad_mark(sheet, row, number)
        cells.append(cell)
    width = max(len(c) for c in cells)
    return f"{row.lock:<7}" + " ".join(f"{c:<{width}}" for c in cells).rstrip() + "  [lock]"


def _bonus_line(bonus: BonusRow) -> str:
    """Big Points: a bonus row under the row above it, its round boxes in brackets."""
    boxes = " ".join(f"{n:>2}" for n in bonus.numbers)
    return f"{'bonus':<7}{boxes}  ({bonus.name} bonus row)"


def _swaps_line(swaps: tuple[tuple[int, int], ...]) -> str:
    """X-Change: the swap fields under the rows, left to right, each as its two numbers."""
    fields = " ".join(f"{first}/{second}" for first, second in swaps)
    return f"{'swap':<7}{fields}  (X-Change fields)"


def _reward_marks(sheet: Sheet, lock: str, number: int) -> list[str]:
    """Bonus-b cells carry the first two letters of their symbol (ci, di, sq, oc, st)."""
    row = COLOURS.index(lock)
    position = sheet.rows[row].numbers.index(number)
    return [r.symbol[:2] for r in sheet.rewards if (row, position) in r.cells]


def _rules_lines(sheet: Sheet, mixed: bool) -> list[str]:
    last = "last number" if sheet.lock_numbers == 1 else f"last {sheet.lock_numbers} numbers"
    lines = [
        f"Dice: six d{sheet.dice_faces}. Lock a row with its {last} after at least "
        f"{sheet.lock_threshold} crosses in it; the lock cross counts.",
        f"Penalty: -{sheet.penalty_points} each; the game ends at {sheet.penalties_to_end} "
        f"penalties or {sheet.locks_to_end} locked rows.",
    ]
    if mixed:
        lines.append(
            "Cell colours: R red, Y yellow, G green, B blue; rows are named by their lock."
        )
    if sheet.has_lucky_numbers:
        low, high = sheet.lucky_range
        lines.append(f"Each sheet shows {sheet.lucky_numbers} lucky numbers from {low} to {high}.")
    if sheet.bonus_rows:
        lines.append(
            "Bonus rows: cross a box, left to right, when its number comes up again after a "
            "cell beside it was crossed; it counts for both rows beside it (at most "
            f"{sheet.max_crosses()} crosses a row), not towards a lock."
        )
    if sheet.double_latest:
        lines.append(
            "Double: the number crossed last in a row may be crossed once more when it comes "
            "up again; second crosses count for points and towards a lock."
        )
    if any(row.double for row in sheet.rows):
        lines.append("x2: a cell printed double; one cross there is two, also towards a lock.")
    if sheet.swaps:
        lines.append("X-Change: in action 1, a field holding the white sum crosses its other")
        lines.append("number instead; each field once, left to right; fields score nothing.")
    if sheet.bonus_bar:
        bar = " ".join(_LETTER[c] for c in sheet.bonus_bar)
        lines.append(f"* bonus number: cross the next box of the bonus bar: {bar}")
    lines.extend(_pad_lines(sheet))
    for reward in sheet.rewards:
        cells = " + ".join(f"{COLOURS[r]} {sheet.rows[r].numbers[p]}" for r, p in reward.cells)
        lines.append(f"{reward.symbol[:2]} {reward.symbol:<8} {cells}: {reward.text}")
    return lines


def _pad_lines(sheet: Sheet) -> list[str]:
    """Qwixx Connected: what each pad prints, and which seat plays it."""
    if not sheet.pads:
        return []
    lines = [f"Pads: {', '.join(pad.name for pad in sheet.pads)}; seat 1 plays the first, "
             "seat 2 the next, round again past the last.",
             f"Marks in the rows: pad {sheet.pads[0].name}'s (s: a stair cell; a letter: a "
             "chain's pair)."]  # fmt: skip
    if any(pad.steps for pad in sheet.pads):
        lines.append("Steps: the stair's crossed cells score again on the table, as a fifth row.")
    if sheet.has_links:
        lines.append("Chain: crossing one cell of a pair crosses the other at once, even left")
        lines.append("of the row's crosses or in a locked row.")
    for pad in sheet.pads:
        if pad.steps:
            lines.append(f"pad {pad.name} stair: " + _stair_words(sheet, pad.steps))
        for k, (first, second) in enumerate(pad.links):
            pair = f"{_cell(sheet, first)} - {_cell(sheet, second)}"
            lines.append(f"pad {pad.name} chain {'abcdefgh'[k]}: {pair}")
    return lines


def _stair_words(sheet: Sheet, steps: tuple[tuple[int, int], ...]) -> str:
    """ "red 2 3 4, yellow 5 6 7, ...": the stair's cells row by row, as it runs."""
    runs: list[list[str]] = []
    last = None
    for row, position in steps:
        number = str(sheet.rows[row].numbers[position])
        if row != last:
            runs.append([COLOURS[row]])
            last = row
        runs[-1].append(number)
    return ", ".join(" ".join(run) for run in runs)


def _pad_mark(sheet: Sheet, row: Row, number: int) -> str:
    """Connected: on the first pad, "s" after a stair cell, its pair's letter after a circled
    cell of the chain ("6a": red 6 is joined to the other cell marked a)."""
    if not sheet.pads:
        return ""
    cell = (COLOURS.index(row.lock), row.numbers.index(number))
    pad = sheet.pads[0]
    if cell in pad.steps:
        return "s"
    for k, pair in enumerate(pad.links):
        if cell in pair:
            return "abcdefgh"[k]
    return ""


def _cell(sheet: Sheet, cell: tuple[int, int]) -> str:
    row, position = cell
    return f"{COLOURS[row]} {sheet.rows[row].numbers[position]}"


def _score_line(sheet: Sheet) -> str:
    pairs = [f"{n}x={points}" for n, points in enumerate(sheet.score) if n]
    return "Points: " + " ".join(pairs)
