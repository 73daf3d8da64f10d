"""Detectives that accuse only when certain never accuse wrongly.

10,000 seeded games: 3 to 6 seats, the quick and the classic deck, tables that mix the
certainty-only detectives (``article``, ``random``, ``exact-article``, ``full-safe``) with
``article-bluff``, whose suggestions name its own cards and so mislead anyone who reads
suggestions as evidence. The exact detectives sit at one game in 25 (they cost more); every
game runs to its end, and every accusation a certainty-only detective makes must be right.
CI plays the first 500 (each exact detective still accuses three times there);
``benchmarks/slow_checks.py`` plays all 10,000.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from game.logic.clue.deck import load_deck
from game.logic.clue.roster import make_agent
from game.logic.clue.rules import ActionKind, ClueRules, ClueState
from game.logic.contract import CHANCE, Limits, Stop, sample_chance
from tests.deep import sized

GAMES = sized(500, 10_000)
CERTAIN_ONLY = ("article", "random", "exact-article", "full-safe")
CHEAP = ("article", "random", "article-bluff")


@pytest.mark.deep
def test_certainty_only_detectives_never_accuse_wrongly() -> None:
    accusations: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    decks = {name: load_deck(name) for name in ("quick", "classic")}
    limits = Limits(time=1)
    for seed in range(GAMES):
        rng = random.Random(seed)
        seats = 3 + seed % 4
        names = [rng.choice(CHEAP) for _ in range(seats)]
        if seed % 25 == 0:
            names[rng.randrange(seats)] = rng.choice(("exact-article", "full-safe"))
        deck = decks["classic" if seed % 5 == 0 else "quick"]
        agents = [make_agent(n) for n in names]
        state = ClueState.start(ClueRules(deck, seats), dealer=seed % seats)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            seat = state.current_player()
            action = agents[seat].choose(state, limits, rng, Stop())
            if action.kind is ActionKind.ACCUSE and names[seat] in CERTAIN_ONLY:
                accusations[names[seat]] += 1
                assert action.cards == state.envelope, (seed, names[seat], state.log)
            state = state.apply(action)
        if state.winner is not None:
            wins[names[state.winner]] += 1
    assert all(accusations[n] > 0 for n in CERTAIN_ONLY), accusations
    assert sum(accusations.values()) > GAMES // 2
