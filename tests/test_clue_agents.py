"""The exact detectives: they decide from what their seat sees, answer as their policy says,
keep their notebooks right across undo, and read opponents' suggestions as evidence without
ever taking it for certainty."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from game.logic.clue.deck import load_deck
from game.logic.clue.events import Accusation, Suggestion, View
from game.logic.clue.exact import ExactArticleAgent, FullAgent, NotebookCache
from game.logic.clue.notebook import Notebook
from game.logic.clue.roster import AGENTS, make_agent
from game.logic.clue.rules import ClueRules, ClueState
from game.logic.contract import CHANCE, Limits, Stop, sample_chance

DECK = load_deck("classic")


def c(name: str) -> int:
    return DECK.card(name)


def t(text: str) -> tuple[int, ...]:
    return DECK.triple(text)


def _play(seed: int, names: list[str], steps: int) -> ClueState:
    rng = random.Random(seed)
    agents = [make_agent(n) for n in names]
    state = ClueState.start(ClueRules(DECK, len(names)), dealer=seed % len(names))
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            seat = state.current_player()
            state = state.apply(agents[seat].choose(state, Limits(time=1), rng, Stop()))
    return state


def _swap_hidden(state: ClueState, seat: int) -> ClueState:
    """The same game as ``seat`` sees it, with two other seats' hands exchanged where the
    log allows it (cards no event involves)."""
    named = {card for e in state.log if isinstance(e, Suggestion) for card in e.cards}
    others = [p for p in range(state.rules.seats) if p != seat]
    a, b = others[0], others[1]
    free_a = [x for x in state.hands[a] if x not in named]
    free_b = [x for x in state.hands[b] if x not in named]
    if not free_a or not free_b:
        return state
    hands = list(state.hands)
    hands[a] = tuple(sorted((set(hands[a]) - {free_a[0]}) | {free_b[0]}))
    hands[b] = tuple(sorted((set(hands[b]) - {free_b[0]}) | {free_a[0]}))
    return replace(state, hands=tuple(hands))


@pytest.mark.parametrize("name", ["exact-article", "full"])
def test_decisions_depend_only_on_what_the_seat_sees(name: str) -> None:
    compared = 0
    for seed in range(12):
        state = _play(seed, ["article", "article", "article", "article"], 18 + 3 * seed)
        if state.is_terminal() or state.current_player() < 0:
            continue
        seat = state.current_player()
        other = _swap_hidden(state, seat)
        if other is state:
            continue
        assert other.observation(seat) == state.observation(seat)
        assert other.hands != state.hands
        first = make_agent(name).choose(state, Limits(time=1), random.Random(seed), Stop())
        second = make_agent(name).choose(other, Limits(time=1), random.Random(seed), Stop())
        assert first == second
        compared += 1
    assert compared >= 4


def test_the_cache_follows_undo() -> None:
    cache = NotebookCache()
    state = _play(3, ["article"] * 4, 40)
    view = state.observation(1)
    assert len(view.events) >= 3
    cache.of(view)
    shorter = View(view.deck, view.hand_sizes, view.seat, view.hand, view.events[:-2])
    again = cache.of(shorter)
    assert (again.probabilities == Notebook.of(shorter).probabilities).all()
    assert (cache.of(view).probabilities == Notebook.of(view).probabilities).all()


HAND = ("Scarlett", "Mustard", "Candlestick", "Kitchen", "Ballroom")
SIZES = (5, 5, 4, 4)


def _view(*events: Suggestion) -> View:
    return View(DECK, SIZES, 0, tuple(sorted(c(n) for n in HAND)), events)


def test_full_shows_what_the_suggester_has_seen_then_what_others_have() -> None:
    agent = FullAgent()
    rng = random.Random(0)
    seen = _view(
        Suggestion(1, t("Mustard, Rope, Hall"), (2, 3), 0, c("Mustard")),
        Suggestion(2, t("Scarlett, Rope, Hall"), (3,), 0, c("Scarlett")),
    )
    options = [c("Scarlett"), c("Mustard"), c("Kitchen")]
    assert agent.show(seen, options, 1, rng) == c("Mustard"), "seat 1 saw the Mustard"
    assert agent.show(seen, options, 3, rng) in (c("Scarlett"), c("Mustard"))
    assert agent.show(_view(), options, 3, rng) == c("Kitchen"), "one room of nine tells least"


def test_full_reads_suggestions_as_evidence_but_never_as_certainty() -> None:
    agent = FullAgent()
    # Seat 1 twice named the Plum; nobody refuted the second time but the viewer's own card.
    view = _view(
        Suggestion(1, t("Plum, Rope, Hall"), (2,), 3, None),
        Suggestion(1, t("Plum, Dagger, Study"), (2, 3, 0)),
    )
    book = agent.cache.of(view)
    behaviour = agent.behaviour(book)
    plum = c("Plum")
    assert behaviour[plum, 1] < book.probability(plum, 1) / 5, "a named card is rarely its own"
    assert book.possible(plum, 1) and book.holder(plum) is None
    assert agent.solution(view) is None or agent.solution(view) == book.solution()


def test_a_bluffer_is_trusted_less_once_caught() -> None:
    agent = FullAgent()
    honest = agent.eps(agent.cache.of(_view()))
    # Seat 1 named the Dagger, then showed it to the viewer: it names its own cards.
    caught = _view(
        Suggestion(1, t("Green, Dagger, Hall"), (2, 3, 0)),
        Suggestion(0, t("Plum, Dagger, Study"), (), 1, c("Dagger")),
    )
    assert agent.eps(agent.cache.of(caught))[1] > 2 * honest[1]


def test_every_detective_is_listed_and_plays_a_legal_action() -> None:
    assert {"random", "article", "exact-article", "full", "article-bluff"} <= set(AGENTS)
    state = _play(1, ["article"] * 3, 21)  # the deal (18 cards, 3 envelope) and a turn
    seat = state.current_player()
    assert seat >= 0
    for name in AGENTS:
        action = make_agent(name).choose(state, Limits(time=1), random.Random(0), Stop())
        assert action in state.legal_actions(), name
        assert make_agent(name).description


def test_exact_article_names_cards_most_seats_are_certain_not_to_hold() -> None:
    view = _view(Suggestion(2, t("Plum, Rope, Study"), (3, 0, 1)))
    pick = ExactArticleAgent().suggest(view, random.Random(0), Stop())
    assert pick == t("Plum, Rope, Study")


def test_games_of_full_against_article_end_with_a_right_accusation() -> None:
    for seed in range(5):
        state = _play(seed, ["full-safe", "article", "article"], 400)
        assert state.is_terminal() and state.winner is not None
        last = state.log[-1]
        assert isinstance(last, Accusation) and last.correct and last.cards == state.envelope


THREE = (6, 6, 6)
MINE = ("Scarlett", "Mustard", "Candlestick", "Dagger", "Kitchen", "Ballroom")


def _three(*events: Suggestion) -> View:
    return View(DECK, THREE, 0, tuple(sorted(c(n) for n in MINE)), events)


def test_full_bets_on_an_accusation_when_an_opponent_is_about_to_solve() -> None:
    agent = FullAgent()
    target = t("Plum, Rope, Study")
    # Seat 1 named three cards nobody could show: it knows them unless they are its own,
    # which detectives rarely name. The viewer's own suggestion was then answered.
    view = _three(
        Suggestion(1, target, (2, 0)),
        Suggestion(0, t("Green, Lead Pipe, Hall"), (), 1, c("Green")),
    )
    book = agent.cache.of(view)
    assert book.solution() is None, "not certain: seat 1 may hold some of them"
    assert agent.solution(view) == target
    reason = agent.certainty_reason()
    assert reason.startswith("a risk") and "of the deals" in reason, reason
    safe = make_agent("full-safe")
    assert safe.solution(view) is None


def test_full_waits_when_nobody_is_close() -> None:
    agent = FullAgent()
    view = _three(
        Suggestion(1, t("Plum, Rope, Study"), (), 2, None),
        Suggestion(0, t("Green, Lead Pipe, Hall"), (), 1, c("Green")),
    )
    assert agent.solution(view) is None


def test_rivals_are_replayed_with_their_own_hands_and_the_cards_shown_to_them() -> None:
    from game.logic.clue.rivals import rival_view, solves_soon, threat

    view = _three(Suggestion(1, t("Plum, Rope, Study"), (), 2, None))
    deal = [0] * DECK.n_cards
    rest = [x for x in range(DECK.n_cards) if x not in view.hand]
    envelope = (c("Green"), c("Revolver"), c("Hall"))
    others = [x for x in rest if x not in envelope]
    for x in envelope:
        deal[x] = 3
    # Seat 2 gets the Rope and five cards none of which seat 1 named; seat 1 the rest.
    named = {c("Plum"), c("Study")}
    for i, x in enumerate(sorted(others, key=lambda x: (x != c("Rope"), x in named, x))):
        deal[x] = 2 if i < 6 else 1
    seen = rival_view(view, deal, 1)
    assert seen.hand == tuple(x for x in range(DECK.n_cards) if deal[x] == 1)
    assert seen.events[0].shown == c("Rope"), "seat 2 holds the Rope: it is what seat 1 saw"
    assert rival_view(view, deal, 2).events[0].shown == c("Rope")
    assert threat(_three(), [deal], random.Random(0)) == 0.0, "nobody solves on the first turn"
    solved = _three(Suggestion(1, envelope, (2, 0)))  # nobody could show any of the three
    assert solves_soon(solved, deal, 1, random.Random(0))
    assert threat(solved, [deal], random.Random(0)) == 1.0


def test_a_rival_who_will_solve_with_its_next_suggestion_is_seen_coming() -> None:
    from game.logic.clue.article import ArticleNotes
    from game.logic.clue.rivals import rival_view, solves_soon, threat

    envelope = t("Plum, Rope, Study")
    # Seat 2 named the envelope and seats 0 and 1 passed: seat 1 does not know yet whether
    # seat 2 holds them, but those three are now its classic pick, and nobody refutes it.
    view = _three(Suggestion(2, envelope, (0, 1)))
    deal = [3 if x in envelope else 0 for x in range(DECK.n_cards)]
    others = [x for x in range(DECK.n_cards) if x not in envelope and x not in view.hand]
    for i, x in enumerate(others):
        deal[x] = 1 if i < 6 else 2
    assert ArticleNotes.of(rival_view(view, deal, 1)).solution() is None
    assert solves_soon(view, deal, 1, random.Random(0))
    assert threat(view, [deal], random.Random(0)) == 1.0


_ARTICLE = "per category, the unplaced card most players are known not to hold"
_FORCED = "the notebook has forced every category"
_SHOWN = "the card shown most often before tells the others the least"
_FULL = (
    "per category, the card likeliest to be in the envelope, counting every deal that agrees "
    "with what you have seen and weighing what the others' suggestions reveal"
)


#: Per detective: its words for a suggestion, an accusation and a card shown (the full
#: detectives word their accusation when they make it).
_WORDS = {
    "article": (_ARTICLE, _FORCED, _SHOWN),
    "article-bluff": (
        "the classic pick, sometimes with one of your own cards to mislead",
        _FORCED,
        _SHOWN,
    ),
    "random": ("random cards you have not seen", _FORCED, "one of them at random"),
    "exact-article": (
        "per category, the card most seats are certain not to hold",
        "every deal that agrees with what you have seen has these three in the envelope",
        _SHOWN,
    ),
    "full": (_FULL, "", _SHOWN),
    "full-safe": (_FULL, "", _SHOWN),
}


@pytest.mark.parametrize("name", sorted(_WORDS))
def test_each_detective_explains_its_choices_in_its_own_words(name: str) -> None:
    """The hint's words for a suggestion, an accusation and a card shown, per detective."""
    agent = make_agent(name)
    words = (agent.suggestion_reason(), agent.certainty_reason(), agent.show_reason())
    assert words == _WORDS[name]
