"""Check (a royal piece must not be left attacked): the engine probes again only the
programs whose positions a move changed. These tests set it beside probing every program
after every move, on chess and on a game whose pieces leap over a screen (a cannon) or are
blocked next to them (a horse), where the positions a probe depends on are not just a line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.logic.rules.catalogue import design
from game.logic.rules.design import parse
from game.logic.rules.engine import Engine

CANNONS = Path(__file__).parent / "data" / "cannons.txt"


def _pair(text: str | None, name: str) -> tuple[Engine, Engine]:
    d = design(name) if text is None else parse(text, f"{name}.txt")
    fast, full = Engine(d), Engine(d)
    full.c.readers = None  # every program probed after every move
    return fast, full


@pytest.mark.parametrize(("text", "name"), [(None, "chess"), (CANNONS.read_text(), "cannons")])
def test_probing_what_changed_gives_the_moves_of_probing_everything(
    text: str | None, name: str
) -> None:
    fast, full = _pair(text, name)
    assert fast.c.readers is not None  # the shortcut is in play
    rng = random.Random(7)
    positions = 0
    for _ in range(30):
        pos = fast.start()
        for _ in range(120):
            moves = fast.legal(pos)
            assert moves == full.legal(pos)
            positions += 1
            if not moves or fast.outcome(pos, moves) is not None:
                break
            fast.make(pos, rng.choice(moves))
    assert positions > 1000


def test_the_cannon_game_counts_the_same_either_way() -> None:
    fast, full = _pair(CANNONS.read_text(), "cannons")
    assert [fast.perft(fast.start(), d) for d in range(1, 5)] == [
        full.perft(full.start(), d) for d in range(1, 5)
    ]


def test_a_probe_that_reads_past_its_path_is_always_probed_in_full() -> None:
    # A piece that captures only when the position behind it is empty reads a position it
    # never stands on: its probe cannot say what it depends on.
    text = CANNONS.read_text().replace(
        "(piece King (royal)",
        "(piece Guard (moves (move strike n (verify (next s empty)) (verify enemy) add)))\n"
        "(piece King (royal)",
    )
    assert Engine(parse(text, "guard.txt")).c.readers is None
