"""Cluedo at the terminal: a scripted game to its end, bad input answered, the assistant
refusing a contradiction without losing anything, and the command line that starts them."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from game import registry
from game.cli import main
from game.games.clue.console import assistant, play
from game.logic.clue.game import ClueGame
from game.logic.clue.record import loads


def _script(*lines: str) -> list[str]:
    return list(lines)


def test_a_console_game_runs_to_its_end_with_bad_input_answered() -> None:
    entry = registry.get("clue")
    game = ClueGame({"seats": 3, "opponent": "article"})
    out = io.StringIO()
    lines = ["help", "notebook", "jump", "suggest plum, rope", "end", "hint", "undo"]
    lines += ["show nothing", "suggest plum, rope, hall"]
    lines += ["next"] * 300  # the hint played until the game ends
    assert play(game, entry, 3, iter(lines), out) == 0
    text = out.getvalue()
    assert "start with one of" in text, "an unknown verb is answered"
    assert "name 3 cards" in text, "a suggestion of two cards is answered"
    assert "'end' comes after your suggestion" in text
    assert "Hint: " in text and "likeliest envelope" in text
    assert "solved it" in text and "Goodbye" not in text


def test_the_assistant_refuses_a_contradiction_and_keeps_what_was_entered(tmp_path: Path) -> None:
    out = io.StringIO()
    case = tmp_path / "case.txt"
    lines = [
        "deck classic", "seats 4", "dealer 3", "me 0",
        "hand Scarlett, Mustard, Candlestick, Kitchen, Ballroom",
        "suggest 1: Plum, Rope, Hall; passed 2; showed 3",
        "suggest 0: Plum, Rope, Study; passed 1, 2; showed 3: Rope",
        "suggest 2: Plum, Rope, Lounge; passed 3, 0, 1",  # seat 3 holds the Rope
        "suggest 2: Plum, Rop",
        "why rope 3",
        f"save {case}",
        "quit",
    ]  # fmt: skip
    assert assistant(iter(lines), out) == 0
    text = out.getvalue()
    assert "refused: event 3 contradicts what came before" in text
    assert "Seat 3 holds Rope, because:" in text and "showed 3: Rope" in text
    view = loads(case.read_text())
    assert len(view.events) == 2 and view.seat == 0


def test_gamehall_clue_console_plays_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("notebook\nquit\n"))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["clue", "--console", "--seats", "3", "--seed", "1"]) == 0
    assert "Your hand:" in out.getvalue() and "Goodbye." in out.getvalue()
    monkeypatch.setattr(sys, "stdin", io.StringIO("deck classic\nquit\n"))
    assert main(["play", "clue", "--console", "--assistant"]) == 0


@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (4, 7), (5, 2024), (6, 2**40 + 3)])
def test_one_seed_deals_the_same_hands_in_the_window_and_at_the_terminal(
    monkeypatch: pytest.MonkeyPatch, seats: int, seed: int
) -> None:
    """``gamehall clue --seed S`` and ``gamehall clue --console --seed S`` deal the same
    cards: the window's controller (made without a window) holds the hands the console
    prints."""
    from game.games.clue.controller import open_table
    from game.logic.clue.game import OPTIONS
    from game.session import Session
    from game.settings import Settings

    session = Session("clue", OPTIONS, Settings(), overrides={"seats": seats})
    controller = open_table(session, seed=seed)
    try:
        state = controller.state
        deck = controller.game.rules.deck
        window_hand = ", ".join(deck.name(c) for c in state.hands[0])
        window_sizes = [len(hand) for hand in state.hands]
    finally:
        controller.match.close()
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["clue", "--console", "--seats", str(seats), "--seed", str(seed)]) == 0
    lines = out.getvalue().splitlines()
    hand = next(line for line in lines if line.startswith("Your hand: "))
    assert hand == f"Your hand: {window_hand}"
    sizes = next(line for line in lines if line.startswith("Seats: "))
    assert [int(part.split("(")[1].split()[0]) for part in sizes.split("), ")] == window_sizes
