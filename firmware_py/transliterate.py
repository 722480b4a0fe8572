"""Letters of any script in Latin letters, for screens whose font lacks them: the tower's
displays (for the scripts its Unicode font does not cover) and the pads (whose framebuf font is
ASCII). anyascii (ISC licence) transliterates; the first letter of a word from a script without
capitals is capitalised, so محمد reads "Mhmd", สมชาย "Smchay", राहुल "Rahul"."""

from __future__ import annotations

import unicodedata


def latin_letters(char: str, word_start: bool) -> str | None:
    """`char` (a letter or a vowel sign) in Latin letters ("" for a mark with no sound of its
    own, a virama); None for anything else (an emoji, a symbol)."""
    kind = unicodedata.category(char)[0]
    if kind not in "LM":
        return None
    from anyascii import anyascii  # only when such a name comes: start-up stays quick

    latin = anyascii(char)
    if not latin:
        return "" if kind == "M" else None
    if not latin.isalpha():
        return None
    if word_start and kind == "L" and not char.isupper():
        latin = latin[:1].upper() + latin[1:]
    return latin


def symbol_letters(char: str) -> str | None:
    """A symbol as a Latin stand-in: its ASCII look-alike (★ as "*", © as "(C)"); "" for an
    emoji, left out (its short name, ":game_die:", took a name's room on a 128-pixel display
    and read as words of its own); None for anything else."""
    if unicodedata.category(char)[0] != "S":
        return None
    from anyascii import anyascii

    latin = anyascii(char)
    if len(latin) > 2 and latin[0] == latin[-1] == ":":
        return ""  # anyascii names an emoji between colons
    return latin if latin and latin.isascii() and latin.isprintable() else None


def joined(glyphs: list[str | None]) -> str:
    """Drawn glyphs as one string; None stands for a symbol left out, which takes one space
    beside it along ("Mia 🎲" is "Mia", "🎲 Mia" too)."""
    shown: list[str] = []
    eat_space = False  # a symbol left out just before: the space after it goes too
    for glyph in glyphs:
        if glyph is None:
            eat_space = not (shown and shown[-1] == " ")
            shown = shown if eat_space else shown[:-1]
        elif glyph:
            if not (eat_space and glyph == " "):
                shown.append(glyph)
            eat_space = False
    return "".join(shown)


def ascii_words(words: str) -> str:
    """`words` in ASCII: Latin letters kept, other scripts' letters transliterated, symbols as
    their ASCII look-alikes, an emoji left out, anything else as "?"; for the pads' 8x8
    font."""
    if words.isascii():
        return words
    shown: list[str | None] = []
    word_start = True
    for char in unicodedata.normalize("NFC", words):
        glyph = char if char.isascii() else _ascii_glyph(char, word_start)
        shown.append(glyph or None if unicodedata.category(char)[0] == "S" else glyph)
        word_start = not glyph[-1:].isalnum() if glyph else word_start
    return joined(shown)


def _ascii_glyph(char: str, word_start: bool) -> str:
    """One character other than ASCII in ASCII: its plain letter (ü as u, keeping its case),
    else transliterated, else "" for an emoji, else "?"."""
    base = unicodedata.normalize("NFKD", char)[:1]
    if base.isascii() and base.isalpha():
        return base
    latin = latin_letters(char, word_start)
    latin = symbol_letters(char) if latin is None else latin
    return "?" if latin is None else latin
