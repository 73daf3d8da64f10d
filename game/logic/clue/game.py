"""Cluedo as a :class:`~game.logic.contract.Game`: its options and its seats.

>>> import random
>>> game = ClueGame({"seats": 3})
>>> state = game.initial_state(random.Random(1))
>>> state.current_player()  # the deal comes first
-1
>>> game.seat_name(0), game.seats
('You', 3)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from game.logic.clue.deck import deck_names, detectives, load_deck
from game.logic.clue.determinize import read_view, stand_in
from game.logic.clue.rules import (
    MAX_SEATS,
    ROUND_CAP,
    SEATS,
    Action,
    Asking,
    ClueRules,
    ClueState,
    Phase,
)
from game.logic.contract import CHANCE, Agent, Game, State
from game.logic.match import Match
from game.logic.options import Option, OptionsSchema

__all__ = ["AGENT_NAMES", "OPTIONS", "ClueGame", "rules_from", "start_match"]

#: The computer players, strongest last but one (``article-bluff`` tests the others).
AGENT_NAMES: Final = ("random", "article", "exact-article", "full", "article-bluff")

OPTIONS: Final = OptionsSchema(
    (
        SEATS,
        Option("deck", str, "classic", choices=deck_names(), help="the cards played with"),
        Option(
            "opponent",
            str,
            "full",
            choices=AGENT_NAMES,
            help="the computer players' detective",
        ),
        ROUND_CAP,
        Option("human_playing", bool, True, help="you take seat 0", cli=False),
        Option(
            "people",
            int,
            1,
            minimum=1,
            maximum=MAX_SEATS,
            help="seats for people, the first ones (more than you: on a server, --host)",
        ),
    )
)


def rules_from(options: Mapping[str, Any]) -> ClueRules:
    """The rules for checked option values."""
    return ClueRules(
        load_deck(str(options["deck"])), int(options["seats"]), int(options["round_cap"])
    )


class ClueGame(Game[Action]):
    """Boardless Cluedo for 3 to 6 seats; the deal is chance, hands are hidden."""

    id = "clue"
    title = "Cluedo"
    returns_sum = None  # the winner scores 1; a game with no winner scores 0 for everyone
    hidden_chance = True  # the deal: the envelope and the others' hands

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(OPTIONS.validate(dict(options or {})))
        self.rules = rules_from(self.options)
        self.seats = self.rules.seats

    def initial_state(self, rng: random.Random, dealer: int | None = None) -> State[Action]:
        """Before the deal; the dealer is drawn from ``rng`` unless given (a table that
        plays several games passes the deal on to the left)."""
        if dealer is None:
            dealer = rng.randrange(self.seats)
        return ClueState.start(self.rules, dealer)

    def stand_in(self, view: Any, seat: int, rng: random.Random) -> State[Action] | None:
        """A deal ``seat`` cannot tell from the true one, with the phase, the turn and the
        suggestion being answered as seen (:func:`~game.logic.clue.determinize.stand_in`);
        raises ValueError for a view it cannot read, or one of the deal."""
        seen = read_view(self.rules.deck, view)
        course, seats = seen.course, self.rules.seats
        if course is None or course.phase in (Phase.ENVELOPE.value, Phase.DEAL.value):
            raise ValueError("the cards are being dealt: there is nothing to draw yet")
        if seen.seat != (seat if 0 <= seat < seats else None) or len(seen.hand_sizes) != seats:
            raise ValueError(f"not a view of seat {seat} at this table")
        ask, asking = course.asking, None
        if ask is not None:
            if ask.refuter is None:
                raise ValueError("a suggestion being answered names the seat asked")
            asking = Asking(ask.seat, ask.cards, ask.passed, ask.refuter)
        shell = ClueState(
            self.rules, course.dealer,
            hands=tuple(seen.hand if s == seen.seat else () for s in range(seats)),
            phase=Phase(course.phase), turn=course.turn, round=course.round, asking=asking,
            log=seen.events, winner=course.winner,
        )  # fmt: skip
        return stand_in(shell, seen, rng)

    def forced_action(self, state: State[Action]) -> Action | None:
        """A refuter who holds only one of the named cards shows it."""
        if isinstance(state, ClueState) and state.phase is Phase.REFUTE:
            actions = state.legal_actions()
            if len(actions) == 1:
                return actions[0]
        return None

    def result_text(self, state: State[Action]) -> str:
        assert isinstance(state, ClueState)
        envelope = self.rules.deck.triple_text(state.envelope)
        if state.winner is None:
            return f"nobody solved it: it was {envelope}"
        return f"{self.seat_name(state.winner)} solved it: {envelope}"

    def seat_name(self, seat: int) -> str:
        if seat == 0 and self.options.get("human_playing", True):
            return "You"
        names = detectives()
        return names[seat % len(names)]


def start_match(
    game: ClueGame,
    seats: Sequence[Agent[Action] | None],
    *,
    seed: int | None = None,
    dealer: int = 0,
    deal: bool = True,
    **match_options: Any,
) -> Match[Action]:
    """A :class:`~game.logic.match.Match` of ``game`` at a table where ``dealer`` deals. With
    ``deal`` the cards are dealt at once: the deal's chance steps drawn from ``seed`` (None: a
    random one, kept as ``match.seed``); without, the match waits before the deal (a kept
    record replays it). The window and the terminal both start with this, so one seed is one
    deal everywhere: the same hands and the same envelope. ``match_options`` go to the Match
    (limits, hint agent, thinking in the background)."""
    match: Match[Action] = Match(
        game, seats, seed=seed, start=ClueState.start(game.rules, dealer), **match_options
    )
    for _ in range(game.rules.deck.n_cards + 1 if deal else 0):  # a card a step, then a seat
        if match.state.current_player() != CHANCE:
            break
        match.poll()
    return match
