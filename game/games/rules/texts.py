"""What the board scene of a described game says: the help line, whose turn it is, why a
click is refused, the labels of the moves a person chooses between, the pieces counted.
Plain functions of the design and the state (no GL)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from game.games.rules.commands import side_label
from game.games.rules.look import stacks_of
from game.games.rules.select import dots_follow_mouse
from game.logic.rules.design import Design

__all__ = [
    "HUMAN",
    "AboutHelp",
    "choice_labels",
    "group_result",
    "group_tally",
    "help_text",
    "move_text",
    "piece_counts",
    "piece_name",
    "refusal",
    "turn_text",
]

HUMAN = "human"


class AboutHelp:
    """The board scene's lines at the top of F1: the description's ``(about ...)`` text, a
    line for each of a Zillions file's texts (its description, help, history, strategy) and
    for each part of them between backslashes (Zillions' line breaks)."""

    design: Design

    def help_intro(self) -> list[str]:
        from game.logic.zrf.translate import ABOUT

        labels = "|".join(re.escape(label) for _, label in ABOUT if label)
        parts = re.split(rf"\s*\\+\s*| (?={labels})", self.design.about)
        return [part for part in parts if part.strip()]


def help_text(design: Design, last: str, moves: Sequence[Any] = (), empty: int = 0) -> str:
    """The line under the title: how to play by clicks (placing pieces when the legal
    ``moves``, or else the description, are all drops), and what the marks mean as the board
    draws them (``last``: the name of the last move's colour; ``empty``: how many places are
    empty, for whether a gold dot marks every legal place or the one under the mouse)."""
    if moves and any(m[0] for m in moves):
        drops_only = all(len(m[0]) == 1 for m in moves if m[0])
    else:
        drops_only = all(p.drop for piece in design.pieces for p in piece.programs)
    place = {"points": "point", "hex": "cell"}.get(design.board.kind, "square")
    if design.face_down is not None:
        how = f"Click a face-down piece to turn it up, or a blue-ringed piece and its {place}."
    elif design.counters:
        how = "Click one of your pits to sow its seeds round the board."
    elif drops_only:
        spots = len({m[0][0] for m in moves if len(m[0]) == 1})
        if moves and dots_follow_mouse(spots, empty):
            how = f"Click an empty {place} to place a piece (a gold dot under the mouse)."
        else:
            how = f"Click a {place} to place a piece (a gold dot marks each legal one)."
    else:
        how = f"Click a blue-ringed piece, then each {place} it moves to (gold rings)."
        if any(len(m[0]) == 1 for m in moves):  # pieces in hand enter too (Ur's)
            how = how[:-1] + ", or a piece in your hand, then a gold dot to drop it there."
    return f"{how} {last.title()}: the last move. H: a hint, in gold."


def turn_text(design: Design, sides: Sequence[str], state: Any, prefix: str = "") -> str:
    """``prefix``, then who is to move in ``state`` and whether it is the person or which
    computer player (nothing more once the game is over)."""
    if state.is_terminal():
        return prefix
    seat = state.current_player()
    side = sides[seat]
    who = "your move" if side == HUMAN else f"the {side_label(side)} thinks"
    return f"{prefix} {design.players[seat]} to move: {who}.".strip()


def refusal(
    design: Design, state: Any, position: int, prefix: Sequence[int], moves: Sequence[Any]
) -> str:
    """Why a click on ``position`` does nothing, with ``prefix`` clicked so far."""
    name = design.board.names[position]
    if prefix:
        return f"{name} is not a next step of this move: click a gold ring, or Backspace."
    here = {p: (o, t) for p, o, t in state.pieces()}
    if position in here:
        owner, kind = here[position]
        if owner < 0:
            return f"The {kind} on {name} cannot move now."
        if owner != state.current_player():
            return f"That {kind} on {name} is {design.players[owner]}'s."
        if moves and all(m[1] for m in moves):
            return f"The {kind} on {name} cannot move: a piece that can capture must."
        return f"The {kind} on {name} has no legal move now."
    return f"No move starts on {name}: click a ringed piece or square."


def choice_labels(state: Any, moves: Sequence[Any]) -> list[tuple[str, Any]]:
    """A button label for each of ``moves``: the piece it leaves at its end (a promotion's
    Queen), where that tells them apart, else the move's text."""
    if not moves:
        return []
    ends = []
    for move in moves:
        after = {p: t for p, _, t in state.apply(move).pieces()}
        ends.append(after.get(move[0][-1], "") if move[0] else "")
    if len(set(ends)) == len(ends) and all(ends):
        return list(zip(ends, moves, strict=True))
    names = state.design.board.names
    taken = [", ".join(names[p] for p in sorted(move[1])) for move in moves]
    if len(set(taken)) == len(taken) and all(taken):
        return [(f"take {t}", move) for t, move in zip(taken, moves, strict=True)]
    texts = [move_text(state, move) for move in moves]
    heads = {names[move[0][0]] + " " if len(move[0]) == 1 else "" for move in moves}
    head = heads.pop() if len(heads) == 1 else ""
    if head and all(t.startswith(head) for t in texts):
        # Drops on the one position clicked: what follows its name tells them apart
        # (Pentago's turns: "nw cw").
        texts = [t[len(head) :] for t in texts]
    return list(zip(texts, moves, strict=True))


def move_text(state: Any, move: Any) -> str:
    """The move's notation (its repr for something that is no move of ``state``)."""
    try:
        return str(state.action_text(move))
    except (ValueError, TypeError, KeyError, IndexError):
        return repr(move)


def piece_counts(design: Design, state: Any) -> list[int]:
    """The pieces each player has on the board (in stacks too)."""
    counts = [0] * len(design.players)
    for stack in stacks_of(state).values():
        for owner, _ in stack:
            if 0 <= owner < len(counts):
                counts[owner] += 1
    return counts


def piece_name(state: Any, position: int) -> str:
    """The type of the piece on ``position`` ("Piece" when it is empty)."""
    for p, _, kind in state.pieces():
        if p == position:
            return str(kind)
    return "Piece"


def group_tally(design: Design, state: Any) -> str:
    """A game of groups (Go): the stones each player has captured (after the word
    "captured"), and each one's area
    (stones and the empty points only their stones reach) with the second player's komi."""
    book = state.rulebook
    players = design.players
    taken = ", ".join(f"{p} {n}" for p, n in zip(players, book.captured(state.pos), strict=True))
    area = book.counts(state.pos)
    komi = book.rule.komi
    second = f"{area[1]} + {komi:g}" if komi else f"{area[1]}"
    return f"{taken}   area: {players[0]} {area[0]}, {players[1]} {second}"


def group_result(design: Design, state: Any) -> str:
    """How a counted game of groups ended: "by 3.5 points" (or "" for another end)."""
    if state.outcome() != "count":
        return ""
    margin = abs(state.rulebook.score(state.pos))
    return f" by {margin:g} point{'s' * (margin != 1)}" if margin else ""
