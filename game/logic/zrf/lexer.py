"""ZRF text to nested lists: the same :class:`~game.logic.rules.sexpr.Atom` and
:class:`~game.logic.rules.sexpr.Form` items as the engine's own descriptions, each knowing its
line and column in the ``.zrf`` file.

ZRF files are looser than the engine's own language: they come as UTF-8 or Windows-1252 with
either line end, their strings may run over several lines and hold tabs, and their words may
be long. What no text may hold (control and bidirectional characters) is read as a space.

>>> [str(item) for item in read_zrf('(game (title "A\\n b") (players White Black))', "t.zrf")]
['(game (title "A b") (players White Black))']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from game.logic.rules.sexpr import DescriptionError, Item, nest, number_or_word

__all__ = ["MAX_ZRF_CHARS", "decode", "read_zrf"]

#: The longest ZRF file read, in characters (the largest known is about 120,000).
MAX_ZRF_CHARS: Final = 2_000_000
#: The deepest nesting read.
MAX_DEPTH: Final = 96
_SPACE: Final = re.compile(r"\s+")


def decode(data: bytes) -> str:
    """The text of a ZRF file's bytes: UTF-8 when they are, else Windows-1252 (as the files
    of the 1990s were written), with line ends made ``\\n``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_zrf(text: str, source: str) -> list[Item]:
    """Every top-level item of ``text``; raises DescriptionError at an unclosed string or a
    stray ``)``. Lists still open at the end of the file are closed there, as Zillions reads
    them (a published file lacks its last parenthesis)."""
    if len(text) > MAX_ZRF_CHARS:
        raise DescriptionError(f"longer than {MAX_ZRF_CHARS} characters", source)
    return nest(_tokens(text, source), source, MAX_DEPTH, close_at_end=True)


def _tokens(text: str, source: str) -> Iterator[tuple[str, str | int, int, int]]:
    i, line, start_of_line, n = 0, 1, 0, len(text)
    if text.startswith("\ufeff"):
        i = start_of_line = 1
    while i < n:
        ch = text[i]
        column = i - start_of_line + 1
        if ch == "\n":
            line += 1
            start_of_line = i + 1
            i += 1
        elif ch.isspace() or not ch.isprintable():
            i += 1
        elif ch == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif ch in "()":
            yield ch, ch, line, column
            i += 1
        elif ch == '"':
            j = text.find('"', i + 1)
            if j < 0:
                raise DescriptionError("this string is never closed", source, line, column)
            inside = text[i + 1 : j]
            yield "str", _clean(inside), line, column
            newlines = inside.count("\n")
            if newlines:
                line += newlines
                start_of_line = i + 1 + inside.rfind("\n") + 1
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '();"':
                j += 1
            yield "word", number_or_word(_clean(text[i:j])), line, column
            i = j


def _clean(text: str) -> str:
    """Text with every run of spaces, line ends and characters that do not show made one
    space (what shows of a string is the same; nothing in it acts on a terminal)."""
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else " " for ch in text)
    return _SPACE.sub(" ", text).strip()
