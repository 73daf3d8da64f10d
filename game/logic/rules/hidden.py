"""Face-down pieces: a piece type that stands face down, its identity unknown to every
player until chance turns it up.

``(face-down Back (Red (General 1) (Soldier 5) ...) (Black ...) (first-turned mover))`` says
that the pieces of type ``Back`` stand face down and which pieces lie under them: for each
player, each type and how many. A face-down piece is turned up when a move of it ends with
it still face down (a program that adds where it stands, ``(move turn-up add)``, turns it
up in place: Banqi's flip, written as its position ``c3``). The position after such a move
is a chance node: its outcomes are the pieces not yet seen, each with a probability by how
many of them are left, written ``c3=K`` (upper case for the first player's piece, lower case
for the second's). With ``(first-turned mover)`` the first piece turned up is always one of
the player who turned it (Banqi: the first flip decides the colours; the players' two sets
are the same, so each type comes up as often as in the game where the flipper takes the
colour of whatever came up).

Nothing is hidden in the state itself: a face-down piece is not any piece until it is
turned up, so what one player sees the other sees too, and no agent can read a hidden deal.

:class:`FaceDownReader` reads the form (a part of the description's reader) and
:class:`FaceDownRules` plays it (a part of the rulebook): for a design with face-down pieces
the rulebook's own start, legal, make, unmake, key, outcome and perft give way to the ones
here, so the other games run the same code as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from game.logic.rules.position import DescribedPosition, Move
from game.logic.rules.sexpr import Form
from game.logic.rules.words import ReaderPart, arg, err, whole_number, word_of

if TYPE_CHECKING:
    from game.logic.rules.compile import Compiled
    from game.logic.rules.design import Design

__all__ = ["TURN_UP", "FaceDown", "FaceDownReader", "FaceDownRules", "HiddenPosition"]

#: The program number of a chance outcome: the piece that a face-down piece turns out to be.
TURN_UP: Final = -2


@dataclass(frozen=True)
class FaceDown:
    """The face-down type, what stands under it (``pool[player][type]``: how many at the
    start) and whether the first piece turned up is the turning player's own."""

    kind: int
    pool: tuple[tuple[int, ...], ...]
    first_to_mover: bool = False


class FaceDownReader(ReaderPart):
    """Reads ``(face-down TYPE (PLAYER (TYPE COUNT)...)... [(first-turned mover)])``."""

    players: tuple[str, ...]

    def _face_down(self) -> FaceDown | None:
        form = self.one("face-down", required=False)
        if form is None:
            return None
        kind = self.type_names.index(self._type_name(arg(form, 2, 1 + len(self.players) + 1)[0]))
        pool = [[0] * len(self.type_names) for _ in self.players]
        first = False
        for side in form.items[2:]:
            if isinstance(side, Form) and side.head == "first-turned":
                if word_of(arg(side, 1, 1)[0]) != "mover":
                    raise err(side[1], "(first-turned mover): the turning player's own piece")
                first = True
                continue
            if not isinstance(side, Form) or side.head not in self.players:
                raise err(side, f"(PLAYER (PIECE COUNT)...) for one of {self.players}")
            row = pool[self.players.index(side.head)]
            for group in side.args:
                if not isinstance(group, Form) or not group.head:
                    raise err(group, "(PIECE COUNT): a piece type and how many lie face down")
                t = self.type_names.index(self._type_name(group[0]))
                if t == kind:
                    raise err(group[0], "a face-down piece cannot turn out face down")
                row[t] += whole_number(arg(group, 1, 1)[0], 1, 1000)
        if not any(any(row) for row in pool):
            raise form.error("(face-down TYPE ...) names no piece to lie under it")
        return FaceDown(kind, tuple(tuple(row) for row in pool), first)


@dataclass
class HiddenPosition(DescribedPosition):
    """A position of a game with face-down pieces: also the pieces not seen yet (by player
    and type) and the position whose piece chance turns up next (-1: none)."""

    unseen: tuple[tuple[int, ...], ...] = ()
    reveal: int = -1

    def copy(self) -> HiddenPosition:
        base = DescribedPosition.copy(self)
        return HiddenPosition(
            base.board,
            base.turn,
            base.last_from,
            base.last_to,
            base.hands,
            base.plies,
            base.quiet,
            base.history,
            base.under,
            base.mover,
            base.throw,
            base.tallies,
            self.unseen,
            self.reveal,
        )


#: The rulebook's methods that a design with face-down pieces plays with its own.
_REPLACED: Final = ("start", "legal", "make", "unmake", "key", "outcome", "perft", "from_text")


class FaceDownRules:
    """The rulebook's part for face-down pieces (see the module docstring)."""

    if TYPE_CHECKING:
        design: Design
        c: Compiled
        repetition: int

        def start(self) -> DescribedPosition: ...
        def legal(self, pos: DescribedPosition) -> list[Move]: ...
        def make(self, pos: DescribedPosition, move: Move) -> tuple[Any, ...]: ...
        def unmake(self, pos: DescribedPosition, saved: tuple[Any, ...]) -> None: ...
        def key(self, pos: DescribedPosition) -> tuple[Any, ...]: ...
        def perft(self, pos: DescribedPosition, depth: int) -> int: ...

    def chance(self, pos: DescribedPosition) -> Sequence[tuple[Move, float]]:
        """At a chance node, each outcome with its probability; else empty."""
        return ()

    def from_text(self, pos: DescribedPosition) -> DescribedPosition:
        """The position a position text was read into, as the game plays it."""
        return pos

    def turn_faces_down(self) -> None:
        """Play the design's face-down pieces: put this part's methods in the place of the
        rulebook's, which they call for everything else."""
        self._plain: dict[str, Callable[..., Any]] = {n: getattr(self, n) for n in _REPLACED}
        for name in (*_REPLACED, "chance"):
            setattr(self, name, getattr(self, "_face_" + name))

    @property
    def face_down(self) -> FaceDown:
        found = self.design.face_down
        assert found is not None
        return found

    def _face_start(self) -> HiddenPosition:
        plain = self._plain["start"]()
        pos = HiddenPosition(plain.board, plain.turn, hands=plain.hands, under=plain.under)
        pos.unseen = self.face_down.pool
        pos.history = (self.key(pos),) if self.repetition else ()
        return pos

    def _face_from_text(self, pos: DescribedPosition) -> HiddenPosition:
        """A position text names the face-down pieces but not the pieces taken: every piece
        of the set that is not face up on the board counts as still face down."""
        rows = [list(row) for row in self.face_down.pool]
        for v in pos.board:
            if v and self.c.kind_of[v] != self.face_down.kind:
                row = rows[self.c.owner[v]]
                row[self.c.kind_of[v]] = max(0, row[self.c.kind_of[v]] - 1)
        out = HiddenPosition(pos.board, pos.turn, pos.last_from, pos.last_to, pos.hands)
        out.under, out.mover, out.unseen = pos.under, pos.mover, tuple(map(tuple, rows))
        out.history = (self.key(out),) if self.repetition else ()
        return out

    def _face_chance(self, pos: DescribedPosition) -> list[tuple[Move, float]]:
        at = getattr(pos, "reveal", -1)
        if at < 0:
            return []
        unseen: tuple[tuple[int, ...], ...] = pos.unseen  # type: ignore[attr-defined]
        face = self.face_down
        seats = range(len(unseen))
        if face.first_to_mover and unseen == face.pool:
            seats = range(pos.mover, pos.mover + 1)
        total = sum(sum(unseen[s]) for s in seats)
        code = self.c.code
        return [
            (((at,), (), ((at, code(s, t)),), TURN_UP), n / total)
            for s in seats
            for t, n in enumerate(unseen[s])
            if n
        ]

    def _face_legal(self, pos: DescribedPosition) -> list[Move]:
        if getattr(pos, "reveal", -1) >= 0:
            return [move for move, _ in self._face_chance(pos)]
        moves: list[Move] = self._plain["legal"](pos)
        # A face-down piece's move that ends where it began turns it up in place: written as
        # the position alone, as a drop is.
        return [((m[0][0],), *m[1:]) if len(m[0]) == 2 and m[0][0] == m[0][1] else m for m in moves]

    def _face_make(self, pos: DescribedPosition, move: Move) -> tuple[Any, ...]:
        hidden: HiddenPosition = pos  # type: ignore[assignment]
        if move[3] == TURN_UP:
            ((at, code),) = move[2]
            saved: tuple[Any, ...] = (
                TURN_UP,
                at,
                pos.board[at],
                hidden.unseen,
                pos.quiet,
                pos.history,
            )
            pos.board[at] = code
            owner, kind = self.c.owner[code], self.c.kind_of[code]
            rows = [list(row) for row in hidden.unseen]
            rows[owner][kind] -= 1
            hidden.unseen = tuple(tuple(row) for row in rows)
            hidden.reveal = -1
            pos.quiet = 0  # a piece turned up changes the game as a capture does
            if self.repetition:
                pos.history = (self.key(pos),)
            return saved
        saved = (0, self._plain["make"](pos, move))
        to = move[0][-1] if move[0] else -1
        if to >= 0 and self.c.kind_of[pos.board[to]] == self.face_down.kind:
            hidden.reveal = to
        return saved

    def _face_unmake(self, pos: DescribedPosition, saved: tuple[Any, ...]) -> None:
        hidden: HiddenPosition = pos  # type: ignore[assignment]
        if saved[0] == TURN_UP:
            _, at, was, hidden.unseen, pos.quiet, pos.history = saved
            pos.board[at] = was
            hidden.reveal = at
            return
        self._plain["unmake"](pos, saved[1])
        hidden.reveal = -1

    def _face_key(self, pos: DescribedPosition) -> tuple[Any, ...]:
        plain: tuple[Any, ...] = self._plain["key"](pos)
        return (*plain, getattr(pos, "unseen", ()), getattr(pos, "reveal", -1))

    def _face_outcome(
        self,
        pos: DescribedPosition,
        moves: list[Move] | None,
        perft: bool = False,
        *,
        repetition: bool = True,
    ) -> str | None:
        if getattr(pos, "reveal", -1) >= 0:
            return None  # chance acts: the game goes on
        found: str | None = self._plain["outcome"](pos, moves, perft, repetition=repetition)
        return found

    def _face_perft(self, pos: DescribedPosition, depth: int) -> int:
        """Move paths of ``depth`` moves: a chance node is no move, and each of its outcomes
        starts paths of its own (a turn-up after the last move is not looked at)."""
        if depth == 0 or getattr(pos, "reveal", -1) < 0:
            found: int = self._plain["perft"](pos, depth)
            return found
        total = 0
        for move, _ in self._face_chance(pos):
            saved = self.make(pos, move)
            total += self.perft(pos, depth)
            self.unmake(pos, saved)
        return total
