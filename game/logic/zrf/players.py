"""ZRF's players as the engine's: one player alone (a puzzle), random players, and the
limits of the turn order.

- ``(players You)``: a game of one player, as the engine's ``(players You)``: the turn order
  is that player's every turn, and the hint searches for the goal.
- A player whose name starts with ``?`` (``(players White Black ?Dice)``) is a random
  player: Zillions chooses its moves at random. It becomes the engine's
  ``(rules (random NAME))``: its turns are chance nodes whose outcomes are its legal moves,
  each as likely (perft counts each outcome as a move). It plays under its name without the
  ``?`` (``Dice``) where no other name is that.
- Up to twelve players (``(players White Black Pink Red ...)``), as the engine's; more are
  refused with a line that says so.
- A turn-order step ``(P Q)`` (or ``(P Q TYPE)``), in which P moves Q's pieces, is the
  engine's own ``(P Q)``: Q's moves, P choosing (chance, where P is a random player).
- A turn-order step ``(P TYPE)`` whose TYPE no piece's moves have (Klin Zha's ``setup``)
  offers P no move, as in Zillions: the first piece gets a program of that type that never
  moves (:func:`typeless_turns`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from game.logic.rules.design import MAX_PLAYERS, MIN_PLAYERS
from game.logic.rules.sexpr import Atom, Form, Item

if TYPE_CHECKING:
    from game.logic.zrf.translate import Translation

__all__ = ["check_players", "random_rule", "typeless_turns"]


def check_players(translation: Translation, form: Form) -> None:
    """Refuses a player list the engine cannot play, naming the form; a random player
    ``?Dice`` plays as ``Dice`` where no other name is that."""
    players = translation.players
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise form.error(
            f"{len(players)} players: the engine plays games of {MIN_PLAYERS} to {MAX_PLAYERS}"
        )
    if all(p.startswith("?") for p in players):
        raise form.error("every player is random (?NAME): no one would choose a move")
    for player in players:
        bare = player[1:]
        free = bare not in translation.used and bare not in players
        if player.startswith("?") and free and re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,47}", bare):
            translation.names[player] = bare
            translation.used.add(bare)


def random_rule(translation: Translation, at: Item) -> list[Form]:
    """``(random NAME...)`` for the game's random players (none: nothing)."""
    chosen = [translation.name(p) for p in translation.players if p.startswith("?")]
    if not chosen:
        return []
    where = (at.line, at.column, at.source)
    return [Form((Atom("random", *where), *(Atom(n, *where) for n in chosen)), *where)]


def typeless_turns(out: list[Item], rules: Form) -> None:
    """A turn-order step ``(P TYPE)`` whose TYPE no piece's moves have offers P no move (as
    in Zillions): give the first piece of ``out`` a program of that type that never moves,
    so that the engine, which refuses a type no program has, reads the step."""
    declared = {
        str(part[1])
        for piece in out
        if isinstance(piece, Form) and piece.head == "piece"
        for group in piece.args
        if isinstance(group, Form) and group.head in ("moves", "drops")
        for program in group.args
        if isinstance(program, Form)
        for part in program.args
        if isinstance(part, Form) and part.head == "type" and len(part) == 2
    }
    players = {str(p) for f in out if isinstance(f, Form) and f.head == "players" for p in f.args}
    order = next((f for f in rules.args if isinstance(f, Form) and f.head == "turn-order"), None)
    wanted = [
        step[-1]
        for step in (order.args if order is not None else ())
        if isinstance(step, Form)
        and str(step[-1]) not in declared | players
        and (len(step) == 2 or str(step[1]) in players)
    ]
    missing = list(dict.fromkeys(str(kind) for kind in wanted))
    first = next((k for k, f in enumerate(out) if isinstance(f, Form) and f.head == "piece"), None)
    if not missing or first is None:
        return
    piece = out[first]
    assert isinstance(piece, Form)
    where = (piece.line, piece.column, piece.source)

    def atom(value: str) -> Atom:
        return Atom(value, *where)

    programs = tuple(
        Form(
            (
                atom("move"),
                atom(f"zrf-none-{k}"),
                Form((atom("type"), atom(kind)), *where),
                Form((atom("verify"), atom("false")), *where),
            ),
            *where,
        )
        for k, kind in enumerate(missing, start=1)
    )
    out[first] = Form((*piece.items, Form((atom("moves"), *programs), *where)), *where)
