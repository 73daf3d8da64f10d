"""The rules of boardless Cluedo as a game state: the deal, suggestions, refutations and
accusations.

A game starts with chance: one card of each category goes into the envelope, then the rest
are dealt one at a time clockwise from the dealer's left (the first seats after the dealer get
the extra cards when they do not divide evenly). Seat 0 plays first. On its turn a seat may
accuse, or suggest any triple (one card per category, its own cards allowed). The seats to
its left are asked in turn: one who holds none of the three passes by itself; the first who
holds one shows one of them (their choice when they hold several) to the suggester alone.
Then the suggester may accuse or end the turn. A right accusation wins; a wrong one puts the
accuser out (they still refute). The game ends without a winner when everyone is out or after
``round_cap`` rounds.

>>> from game.logic.clue.deck import load_deck
>>> import random
>>> rules = ClueRules(load_deck("classic"), seats=3)
>>> state = ClueState.start(rules, dealer=2)
>>> while state.phase in (Phase.ENVELOPE, Phase.DEAL):
...     state = state.apply(random.Random(len(state.hands[0])).choice(
...         [a for a, _ in state.chance_outcomes()]))
>>> state.phase, state.current_player(), [len(h) for h in state.hands]
(<Phase.TURN: 'turn'>, 0, [6, 6, 6])
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, NamedTuple

from game.logic.clue.deck import Card, Deck, Triple, hand_sizes
from game.logic.clue.events import Accusation, Course, Event, Suggestion, View, seen_by
from game.logic.contract import CHANCE, TERMINAL, IllegalActionError, NotationError
from game.logic.options import Option
from game.logic.quoting import excerpt

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "ROUND_CAP",
    "SEATS",
    "Action",
    "ActionKind",
    "Asking",
    "ClueRules",
    "ClueState",
    "Phase",
    "advice",
]

MIN_SEATS: Final = 3
MAX_SEATS: Final = 6


class ActionKind(enum.Enum):
    """What an action does."""

    ENVELOPE = "envelope"  # chance: this card goes into the envelope
    DEAL = "deal"  # chance: this card goes to the next seat
    SUGGEST = "suggest"
    SHOW = "show"  # a refuter shows this card to the suggester
    ACCUSE = "accuse"
    END = "end"  # the suggester ends the turn without accusing


class Action(NamedTuple):
    kind: ActionKind
    cards: tuple[Card, ...] = ()


END: Final = Action(ActionKind.END)


def advice(deck: Deck, action: Action, reason: str = "") -> str:
    """``action`` as advice to the seat that plays it, with the ``reason`` after a colon: a
    sentence for the hint.

    >>> from game.logic.clue.deck import load_deck
    >>> deck = load_deck("classic")
    >>> advice(deck, END, "the envelope is not certain yet")
    'End your turn: the envelope is not certain yet.'
    >>> advice(deck, Action(ActionKind.SUGGEST, deck.triple("plum, rope, hall")))
    'Suggest Professor Plum, Rope, Hall.'
    """
    if action.kind is ActionKind.END:
        text = "End your turn"
    elif action.kind is ActionKind.SHOW:
        text = f"Show {deck.name(action.cards[0])}"
    else:
        text = f"{action.kind.value.capitalize()} {deck.triple_text(action.cards)}"
    return f"{text}: {reason}." if reason else f"{text}."


class Phase(enum.Enum):
    ENVELOPE = "envelope"
    DEAL = "deal"
    TURN = "turn"  # the seat to play suggests or accuses
    REFUTE = "refute"  # a refuter chooses the card to show
    AFTER = "after"  # after the answer: accuse or end the turn
    OVER = "over"


#: The options of the rules, declared once: the game's options schema
#: (:data:`game.logic.clue.game.OPTIONS`), :class:`ClueRules` and the case file read them.
SEATS: Final = Option(
    "seats", int, 4, minimum=MIN_SEATS, maximum=MAX_SEATS, help="players at the table"
)
ROUND_CAP: Final = Option(
    "round_cap", int, 100, minimum=1, maximum=1000,
    help="rounds after which the game ends with no winner",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class ClueRules:
    """The deck, the number of seats and the round cap; fixed for a game. The seats and the
    round cap are checked by their options (:data:`SEATS`, :data:`ROUND_CAP`): an
    :class:`~game.logic.options.OptionError` names a bad one."""

    deck: Deck
    seats: int
    round_cap: int = ROUND_CAP.default

    def __post_init__(self) -> None:
        SEATS.check(self.seats, strict=True)
        ROUND_CAP.check(self.round_cap, strict=True)
        free = self.deck.n_cards - len(self.deck.categories)
        if free < self.seats:
            raise ValueError(
                f"the {self.deck.id} deck leaves {free} cards to deal, "
                f"fewer than {self.seats} seats"
            )

    @property
    def dealt(self) -> int:
        """Cards dealt to the players."""
        return self.deck.n_cards - len(self.deck.categories)


@dataclass(frozen=True, slots=True)
class Asking:
    """A suggestion whose answer round is under way."""

    seat: int
    cards: Triple
    passed: tuple[int, ...]
    refuter: int


@dataclass(frozen=True, slots=True)
class ClueState:
    """One moment of a game; immutable (``apply`` returns a new state)."""

    rules: ClueRules
    dealer: int
    envelope: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    phase: Phase = Phase.ENVELOPE
    turn: int = 0
    round: int = 1
    asking: Asking | None = None
    log: tuple[Event, ...] = ()
    winner: int | None = None
    _legal: list[Action] | None = field(default=None, init=False, compare=False, repr=False)

    @classmethod
    def start(cls, rules: ClueRules, dealer: int = 0) -> ClueState:
        if not 0 <= dealer < rules.seats:
            raise ValueError(f"dealer must be a seat 0..{rules.seats - 1}, not {dealer}")
        return cls(rules, dealer, hands=((),) * rules.seats)

    @classmethod
    def dealt(
        cls, rules: ClueRules, envelope: Triple, hands: Sequence[Sequence[Card]], dealer: int = 0
    ) -> ClueState:
        """A game after a given deal (tests, the assistant's worked examples)."""
        state = cls.start(rules, dealer)
        for card in envelope:
            state = state.apply(Action(ActionKind.ENVELOPE, (card,)))
        queues = [sorted(h) for h in hands]
        while state.phase is Phase.DEAL:
            seat = state.next_recipient()
            if not queues[seat]:
                raise ValueError(f"seat {seat} was given too few cards for this deal")
            state = state.apply(Action(ActionKind.DEAL, (queues[seat].pop(0),)))
        if any(queues):
            raise ValueError("a hand was given more cards than the deal gives it")
        return state

    # -- the contract ---------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase in (Phase.ENVELOPE, Phase.DEAL):
            return CHANCE
        if self.phase is Phase.OVER:
            return TERMINAL
        if self.phase is Phase.REFUTE:
            assert self.asking is not None
            return self.asking.refuter
        return self.turn

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            object.__setattr__(self, "_legal", self._actions())
        assert self._legal is not None
        return list(self._legal)

    def _actions(self) -> list[Action]:
        phase = self.phase
        if phase in (Phase.ENVELOPE, Phase.DEAL):
            return [a for a, _ in self.chance_outcomes()]
        if phase is Phase.TURN:
            triples = list(self.rules.deck.triples())
            return [Action(ActionKind.SUGGEST, t) for t in triples] + [
                Action(ActionKind.ACCUSE, t) for t in triples
            ]
        if phase is Phase.REFUTE:
            assert self.asking is not None
            return [Action(ActionKind.SHOW, (c,)) for c in self.matching(self.asking.refuter)]
        if phase is Phase.AFTER:
            return [END] + [Action(ActionKind.ACCUSE, t) for t in self.rules.deck.triples()]
        return []

    def _allows(self, action: Action) -> bool:
        """Whether ``action`` is legal now, without listing every legal action."""
        kind, phase = action.kind, self.phase
        if kind in (ActionKind.SUGGEST, ActionKind.ACCUSE):
            if phase is not Phase.TURN and not (phase is Phase.AFTER and kind is ActionKind.ACCUSE):
                return False
            ranges = self.rules.deck.ranges
            cards = action.cards
            return (
                isinstance(cards, tuple)
                and len(cards) == len(ranges)
                and all(isinstance(c, int) and c in r for c, r in zip(cards, ranges, strict=True))
            )
        if kind is ActionKind.END:
            return phase is Phase.AFTER and action.cards == ()
        if kind is ActionKind.SHOW:
            return phase is Phase.REFUTE and action in self.legal_actions()
        return False

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase is Phase.ENVELOPE:
            cards = self.rules.deck.ranges[len(self.envelope)]
            return [(Action(ActionKind.ENVELOPE, (c,)), 1 / len(cards)) for c in cards]
        if self.phase is Phase.DEAL:
            taken = set(self.envelope).union(*self.hands)
            free = [c for c in range(self.rules.deck.n_cards) if c not in taken]
            return [(Action(ActionKind.DEAL, (c,)), 1 / len(free)) for c in free]
        return []

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def returns(self) -> tuple[float, ...]:
        return tuple(
            1.0 if self.phase is Phase.OVER and seat == self.winner else 0.0
            for seat in range(self.rules.seats)
        )

    def key(self) -> Hashable:
        return (
            self.dealer, self.envelope, self.hands, self.phase, self.turn, self.round,
            self.asking, self.log, self.winner,
        )  # fmt: skip

    def observation(self, seat: int) -> View:
        """What ``seat`` sees: its hand, the events with the cards shown to others hidden
        (during the deal, the cards it has been dealt so far), and where the game stands
        (the phase, whose turn, the suggestion being answered: the whole table sees them)."""
        hand = self.hands[seat] if 0 <= seat < self.rules.seats else ()
        viewer = seat if 0 <= seat < self.rules.seats else None
        ask = self.asking
        asking = None if ask is None else Suggestion(ask.seat, ask.cards, ask.passed, ask.refuter)
        course = Course(self.dealer, self.phase.value, self.turn, self.round, asking, self.winner)
        return View(
            self.rules.deck,
            self.hand_sizes,
            viewer,
            hand,
            tuple(seen_by(e, viewer) for e in self.log),
            course,
        )

    def determinizer(self, seat: int) -> Callable[[random.Random], ClueState]:
        """For the generic searches (:mod:`game.logic.search`): a function that draws a
        state ``seat`` cannot tell from this one, from its observation alone
        (:func:`~game.logic.clue.determinize.determinizer`)."""
        from game.logic.clue.determinize import determinizer

        return determinizer(self, seat)

    def apply(self, action: Action) -> ClueState:
        if not isinstance(action, Action):
            raise IllegalActionError(f"not a Cluedo action: {action!r}")
        kind = action.kind
        if self.phase in (Phase.ENVELOPE, Phase.DEAL):
            if action not in [a for a, _ in self.chance_outcomes()]:
                raise IllegalActionError(f"{action} is not a card still to deal")
            if kind is ActionKind.ENVELOPE:
                envelope = self.envelope + action.cards
                done = len(envelope) == len(self.rules.deck.categories)
                return replace(
                    self, envelope=envelope, phase=Phase.DEAL if done else Phase.ENVELOPE,
                )  # fmt: skip
            seat = self.next_recipient()
            hands = list(self.hands)
            hands[seat] = tuple(sorted(hands[seat] + action.cards))
            done = sum(map(len, hands)) == self.rules.dealt
            return replace(self, hands=tuple(hands), phase=Phase.TURN if done else Phase.DEAL)
        if self.phase is Phase.OVER:
            raise IllegalActionError("the game is over")
        if not self._allows(action):
            raise IllegalActionError(
                f"{self.action_text(action)!r} is not legal now ({self.phase.value})"
            )
        if kind is ActionKind.SUGGEST:
            return self._ask(Asking(self.turn, action.cards, (), self.turn))
        if kind is ActionKind.SHOW:
            assert self.asking is not None
            ask = self.asking
            event = Suggestion(ask.seat, ask.cards, ask.passed, ask.refuter, action.cards[0])
            return replace(self, asking=None, log=(*self.log, event), phase=Phase.AFTER)
        if kind is ActionKind.ACCUSE:
            correct = tuple(action.cards) == self.envelope
            accusation = Accusation(self.turn, action.cards, correct)
            if correct:
                return replace(
                    self, log=(*self.log, accusation), phase=Phase.OVER, winner=self.turn
                )
            return replace(self, log=(*self.log, accusation))._next_turn()
        return self._next_turn()  # END

    # -- notation -------------------------------------------------------------------------

    def action_text(self, action: Action) -> str:
        deck = self.rules.deck
        if action.kind is ActionKind.END:
            return "end"
        # Slashes, not commas: a comma ends an item of ``gamehall shot --do``.
        return f"{action.kind.value} {' / '.join(deck.name(c) for c in action.cards)}"

    def parse_action(self, text: str) -> Action:
        """``suggest Plum / Dagger / Hall`` (commas may stand for the slashes), ``accuse ...``,
        ``show Dagger``, ``end``, ``deal Hall``, ``envelope Plum``; card names in any case, or
        a unique start."""
        verb, _, rest = text.strip().partition(" ")
        try:
            kind = ActionKind(verb.lower())
        except ValueError:
            raise NotationError(
                f"{excerpt(text)}: start with one of {', '.join(k.value for k in ActionKind)}"
            ) from None
        deck = self.rules.deck
        if kind is ActionKind.END:
            if rest.strip():
                raise NotationError(f"{excerpt(text)}: 'end' takes no cards")
            return END
        try:
            if kind in (ActionKind.SUGGEST, ActionKind.ACCUSE):
                return Action(kind, deck.triple(rest))
            return Action(kind, (deck.card(rest),))
        except ValueError as exc:
            raise NotationError(f"{excerpt(text)}: {exc}") from None

    # -- what the rules say ---------------------------------------------------------------

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return hand_sizes(self.rules.seats, self.rules.dealt, self.dealer)

    def next_recipient(self) -> int:
        """The seat the next dealt card goes to."""
        dealt = sum(map(len, self.hands))
        return (self.dealer + 1 + dealt) % self.rules.seats

    def matching(self, seat: int) -> list[Card]:
        """The cards of the suggestion under way that ``seat`` holds."""
        assert self.asking is not None
        return [c for c in self.asking.cards if c in self.hands[seat]]

    def out(self) -> frozenset[int]:
        """The seats that accused wrongly."""
        return frozenset(e.seat for e in self.log if isinstance(e, Accusation) and not e.correct)

    def _ask(self, ask: Asking) -> ClueState:
        """The next seat to the left is asked; seats holding nothing pass by themselves."""
        seats = self.rules.seats
        passed = list(ask.passed)
        seat = ask.refuter
        while True:
            seat = (seat + 1) % seats
            if seat == ask.seat:
                event = Suggestion(ask.seat, ask.cards, tuple(passed))
                return replace(self, asking=None, log=(*self.log, event), phase=Phase.AFTER)
            if any(c in self.hands[seat] for c in ask.cards):
                asking = Asking(ask.seat, ask.cards, tuple(passed), seat)
                return replace(self, asking=asking, phase=Phase.REFUTE)
            passed.append(seat)

    def _next_turn(self) -> ClueState:
        out = self.out()
        seats = self.rules.seats
        if len(out) == seats:
            return replace(self, phase=Phase.OVER, asking=None)
        seat, round_ = self.turn, self.round
        while True:
            seat = (seat + 1) % seats
            if seat == 0:
                round_ += 1
            if seat not in out:
                break
        if round_ > self.rules.round_cap:
            return replace(self, phase=Phase.OVER, asking=None)
        return replace(self, turn=seat, round=round_, phase=Phase.TURN, asking=None)
