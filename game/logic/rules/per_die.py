"""A turn played die by die: ``(dice ... (each))``.

After the throw, the position's ``throw`` holds the dice the turn may still use (a double
multiplied to ``(doubles N)`` dice of its value). A move is one part of the turn: one piece's
move made by the programs of a game without dice, ``thrown`` being the value of the one die
it uses, which the move carries in its program number above :data:`DIE`. After a part the
same player moves again while a die is left that some part can use; otherwise the turn
passes as after any move (and the dice are thrown again). A die that no part can use is lost.

The keys ``(most dice-used)`` and ``(most pips-used)`` of ``(prefer ...)`` compare whole
turns: a part is legal when some turn that begins with it does as well on them as the best
turn from the position, so ``(prefer (most dice-used) (most pips-used))`` is backgammon's rule
(both dice where that can be done, else the larger one). The other keys choose among the
moves of one die, as in any game.

Nothing here runs for a game without ``(each)``: :func:`play_each_die` puts its wrappers on
the rulebook in place of the chance wrappers only for such a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from game.logic.rules.position import PASS, THROW, DescribedPosition, Move
from game.logic.rules.prefer import TURN_MEASURES
from game.logic.rules.sexpr import Form
from game.logic.rules.words import err

if TYPE_CHECKING:
    from game.logic.rules.rulebook import Rulebook

__all__ = ["DIE", "die_of", "play_each_die", "refuse_turn_measures"]

#: Where a part's die stands in its move's program number: ``pid >> DIE`` is its value.
DIE: Final = 40
_PROGRAM_BITS: Final = (1 << DIE) - 1


def refuse_turn_measures(form: Form) -> None:
    """Refuse ``dice-used`` or ``pips-used`` in ``form`` (a ``prefer``) of a game whose turn
    is not played die by die."""
    for key in form.args:
        if isinstance(key, Form) and len(key) == 2 and str(key[1]) in TURN_MEASURES:
            raise err(key[1], f"{key[1]} counts the dice of a turn: it needs (dice ... (each))")


def die_of(move: Move) -> int:
    """The value of the die a part uses (0: a throw or a pass)."""
    return move[3] >> DIE if move[3] >= 0 else 0


class _EachDie:
    """The wrappers of one rulebook; ``legal``, ``make``, ``unmake`` and ``pseudo`` are the
    chance wrappers they stand on (:mod:`game.logic.rules.chance`)."""

    def __init__(self, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        dice = rulebook.dice
        assert dice is not None
        self.dice = dice
        self.legal: Callable[[DescribedPosition], list[Move]] = rulebook.legal
        self.make: Callable[[DescribedPosition, Move], tuple[Any, ...]] = rulebook.make
        self.unmake: Callable[[DescribedPosition, tuple[Any, ...]], None] = rulebook.unmake
        self.pseudo: Callable[[DescribedPosition], list[Move]] = rulebook.pseudo
        self.passes = rulebook.design.pass_when_stuck
        #: The turn's keys: (1 for dice-used, 0 for pips-used; +1 most, -1 least).
        self.keys = tuple(
            (key.measure.what == "dice-used", 1 if key.how == "most" else -1)
            for key in rulebook.design.prefer
            if key.measure.what in TURN_MEASURES
        )
        #: Whether every key asks for the most: then a turn that uses every die is the best.
        self.bounded = all(sign > 0 for _, sign in self.keys)

    # -- the parts of a turn -----------------------------------------------------------

    def parts(self, pos: DescribedPosition) -> list[Move]:
        """Every part the player can play with one of the dice left (each value once)."""
        dice = pos.throw
        assert dice is not None
        found: list[Move] = []
        try:
            for value in dict.fromkeys(dice):
                pos.throw = (value,)  # the chance wrapper sets thrown from it
                moves = self.rulebook.legal_of(pos, self.pseudo(pos))
                found.extend((p, c, e, pid | value << DIE) for p, c, e, pid in moves)
        finally:
            pos.throw = dice
        return found

    def score(self, value: int) -> tuple[int, ...]:
        """What one die of ``value`` adds to a turn on each key."""
        return tuple(sign * (1 if dice else value) for dice, sign in self.keys)

    def best(self, pos: DescribedPosition) -> tuple[int, ...]:
        """The best score of the rest of the turn from ``pos`` (the player's, dice left)."""
        zero = tuple(0 for _ in self.keys)
        if not pos.throw:
            return zero
        bound = _sum([self.score(v) for v in pos.throw], zero) if self.bounded else None
        best: tuple[int, ...] | None = None
        for part in self.parts(pos):
            got = self.through(pos, part)
            if best is None or got > best:
                best = got
                if got == bound:
                    break
        return zero if best is None else best

    def through(self, pos: DescribedPosition, part: Move) -> tuple[int, ...]:
        """The best score of a turn that goes on with ``part``."""
        value = die_of(part)
        turn, dice = pos.turn, pos.throw
        saved = self.make(pos, _inner(part))
        pos.turn, pos.throw = turn, _without(dice, value)
        try:
            return _sum([self.score(value), self.best(pos)], self.score(value))
        finally:
            self.unmake(pos, saved)

    # -- the wrappers ------------------------------------------------------------------

    def each_legal(self, pos: DescribedPosition) -> list[Move]:
        if pos.throw is None:
            return self.legal(pos)  # the throws
        parts = self.parts(pos)
        if self.keys and len(parts) > 1:
            scores = [self.through(pos, part) for part in parts]
            best = max(scores)
            parts = [p for p, s in zip(parts, scores, strict=True) if s == best]
        if not parts and self.passes:
            return [PASS]  # no die can be used: the turn passes
        return parts

    def each_make(self, pos: DescribedPosition, move: Move) -> tuple[Any, ...]:
        pid = move[3]
        if pid == THROW:
            saved = self.make(pos, move)
            pos.throw = self.dice.dice_of(move[2])  # type: ignore[arg-type]
            return saved
        if pid < 0:
            return self.make(pos, move)
        turn, dice = pos.turn, pos.throw
        saved = self.make(pos, _inner(move))
        rest = _without(dice, die_of(move)) if dice else ()
        if rest:  # the same player goes on while a die left can be used
            after = pos.turn
            pos.turn, pos.throw = turn, rest
            if not self.parts(pos):
                pos.turn, pos.throw = after, None
        return saved


def _inner(move: Move) -> Move:
    """A part as the moves of one die are made: without its die."""
    path, caps, effects, pid = move
    return (path, caps, effects, pid & _PROGRAM_BITS)


def _without(dice: tuple[int, ...] | None, value: int) -> tuple[int, ...]:
    """``dice`` less one die of ``value``."""
    assert dice is not None
    left = list(dice)
    left.remove(value)
    return tuple(left)


def _sum(scores: list[tuple[int, ...]], start: tuple[int, ...]) -> tuple[int, ...]:
    """The scores added key by key (``start``: any one of the same length, for its length)."""
    return tuple(sum(column) for column in zip(*scores, strict=True)) if scores else start


def play_each_die(rulebook: Rulebook) -> None:
    """Put the wrappers of a turn played die by die on ``rulebook`` (whose chance wrappers
    are in place)."""
    each = _EachDie(rulebook)
    vars(rulebook).update(legal=each.each_legal, make=each.each_make)
