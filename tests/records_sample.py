"""Seeded games with a variation, as records: the games the record tests write and that
``tools/pdn_reference.py`` gives pydraughts to read (run as a script, it prints one).

    python tests/records_sample.py english-draughts 7 40
"""

from __future__ import annotations

import random
import sys

from game.logic.rules.catalogue import rulebook
from game.logic.rules.records import Record, check_record, graft, record_format, write_record
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.state import RulesState


def sample_record(game: str, seed: int, plies: int, branch: int = 3) -> Record:
    """A game of random moves (``random.Random(seed)``), at most ``plies`` long, with a
    second line that leaves it at the first ply from ``branch`` on that has another move,
    and plays on at random for half as long."""
    book = rulebook(game)
    rng = random.Random(seed)
    main = _random_line(book, RulesState(book, book.start()), rng, plies)
    record = Record(game, record_format(book), seed=seed)
    graft(record.moves, main)
    state = RulesState(book, book.start())
    for ply, (_seat, text) in enumerate(main):
        others = [m for m in state.legal_actions() if state.action_text(m) != text]
        if ply >= branch and others:
            break
        state = state.apply(state.parse_action(text))
    else:
        return check_record(book, record)
    if others:
        branch = ply
        first = rng.choice(others)
        seat, text = state.current_player(), state.action_text(first)
        rest = _random_line(book, state.apply(first), rng, plies // 2)
        graft(record.moves, [*main[:branch], (seat, text), *rest])
    return check_record(book, record)


def sample_text(game: str, seed: int, plies: int) -> str:
    """:func:`sample_record` in its game's format."""
    return write_record(rulebook(game), sample_record(game, seed, plies))


def _random_line(
    book: Rulebook, state: RulesState, rng: random.Random, plies: int
) -> list[tuple[int, str]]:
    line = []
    for _ in range(plies):
        if state.is_terminal():
            break
        move = rng.choice(list(state.legal_actions()))
        line.append((state.current_player(), state.action_text(move)))
        state = state.apply(move)
    return line


if __name__ == "__main__":
    sys.stdout.write(sample_text(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
