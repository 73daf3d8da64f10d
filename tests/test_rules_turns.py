"""Turn order with labels: a move's (goto LABEL) and the turn order's own (goto LABEL
[CONDITION]) describe extra turns and phases. Each is checked against the same game written
with the older words (again, drops-first): the same moves in every position of random games,
and the same perft."""

from __future__ import annotations

import random

import pytest

from game.logic.rules.catalogue import design
from game.logic.rules.compile import PROGRAM
from game.logic.rules.design import parse
from game.logic.rules.rulebook import Move, Rulebook
from game.logic.rules.sexpr import DescriptionError

SHIPPED = design("kalah").source.rsplit("/", 1)[0]


def _text(name: str) -> str:
    with open(f"{SHIPPED}/{name}.txt", encoding="utf-8") as handle:
        return handle.read()


def _kalah_with_labels(text: str) -> str:
    """Kalah whose extra turn is a goto: ending in the store goes back to the nearest label
    "again" before this turn, which is the mover's own."""
    text = text.replace("(if (in-zone store) again", "(if (in-zone store) (goto again)")
    order = "(turn-order (label again) South (label again) North)"
    return text.replace("(rules (counters)", f"(rules {order} (counters)")


def _relabelled(name: str) -> tuple[Rulebook, Rulebook]:
    text = _text(name)
    if name == "kalah":
        new = _kalah_with_labels(text)
    else:
        # Nine Men's Morris: a placing phase while men are in hand, then a moving phase.
        new = text.replace("(move place (verify", "(move place (type place) (verify")
        new = new.replace(
            "(rules (drops-first))",
            "(rules (turn-order (label placing) (White place) (Black place)"
            " (goto moving (not in-hand)) (goto placing) (label moving) repeat White Black))",
        )
    assert new != text
    return Rulebook(parse(text, f"{name}.txt")), Rulebook(parse(new, f"{name}-labels.txt"))


def _plain(moves: list[Move]) -> list[Move]:
    """The moves without their extra-turn and label bits (which the two designs encode
    differently: again as a bit, goto as a label)."""
    return [(path, caps, effects, pid & PROGRAM) for path, caps, effects, pid in moves]


@pytest.mark.parametrize("name", ["kalah", "nine-mens-morris"])
def test_labels_play_the_game_the_older_words_describe(name: str) -> None:
    old, new = _relabelled(name)
    assert new.design.labels
    rng = random.Random(3)
    again = 0
    steps: set[int] = set()
    for _ in range(40):
        a, b = old.start(), new.start()
        for _ in range(200):
            moves = old.legal(a)
            assert _plain(moves) == _plain(new.legal(b))
            assert old.player(a) == new.player(b)
            steps.add(b.turn)
            if not moves or old.outcome(a, moves) is not None:
                break
            i = rng.randrange(len(moves))
            before = new.player(b)
            old.make(a, moves[i])
            new.make(b, new.legal(b)[i])
            again += new.player(b) == before
    if name == "kalah":
        assert again > 10  # extra turns by (goto again)
    else:
        assert steps == {0, 1, 2, 3}  # both phases played


def test_labels_count_the_same_in_perft() -> None:
    old, new = _relabelled("kalah")
    assert [old.perft(old.start(), d) for d in range(1, 6)] == [
        new.perft(new.start(), d) for d in range(1, 6)
    ]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (("(goto again)", "(goto agian)"), "no (label agian) in the turn order"),
        (("(label again) North", "(label again) North (goto later)"), "no (label later)"),
        (("(turn-order (label again) South", "(turn-order (goto again) South"), "follows a"),
    ],
)
def test_bad_labels_are_named(change: tuple[str, str], says: str) -> None:
    text = _kalah_with_labels(_text("kalah"))
    with pytest.raises(DescriptionError) as caught:
        parse(text.replace(*change), "bad.txt")
    assert says in str(caught.value)
