"""End conditions that read the whole board after a move, not only the piece just placed:
``(row-of N [theirs])``, N or more of the player's pieces in a row anywhere (a turn of part
of the board can make a row of either player's, Pentago), and ``(score-at-least N
[theirs])``, the player's score so far: in a game of counters the counters in the first
zone of ``score-zone`` (Oware's 25 of 48 seeds), else the pieces on the board.

Both ask about the player who just moved, or with ``theirs`` the other player. The
conditions of :mod:`game.logic.rules.goals` are asked here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from game.logic.rules.goals import GOAL_ENDS, goal_holds
from game.logic.rules.sexpr import Item
from game.logic.rules.words import err, whole_number, word_of

if TYPE_CHECKING:
    from game.logic.rules.position import DescribedPosition

__all__ = ["BOARD_ENDS", "board_end_holds", "check_board_end", "row_found"]

#: The conditions of this module: name -> (least, most) arguments.
BOARD_ENDS: Final = {"row-of": (1, 2), "score-at-least": (1, 2), **GOAL_ENDS}


def check_board_end(head: str, args: tuple[Item, ...]) -> None:
    """Refuse a count out of range or a second argument other than ``theirs``."""
    whole_number(args[0], 1, 10_000)
    if len(args) > 1 and word_of(args[1]) != "theirs":
        raise err(args[1], f"({head} N theirs): the other player's")


def board_end_holds(rules: Any, pos: DescribedPosition, head: str, args: tuple[Item, ...]) -> bool:
    """Whether ``(head args...)`` holds in ``pos`` (``rules``: the rulebook)."""
    if head in GOAL_ENDS:
        return goal_holds(rules, pos, head, args)
    need = int(args[0].value)  # type: ignore[union-attr]
    who = rules.last_mover(pos)
    if len(args) > 1:
        who = (who + 1) % rules.players
    if head == "score-at-least":
        return bool(rules.counts(pos, final=False)[who] >= need)
    return bool(row_found(rules, pos.board, who, need))


def row_found(rules: Any, b: list[int], who: int, need: int) -> list[int]:
    """The positions of a row of ``need`` pieces of player ``who`` ([] when there is none)."""
    owner = rules.c.owner
    for row in _rows(rules, need):
        if all(b[p] and owner[b[p]] == who for p in row):
            return list(row)
    return []


def _rows(rules: Any, need: int) -> list[tuple[int, ...]]:
    """Every run of ``need`` positions along a direction (one of each opposite pair)."""
    cache = rules.__dict__.setdefault("_rows", {})
    if need not in cache:
        links = rules.design.board.links
        rows = []
        for d, e in enumerate(rules.opposite):
            if 0 <= e < d:
                continue
            for start in range(rules.n):
                run = [start]
                while len(run) < need and links[d][run[-1]] >= 0:
                    run.append(links[d][run[-1]])
                if len(run) == need and len(set(run)) == need:
                    rows.append(tuple(run))
        cache[need] = rows
    found: list[tuple[int, ...]] = cache[need]
    return found
