"""Score sheets: one data file per variant, loaded and validated here."""

from .loader import (
    SheetError,
    load_sheet,
    load_sheet_file,
    parse_sheet,
    sheet_names,
    sheets_that_load,
)
from .model import COLOURS, ROW_NAMES, BonusRow, Pad, Reward, Row, Sheet

__all__ = [
    "COLOURS",
    "ROW_NAMES",
    "BonusRow",
    "Pad",
    "Reward",
    "Row",
    "Sheet",
    "SheetError",
    "load_sheet",
    "load_sheet_file",
    "parse_sheet",
    "sheet_names",
    "sheets_that_load",
]
