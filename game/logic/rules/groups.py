"""Groups of stones and their liberties (Go): the ``(groups ...)`` rule that a description's
``(rules ...)`` form holds, and the board functions the group rulebook
(:mod:`~game.logic.rules.group_rulebook`) plays it with.

A *group* is a player's stones that touch through the board's links; its *liberties* are the
empty positions next to it. After a drop the enemy groups left without a liberty are removed
(captured); a drop that leaves its own group without one is *suicide*, refused or removing
that group as the description says. *Ko*: ``simple`` forbids retaking a single stone at once
(the stone just placed, alone, in the enemy's eye, took one stone: that stone's point is
closed to the next move, a pass opens it); ``superko`` forbids any drop that makes a board
seen before in the game (positional superko). With ``(pass always)`` a pass is a move at
every turn. ``(komi N [half])`` gives the second player N points (and a half) in the count.

>>> from game.logic.rules.sexpr import read
>>> text = "(groups (suicide forbidden) (ko simple) (pass always) (komi 7 half))"
>>> rule = read_groups(read(text)[0])
>>> rule.suicide, rule.ko, rule.passing, rule.komi
('forbidden', 'simple', True, 7.5)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from game.logic.rules.sexpr import Form, Item
from game.logic.rules.words import arg, err, whole_number, word_of

__all__ = ["GROUP_ENDS", "GroupRules", "area", "label_groups", "read_groups", "region"]

#: The ways of suicide and ko a description may choose.
SUICIDE: Final = ("forbidden", "removed")
KO: Final = ("simple", "superko", "none")
#: The end conditions of a game of groups: name -> (least, most) arguments.
GROUP_ENDS: Final = {"two-passes": (0, 0), "board-repeated": (0, 0), "plies-per-point": (1, 1)}


@dataclass(frozen=True)
class GroupRules:
    """How groups are captured, and what ko, passes and komi are (see the module docstring)."""

    suicide: str = "forbidden"
    ko: str = "simple"
    passing: bool = False
    komi: float = 0.0


def read_groups(form: Form) -> GroupRules:
    """The ``(groups ...)`` rule, checked: each part at most once, known words only."""
    parts: dict[str, object] = {}
    for item in form.args:
        if not isinstance(item, Form) or item.head not in ("suicide", "ko", "pass", "komi"):
            raise err(item, "(groups ...) holds (suicide ..), (ko ..), (pass always), (komi N)")
        head = item.head
        if head in parts:
            raise item.error(f"({head} ...) is given twice in (groups ...)")
        if head == "suicide":
            parts[head] = _choice(arg(item, 1, 1)[0], SUICIDE, "suicide")
        elif head == "ko":
            parts[head] = _choice(arg(item, 1, 1)[0], KO, "ko")
        elif head == "pass":
            parts[head] = _choice(arg(item, 1, 1)[0], ("always",), "pass") == "always"
        else:
            args = arg(item, 1, 2)
            komi = float(whole_number(args[0], 0, 1000))
            if len(args) > 1:
                _choice(args[1], ("half",), "komi's second word")
                komi += 0.5
            parts[head] = komi
    return GroupRules(
        suicide=str(parts.get("suicide", "forbidden")),
        ko=str(parts.get("ko", "simple")),
        passing=bool(parts.get("pass", False)),
        komi=float(parts.get("komi", 0.0)),  # type: ignore[arg-type]
    )


def label_groups(
    colour: list[int], neighbours: list[tuple[int, ...]]
) -> tuple[list[int], list[list[int]], list[set[int]]]:
    """``(group of each position (-1: empty), stones of each group, liberties of each
    group)`` for a board of colours (0 empty, else the owner + 1)."""
    label = [-1] * len(colour)
    stones: list[list[int]] = []
    liberties: list[set[int]] = []
    for start, c in enumerate(colour):
        if c and label[start] < 0:
            members, border = region(colour, neighbours, start, label, len(stones))
            stones.append(members)
            liberties.append({q for q in border if not colour[q]})
    return label, stones, liberties


def area(colour: list[int], neighbours: list[tuple[int, ...]], players: int = 2) -> list[int]:
    """Each player's area (Tromp-Taylor): their stones, and the empty positions from which
    only their stones can be reached through empty positions."""
    counts = [0] * players
    label = [-1] * len(colour)
    for start, c in enumerate(colour):
        if c:
            counts[c - 1] += 1
        elif label[start] < 0:
            members, border = region(colour, neighbours, start, label, start)
            touches = {colour[q] for q in border}
            if len(touches) == 1:
                counts[touches.pop() - 1] += len(members)
    return counts


def region(
    colour: list[int], neighbours: list[tuple[int, ...]], start: int, label: list[int], mark: int
) -> tuple[list[int], set[int]]:
    """The positions of ``start``'s colour joined to it (each labelled ``mark`` in
    ``label``, where -1 is not yet labelled) and the positions of other colours beside them."""
    c = colour[start]
    label[start] = mark
    members = [start]
    border: set[int] = set()
    i = 0
    while i < len(members):
        p = members[i]
        i += 1
        for q in neighbours[p]:
            if colour[q] != c:
                border.add(q)
            elif label[q] < 0:
                label[q] = mark
                members.append(q)
    return members, border


def _choice(item: Item, allowed: tuple[str, ...], what: str) -> str:
    word = word_of(item)
    if word not in allowed:
        raise err(item, f"{what} is {' or '.join(allowed)}, not {word!r}")
    return word
