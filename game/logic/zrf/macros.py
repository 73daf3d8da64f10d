"""ZRF's ``(define NAME BODY...)`` macros: a call ``(NAME ARG...)`` anywhere in a game is
replaced by the body, ``$1``, ``$2``, ... standing for the arguments (also inside a longer
word, ``$1-jump``, and inside quoted text), the result read again for the macros it calls.
Only a list's head calls: the word ``NAME`` alone is a name like any other (a piece named as a
macro is). A ``$N`` the call gives no argument for stays as written.

Also the top-level ``(game ...)`` and ``(variant ...)`` forms, where a variant takes
every form it does not give from the file's (first) game.

>>> from game.logic.zrf.lexer import read_zrf
>>> items = read_zrf("(define two ($1 $1)) (game (moves (two n)))", "t.zrf")
>>> [str(g) for g in games(items)]
['(game (moves (n n)))']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item

__all__ = ["MAX_EXPANSION", "expand", "games", "piece_name", "titles"]

#: The most items one game may grow to as its macros are expanded (a macro that calls itself
#: stops here, or at the depth below, with a message).
MAX_EXPANSION: Final = 400_000
_MAX_DEPTH: Final = 40
_ARG: Final = re.compile(r"\$(\d+)")
#: The forms a variant gives piece by piece (by the name inside): the rest replace the game's.
_BY_NAME: Final = ("piece",)


def games(items: Sequence[Item]) -> list[Form]:
    """Every ``(game ...)`` and ``(variant ...)`` form in file order, macros expanded, each
    variant completed from the file's first ``(game ...)`` (from the first form where there
    is none)."""
    defines: dict[str, tuple[Item, ...]] = {}
    tops: list[Form] = []
    for item in items:
        if isinstance(item, Form) and item.head == "define":
            if len(item) < 2 or not isinstance(item[1], Atom):
                raise item.error("(define NAME BODY...) needs a name")
            defines[str(item[1].value)] = item.items[2:]
        elif isinstance(item, Form) and item.head in ("game", "variant"):
            tops.append(item)
    if not tops:
        where = items[0] if items else None
        raise (where.error if where else DescriptionError)("the file has no (game ...) form")
    budget = [MAX_EXPANSION]
    expanded = [
        Form((t[0], *expand(t.args, defines, 0, budget)), t.line, t.column, t.source) for t in tops
    ]
    # Variants complete from the file's (game ...), even those written before it.
    base = next((t for t in expanded if t.head == "game"), expanded[0])
    return [t if t is base else _completed(t, base) for t in expanded]


def titles(forms: Sequence[Form]) -> list[str]:
    """Each game's ``(title ...)`` (or ``game N`` where it gives none)."""
    out = []
    for i, form in enumerate(forms):
        title = next(
            (
                str(f[1].value)
                for f in form.args
                if isinstance(f, Form)
                and f.head == "title"
                and len(f) > 1
                and isinstance(f[1], Atom)
            ),
            f"game {i}",
        )
        out.append(title)
    return out


def piece_name(piece: Form) -> str:
    """The name a ``(piece ...)`` gives itself (its last ``(name N)``; "" for none)."""
    found = [p[1] for p in piece.args if isinstance(p, Form) and p.head == "name" and len(p) > 1]
    return str(found[-1].value) if found and isinstance(found[-1], Atom) else ""


def _completed(variant: Form, base: Form) -> Form:
    """The variant with every form of the base it does not give (pieces by name)."""
    given_heads = {f.head for f in variant.args if isinstance(f, Form)}
    pieces = [f for f in variant.args if isinstance(f, Form) and f.head == "piece"]
    given_pieces = {piece_name(f) for f in pieces}
    kept: list[Item] = []
    for f in base.args:
        if not isinstance(f, Form):
            continue
        if f.head in _BY_NAME:
            if piece_name(f) not in given_pieces:
                kept.append(f)
        elif f.head not in given_heads:
            kept.append(f)
    items = (variant[0], *kept, *variant.args)
    return Form(items, variant.line, variant.column, variant.source, variant.closed_at)


def expand(
    items: Sequence[Item], defines: dict[str, tuple[Item, ...]], depth: int, budget: list[int]
) -> list[Item]:
    """``items`` with every macro call replaced by its body (``budget[0]``: how many more
    items may be made)."""
    out: list[Item] = []
    for item in items:
        if isinstance(item, Form):
            head = item.head
            if head in defines and head != "define":
                out.extend(_call(item, item.args, defines[head], defines, depth, budget))
            else:
                inner = expand(item.items, defines, depth, budget)
                out.append(Form(tuple(inner), item.line, item.column, item.source, item.closed_at))
        else:
            out.append(item)
    budget[0] -= len(out)
    if budget[0] < 0:
        where = items[0] if items else None
        raise (where.error if where else DescriptionError)(
            f"the macros grow the game past {MAX_EXPANSION} items"
        )
    return out


def _call(
    at: Item,
    args: Sequence[Item],
    body: Sequence[Item],
    defines: dict[str, tuple[Item, ...]],
    depth: int,
    budget: list[int],
) -> list[Item]:
    if depth >= _MAX_DEPTH:
        raise at.error(f"macros call each other more than {_MAX_DEPTH} deep")
    return expand([_substitute(b, args) for b in body], defines, depth + 1, budget)


def _substitute(item: Item, args: Sequence[Item]) -> Item:
    """``item`` with ``$N`` made the call's Nth argument."""
    if isinstance(item, Form):
        inner = tuple(_substitute(i, args) for i in item.items)
        return Form(inner, item.line, item.column, item.source, item.closed_at)
    if not isinstance(item.value, str) or "$" not in item.value:
        return item
    whole = _ARG.fullmatch(item.value)
    if whole and not item.quoted:
        k = int(whole.group(1))
        return args[k - 1] if 0 < k <= len(args) else item

    def one(match: re.Match[str]) -> str:
        k = int(match.group(1))
        given = args[k - 1] if 0 < k <= len(args) else None
        return str(given.value) if isinstance(given, Atom) else match.group(0)

    text = _ARG.sub(one, item.value)
    value: str | int = text
    if not item.quoted and text.lstrip("-").isdigit() and len(text) < 10:
        value = int(text)
    return Atom(value, item.line, item.column, item.source, item.quoted)
