"""End conditions that say whose turn it is and count or place a player's pieces exactly:

- ``(to-move PLAYER...)``: the player to move is one of these; ``(moved PLAYER...)``: the
  player who just moved is (a goal of one player only: ``(win (and (moved White) ...))``);
- ``(exactly N [TYPE...] [theirs])``: the player who just moved (with ``theirs``, the next
  player) has exactly N pieces on the board (of these types);
- ``(total N [TYPE...])``: the board holds exactly N pieces of both players together;
- ``(at (POSITION...) OCCUPANT... [theirs])``: one of the positions holds one of the
  occupants;
- ``(pattern OCCUPANT DIR... OCCUPANT ... [theirs])``: from some position, the occupants
  stand one after another along the directions between them (three in a row:
  ``(pattern Man n Man n Man)``).

An occupant is a piece type (the player's own piece of it), ``(opponent TYPE)`` (another
player's), ``(any-owner TYPE)``, ``empty``, or ``(not OCCUPANT)`` (anything else, an empty
position included). Pieces in hand are not counted: only the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.rules.words import err, whole_number, word_of

if TYPE_CHECKING:
    from game.logic.rules.position import DescribedPosition
    from game.logic.rules.words import ReaderPart

__all__ = ["GOAL_ENDS", "check_goal_end", "goal_holds"]

#: The conditions of this module: name -> (least, most) arguments.
GOAL_ENDS: Final = {
    "to-move": (1, 4),
    "moved": (1, 4),
    "exactly": (1, 10),
    "total": (1, 9),
    "at": (2, 10),
    "pattern": (1, 40),
}
_OWNERS: Final = ("opponent", "any-owner")


def check_goal_end(reader: ReaderPart, head: str, args: tuple[Item, ...]) -> None:
    """Refuse an unknown player, piece type, position, direction or occupant."""
    args = _mine(args)
    if head in ("to-move", "moved"):
        players: tuple[str, ...] = reader.players  # type: ignore[attr-defined]
        for a in args:
            if word_of(a) not in players:
                raise err(a, f"no player {word_of(a)!r}; the players: {', '.join(players)}")
    elif head in ("exactly", "total"):
        whole_number(args[0], 0, 10_000)
        for a in args[1:]:
            reader._type_name(a)
    elif head == "at":
        where = args[0]
        if not isinstance(where, Form) or not where.items:
            raise err(where, "(at (POSITION...) OCCUPANT...): the positions in a list")
        for p in where.items:
            if not isinstance(p, Atom) or str(p.value) not in reader.board.names:
                raise err(p, f"no position {p} on the board")
        for a in args[1:]:
            _check_occupant(reader, a)
    else:  # pattern
        for a in args:
            if not (isinstance(a, Atom) and a.value in reader.board.directions):
                _check_occupant(reader, a)


def _mine(args: tuple[Item, ...]) -> tuple[Item, ...]:
    """The arguments without a last ``theirs``."""
    if args and isinstance(args[-1], Atom) and args[-1].value == "theirs":
        return args[:-1]
    return args


def _check_occupant(reader: ReaderPart, item: Item) -> None:
    if isinstance(item, Form):
        if item.head == "not" and len(item) == 2:
            _check_occupant(reader, item[1])
            return
        if item.head in _OWNERS and len(item) == 2:
            reader._type_name(item[1])
            return
        raise err(item, "an occupant is TYPE, (opponent TYPE), (any-owner TYPE), empty or (not ..)")
    if word_of(item) != "empty":
        reader._type_name(item)


def goal_holds(rules: Any, pos: DescribedPosition, head: str, args: tuple[Item, ...]) -> bool:
    """Whether ``(head args...)`` holds in ``pos`` (``rules``: the rulebook)."""
    design = rules.design
    if head in ("to-move", "moved"):
        who = rules.player(pos) if head == "to-move" else rules.last_mover(pos)
        return design.players[who] in {str(a.value) for a in args}  # type: ignore[union-attr]
    theirs = bool(args) and isinstance(args[-1], Atom) and args[-1].value == "theirs"
    args = _mine(args)
    who = rules.last_mover(pos)
    if theirs:
        who = (who + 1) % rules.players
    b = pos.board
    owner, kind_of = rules.c.owner, rules.c.kind_of
    if head in ("exactly", "total"):
        kinds = {design.type_index(str(a.value)) for a in args[1:]}  # type: ignore[union-attr]
        count = sum(
            1
            for v in b
            if v and (head == "total" or owner[v] == who) and (not kinds or kind_of[v] in kinds)
        )
        return count == int(args[0].value)  # type: ignore[union-attr]
    match = _matcher(rules, who)
    if head == "at":
        board = design.board
        return any(
            any(match(b[board.index(str(p.value))], o) for o in args[1:])  # type: ignore[union-attr]
            for p in args[0].items  # type: ignore[union-attr]
        )
    return _pattern(rules, b, args, match)


def _matcher(rules: Any, who: int) -> Any:
    owner, kind_of, design = rules.c.owner, rules.c.kind_of, rules.design

    def match(v: int, occ: Item) -> bool:
        if isinstance(occ, Atom):
            if occ.value == "empty":
                return not v
            return bool(v) and owner[v] == who and kind_of[v] == design.type_index(str(occ.value))
        if occ.head == "not":
            return not match(v, occ[1])
        kind = design.type_index(str(occ[1].value))  # type: ignore[union-attr]
        if not v or kind_of[v] != kind:
            return False
        return occ.head == "any-owner" or owner[v] != who

    return match


def _pattern(rules: Any, b: list[int], args: tuple[Item, ...], match: Any) -> bool:
    """Whether the occupants and steps of ``args`` are met from some position."""
    board = rules.design.board
    steps = [
        board.directions.index(a.value)
        if isinstance(a, Atom) and a.value in board.directions
        else -1
        for a in args
    ]
    for start in range(len(b)):
        at = start
        for step, item in zip(steps, args, strict=True):
            if step >= 0:
                at = board.links[step][at]
                if at < 0:
                    break
            elif not match(b[at], item):
                break
        else:
            return True
    return False
