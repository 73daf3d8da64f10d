"""Bad descriptions: 200 mutated copies of the shipped files each give a clear error (one
that names the file, and the line and column where there is one) or a playable game, never a
traceback or a hang."""

from __future__ import annotations

import random
import re

import pytest

from game.logic.contract import GameError
from game.logic.rules.catalogue import made_rulebook, path_of, shipped
from game.logic.rules.design import parse
from game.logic.rules.rulebook import RulesError
from game.logic.rules.sexpr import DescriptionError

CASES = 200
TOKEN = re.compile(r'"[^"\n]*"|[()]|[^\s()";]+')


def _mutate(text: str, rng: random.Random) -> str:
    tokens = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
    words = [text[a:b] for a, b in tokens if text[a] not in '()"']
    start, end = rng.choice(tokens)
    kind = rng.randrange(7)
    if kind == 0:  # delete a token
        return text[:start] + text[end:]
    if kind == 1:  # another word of the file in its place
        return text[:start] + rng.choice(words) + text[end:]
    if kind == 2:  # a number in its place, sometimes an absurd one
        number = rng.choice([0, -1, 1, 2, 3, 7, 40, 99999, 10**12])
        return text[:start] + str(number) + text[end:]
    if kind == 3:  # a stray parenthesis
        return text[:start] + rng.choice("()") + text[start:]
    if kind == 4:  # a token said twice
        return text[:end] + " " + text[start:end] + text[end:]
    if kind == 5:  # two tokens swapped
        other_start, other_end = rng.choice(tokens)
        if other_start < start:
            start, end, other_start, other_end = other_start, other_end, start, end
        if other_start < end:
            return text
        return (
            text[:start]
            + text[other_start:other_end]
            + text[end:other_start]
            + text[start:end]
            + text[other_end:]
        )
    # a whole form removed
    opens = [a for a, b in tokens if text[a] == "("]
    at = rng.choice(opens)
    depth, i = 0, at
    while i < len(text):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[:at] + text[i + 1 :]
        i += 1
    return text


def _play(text: str, source: str, rng: random.Random) -> str:
    """What happened: "error" (a DescriptionError with a located message) or "played"."""
    try:
        rulebook = made_rulebook(parse(text, source))  # Go's rulebook where (groups ...)
    except DescriptionError as exc:
        message = str(exc)
        assert message.startswith(source), message
        assert exc.reason and "Traceback" not in message
        return "error"
    pos = rulebook.start()
    try:
        rulebook.perft(pos.copy(), 2)
    except RulesError as exc:  # a game whose captures branch without end is refused
        assert str(exc).startswith(source), exc
        return "error"
    from game.logic.rules.state import RulesState

    state = RulesState(rulebook, pos)
    for _ in range(40):
        if state.is_terminal():
            break
        moves = list(state.legal_actions())
        move = rng.choice(moves)
        assert state.parse_action(state.action_text(move)) == move
        try:
            state = state.apply(move)
        except RulesError as exc:  # a move into a position past a bound is refused
            assert str(exc).startswith(source), exc
            return "error"
    state.returns()
    return "played"


@pytest.mark.slow
def test_mutated_descriptions_give_a_clear_error_or_a_playable_game() -> None:
    rng = random.Random(2026)
    games = shipped()
    texts = {g: path_of(g).read_text(encoding="utf-8") for g in games}
    seen = {"error": 0, "played": 0}
    for case in range(CASES):
        game = games[case % len(games)]
        text = texts[game]
        for _ in range(1 if case % 2 else rng.randint(2, 3)):
            text = _mutate(text, rng)
        source = f"mutant-{case}-{game}.txt"
        try:
            seen[_play(text, source, rng)] += 1
        except GameError as exc:
            pytest.fail(f"{source}: the game refused its own move: {exc}\n{text}")
    # Both kinds happen: the mutations are not all fatal, nor all harmless.
    assert seen["error"] >= 40 and seen["played"] >= 15, seen
