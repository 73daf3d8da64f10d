"""A described game as a game of the contract (:mod:`game.logic.contract`): :class:`RulesGame`
and its immutable :class:`RulesState`.

A state holds a frozen copy of a rulebook's :class:`~game.logic.rules.rulebook.DescribedPosition`;
its legal actions are the rulebook's moves (tuples, hashable, in generation order) and its action
text is the move's notation: the path (:mod:`game.logic.rules.notation`), or the game's short
notation where its description declares one (SAN for chess, :mod:`game.logic.rules.san`).
Either is read back.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from game.logic.contract import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    NotationError,
    sample_chance,
)
from game.logic.rules.compile import PROGRAM
from game.logic.rules.design import Design
from game.logic.rules.notation import move_texts, parse_move, position_text
from game.logic.rules.rulebook import PASS, DescribedPosition, Move, Rulebook
from game.logic.rules.san import san_suffix, san_texts, strip_suffix

__all__ = ["RulesGame", "RulesState"]


class RulesState:
    """One position of a described game; behaves as immutable."""

    __slots__ = ("_key", "_legal", "_outcome", "_short", "_texts", "pos", "rulebook", "stands_in")

    def __init__(self, rulebook: Rulebook, pos: DescribedPosition) -> None:
        self.rulebook = rulebook
        self.pos = pos
        self._legal: list[Move] | None = None
        self._outcome: str | bool | None = False
        self._texts: list[str] | None = None
        self._short: list[str] | None = None
        self._key: tuple[Any, ...] | None = None
        #: Whether this is a stand-in (:meth:`RulesGame.stand_in`): its unseen types made up.
        self.stands_in = False

    # -- the contract ----------------------------------------------------------------------

    def moves(self) -> list[Move]:
        """The legal moves, whatever the end conditions say (see :meth:`legal_actions`)."""
        if self._legal is None:
            self._legal = self.rulebook.legal(self.pos)
        return self._legal

    def outcome(self) -> str | None:
        """How the game ended ("win" or "loss" for the player who moved last, "draw",
        "count"), or None while it goes on."""
        if self._outcome is False:
            self._outcome = self.rulebook.outcome(self.pos, self.moves())
        return self._outcome  # type: ignore[return-value]

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.rulebook.chance(self.pos) else self.rulebook.seat(self.pos)

    def legal_actions(self) -> Sequence[Move]:
        return [] if self.is_terminal() else self.moves()

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def apply(self, action: Move) -> RulesState:
        """The state after ``action``; raises IllegalActionError for a move not legal here,
        and RulesError (a ValueError) for one into a position past the rulebook's bounds."""
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if action not in self.moves():
            try:
                text = self.action_text(action)
            except Exception:  # not a move of this rulebook at all
                text = repr(action)[:80]
            raise IllegalActionError(f"{text} is not a legal move here.")
        pos = self.pos.copy()
        self.rulebook.make(pos, action)
        child = RulesState(self.rulebook, pos)
        # Its moves, needed next in any case: a move into a position whose moves pass a bound
        # of game.logic.rules.limits is refused here (RulesError, naming the form), so that no
        # state a match holds fails when it is asked whether the game is over.
        child.moves()
        return child

    def returns(self) -> tuple[float, ...]:
        return self.rulebook.returns(self.pos, self.outcome())

    def key(self) -> Hashable:
        if self._key is None:
            self._key = self.rulebook.key(self.pos)
        return self._key

    def texts(self) -> list[str]:
        """The path notation of each legal move, in order (distinct): ``e2-e4``, the names
        of the board's commands."""
        if self._texts is None:
            self._texts = move_texts(self.rulebook, self.pos, self.moves())
        return self._texts

    def short_texts(self) -> list[str]:
        """Each legal move in the game's short notation without a check mark (SAN's
        ``Nf3``), or :meth:`texts` where the game has none."""
        if self.rulebook.design.move_format != "san":
            return self.texts()
        if self._short is None:
            self._short = san_texts(self.rulebook, self.pos, self.moves(), self.texts())
        return self._short

    def action_text(self, action: Move) -> str:
        """The move as the record writes it: the short notation where the game has one
        (``Nf3+``), else the path (``e2-e4``)."""
        moves = self.moves()
        try:
            index = moves.index(action)
        except ValueError:
            return move_texts(self.rulebook, self.pos, [action])[0]
        if self.rulebook.design.move_format != "san":
            return self.texts()[index]
        return self.short_texts()[index] + san_suffix(self.rulebook, self.pos, action)

    def describe(self, action: Move) -> str:
        """The move in long form, naming the piece and the move program that made it:
        ``Pawn double-step e2-e4``, ``Man jump-ne 11x18x25``, ``pass``."""
        moves = self.moves()
        text = self.texts()[moves.index(action)] if action in moves else self.action_text(action)
        if action[3] < 0:
            return text
        kind, program, _kind, _drop = self.rulebook.c.programs[action[3] & PROGRAM]
        return f"{self.rulebook.design.pieces[kind].name} {program} {text}"

    def parse_action(self, text: str) -> Move:
        if self.is_terminal():
            raise NotationError("the game is over: there is no move to name")
        moves = self.moves()
        try:
            return parse_move(self.rulebook, self.pos, moves, self.texts(), text)
        except NotationError:
            if self.rulebook.design.move_format != "san":
                raise
            short = strip_suffix(text)
            for move, name in zip(moves, self.short_texts(), strict=True):
                if name == short:
                    return move
            raise

    def chance_outcomes(self) -> Sequence[tuple[Move, float]]:
        return list(self.rulebook.chance(self.pos))

    def observation(self, seat: int) -> Hashable:
        """What ``seat`` sees: the whole position, but where pieces are concealed
        (:mod:`game.logic.rules.concealed`) the others' unrevealed types are blanks."""
        if self.rulebook.design.concealed is None:
            return self.key()
        return self.rulebook.observe(self.pos, seat)

    def hidden_from(self, seat: int) -> list[int]:
        """The positions of the pieces whose type ``seat`` cannot see (concealed ones)."""
        if self.rulebook.design.concealed is None:
            return []
        seen = self.rulebook.observe(self.pos, seat)[0]  # type: ignore[index]
        return [p for p, v in enumerate(seen) if v < 0]

    def __getattr__(self, name: str) -> Any:
        # ``determinizer(seat)`` (game.logic.search.cursor) only where pieces are concealed,
        # so that the searches treat every other game as one of perfect information.
        if name != "determinizer" or self.rulebook.design.concealed is None:
            raise AttributeError(name)
        return self._determinizer

    def _determinizer(self, seat: int) -> Any:
        rulebook, pos = self.rulebook, self.pos
        return lambda rng: RulesState(rulebook, rulebook.determinize(pos, seat, rng))

    def search_cursor(self) -> Any:
        """The generic searches' cursor (:mod:`game.logic.search`): make/unmake on a copy of
        the rulebook's position, captures first, the description's evaluation."""
        from game.logic.rules.cursor import RulesCursor

        return RulesCursor(self.rulebook, self.pos.copy())

    # -- for views and agents ------------------------------------------------------------

    @property
    def design(self) -> Design:
        return self.rulebook.design

    def pieces(self) -> list[tuple[int, int, str]]:
        """Every piece on the board: (position, owner, type name); a position of counters
        once, and a piece any player may move, owned by no one (-1)."""
        c = self.rulebook.c
        names = [p.name for p in self.rulebook.design.pieces]
        if self.rulebook.design.counters:
            return [(i, -1, names[0]) for i, v in enumerate(self.pos.board) if v]
        shared = self.rulebook.shared
        return [
            (i, -1 if c.kind_of[v] in shared else c.owner[v], names[c.kind_of[v]])
            for i, v in enumerate(self.pos.board)
            if v
        ]

    def winning(self) -> list[int]:
        """At a won end: the positions of the winning line or chain ([] otherwise)."""
        return self.rulebook.winning(self.pos) if self.is_terminal() else []

    def scores(self) -> list[int]:
        """Each player's count so far: pieces on the board, or their counters in the score
        zone (a store), before what the end adds."""
        return self.rulebook.counts(self.pos, final=self.is_terminal())

    def hands(self) -> list[dict[str, int]]:
        """Each player's pieces in hand, by type name (only the types a game counts)."""
        names = [p.name for p in self.rulebook.design.pieces]
        hands = self.pos.hands
        if not hands or not self.rulebook.limited_hands:
            return [{} for _ in self.rulebook.design.players]
        return [{names[t]: n for t, n in enumerate(row) if n} for row in hands]

    def dropped(self, action: Move) -> str | None:
        """The type name of the piece ``action`` takes from the mover's hand (a drop), or
        None for a move of a piece on the board, a pass or a throw."""
        if action[3] < 0 or not self.rulebook.limited_hands:
            return None
        kind, _, _, drop = self.rulebook.c.programs[action[3] & PROGRAM]
        return self.rulebook.design.pieces[kind].name if drop else None

    def stacks(self) -> list[tuple[int, list[tuple[int, str]]]]:
        """Every occupied position with its pieces bottom to top as (owner, type name); one
        piece each except in a game of stacks."""
        c = self.rulebook.c
        names = [p.name for p in self.rulebook.design.pieces]
        under = self.pos.under
        out: list[tuple[int, list[tuple[int, str]]]] = []
        if self.rulebook.design.counters:  # n counters: a stack of n, owned by no one
            return [(i, [(-1, names[0])] * v) for i, v in enumerate(self.pos.board) if v]
        for i, v in enumerate(self.pos.board):
            if not v:
                continue
            below = under[i] if under is not None else ()
            out.append(
                (
                    i,
                    [
                        (
                            -1 if c.kind_of[u] in self.rulebook.shared else c.owner[u],
                            names[c.kind_of[u]],
                        )
                        for u in (*below, v)
                    ],
                )
            )
        return out

    def text(self) -> str:
        """The position in the game's own notation (FEN, PDN, ...)."""
        return position_text(self.rulebook, self.pos)

    def __repr__(self) -> str:
        return f"RulesState({self.rulebook.design.id}: {self.text()})"


class RulesGame(Game[Move]):
    """A game made from a description; ``options`` may hold ``position`` (start text)."""

    returns_sum = 0.0

    def __init__(self, rulebook: Rulebook, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.rulebook = rulebook
        self.id = rulebook.design.id
        self.title = rulebook.design.title
        self.seats = rulebook.players

    def initial_state(self, rng: random.Random) -> RulesState:
        from game.logic.rules.notation import read_position

        text = self.options.get("position") or ""
        pos = read_position(self.rulebook, text) if text else self.rulebook.start()
        return RulesState(self.rulebook, pos)

    def stand_in(self, view: Any, seat: int, rng: random.Random) -> RulesState | None:
        """Where pieces are concealed, a position ``seat`` cannot tell from the true one,
        made from its view (:meth:`~game.logic.rules.concealed.ConcealedRules.stand_in`);
        None for every other game (a public one needs none)."""
        if self.rulebook.design.concealed is None:
            return None
        state = RulesState(self.rulebook, self.rulebook.stand_in(view, seat, rng))
        state.stands_in = True
        return state

    def ready_engine(self) -> str:
        """The first compile of the description's compiled back end, started in a worker
        process (:func:`game.logic.rules.compiled.worker.readying`)."""
        from game.logic.rules.compiled.worker import readying

        return readying(self.rulebook.design)

    def forced_action(self, state: Any) -> Move | None:
        moves = state.legal_actions()
        if len(moves) == 1 and not moves[0][0]:
            return PASS
        return None

    def tournament_start(self, rng: random.Random) -> RulesState:
        """Two random plies from the start, so deterministic agents meet varied games."""
        state = self.initial_state(rng)
        for _ in range(2):
            moves = state.legal_actions()
            if not moves:
                break
            chance = state.current_player() == CHANCE  # a throw, by its chance
            state = state.apply(sample_chance(state, rng) if chance else rng.choice(list(moves)))
        return state

    def step_cap(self) -> int | None:
        return 1000

    def result_text(self, state: Any) -> str:
        scores = state.returns()
        if len(scores) == 1:  # a puzzle, played alone
            return "solved" if scores[0] > 0 else "lost" if scores[0] < 0 else "not solved"
        if max(scores) == min(scores):
            return "a draw"
        winner = scores.index(max(scores))
        return f"{self.rulebook.design.players[winner]} won"

    def seat_name(self, seat: int) -> str:
        return self.rulebook.design.players[seat]
