"""Numbers a complete move makes, and the choice rule among complete moves built on them.

A :class:`Measure` reads one number off a complete move and the board it is played on:
``captured`` (the pieces it takes), ``(captured TYPE...)`` (those of these types), ``(moving
TYPE...)`` (1 when the moving piece is of these types, else 0), ``(capturing TYPE...)`` (1
when the move takes something and the moving piece is of these types, else 0). In a game
whose turn is played die by die (``(dice ... (each))``), ``dice-used`` and ``pips-used`` are
how many dice the whole turn uses and the sum of their values; one part of a turn reads 0 on
them here, and :mod:`game.logic.rules.per_die` compares whole turns on them.

The rule ``(prefer KEY...)`` keeps, of the moves left after ``compulsory`` and
``most-captures``, those that do best on the first key, of them those that do best on the
second, and so on. A key is ``(most MEASURE)``, ``(least MEASURE)`` or ``(earliest (captured
TYPE...))``: the moves that take a piece of these types soonest in their order of capture (a
move that takes none comes after every one that does). Italian draughts reads::

    (prefer (most captured) (most (capturing King)) (most (captured King))
            (earliest (captured King)))

``(most-captures)`` keeps the same moves as ``(prefer (most captured))``.

>>> from game.logic.rules.sexpr import read
>>> m = read_measure(read("(captured King)")[0], ("Man", "King"))
>>> m.of(((0, 2, 4), (1, 3), (), 0), [5, 7, 0, 5, 0], (0, 0, 1, 0, 0, 0, 0, 1))
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from game.logic.rules.position import Move
from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.rules.words import arg, err, word_of

__all__ = ["TURN_MEASURES", "Key", "Measure", "prefer", "read_key", "read_measure"]

#: What ``(earliest ...)`` reads for a move that takes none of the pieces it asks about.
_NEVER: Final = 1 << 30
#: The measures of a whole turn played die by die.
TURN_MEASURES: Final = ("dice-used", "pips-used")


@dataclass(frozen=True)
class Measure:
    """A number of a complete move: ``what`` is ``captured``, ``moving`` or ``capturing``;
    ``types`` the piece type indexes it counts (None: every type)."""

    what: str
    types: frozenset[int] | None

    def of(self, move: Move, board: Sequence[int], kind_of: Sequence[int]) -> int:
        """The number for ``move`` played on ``board`` (the board before the move)."""
        path, caps, _, _ = move
        types = self.types
        if self.what in TURN_MEASURES:  # the whole turn's (rules.per_die): not one move's
            return 0
        if self.what != "captured":
            if len(path) < 2 or (self.what == "capturing" and not caps):
                return 0
            return int(types is None or kind_of[board[path[0]]] in types)
        if types is None:
            return len(caps)
        return sum(1 for x in caps if board[x] and kind_of[board[x]] in types)

    def first(self, move: Move, board: Sequence[int], kind_of: Sequence[int]) -> int:
        """Where in ``move``'s captures the first piece this measure counts is (0 first);
        :data:`_NEVER` when it takes none."""
        for i, x in enumerate(move[1]):
            if board[x] and (self.types is None or kind_of[board[x]] in self.types):
                return i
        return _NEVER


@dataclass(frozen=True)
class Key:
    """One key of ``(prefer ...)``: ``how`` is ``most``, ``least`` or ``earliest``."""

    how: str
    measure: Measure

    def score(self, move: Move, board: Sequence[int], kind_of: Sequence[int]) -> int:
        """Higher is better."""
        if self.how == "earliest":
            return -self.measure.first(move, board, kind_of)
        value = self.measure.of(move, board, kind_of)
        return value if self.how == "most" else -value


def read_measure(item: Item, types: Sequence[str]) -> Measure:
    """``captured`` or ``(captured|moving|capturing TYPE...)``, the types named among
    ``types`` (the description's piece types, in order)."""
    if isinstance(item, Atom) and word_of(item) in ("captured", *TURN_MEASURES):
        return Measure(word_of(item), None)
    if not isinstance(item, Form) or item.head not in ("captured", "moving", "capturing"):
        raise err(
            item, "expected captured, dice-used, pips-used or (captured|moving|capturing TYPE...)"
        )
    named = set()
    for a in arg(item, 1, 16):
        word = word_of(a)
        if word not in types:
            raise err(a, f"no piece type {word!r}")
        named.add(types.index(word))
    return Measure(item.head, frozenset(named))


def read_key(item: Item, types: Sequence[str]) -> Key:
    """``(most MEASURE)``, ``(least MEASURE)`` or ``(earliest (captured TYPE...))``."""
    if not isinstance(item, Form) or item.head not in ("most", "least", "earliest"):
        raise err(item, "a key is (most MEASURE), (least MEASURE) or (earliest (captured ...))")
    measure = read_measure(arg(item, 1, 1)[0], types)
    if item.head == "earliest" and measure.what != "captured":
        raise err(item[1], "(earliest ...) reads captures: (earliest (captured TYPE...))")
    return Key(item.head, measure)


def prefer(
    keys: Sequence[Key], moves: list[Move], board: Sequence[int], kind_of: Sequence[int]
) -> list[Move]:
    """The moves that do best on the first key, of them on the second, and so on."""
    for key in keys:
        if len(moves) < 2:
            break
        scores = [key.score(m, board, kind_of) for m in moves]
        best = max(scores)
        moves = [m for m, s in zip(moves, scores, strict=True) if s == best]
    return moves
