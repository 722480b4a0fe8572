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
    """A symbol (an emoji, a star) as a Latin stand-in: its short name between colons
    (😀 as ":grinning:", as chat programs write them) or its ASCII look-alike (★ as "*");
    None when it has neither."""
    if unicodedata.category(char)[0] != "S":
        return None
    from anyascii import anyascii

    latin = anyascii(char)
    return latin if latin and latin.isascii() and latin.isprintable() else None


def ascii_words(words: str) -> str:
    """`words` in ASCII: Latin letters kept, other scripts' letters transliterated, anything
    else (an emoji) as "?"; for the pads' 8x8 font."""
    if words.isascii():
        return words
    shown: list[str] = []
    word_start = True
    for char in unicodedata.normalize("NFC", words):
        if char.isascii():
            glyph = char
        else:
            base = unicodedata.normalize("NFKD", char)[:1]
            if base.isascii() and base.isalpha():
                glyph = base  # ü as u, keeping its case
            else:
                latin = latin_letters(char, word_start)
                latin = symbol_letters(char) if latin is None else latin
                glyph = "?" if latin is None else latin
        shown.append(glyph)
        word_start = not glyph[-1:].isalnum() if glyph else word_start
    return "".join(shown)
