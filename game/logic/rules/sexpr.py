"""The reader of the description language: text to nested lists, each item knowing its line and
column.

A description is data: parenthesised lists of words, whole numbers and double-quoted strings,
with ``;`` starting a comment that runs to the end of the line. Nothing in it is evaluated as
Python; :mod:`game.logic.rules.design` gives the words their meaning.

>>> form = read("(board (grid 3 3))", "t.txt")[0]
>>> form.head, form[1].head, [item.value for item in form[1].items[1:]]
('board', 'grid', [3, 3])
>>> read("(a", "t.txt")
Traceback (most recent call last):
...
game.logic.rules.sexpr.DescriptionError: t.txt:1:1: this '(' is never closed
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final, TypeAlias

__all__ = [
    "Atom",
    "DescriptionError",
    "Form",
    "Item",
    "character_name",
    "digest",
    "nest",
    "number_or_word",
    "read",
]

#: The deepest nesting a description may use: deeper text is refused, not a recursion error.
MAX_DEPTH: Final = 64
#: The longest description read, in characters.
MAX_CHARS: Final = 1_000_000
#: The longest word (a name: of a player, a piece, a position, a macro), in characters.
MAX_WORD: Final = 64
#: The format characters quoted text may hold, as emoji sequences and some scripts need
#: them: U+200C ZERO WIDTH NON-JOINER and U+200D ZERO WIDTH JOINER. Every other character that
#: is not printable (controls, other format characters such as the bidirectional overrides
#: and isolates, surrogates, private use, unassigned, line and paragraph separators) is
#: refused in text and in words; a word also refuses every space but the plain one.
TEXT_JOINERS: Final = frozenset("\u200c\u200d")
_UNNAMED: Final = {"Cc": "(a control character)", "Co": "(private use)", "Cs": "(a surrogate)"}


class DescriptionError(ValueError):
    """A description that cannot be read or does not make a game; the message starts with
    ``file:line:column:``."""

    def __init__(self, message: str, source: str = "", line: int = 0, column: int = 0) -> None:
        self.source, self.line, self.column, self.reason = source, line, column, message
        where = f"{source}:{line}:{column}: " if line else (f"{source}: " if source else "")
        super().__init__(where + message)


@dataclass(frozen=True, slots=True)
class Atom:
    """A word (``str``), a whole number (``int``) or a quoted string (``str``, ``quoted``)."""

    value: str | int
    line: int
    column: int
    source: str
    quoted: bool = False

    def __str__(self) -> str:
        return f'"{self.value}"' if self.quoted else str(self.value)

    def error(self, message: str) -> DescriptionError:
        return DescriptionError(message, self.source, self.line, self.column)


@dataclass(frozen=True, slots=True)
class Form:
    """A parenthesised list; ``head`` is its first word ("" when it starts otherwise)."""

    items: tuple[Item, ...]
    line: int
    column: int
    source: str
    closed_at: tuple[int, int] = field(default=(0, 0), compare=False)

    @property
    def head(self) -> str:
        if self.items and isinstance(self.items[0], Atom) and not self.items[0].quoted:
            return str(self.items[0].value)
        return ""

    @property
    def args(self) -> tuple[Item, ...]:
        return self.items[1:]

    def __getitem__(self, index: int) -> Item:
        return self.items[index]

    def __len__(self) -> int:
        return len(self.items)

    def __str__(self) -> str:
        return "(" + " ".join(str(item) for item in self.items) + ")"

    def error(self, message: str) -> DescriptionError:
        return DescriptionError(message, self.source, self.line, self.column)


Item: TypeAlias = Atom | Form


def read(text: str, source: str = "<description>") -> list[Item]:
    """Every top-level item of ``text``; raises :class:`DescriptionError` at the first
    character that does not belong (an unclosed list, a stray ')', an unclosed string)."""
    if len(text) > MAX_CHARS:
        raise DescriptionError(f"longer than {MAX_CHARS} characters", source)
    return nest(_tokens(text, source), source, MAX_DEPTH)


def digest(items: list[Item]) -> str:
    """A digest (hexadecimal sha256) of ``items`` as text, positions left out: the same for the
    same forms however they were laid out.

    >>> digest(read("(game x)  (title  x)")) == digest(read("(game x)\\n(title x)"))
    True
    """
    return hashlib.sha256("\n".join(str(item) for item in items).encode()).hexdigest()


def nest(
    tokens: Iterator[tuple[str, str | int, int, int]],
    source: str,
    max_depth: int,
    close_at_end: bool = False,
) -> list[Item]:
    """The items ``tokens`` (kind ``(``, ``)``, ``word`` or ``str``, value, line, column)
    make; a list still open at the end is refused, or with ``close_at_end`` closed there."""
    stack: list[tuple[list[Item], int, int]] = []
    top: list[Item] = []
    current = top
    for kind, value, line, column in tokens:
        if kind == "(":
            if len(stack) >= max_depth:
                raise DescriptionError(
                    f"nested deeper than {max_depth} lists", source, line, column
                )
            stack.append((current, line, column))
            current = []
        elif kind == ")":
            if not stack:
                raise DescriptionError("this ')' closes nothing", source, line, column)
            parent, oline, ocol = stack.pop()
            parent.append(Form(tuple(current), oline, ocol, source, (line, column)))
            current = parent
        else:
            current.append(Atom(value, line, column, source, quoted=kind == "str"))
    if stack and not close_at_end:
        _, line, column = stack[-1]
        raise DescriptionError("this '(' is never closed", source, line, column)
    while stack:
        parent, oline, ocol = stack.pop()
        parent.append(Form(tuple(current), oline, ocol, source))
        current = parent
    return top


def _tokens(text: str, source: str) -> Iterator[tuple[str, str | int, int, int]]:
    i, line, start_of_line, n = 0, 1, 0, len(text)
    if text.startswith("\ufeff"):  # the byte order mark some editors write: not a character
        i = start_of_line = 1
    while i < n:
        ch = text[i]
        column = i - start_of_line + 1
        if ch == "\n":
            line += 1
            start_of_line = i + 1
            i += 1
        elif ch in " \t\r\f":
            i += 1
        elif ch == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif ch in "()":
            yield ch, ch, line, column
            i += 1
        elif ch == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 1
            if j >= n or text[j] != '"':
                raise DescriptionError("this string is never closed", source, line, column)
            _refuse_characters(text, i + 1, j, start_of_line, source, line, quoted=True)
            yield "str", text[i + 1 : j], line, column
            i = j + 1
        else:
            j = i
            while j < n and text[j] not in ' \t\r\f\n();"':
                j += 1
            if j - i > MAX_WORD:  # a name is shown whole: in messages, on buttons
                raise DescriptionError(
                    f"a word of {j - i} characters; at most {MAX_WORD}", source, line, column
                )
            _refuse_characters(text, i, j, start_of_line, source, line, quoted=False)
            yield "word", number_or_word(text[i:j]), line, column
            i = j


def _refuse_characters(
    text: str, start: int, end: int, start_of_line: int, source: str, line: int, quoted: bool
) -> None:
    """Raise at the first character of ``text[start:end]`` (a word, or a quoted string's
    inside) that a description may not hold there, naming it by code point and name at its
    own column (code points counted from the start of the line)."""
    piece = text[start:end]
    if piece.isprintable():  # the usual case, at C speed
        return
    for k, ch in enumerate(piece):
        if ch.isprintable() or (quoted and (ch in TEXT_JOINERS or _category(ch) == "Zs")):
            continue
        where = "in text" if quoted else "in a word"
        raise DescriptionError(
            f"the character {character_name(ch)} is not allowed {where} "
            "(control, format and bidirectional characters are refused)",
            source,
            line,
            start + k - start_of_line + 1,
        )


def character_name(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: a character named without writing it (a control
    or bidirectional character written into a message would act on the terminal).

    >>> character_name("\\u202e"), character_name("\\x00"), character_name("\\U000f0000")
    ('U+202E RIGHT-TO-LEFT OVERRIDE', 'U+0000 (a control character)', 'U+F0000 (private use)')
    """
    name = unicodedata.name(ch, "")
    if not name:
        name = _UNNAMED.get(_category(ch), "(unassigned)")
    return f"U+{ord(ch):04X} {name}"


def _category(ch: str) -> str:
    return unicodedata.category(ch)


def number_or_word(word: str) -> str | int:
    """A whole number of at most nine digits (a sign allowed) as an int, else the word."""
    body = word[1:] if word[:1] in "+-" and len(word) > 1 else word
    if body.isdigit() and body.isascii() and len(body) <= 9:
        return int(word)
    return word
