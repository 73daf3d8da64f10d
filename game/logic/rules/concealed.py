"""Concealed pieces: each player knows their own pieces, the others see only where they stand
until they are revealed (a hidden set-up, as in Stratego).

``(concealed revealed)`` says that every piece's type is hidden from the other players until
the piece carries the attribute ``revealed``; a piece that attacks or is attacked (a move
that ends on an enemy piece) carries it from then on, whichever piece is left standing.
Pieces in a player's hand are concealed too: the others see how many, not which.

Unlike face-down pieces (:mod:`game.logic.rules.hidden`), a concealed piece is a piece from
the start, known to its owner: the state holds the truth, and :meth:`ConcealedRules.observe`
is what one seat sees of it (the others' unrevealed pieces as a blank of their owner, their
hands as a count, and the pieces taken, which were all revealed in the fight that took them).
:meth:`ConcealedRules.determinize` draws a position that seat cannot tell from the true one:
the others' unrevealed pieces and hands dealt again at random from what is left of their sets,
reading nothing the seat cannot see.

:class:`ConcealedReader` reads the form (a part of the description's reader) and
:class:`ConcealedRules` plays it (a part of the rulebook): for a design with concealed pieces
the rulebook's make and unmake give way to the ones here, so the other games run the same code
as before.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Final

from game.logic.rules.position import DescribedPosition, Move
from game.logic.rules.words import ReaderPart, arg, err, word_of

if TYPE_CHECKING:
    from game.logic.rules.compile import Compiled
    from game.logic.rules.design import Design

__all__ = ["ConcealedReader", "ConcealedRules"]

#: The rulebook's methods that a design with concealed pieces plays with its own.
_REPLACED: Final = ("legal", "make", "unmake")


class ConcealedReader(ReaderPart):
    """Reads ``(concealed ATTRIBUTE)``: the attribute a piece carries once it is revealed."""

    def _concealed(self, attributes: tuple[str, ...]) -> str | None:
        form = self.one("concealed", required=False)
        if form is None:
            return None
        item = arg(form, 1, 1)[0]
        name = word_of(item)
        if name not in attributes:
            known = ", ".join(attributes) or "none"
            raise err(item, f"no piece has the attribute {name!r} (the attributes: {known})")
        return name


class ConcealedRules:
    """The rulebook's part for concealed pieces (see the module docstring)."""

    if TYPE_CHECKING:
        design: Design
        c: Compiled
        players: int

        def start(self) -> DescribedPosition: ...
        def player(self, pos: DescribedPosition) -> int: ...
        def key(self, pos: DescribedPosition) -> tuple[Any, ...]: ...
        def legal(self, pos: DescribedPosition) -> list[Move]: ...
        def make(self, pos: DescribedPosition, move: Move) -> tuple[Any, ...]: ...
        def unmake(self, pos: DescribedPosition, saved: tuple[Any, ...]) -> None: ...

    def conceal(self) -> None:
        """Play the design's concealed pieces: a fight reveals both pieces."""
        self._open: dict[str, Callable[..., Any]] = {n: getattr(self, n) for n in _REPLACED}
        attribute = self.design.attributes.index(self.design.concealed or "")
        self._seen_bit = 1 << attribute
        c = self.c
        self._seen_code = [
            c.code(c.owner[v], c.kind_of[v], c.attrs[v] | self._seen_bit) if v else 0
            for v in range(c.codes)
        ]
        names = self.design.attributes
        kinds = self.design.pieces
        #: attributes (a bit set) -> the types that declare them all: what such a piece may be.
        self._fits = [
            {
                t
                for t, k in enumerate(kinds)
                if all(names[a] in k.attributes for a in range(len(names)) if bits >> a & 1)
            }
            for bits in range(1 << len(names))
        ]
        start = self.start()
        self._sets = [self._set_of(start, p) for p in range(self.players)]
        self._squares = len(start.board)
        self._resolved: tuple[Any, dict[Move, Move]] = ((), {})
        self.legal = self._concealed_legal  # type: ignore[method-assign]
        self.make = self._concealed_make  # type: ignore[method-assign]
        self.unmake = self._concealed_unmake  # type: ignore[method-assign]

    def _concealed_legal(self, pos: DescribedPosition) -> list[Move]:
        """The moves as the mover sees them: how a fight ends depends on the enemy piece's
        type, so a move leaves its effects out (its path, captures and program say which it
        is) and :meth:`_concealed_make` works them out where it is played."""
        real: list[Move] = self._open["legal"](pos)
        public: dict[Move, Move] = {(m[0], m[1], (), m[3]): m for m in real}
        self._resolved = ((pos.turn, tuple(pos.board), pos.hands), public)
        return list(public)

    def dealt_legal(self, pos: DescribedPosition) -> list[Move]:
        """The moves with their effects, for a search on a dealt position (every type
        known): each is the real move of the public one of :meth:`legal` with its path,
        captures and program."""
        real: list[Move] = self._open["legal"](pos)
        return real

    def _real(self, pos: DescribedPosition, move: Move) -> Move:
        if move[2]:
            return move
        seen, public = self._resolved
        if seen != (pos.turn, tuple(pos.board), pos.hands):
            self._concealed_legal(pos)
            seen, public = self._resolved
        return public.get(move, move)

    def _set_of(self, pos: DescribedPosition, player: int) -> list[int]:
        """How many of each type ``player`` has on the board and in hand."""
        row = [0] * len(self.design.pieces)
        for v in pos.board:
            if v and self.c.owner[v] == player:
                row[self.c.kind_of[v]] += 1
        if pos.hands:
            for t, n in enumerate(pos.hands[player]):
                row[t] += n
        return row

    def _concealed_make(self, pos: DescribedPosition, move: Move) -> tuple[Any, ...]:
        move = self._real(pos, move)
        path = move[0]
        to = path[-1] if len(path) > 1 else -1
        fight = to >= 0 and bool(pos.board[to]) and self.c.owner[pos.board[to]] != self.player(pos)
        saved = self._open["make"](pos, move)
        if not fight or not pos.board[to]:
            return (saved, -1, 0)
        was = pos.board[to]
        pos.board[to] = self._seen_code[was]  # the piece left standing is known from now on
        return (saved, to, was)

    def _concealed_unmake(self, pos: DescribedPosition, saved: tuple[Any, ...]) -> None:
        inner, to, was = saved
        if to >= 0:
            pos.board[to] = was
        self._open["unmake"](pos, inner)

    def revealed(self, code: int) -> bool:
        """Whether the piece of this code is known to every player."""
        return bool(self.c.attrs[code] & self._seen_bit)

    def observe(self, pos: DescribedPosition, seat: int) -> Hashable:
        """What ``seat`` sees of ``pos``: its own pieces and every revealed one as they are,
        another player's unrevealed piece as ``-1 - owner - players * attributes`` (its
        owner and the attributes it carries, such as Barrage's ``moved``, but not its type),
        another's hand as a count, the pieces taken from each player by type, the turn and the
        counters."""
        c, n = self.c, self.players
        board = tuple(
            v
            if not v or c.owner[v] == seat or self.revealed(v)
            else -1 - c.owner[v] - n * c.attrs[v]
            for v in pos.board
        )
        hands = tuple(row if p == seat else sum(row) for p, row in enumerate(pos.hands or ()))
        taken = tuple(
            tuple(a - b for a, b in zip(self._sets[p], self._set_of(pos, p), strict=True))
            for p in range(self.players)
        )
        return (board, hands, taken, pos.turn, pos.plies, pos.quiet, pos.mover)

    def stand_in(self, seen: Any, seat: int, rng: random.Random) -> DescribedPosition:
        """A position made from what ``seat`` sees (:meth:`observe`'s value, as JSON lists)
        that it cannot tell from the true one: its own pieces, the revealed ones and the
        counters as seen, each blank of another player a type drawn from what is left of
        that player's set (the set less its revealed and taken pieces), its hand too. The
        last move's ends and the positions since the last capture, which a view does not
        hold, are left empty. Raises ValueError for a value that is not such a view."""
        c, n = self.c, self.players
        try:
            board_seen, hands_seen, taken, turn, plies, quiet, mover = seen
            board = [int(v) for v in board_seen]
            taken = [[int(k) for k in row] for row in taken]
            hands = [
                [int(k) for k in row] if p == seat else int(row) for p, row in enumerate(hands_seen)
            ]
            pos = DescribedPosition(board, int(turn), plies=int(plies), quiet=int(quiet))
            pos.mover = int(mover)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a view of {self.design.title}: {exc!r}") from None
        if len(board) != self._squares or len(taken) != n:
            raise ValueError(f"not a view of {self.design.title}: the wrong size")
        rows: list[tuple[int, ...]] = []
        for p in range(n):
            places = [i for i, v in enumerate(board) if v < 0 and (-1 - v) % n == p]
            left = list(self._sets[p])
            for v in board:
                if v > 0 and c.owner[v] == p:
                    left[c.kind_of[v]] -= 1
            pool = [t for t, k in enumerate(left) for _ in range(k - taken[p][t])]
            rng.shuffle(pool)
            places.sort(key=lambda i: len(self._fits[(-1 - board[i]) // n]))
            for i in places:
                bits = (-1 - board[i]) // n
                fits = self._fits[bits]
                k = next((k for k, t in enumerate(pool) if t in fits), 0)
                board[i] = c.code(p, pool.pop(k), bits)
            if hands:
                own = hands[p]
                if isinstance(own, list):
                    rows.append(tuple(own))
                else:
                    row = [0] * len(self.design.pieces)
                    for t in pool[:own]:
                        row[t] += 1
                    rows.append(tuple(row))
        pos.hands = tuple(rows)
        return pos

    def determinize(self, pos: DescribedPosition, seat: int, rng: random.Random) -> Any:
        """A copy of ``pos`` that ``seat`` cannot tell from it: every other player's
        unrevealed pieces and hand dealt again at random from what is left of their set (the
        set less the pieces taken and the revealed ones). Reads only what ``seat`` sees."""
        out = pos.copy()
        c = self.c
        b = out.board
        hands = [list(row) for row in out.hands] if out.hands else []
        for p in range(self.players):
            if p == seat:
                continue
            left = list(self._sets[p])
            places = []
            for i, v in enumerate(b):
                if v and c.owner[v] == p:
                    if self.revealed(v):
                        left[c.kind_of[v]] -= 1
                    else:
                        places.append(i)
            in_hand = sum(hands[p]) if hands else 0
            # What was taken, the seat saw revealed: the set less everything still there.
            taken = [a - n for a, n in zip(self._sets[p], self._set_of(pos, p), strict=True)]
            pool = [t for t, n in enumerate(left) for _ in range(n - taken[t])]
            rng.shuffle(pool)
            # A piece that carries an attribute (it moved) is of a type that declares it: the
            # most constrained pieces are dealt first, each a type drawn from what is left.
            places.sort(key=lambda i: len(self._fits[c.attrs[b[i]]]))
            for i in places:
                fits = self._fits[c.attrs[b[i]]]
                k = next((k for k, t in enumerate(pool) if t in fits), 0)
                b[i] = c.code(p, pool.pop(k), c.attrs[b[i]])
            if hands:
                row = [0] * len(hands[p])
                for t in pool[:in_hand]:
                    row[t] += 1
                hands[p] = row
        if hands:
            out.hands = tuple(tuple(row) for row in hands)
        return out
