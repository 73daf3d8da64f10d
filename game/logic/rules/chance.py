"""Chance in a described game: the rulebook's part for dice (``(dice ...)``,
:mod:`game.logic.rules.dice`) and for captured pieces that go back to their owner's hand
(``(rules (captured-home))``).

A position whose ``throw`` is None is a chance node: its moves are the throws (one action
each, ``((), (), VALUES, THROW)``), and playing one sets ``throw``; every move of a player
clears it, so the dice are thrown again before the next turn (the same player's, after
``again``). The move programs read the throw as the count ``thrown``. A player whom the throw
leaves without a move passes where the game says ``(pass-when-stuck)``.

Nothing here runs for a game without dice or ``captured-home``: :meth:`Chance.take_chance`
puts its wrappers on the rulebook in place of ``legal``, ``pseudo``, ``make``, ``unmake`` and
``key`` only for such a game, so every other game plays through the rulebook's own methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.logic.contract import NotationError
from game.logic.rules.dice import Dice, throw_text
from game.logic.rules.per_die import play_each_die
from game.logic.rules.position import PASS, THROW, DescribedPosition, Move

if TYPE_CHECKING:
    from game.logic.rules.compile import Compiled
    from game.logic.rules.design import Design

__all__ = ["Chance"]


class Chance:
    """The rulebook's mixin for dice and pieces sent home."""

    design: Design
    c: Compiled
    #: The game's dice (None: no chance).
    dice: Dice | None = None
    #: Each distinct throw's action and its probability.
    throws: tuple[tuple[Move, float], ...] = ()

    if TYPE_CHECKING:
        legal: Callable[[DescribedPosition], list[Move]]
        pseudo: Callable[[DescribedPosition], list[Move]]
        make: Callable[[DescribedPosition, Move], tuple[Any, ...]]
        unmake: Callable[[DescribedPosition, tuple[Any, ...]], None]
        key: Callable[[DescribedPosition], tuple[Any, ...]]

    def take_chance(self) -> None:
        """Put the wrappers for dice and pieces sent home in place of the plain methods."""
        design = self.design
        dice = self.dice = design.dice
        if dice is not None:
            self.throws = tuple(
                (((), (), values, THROW), p)  # type: ignore[misc]
                for values, p in dice.outcomes()
            )
        throw_moves = [move for move, _ in self.throws]
        thrown = self.c.namespace.get("THROWN")  # type: ignore[attr-defined]
        home = design.captured_home
        passes = design.pass_when_stuck
        legal, pseudo, make, unmake, key = self.legal, self.pseudo, self.make, self.unmake, self.key

        def chance_legal(pos: DescribedPosition) -> list[Move]:
            if dice is not None and pos.throw is None:
                return list(throw_moves)
            moves = legal(pos)
            if not moves and passes and dice is not None:
                return [PASS]  # the throw allows no move: the turn passes
            return moves

        def chance_pseudo(pos: DescribedPosition) -> list[Move]:
            if thrown is not None:
                thrown[0] = sum(pos.throw) if pos.throw else 0
            return pseudo(pos)

        def chance_make(pos: DescribedPosition, move: Move) -> tuple[Any, ...]:
            before = pos.throw
            if move[3] == THROW:
                pos.throw = move[2]  # type: ignore[assignment]
                return (None, before)
            b = pos.board
            taken = [b[p] for p in move[1]] if home else []
            saved = make(pos, move)
            if taken:
                owner, kind_of = self.c.owner, self.c.kind_of
                hands = [list(row) for row in pos.hands]
                for v in taken:
                    if v:
                        hands[owner[v]][kind_of[v]] += 1
                pos.hands = tuple(tuple(row) for row in hands)
            if dice is not None:
                pos.throw = None
            return (saved, before)

        def chance_unmake(pos: DescribedPosition, saved: tuple[Any, ...]) -> None:
            inner, before = saved
            if inner is not None:
                unmake(pos, inner)
            pos.throw = before

        def chance_key(pos: DescribedPosition) -> tuple[Any, ...]:
            return (key(pos), pos.throw)

        throws = self.throws

        def chance_outcomes(pos: DescribedPosition) -> tuple[tuple[Move, float], ...]:
            return throws if dice is not None and pos.throw is None else ()

        # Instance attributes: they stand before the class's methods for this rulebook only.
        vars(self).update(
            legal=chance_legal,
            pseudo=chance_pseudo,
            make=chance_make,
            unmake=chance_unmake,
            key=chance_key,
            chance=chance_outcomes,  # what the state and the search cursor ask
        )
        if dice is not None and dice.each:
            play_each_die(self)  # type: ignore[arg-type]  # a turn die by die: rules.per_die

    def chance_at(self, pos: DescribedPosition) -> bool:
        """Whether chance acts at ``pos`` (the dice are to be thrown)."""
        return self.dice is not None and pos.throw is None

    def chance_text(self, pos: DescribedPosition, text: str) -> str:
        """``text`` (the position's) with the pieces in hand and the throw, where the game
        has them: ``... / White to move / in hand: White 3, Black 7 / roll 2``."""
        if self.design.hands:
            hands = ", ".join(
                f"{name} {sum(row)}"
                for name, row in zip(self.design.players, pos.hands, strict=True)
            )
            text += f" / in hand: {hands}"
        if pos.throw is not None:
            text += " / " + throw_text(pos.throw)
        return text

    def chance_read(self, text: str, read: Callable[[str], DescribedPosition]) -> DescribedPosition:
        """The position ``text`` gives, read by ``read`` but for the parts
        :meth:`chance_text` adds."""
        parts = [p.strip() for p in text.split("/")]
        throw: tuple[int, ...] | None = None
        hands: list[int] | None = None
        rest = []
        for part in parts:
            if part.startswith("roll "):
                try:
                    throw = tuple(int(v) for v in part[5:].split("-"))
                except ValueError:
                    raise NotationError(f"{part!r}: a throw is roll N or roll N-M") from None
                if self.dice and not self._may_throw(throw):
                    raise NotationError(f"{part!r} is not a throw of this game's dice")
            elif part.startswith("in hand:"):
                hands = self._hand_counts(part[8:])
            else:
                rest.append(part)
        pos = read(" / ".join(rest))
        if hands is not None:
            pos.hands = tuple(self._hand_row(p, n) for p, n in enumerate(hands))
        pos.throw = throw
        return pos

    def _may_throw(self, throw: tuple[int, ...]) -> bool:
        """Whether ``throw`` is a throw of the dice (played die by die: dice a turn may have
        left)."""
        assert self.dice is not None
        if self.dice.each:
            most = max(self.dice.count, self.dice.doubles)
            return 0 < len(throw) <= most and set(throw) <= set(self.dice.faces)
        return throw in [v for v, _ in self.dice.outcomes()]

    def _hand_counts(self, text: str) -> list[int]:
        counts = [0] * len(self.design.players)
        for item in filter(None, (t.strip() for t in text.split(","))):
            who, _, n = item.rpartition(" ")
            if who not in self.design.players or not n.isdigit() or int(n) > 1000:
                raise NotationError(f"{item!r}: a player and a number, as 'White 3'")
            counts[self.design.players.index(who)] = int(n)
        return counts

    def _hand_row(self, player: int, n: int) -> tuple[int, ...]:
        """A hand of ``n`` pieces of the type the player's hand starts with."""
        start = self.design.hands.get(player, {})
        kind = next(iter(start), 0)
        return tuple(n if t == kind else 0 for t in range(len(self.design.pieces)))
