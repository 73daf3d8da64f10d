"""The small readers every part of a description uses: a form's arguments, a word, a
whole number, a string, a colour; each refuses what it cannot read with a
:class:`~game.logic.rules.sexpr.DescriptionError` at the item's line and column. Also the
words the move programs reserve."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item

if TYPE_CHECKING:
    from game.logic.rules.board import Board

__all__ = [
    "RESERVED",
    "ReaderPart",
    "arg",
    "colour_of",
    "distinct",
    "err",
    "hand_count",
    "heading_of",
    "mentions",
    "real_number",
    "shown",
    "substitute",
    "text_of",
    "text_or_word",
    "whole_number",
    "word_of",
]

#: The longest title or family, in characters.
MAX_HEADING: Final = 80

#: Words a move program gives a meaning of its own: no direction may take one as its name.
RESERVED: Final = frozenset(
    {
        "add", "capture", "flip", "mark", "back", "set-flag", "again", "dir", "verify", "if",
        "else", "while", "one-of", "do", "anywhere", "sweep", "promote", "change-type",
        "set-attr", "clear-attr", "cascade", "add-partial", "sow", "take-to", "move", "goto",
        "repeat", "sow-skip", "rotate", "die", "repelled", "set-number", "add-number",
        "set-tally", "add-tally", "from", "to", "relay", "add-copy", "go", "put",
    }
)  # fmt: skip


def err(item: Item, message: str) -> DescriptionError:
    return item.error(message)


def arg(form: Form, least: int, most: int) -> tuple[Item, ...]:
    args = form.args
    if not least <= len(args) <= most:
        want = str(least) if least == most else f"{least} to {most}"
        raise form.error(f"({form.head} ...) takes {want} arguments, not {len(args)}")
    return args


def form_args(form: Form, arities: Mapping[str, tuple[int, int]], what: str) -> tuple[Item, ...]:
    """The arguments of ``form``, whose head ``arities`` gives the (least, most) arguments of;
    another head is refused as an unknown ``what``."""
    if form.head not in arities:
        raise form.error(f"unknown {what} ({form.head} ...)")
    return arg(form, *arities[form.head])


def word_of(item: Item) -> str:
    if not isinstance(item, Atom) or item.quoted or not isinstance(item.value, str):
        raise err(item, f"expected a word here, not {shown(item)}")
    return item.value


def shown(item: Item) -> str:
    """A short quote of ``item`` for a message."""
    text = str(item)
    return text if len(text) <= 24 else text[:21] + "..."


def text_of(item: Item) -> str:
    if not isinstance(item, Atom) or not item.quoted:
        raise err(item, 'expected a "quoted string"')
    return str(item.value)


def heading_of(item: Item, what: str) -> str:
    """A title or a family (``what``): text that shows whole on a card or a heading, so
    neither empty nor longer than :data:`MAX_HEADING` characters."""
    text = text_of(item)
    if not text.strip():
        raise err(item, f"the {what} is empty")
    if len(text) > MAX_HEADING:
        raise err(item, f"a {what} of {len(text)} characters; at most {MAX_HEADING}")
    return text


def text_or_word(item: Item) -> str:
    if not isinstance(item, Atom):
        raise err(item, "expected a word or a number")
    return str(item.value)


def whole_number(item: Item, low: int, high: int) -> int:
    if not isinstance(item, Atom) or item.quoted or not isinstance(item.value, int):
        raise err(item, "expected a whole number")
    if not low <= item.value <= high:
        raise err(item, f"expected a number from {low} to {high}, not {item.value}")
    return item.value


def hand_count(item: Item) -> int:
    """A hand's count in ``(in-hand PIECE COUNT)``: 0 to 1000, or ``unlimited`` (-1)."""
    if isinstance(item, Atom) and not item.quoted and item.value == "unlimited":
        return -1
    return whole_number(item, 0, 1000)


def real_number(item: Item) -> float:
    if isinstance(item, Atom) and isinstance(item.value, int):
        return float(item.value)
    if isinstance(item, Atom) and not item.quoted:
        try:
            value = float(str(item.value))
        except ValueError:
            pass
        else:
            if abs(value) < 1e4:
                return value
    raise err(item, "expected a number")


def colour_of(item: Item) -> tuple[float, float, float]:
    text = text_of(item)
    if len(text) != 7 or text[0] != "#":
        raise err(item, 'a colour is "#rrggbb"')
    try:
        return tuple(int(text[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
    except ValueError:
        raise err(item, 'a colour is "#rrggbb"') from None


def distinct(items: Sequence[Item], what: str) -> None:
    seen: set[object] = set()
    for item in items:
        value = item.value if isinstance(item, Atom) else str(item)
        if value in seen:
            raise err(item, f"{what} {value!r} is given twice")
        seen.add(value)


def substitute(item: Item, env: dict[str, Item]) -> Item:
    if not env:
        return item
    if isinstance(item, Atom):
        if not item.quoted and isinstance(item.value, str) and item.value in env:
            return env[item.value]
        return item
    return Form(tuple(substitute(i, env) for i in item.items), item.line, item.column, item.source)


def mentions(items: Iterable[Item], head: str) -> bool:
    for item in items:
        if isinstance(item, Form) and (item.head == head or mentions(item.items, head)):
            return True
    return False


class ReaderPart:
    """What each part of the description's reader (:mod:`game.logic.rules.design`: the move
    programs, the rules, the ends) reads through: the description's forms by head, and the
    piece types and zones a form may name, which the description's reader fills in."""

    source: str
    forms: dict[str, list[Form]]
    type_names: list[str]
    board: Board

    def one(self, head: str, required: bool = True) -> Form | None:
        """The ``(head ...)`` form (None where there is none and it is not ``required``)."""
        forms = self.forms.get(head)
        if not forms:
            if required:
                raise DescriptionError(f"the description has no ({head} ...)", self.source)
            return None
        return forms[0]

    def _type_name(self, item: Item) -> str:
        name = word_of(item)
        if name not in self.type_names:
            raise err(item, f"no piece type {name!r}; the types: {', '.join(self.type_names)}")
        return name

    def _zone_name(self, item: Item) -> str:
        name = word_of(item)
        if name not in self.board.zones:
            zones = ", ".join(self.board.zones) or "none"
            raise err(item, f"no zone {name!r}; the zones: {zones}")
        return name
