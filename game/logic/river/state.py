"""Priests and Devils: the judge and the actions, click by click.

:class:`RiverState` is what the player sees: who stands ashore on each bank, who sits in the
boat, and where the boat is docked; it is the game contract's state
(:class:`game.logic.contract.State`): one seat, actions :class:`BoardBoat`, :class:`Unboard` and
:class:`Cross` with the text forms ``board:priest``, ``unboard:devil`` and ``boat``. It
judges with the rules' counting (:mod:`game.logic.river.rules`): by default passengers
count for the bank where the boat is docked, so boarding and unboarding never change the
counts and never lose a game; only a crossing can. The win needs everyone *ashore* on the
right bank, so it comes with the last passenger stepping off there: judge after every action.

>>> state = RiverState.start(RiverRules())
>>> [state.action_text(a) for a in state.legal_actions()]
['board:priest', 'board:devil']
>>> state = state.apply(state.parse_action("board:devil")).apply(Cross())
>>> str(state), state.crossings, state.current_player()
('PPPDD ~~~ [D] -', 1, 0)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TypeAlias

from game.logic.contract import TERMINAL
from game.logic.river.rules import (
    Crossing,
    Goal,
    IllegalRiverActionError,
    InvalidActionError,
    Kind,
    Load,
    Outcome,
    RiverRules,
    RiverSettingError,
    Rowers,
    Side,
    people,
)

__all__ = ["Action", "BoardBoat", "Cross", "RiverState", "Unboard", "Verdict", "parse_action"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's answer: the outcome, and for a win or loss the bank and its counts.

    While playing, ``side`` is ``None``, the counts are 0 and the message is empty.
    """

    outcome: Outcome
    side: Side | None
    priests: int
    devils: int
    message: str

    def __str__(self) -> str:
        return self.message or self.outcome.value


@dataclass(frozen=True, slots=True)
class BoardBoat:
    """Put one character of ``kind``, ashore where the boat is docked, into the boat."""

    kind: Kind

    def __str__(self) -> str:
        return f"board:{self.kind.value}"


@dataclass(frozen=True, slots=True)
class Unboard:
    """Put one passenger of ``kind`` ashore on the bank where the boat is docked."""

    kind: Kind

    def __str__(self) -> str:
        return f"unboard:{self.kind.value}"


@dataclass(frozen=True, slots=True)
class Cross:
    """Row the boat, with its passengers, to the other bank."""

    def __str__(self) -> str:
        return "boat"


Action: TypeAlias = BoardBoat | Unboard | Cross


def parse_action(text: str) -> Action:
    """Read an action from the text ``str(action)`` gives; case and outer spaces are ignored.

    Raises :class:`InvalidActionError` (an :class:`IllegalRiverActionError`) for any other text.

    >>> parse_action(" Board:Priest "), parse_action("boat")
    (BoardBoat(kind=<Kind.PRIEST: 'priest'>), Cross())
    """
    action = _ACTIONS_BY_TEXT.get(text.strip().lower())
    if action is None:
        raise InvalidActionError(
            f"unknown action {text!r}; expected one of {', '.join(_ACTIONS_BY_TEXT)}"
        )
    return action


@dataclass(frozen=True, slots=True)
class RiverState:
    """What the player sees: who is ashore on each bank, who is in the boat, and where it is.

    ``left`` and ``right`` count the characters standing ashore; ``boat`` counts passengers;
    ``crossings`` counts the trips made so far. Plain ``(priests, devils)`` tuples are accepted
    and stored as :class:`Load`. Raises :class:`RiverSettingError` when the counts do not add
    up to the rules' teams or the boat holds more than its seats. A state may be lost; it
    just accepts no more actions.
    """

    rules: RiverRules
    left: Load
    right: Load
    boat: Load
    boat_side: Side
    crossings: int = 0

    def __post_init__(self) -> None:
        for name in ("left", "right", "boat"):
            load = Load(*getattr(self, name))
            if load.priests < 0 or load.devils < 0:
                raise RiverSettingError(f"{name} must not be negative, got {tuple(load)}")
            object.__setattr__(self, name, load)  # frozen: the documented way to normalise
        total = Load(
            self.left.priests + self.right.priests + self.boat.priests,
            self.left.devils + self.right.devils + self.boat.devils,
        )
        if total != self.rules.start_load:
            raise RiverSettingError(
                f"the state holds {total}, the rules {self.rules.key()} need "
                f"{self.rules.start_load}"
            )
        if self.boat.size > self.rules.capacity:
            raise RiverSettingError(
                f"boat holds {self.boat.size} but has {self.rules.capacity} seats"
            )
        if self.crossings < 0:
            raise RiverSettingError(f"crossings must not be negative, got {self.crossings}")

    @classmethod
    def start(cls, rules: RiverRules) -> RiverState:
        """Everyone ashore on the left bank; the boat docked there, empty."""
        return cls(rules, rules.start_load, Load(0, 0), Load(0, 0), Side.LEFT)

    @classmethod
    def from_crossing(cls, rules: RiverRules, node: Crossing, crossings: int = 0) -> RiverState:
        """The state of graph node ``node`` with everyone ashore and the boat empty.

        Raises :class:`RiverSettingError` if ``node`` has more people than the rules.
        """
        left = Load(node.left_priests, node.left_devils)
        right = Load(rules.priests - left.priests, rules.devils - left.devils)
        if right.priests < 0 or right.devils < 0:
            raise RiverSettingError(f"crossing {node} does not fit the rules {rules.key()}")
        return cls(rules, left, right, Load(0, 0), node.boat, crossings)

    def ashore(self, side: Side) -> Load:
        """The characters standing ashore on ``side`` (passengers not included)."""
        return self.left if side is Side.LEFT else self.right

    def counts(self, side: Side) -> Load:
        """The characters that count for ``side``: ashore, plus passengers if docked there
        (when the rules count passengers for the bank; otherwise only those ashore)."""
        ashore = self.ashore(side)
        if side is not self.boat_side or not self.rules.boat_counts:
            return ashore
        return Load(ashore.priests + self.boat.priests, ashore.devils + self.boat.devils)

    def crossing(self) -> Crossing:
        """The graph node of this state: who is on the left side, passengers of a boat docked
        there included (whatever the rules count for safety), and the boat's side."""
        left = self.left
        if self.boat_side is Side.LEFT:
            left = Load(left.priests + self.boat.priests, left.devils + self.boat.devils)
        return Crossing(left.priests, left.devils, self.boat_side)

    def verdict(self) -> Verdict:
        """Judge the state.

        Lost when some bank has at least one priest and more devils than priests (counting
        passengers for the bank where the boat is docked, if the rules say so), or when the
        boat is stranded: nobody at its bank (ashore or aboard) may row it. Won when the goal
        is met: everyone (or every priest) stands ashore on the right bank; passengers still
        aboard there do not count yet. The message says which bank and why.
        """
        outcome, side = self._judge()
        if outcome is Outcome.PLAYING or side is None:
            return Verdict(Outcome.PLAYING, None, 0, 0, "")
        counts = self.counts(side)
        if outcome is Outcome.WON:
            won = counts if self.rules.goal is Goal.EVERYONE else Load(counts.priests, 0)
            return Verdict(outcome, side, counts.priests, counts.devils, _win_message(won))
        if 0 < counts.priests < counts.devils:
            where = (
                ""
                if self.rules.boat_counts
                else " (ashore; the boat's passengers count for no bank)"
            )
            message = (
                f"Devils outnumber priests on the {side.value} bank{where}: "
                f"{people(counts.devils, Kind.DEVIL)}, {people(counts.priests, Kind.PRIEST)}."
            )
        else:
            rowers = self.rules.rowers
            message = (
                f"The boat is stranded on the {side.value} bank: {rowers.describe()}, and "
                f"there are no {rowers.value} there to row it, so nobody can cross again."
            )
        return Verdict(outcome, side, counts.priests, counts.devils, message)

    def outcome(self) -> Outcome:
        """Where the game stands: what :meth:`verdict` says, without the message."""
        return self._judge()[0]

    def is_terminal(self) -> bool:
        """Whether the game is over (won or lost)."""
        return self._judge()[0] is not Outcome.PLAYING

    def returns(self) -> tuple[float]:
        """The player's score, OpenSpiel style: 1 won, -1 lost, 0 still playing."""
        outcome = self._judge()[0]
        return (1.0 if outcome is Outcome.WON else -1.0 if outcome is Outcome.LOST else 0.0,)

    def current_player(self) -> int:
        """0, the only seat, while playing; :data:`~game.logic.contract.TERMINAL` once over."""
        return TERMINAL if self.is_terminal() else 0

    def legal_actions(self) -> list[Action]:
        """The actions allowed now, in the order: board priest, board devil, unboard priest,
        unboard devil, boat. Empty once the game is over."""
        if self.is_terminal():
            return []
        ashore = self.ashore(self.boat_side)
        actions: list[Action] = []
        if self.boat.size < self.rules.capacity:
            actions.extend(BoardBoat(kind) for kind in Kind if ashore.of(kind))
        actions.extend(Unboard(kind) for kind in Kind if self.boat.of(kind))
        if self.rules.rowers.can_row(self.boat):
            actions.append(Cross())
        return actions

    def apply(self, action: Action) -> RiverState:
        """The state after ``action``; this state is unchanged.

        Raises :class:`IllegalRiverActionError` with the reason: "the game is over", "the boat is
        full", "no priest ashore on the left bank", "no devil in the boat", "the boat is
        empty", "only priests row: put a priest in the boat". A crossing adds one to
        ``crossings``.
        """
        if self.is_terminal():
            raise IllegalRiverActionError("the game is over")
        side = self.boat_side
        if isinstance(action, BoardBoat):
            if self.boat.size >= self.rules.capacity:
                raise IllegalRiverActionError("the boat is full")
            ashore = self.ashore(side)
            if not ashore.of(action.kind):
                raise IllegalRiverActionError(
                    f"no {action.kind.value} ashore on the {side.value} bank"
                )
            return self._moved(side, _minus(ashore, action.kind), _plus(self.boat, action.kind))
        if isinstance(action, Unboard):
            if not self.boat.size:
                raise IllegalRiverActionError("the boat is empty")
            if not self.boat.of(action.kind):
                raise IllegalRiverActionError(f"no {action.kind.value} in the boat")
            ashore = _plus(self.ashore(side), action.kind)
            return self._moved(side, ashore, _minus(self.boat, action.kind))
        if isinstance(action, Cross):
            if not self.boat.size:
                raise IllegalRiverActionError("the boat is empty")
            rowers = self.rules.rowers
            if not rowers.can_row(self.boat):
                kind = rowers.value[:-1]
                raise IllegalRiverActionError(f"{rowers.describe()}: put a {kind} in the boat")
            return RiverState(
                self.rules, self.left, self.right, self.boat, side.other, self.crossings + 1
            )
        raise InvalidActionError(f"not a river action: {action!r}")

    def key(self) -> tuple[str, int, int, int, int, str]:
        """A hashable form of the position: the rules' key, left ashore, passengers, boat side.

        The ``crossings`` counter is left out, so the same position reached by different
        routes has the same key.
        """
        return (
            self.rules.key(),
            self.left.priests,
            self.left.devils,
            self.boat.priests,
            self.boat.devils,
            self.boat_side.value,
        )

    def action_text(self, action: Action) -> str:
        """The notation of ``action``: ``board:priest``, ``unboard:devil`` or ``boat``.

        Raises :class:`InvalidActionError` for anything that is not a river action.
        """
        if not isinstance(action, BoardBoat | Unboard | Cross):
            raise InvalidActionError(f"not a river action: {action!r}")
        return str(action)

    def parse_action(self, text: str) -> Action:
        """The action ``text`` names (see :func:`parse_action`); legal or not in this state."""
        return parse_action(text)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Nothing in this game is left to chance: always empty."""
        return []

    def observation(self, seat: int) -> Hashable:
        """Nothing is hidden: the :meth:`key`."""
        return self.key()

    def __str__(self) -> str:
        left, right = _short(self.left), _short(self.right)
        boat = f"[{_short(self.boat)}]"
        if self.boat_side is Side.LEFT:
            return f"{left} {boat} ~~~ {right}"
        return f"{left} ~~~ {boat} {right}"

    def _judge(self) -> tuple[Outcome, Side | None]:
        rules = self.rules
        for side in Side:
            counts = self.counts(side)
            if 0 < counts.priests < counts.devils:
                return Outcome.LOST, side
        if rules.goal is Goal.EVERYONE:
            if self.right == rules.start_load:
                return Outcome.WON, Side.RIGHT
        elif self.right.priests == rules.priests:
            return Outcome.WON, Side.RIGHT
        side = self.boat_side
        if rules.rowers is not Rowers.ANYONE:
            here = self.ashore(side)
            if not rules.rowers.can_row(
                Load(here.priests + self.boat.priests, here.devils + self.boat.devils)
            ):
                return Outcome.LOST, side
        return Outcome.PLAYING, None

    def _moved(self, side: Side, ashore: Load, boat: Load) -> RiverState:
        if side is Side.LEFT:
            return RiverState(self.rules, ashore, self.right, boat, side, self.crossings)
        return RiverState(self.rules, self.left, ashore, boat, side, self.crossings)


def _win_message(counts: Load) -> str:
    if counts.size == 1:
        kind = Kind.PRIEST if counts.priests else Kind.DEVIL
        return f"The {kind.value} reached the right bank."
    parts = [people(n, kind) for n, kind in zip(counts, Kind, strict=True) if n]
    return f"All {' and '.join(parts)} reached the right bank."


def _short(load: Load) -> str:
    return "P" * load.priests + "D" * load.devils or "-"


def _plus(load: Load, kind: Kind) -> Load:
    if kind is Kind.PRIEST:
        return Load(load.priests + 1, load.devils)
    return Load(load.priests, load.devils + 1)


def _minus(load: Load, kind: Kind) -> Load:
    if kind is Kind.PRIEST:
        return Load(load.priests - 1, load.devils)
    return Load(load.priests, load.devils - 1)


_EVERY_ACTION: tuple[Action, ...] = (
    BoardBoat(Kind.PRIEST),
    BoardBoat(Kind.DEVIL),
    Unboard(Kind.PRIEST),
    Unboard(Kind.DEVIL),
    Cross(),
)
_ACTIONS_BY_TEXT: dict[str, Action] = {str(action): action for action in _EVERY_ACTION}
