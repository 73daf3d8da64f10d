"""Tallies: whole numbers a described game keeps beside its board, each player's own or one
for the game, changed by every move; number expressions and comparisons over them in end
conditions.

``(tally NAME [per-player] [(start N)] [(add MEASURE)])`` declares one: ``per-player`` gives
each player a tally of their own, ``start`` its value at the start (0 by default), ``add``
what each move adds to it (to the mover's own where it is per player): a whole number or a
measure of the move (:mod:`game.logic.rules.prefer`: ``captured``, ``(captured TYPE...)``,
``(moving TYPE...)``, ``(capturing TYPE...)``). A number expression is a whole number,
``(tally NAME)`` (the value of the player who just moved, or the game's), ``(tally NAME
theirs)`` (the other player's), or ``(+ A B...)``, ``(- A [B])``, ``(* A B...)``, ``(min A
B...)``, ``(max A B...)`` of expressions; a comparison ``(= A B)``, ``(< A B)``, ``(<= A B)``,
``(> A B)``, ``(>= A B)`` is an end condition::

    (tally captured per-player (add captured))
    (end (win (>= (tally captured) 7)) (win stuck))

``per-square`` gives each position of the board a tally of its own instead, which only move
programs read and change (:mod:`game.logic.rules.piece_numbers`: ``(tally NAME)`` is the
cursor's position's there, and ``(add-tally NAME N)`` changes it when the move is made).

Tallies are part of a position (two positions with the same pieces and different tallies
differ) and change only in games that declare them: a rulebook without tallies plays, makes
and unmakes as before, without a branch of its own.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import reduce
from typing import TYPE_CHECKING, Any, Final

from game.logic.rules.position import DescribedPosition, Move
from game.logic.rules.prefer import Measure, read_measure
from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.rules.words import ReaderPart, arg, err, mentions, whole_number, word_of

if TYPE_CHECKING:
    from game.logic.rules.compile import Compiled
    from game.logic.rules.design import Design

__all__ = [
    "CHANGE",
    "COMPARISONS",
    "OPERATORS",
    "Tallies",
    "Tally",
    "TallyReader",
    "compare",
    "tally_layout",
    "value",
]

#: The comparisons, each an end condition of two number expressions.
COMPARISONS: Final[dict[str, Callable[[int, int], bool]]] = {
    "=": operator.eq,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
#: The arithmetic of number expressions: name -> (least, most) arguments.
OPERATORS: Final = {"+": (1, 8), "-": (1, 2), "*": (1, 8), "min": (1, 8), "max": (1, 8)}
#: The largest number a description writes.
_LARGEST: Final = 1_000_000


@dataclass(frozen=True)
class Tally:
    """One ``(tally ...)``: its name, whether each player has one, its start, and what each
    move adds (a whole number, a measure of the move, or None: nothing)."""

    name: str
    per_player: bool
    start: int
    add: Measure | int | None
    #: One for each position of the board (read and changed by move programs only).
    per_square: bool = False


#: The bit of a move's program number from which the tally changes its program made are
#: numbered (0: none); :meth:`Tallies._keep_tallies` keeps what each number stands for.
CHANGE: Final = 48


def tally_layout(design: Design) -> dict[str, tuple[int, str, tuple[int, ...]]]:
    """Each tally's first slot in a position's tallies and its scope (``per-player``,
    ``per-square`` or ``game``), with every tally's start values (the same for each)."""
    out: dict[str, tuple[int, str]] = {}
    start: list[int] = []
    for t in design.tallies:
        scope = "per-player" if t.per_player else "per-square" if t.per_square else "game"
        out[t.name] = (len(start), scope)
        width = {"per-player": len(design.players), "per-square": len(design.board.names)}
        start.extend([t.start] * width.get(scope, 1))
    whole = tuple(start)
    return {name: (base, scope, whole) for name, (base, scope) in out.items()}


class TallyReader(ReaderPart):
    """Reads the ``(tally ...)`` forms and checks number expressions; a part of the
    description's reader (:mod:`game.logic.rules.design`)."""

    tally_names: tuple[str, ...] = ()

    def _tallies(self, design: Design) -> None:
        tallies: list[Tally] = []
        types = [p.name for p in design.pieces]
        for form in self.forms.get("tally", []):
            args = arg(form, 1, 4)
            name = word_of(args[0])
            if name in [t.name for t in tallies]:
                raise err(args[0], f"the tally {name!r} is declared twice")
            per_player, per_square, start, add = False, False, 0, None
            for item in args[1:]:
                if isinstance(item, Atom) and word_of(item) == "per-player":
                    per_player = True
                elif isinstance(item, Atom) and word_of(item) == "per-square":
                    per_square = True
                elif isinstance(item, Form) and item.head == "start":
                    start = whole_number(arg(item, 1, 1)[0], -_LARGEST, _LARGEST)
                elif isinstance(item, Form) and item.head == "add":
                    what = arg(item, 1, 1)[0]
                    is_number = isinstance(what, Atom) and isinstance(what.value, int)
                    add = (
                        whole_number(what, -_LARGEST, _LARGEST)
                        if is_number
                        else read_measure(what, types)
                    )
                else:
                    raise err(item, "expected per-player, per-square, (start N) or (add MEASURE)")
            if per_square and (per_player or add is not None):
                raise err(form, "a per-square tally is changed by move programs alone")
            tallies.append(Tally(name, per_player, start, add, per_square))
        design.tallies = tuple(tallies)
        self.tally_names = tuple(t.name for t in tallies if not t.per_square)

    def _number(self, item: Item) -> None:
        """Check a number expression (see the module docstring)."""
        if isinstance(item, Atom):
            whole_number(item, -_LARGEST, _LARGEST)
            return
        if item.head == "tally":
            args = arg(item, 1, 2)
            name = word_of(args[0])
            if name not in self.tally_names:
                known = ", ".join(self.tally_names) or "none"
                raise err(args[0], f"no tally {name!r} an end can read; the tallies: {known}")
            if len(args) > 1 and word_of(args[1]) != "theirs":
                raise err(args[1], "(tally NAME theirs): the other player's")
            return
        if item.head not in OPERATORS:
            raise err(item, "expected a number, (tally NAME) or (+ - * min max ...)")
        for a in arg(item, *OPERATORS[item.head]):
            self._number(a)


def value(item: Item, tallies: Sequence[int], slots: dict[str, int], mover: int, n: int) -> int:
    """The number expression ``item`` in a position whose tallies are ``tallies`` (``slots``:
    each tally's first slot, -1 - slot for one per player), ``mover`` having moved last, of
    ``n`` players."""
    if isinstance(item, Atom):
        return int(item.value)
    args = item.args
    if item.head == "tally":
        slot = slots[str(args[0].value)]  # type: ignore[union-attr]
        if slot >= 0:
            return tallies[slot]
        whose = mover if len(args) == 1 else (mover + 1) % n
        return tallies[-1 - slot + whose]
    numbers = [value(a, tallies, slots, mover, n) for a in args]
    head = item.head
    if head == "-":
        return -numbers[0] if len(numbers) == 1 else numbers[0] - numbers[1]
    if head == "+":
        return sum(numbers)
    if head == "*":
        return reduce(operator.mul, numbers, 1)
    return min(numbers) if head == "min" else max(numbers)


def compare(book: Any, pos: DescribedPosition, cond: Form) -> bool:
    """Whether the comparison ``cond`` holds in ``pos`` (``book``: its :class:`Tallies`
    rulebook)."""
    tallies = pos.tallies or book.tally_start
    mover, n, slots = book.last_mover(pos), book.players, book.tally_slots
    a, b = (value(x, tallies, slots, mover, n) for x in cond.args)
    return COMPARISONS[cond.head](a, b)


class Tallies:
    """The rulebook's part that keeps the tallies: where a design declares some,
        :meth:`_keep_tallies` puts wrappers of ``start``, ``make``, ``unmake`` and ``key`` on the
        rulebook itself, so a game without tallies runs the plain methods; one whose ends compare
    numbers gets a wrapper of ``_holds`` that asks its comparisons first, in perft too."""

    design: Design
    c: Compiled
    players: int
    repetition: int
    tally_start: tuple[int, ...] = ()
    #: Each tally's first slot in a position's tallies; -1 - slot for one per player.
    tally_slots: dict[str, int]

    if TYPE_CHECKING:

        def player(self, pos: DescribedPosition) -> int: ...
        def start(self) -> DescribedPosition: ...
        def make(self, pos: DescribedPosition, move: Move) -> tuple[Any, ...]: ...
        def pseudo(self, pos: DescribedPosition) -> list[Move]: ...
        def unmake(self, pos: DescribedPosition, saved: tuple[Any, ...]) -> None: ...
        def key(self, pos: DescribedPosition) -> tuple[Any, ...]: ...
        def _holds(
            self, pos: DescribedPosition, cond: Item, moves: list[Move] | None, perft: bool
        ) -> bool: ...

    def _keep_tallies(self) -> None:
        self.tally_slots = {}
        if any(mentions([end.condition], head) for end in self.design.ends for head in COMPARISONS):
            plain_holds = self._holds

            def holds(
                pos: DescribedPosition, cond: Item, moves: list[Move] | None, perft: bool
            ) -> bool:
                if isinstance(cond, Form) and cond.head in COMPARISONS:
                    return compare(self, pos, cond)  # in perft too: a tally is no draw counter
                return plain_holds(pos, cond, moves, perft)

            self._holds = holds  # type: ignore[method-assign]
        if not self.design.tallies:
            return
        layout = tally_layout(self.design)
        for name, (base, scope, _) in layout.items():
            self.tally_slots[name] = -1 - base if scope == "per-player" else base
        self.tally_start = next(iter(layout.values()))[2]
        plain_start, plain_make, plain_unmake, plain_key = (
            self.start,
            self.make,
            self.unmake,
            self.key,
        )
        adds = [
            (slot if slot >= 0 else -1 - slot, slot < 0, t.add)
            for t in self.design.tallies
            for slot in [self.tally_slots[t.name]]
            if t.add is not None
        ]
        kind_of = self.c.kind_of
        # What each tally change number stands for (piece_numbers.NumberWriter: the programs'
        # (add-tally ...) and (set-tally ...)), and the tallies the programs read.
        ns = self.c.namespace  # type: ignore[attr-defined]
        changes: list[tuple[tuple[int, int, bool], ...]] = [()]
        numbered: dict[tuple[tuple[int, int, bool], ...], int] = {}

        def split(eff: tuple[Any, ...]) -> tuple[tuple[Any, ...], int]:
            if all(len(e) == 2 for e in eff):
                return eff, 0
            change = tuple(e for e in eff if len(e) == 3)
            if change not in numbered:
                numbered[change] = len(changes)
                changes.append(change)
            return tuple(e for e in eff if len(e) == 2), numbered[change] << CHANGE

        ns["SPLIT"] = split
        if "TL" in ns:
            plain_pseudo = self.pseudo

            def pseudo(pos: DescribedPosition) -> list[Move]:
                ns["TL"] = pos.tallies or self.tally_start
                return plain_pseudo(pos)

            self.pseudo = pseudo  # type: ignore[method-assign]

        def start_position() -> DescribedPosition:
            pos = plain_start()
            pos.tallies = self.tally_start
            pos.history = (self.key(pos),) if self.repetition else ()
            return pos

        def make(pos: DescribedPosition, move: Move) -> tuple[Any, ...]:
            before = pos.tallies or self.tally_start
            after = list(before)
            mover = self.player(pos)
            for slot, own, add in adds:
                got = add if isinstance(add, int) else add.of(move, pos.board, kind_of)
                after[slot + mover if own else slot] += got
            if move[3] >> CHANGE > 0:  # what its program changed, in order
                for slot, v, plus in changes[move[3] >> CHANGE]:
                    after[slot] = after[slot] + v if plus else v
            pos.tallies = tuple(after)  # before the move's key is noted for repetition
            return (plain_make(pos, move), before)

        def unmake(pos: DescribedPosition, saved: tuple[Any, ...]) -> None:
            plain_unmake(pos, saved[0])
            pos.tallies = saved[1]

        def key(pos: DescribedPosition) -> tuple[Any, ...]:
            return (*plain_key(pos), pos.tallies or self.tally_start)

        self.start, self.make, self.unmake, self.key = (  # type: ignore[method-assign]
            start_position,
            make,
            unmake,
            key,
        )
