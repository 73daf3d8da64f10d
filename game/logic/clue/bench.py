"""Figures for ``gamehall bench clue``: how fast the notebook follows a game, how long the
``full`` detective takes to choose a suggestion, and how many of its own suggestions it needs
when nobody else suggests.

One line per seat count::

    seats=6 update_p50_ms=3.1 update_p99_ms=27.0 suggest_p99_ms=40.2 accuse_p99_ms=60.1
        solo_suggestions_mean=8.1 ...

* update: one more event for the notebook (exact counting, every probability), timed at
  every event of seeded games of ``full`` against ``article`` detectives, from the ``full``
  seat's view;
* suggest: the ``full`` detective's suggestion decision in those games (its notebook is up to
  date; the time is the opponent model and the choice);
* accuse: its decision after its suggestion is answered, accuse or end the turn (the
  envelope's joint distribution and, when a bet is close, the others replayed in sampled
  deals);
* solo: only ``full`` suggests, the others only answer (showing as the article detective
  does); its suggestions until its notebook is certain, mean over seeded deals (at most 60).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator

from game.logic.clue.agents import ArticleAgent
from game.logic.clue.deck import hand_sizes, load_deck
from game.logic.clue.events import Suggestion, View, answer_order
from game.logic.clue.exact import FullAgent
from game.logic.clue.notebook import Notebook
from game.logic.clue.rules import ClueRules, ClueState, Phase
from game.logic.contract import CHANCE, Limits, Stop, sample_chance

__all__ = ["bench_lines", "long_case", "solo_suggestions"]

SOLO_CAP = 60


def bench_lines(
    seats_list: tuple[int, ...] = (3, 4, 5, 6), games: int = 40, solo: int = 100, seed: int = 0
) -> Iterator[str]:
    """One line per seat count (see the module docstring)."""
    for seats in seats_list:
        updates, suggests, accuses = _game_times(seats, games, seed)
        solos = [solo_suggestions(seats, seed * 1_000_003 + i) for i in range(solo)]
        yield (
            f"seats={seats} update_p50_ms={_ms(updates, 0.5)} update_p99_ms={_ms(updates, 0.99)} "
            f"suggest_p99_ms={_ms(suggests, 0.99)} accuse_p99_ms={_ms(accuses, 0.99)} "
            f"solo_suggestions_mean={statistics.fmean(solos):.2f} "
            f"solo_median={statistics.median(solos):g} "
            f"solo_p90={sorted(solos)[int(0.9 * (len(solos) - 1))]} updates={len(updates)}"
        )


def _ms(times: list[float], q: float) -> str:
    ordered = sorted(times)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"


def _game_times(seats: int, games: int, seed: int) -> tuple[list[float], list[float], list[float]]:
    updates: list[float] = []
    suggests: list[float] = []
    accuses: list[float] = []
    deck = load_deck("classic")
    for g in range(games):
        rng = random.Random(seed * 7919 + g)
        state = ClueState.start(ClueRules(deck, seats), dealer=g % seats)
        while state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        full = FullAgent()
        article = ArticleAgent()
        book = Notebook.of(state.observation(0))
        seen = 0
        while not state.is_terminal():
            view = state.observation(0)
            for event in view.events[seen:]:
                start = time.perf_counter()
                book = book.extended(event)
                book.probabilities  # noqa: B018 (part of the update's cost)
                updates.append(time.perf_counter() - start)
            seen = len(view.events)
            seat = state.current_player()
            if seat == 0 and state.phase is Phase.TURN and full.solution(view) is None:
                full.cache.of(view)  # bring its notebook up to date first
                start = time.perf_counter()
                action = full.choose(state, Limits(time=1), rng, Stop())
                suggests.append(time.perf_counter() - start)
            elif seat == 0 and state.phase is Phase.AFTER:
                full.cache.of(view)
                start = time.perf_counter()
                action = full.choose(state, Limits(time=1), rng, Stop())
                accuses.append(time.perf_counter() - start)
            else:
                agent = full if seat == 0 else article
                action = agent.choose(state, Limits(time=1), rng, Stop())
            state = state.apply(action)
    return updates, suggests, accuses


def solo_suggestions(seats: int, seed: int) -> int:
    """``full`` alone suggests (seat 0) from a seeded deal; the others only answer."""
    deck = load_deck("classic")
    rng = random.Random(seed)
    sizes = hand_sizes(seats, deck.n_cards - len(deck.categories), seed % seats)
    cards = list(range(deck.n_cards))
    envelope = tuple(rng.choice(r) for r in deck.ranges)
    rest = [c for c in cards if c not in envelope]
    rng.shuffle(rest)
    hands: list[tuple[int, ...]] = []
    for size in sizes:
        hands.append(tuple(sorted(rest[:size])))
        rest = rest[size:]
    full = FullAgent(risky=False)
    article = ArticleAgent()
    events: list[Suggestion] = []
    for count in range(SOLO_CAP + 1):
        view = View(deck, sizes, 0, hands[0], tuple(events))
        if full.solution(view) is not None:
            return count
        triple = full.suggest(view, rng, Stop())
        passed = []
        event = Suggestion(0, triple, (), None, None)
        for seat in range(1, seats):
            matching = [c for c in triple if c in hands[seat]]
            if not matching:
                passed.append(seat)
                continue
            others = View(deck, sizes, seat, hands[seat], tuple(events))
            shown = matching[0] if len(matching) == 1 else article.show(others, matching, 0, rng)
            event = Suggestion(0, triple, tuple(passed), seat, shown)
            break
        else:
            event = Suggestion(0, triple, tuple(passed))
        events.append(event)
    return SOLO_CAP


def long_case(events: int, seats: int = 4, seed: int = 1) -> View:
    """Seat 0's view of ``events`` random suggestions at a table of ``seats`` with a seeded
    deal, each answered as the rules ask (a case file as long as a person may keep one;
    what ``benchmarks/clue_load.py`` opens)."""
    deck = load_deck("classic")
    rng = random.Random(seed)
    envelope = tuple(rng.choice(r) for r in deck.ranges)
    rest = [c for c in range(deck.n_cards) if c not in envelope]
    rng.shuffle(rest)
    sizes = hand_sizes(seats, len(rest), seats - 1)
    hands: list[tuple[int, ...]] = []
    for size in sizes:
        hands.append(tuple(sorted(rest[:size])))
        rest = rest[size:]
    log: list[Suggestion] = []
    for _ in range(events):
        seat = rng.randrange(seats)
        triple = tuple(rng.choice(r) for r in deck.ranges)
        passed: list[int] = []
        event = Suggestion(seat, triple, (), None, None)
        for asked in answer_order(seat, seats):
            matching = [c for c in triple if c in hands[asked]]
            if matching:
                shown = rng.choice(matching) if 0 in (seat, asked) else None
                event = Suggestion(seat, triple, tuple(passed), asked, shown)
                break
            passed.append(asked)
        else:
            event = Suggestion(seat, triple, tuple(passed))
        log.append(event)
    return View(deck, sizes, 0, hands[0], tuple(log))
