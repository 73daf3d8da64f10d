"""What the generic searches walk: a :class:`Cursor` over a game's tree, and the two hooks a
game may offer them.

A cursor stands on one position and moves: ``play(action)`` goes down (returning what
``undo`` needs to come back), ``fork()`` gives an independent cursor on the same position.
:class:`StateCursor` is the default, over any :class:`~game.logic.contract.State` of the contract
(``apply`` makes a new state, ``undo`` drops it). A game whose states can do better offers
the hooks below as optional methods of its states:

* ``search_cursor()``: a cursor of the game's own (make/unmake on a mutable position, the
  game's move ordering in ``actions()`` and its evaluation in ``evaluate(seat)``);
* ``determinizer(seat)``: for a game with hidden information, a function that draws, with the
  ``rng`` it is given, a full state that ``seat`` cannot tell from this one (one agreeing with
  ``observation(seat)``; Cluedo draws a deal its notebook allows). The searches then never
  read what the seat cannot see.

>>> from game.logic.search.cursor import StateCursor
>>> class Count:  # a game of one seat: add 1 or 2, reach 3
...     def __init__(self, n): self.n = n
...     def current_player(self): return -4 if self.n >= 3 else 0
...     def legal_actions(self): return [] if self.n >= 3 else [1, 2]
...     def apply(self, a): return Count(self.n + a)
...     def returns(self): return (1.0,) if self.n == 3 else (0.0,)
...     def key(self): return self.n
...     def chance_outcomes(self): return []
>>> cursor = StateCursor(Count(0))
>>> token = cursor.play(2)
>>> cursor.key(), cursor.actions()
(2, [1, 2])
>>> cursor.undo(token)
>>> cursor.key()
0
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol, TypeVar

from game.logic.contract import CHANCE, Limits, State, Stop

__all__ = [
    "Cursor",
    "SearchAgent",
    "StateCursor",
    "choices",
    "cursor_of",
    "draw_cursor",
    "reward",
    "winning",
]

A = TypeVar("A")


class Cursor(Protocol[A]):
    """A walk through a game's tree for a search; see the module docstring."""

    def to_move(self) -> int:
        """The seat to act, :data:`~game.logic.contract.CHANCE` or
        :data:`~game.logic.contract.TERMINAL`."""
        ...

    def actions(self) -> Sequence[A]:
        """The legal actions, in the state's order; empty once the game is over."""
        ...

    def ordered(self) -> list[A]:
        """The legal actions, those likeliest to be best first: alpha-beta tries them in this
        order (the game's move ordering; the state's order when it has none)."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[A, float]]:
        """At a chance node, each outcome with its probability; else empty."""
        ...

    def play(self, action: A) -> object:
        """Go down by ``action`` (legal here); returns what :meth:`undo` takes."""
        ...

    def undo(self, token: object) -> None:
        """Come back from the last :meth:`play`, given what it returned."""
        ...

    def key(self) -> Hashable:
        """The position's key (the transposition table's), as ``State.key()``."""
        ...

    def returns(self) -> tuple[float, ...]:
        """One number per seat, as ``State.returns()``: the result once the game is over."""
        ...

    def evaluate(self, seat: int) -> float:
        """How good the unfinished position is for ``seat``: 0 is even, and a win counts
        far more than any judgement (:data:`~game.logic.search.alphabeta.WIN`)."""
        ...

    def fork(self) -> Cursor[A]:
        """An independent cursor on the same position."""
        ...


class StateCursor:
    """The default cursor over any state of the contract: a stack of immutable states.

    Its evaluation is 0 for every unfinished position (the search then only sees the ends),
    unless the state offers ``evaluate(seat)`` itself.
    """

    __slots__ = ("_stack",)

    def __init__(self, state: State[Any]) -> None:
        self._stack: list[State[Any]] = [state]

    @property
    def state(self) -> State[Any]:
        """The state the cursor stands on."""
        return self._stack[-1]

    def to_move(self) -> int:
        return self._stack[-1].current_player()

    def actions(self) -> Sequence[Any]:
        return self._stack[-1].legal_actions()

    def ordered(self) -> list[Any]:
        return list(self._stack[-1].legal_actions())

    def chance_outcomes(self) -> Sequence[tuple[Any, float]]:
        return self._stack[-1].chance_outcomes()

    def play(self, action: Any) -> object:
        self._stack.append(self._stack[-1].apply(action))
        return None

    def undo(self, token: object) -> None:
        self._stack.pop()

    def key(self) -> Hashable:
        return self._stack[-1].key()

    def returns(self) -> tuple[float, ...]:
        return self._stack[-1].returns()

    def evaluate(self, seat: int) -> float:
        judge = getattr(self._stack[-1], "evaluate", None)
        return float(judge(seat)) if callable(judge) else 0.0

    def fork(self) -> StateCursor:
        return StateCursor(self._stack[-1])


def cursor_of(state: State[Any]) -> Cursor[Any]:
    """The state's own cursor (its ``search_cursor()``) or a :class:`StateCursor`."""
    own = getattr(state, "search_cursor", None)
    if callable(own):
        return own()  # type: ignore[no-any-return]
    return StateCursor(state)


def draw_cursor(state: State[Any], seat: int) -> Callable[[random.Random], Cursor[Any]]:
    """A function giving, for an ``rng``, a cursor on a state ``seat`` cannot tell from
    ``state``: one drawn by the game's ``determinizer(seat)`` where it has one (hidden
    information), else a fork of a cursor on ``state`` itself (nothing is hidden)."""
    own = getattr(state, "determinizer", None)
    if callable(own):
        draw = own(seat)
        return lambda rng: cursor_of(draw(rng))
    root = cursor_of(state)
    return lambda rng: root.fork()


def reward(scores: Sequence[float], seat: int) -> float:
    """``seat``'s share of a result, from 0 (the worst score) to 1 (the best); 0.5 when all
    scores are equal (a draw, or a game stopped before its end)."""
    low, high = min(scores), max(scores)
    if high == low:
        return 0.5
    return (scores[seat] - low) / (high - low)


def winning(scores: Sequence[float], seat: int) -> int:
    """+1 when ``seat`` scored more than every other seat, -1 when another scored more than
    it, 0 otherwise (a draw). A game of one seat: the sign of its score."""
    mine = scores[seat]
    others = [s for i, s in enumerate(scores) if i != seat]
    best = max(others) if others else 0.0
    return (mine > best) - (mine < best)


def choices(state: State[Any]) -> tuple[int, list[Any]]:
    """The seat to move and its legal actions; raises ValueError where no seat chooses (the
    game is over, or chance acts)."""
    if state.is_terminal():
        raise ValueError("the game is over: there is no action to choose")
    seat = state.current_player()
    if seat == CHANCE:
        raise ValueError("chance acts here (a deal, a roll): no seat chooses")
    moves = list(state.legal_actions())
    if not moves:
        raise ValueError(f"seat {seat} has no legal action here")
    return seat, moves


class SearchAgent:
    """What the generic searches share: the one line that says why the last action was chosen
    (:meth:`explain`) and the answer without a search where only one action is legal; a search
    writes :meth:`search` and sets ``_said``."""

    def __init__(self) -> None:
        self._said = ""

    def explain(self) -> str:
        return self._said

    def choose(self, state: State[Any], limits: Limits, rng: random.Random, stop: Stop) -> Any:
        _seat, moves = choices(state)
        if len(moves) == 1:
            self._said = "the only move"
            return moves[0]
        return self.search(state, limits, rng, stop)

    def search(self, state: State[Any], limits: Limits, rng: random.Random, stop: Stop) -> Any:
        """The action for the seat to move, where two or more are legal."""
        raise NotImplementedError
