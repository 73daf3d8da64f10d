"""Game records as SGF (``FF[4]``): Hex (``GM[11]``) and Go (``GM[1]``), a point written as its
column's letter and its row's counted from the top (``aa`` the top left) on any board, a
variation as a tree of its own: ``(;FF[4]GM[11]SZ[5];B[cc](;W[bd])(;W[cd]))``. The root
names the game (``GM``) and its size (``SZ``); other parameters go in ``GP[name=N]``, the
seed in ``GS``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from game.logic.rules.record_tree import MAX_MOVES, GameRecordError, Line, Record
from game.logic.rules.rulebook import Rulebook

__all__ = ["SGF_GAMES", "SIZE_PARAMETERS", "read_sgf", "sgf_points", "write_sgf"]

#: The SGF game number of the games SGF records: Hex (FF[4] GM[11]) and Go (GM[1]).
SGF_GAMES: Final = {"hex": 11, "go": 1}
#: The names a board-size parameter goes by: SGF's SZ sets it.
SIZE_PARAMETERS: Final = ("side", "size")


def write_sgf(rulebook: Rulebook, record: Record) -> str:
    """``record`` (checked) as an SGF game tree, ending in a newline."""
    d = rulebook.design
    width, height = d.board.size
    size = f"{width}" if width == height else f"{width}:{height}"
    root = f";FF[4]GM[{SGF_GAMES.get(d.id, 1)}]SZ[{size}]CA[UTF-8]AP[Gamehall]"
    root += f"PB[{_sgf_text(d.players[0])}]PW[{_sgf_text(d.players[1])}]"
    extra = {k: str(v) for k, v in record.parameters.items() if k not in SIZE_PARAMETERS}
    if extra:
        root += "GP[" + _sgf_text(" ".join(f"{k}={v}" for k, v in extra.items())) + "]"
    if record.result != "*":
        root += f"RE[{record.result}]"
    if record.seed is not None:
        root += f"GS[{record.seed}]"
    points = sgf_points(rulebook)
    return "(" + root + _sgf_tree(record.moves, points, d.board.names) + ")\n"


def _sgf_tree(alternatives: list[Line], points: Mapping[str, str], names: Sequence[str]) -> str:
    out = ""
    while len(alternatives) == 1:
        out += _sgf_node(alternatives[0], points)
        alternatives = alternatives[0].children
    for node in alternatives:
        out += "(" + _sgf_node(node, points) + _sgf_tree(node.children, points, names) + ")"
    return out


def _sgf_node(node: Line, points: Mapping[str, str]) -> str:
    colour = "B" if node.seat <= 0 else "W"
    return f";{colour}[{'' if node.text == 'pass' else points[node.text]}]"


def sgf_points(rulebook: Rulebook) -> dict[str, str]:
    """Each position's SGF point, from its name (``a1``): its column's letter, then its row's
    counted from the top (``aa`` the top left), so that a board of any size reads as Go's
    and Hex's do."""
    height = rulebook.design.board.size[1]
    out = {}
    for name in rulebook.design.board.names:
        found = re.fullmatch(r"([a-z]+)(\d+)", name)
        if found is None:
            continue
        column = 0
        for ch in found.group(1):
            column = column * 26 + ord(ch) - 96
        out[name] = _sgf_letter(column - 1) + _sgf_letter(height - int(found.group(2)))
    return out


def _sgf_letter(i: int) -> str:
    return chr(97 + i) if i < 26 else chr(65 + i - 26)


def _sgf_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def read_sgf(text: str, source: str) -> Record:
    """The record an SGF text holds: ``(;PROP[value]...;B[aa](;W[bb])(;W[cc]))``, the root
    naming the game (GM, SZ); raises :class:`GameRecordError`."""
    nodes = _sgf_parse(text, source)
    root_props, trees = nodes
    number = root_props.get("GM", ["1"])[0]
    game = next((g for g, n in SGF_GAMES.items() if str(n) == number), "")
    if not game:
        raise GameRecordError(f"{source}: no described game is SGF's GM[{number}]")
    record = Record(game, "sgf")
    size = root_props.get("SZ", [""])[0].split(":")[0]
    name = _size_parameter(game)
    if size.isdigit() and name is not None:
        record.parameters[name] = int(size)
    for item in root_props.get("GP", [""])[0].split():
        name, _, value = item.partition("=")
        if value.isdigit():
            record.parameters[name] = int(value)
    seed = root_props.get("GS", [""])[0]
    record.seed = int(seed) if seed.isdigit() else None
    record.result = root_props.get("RE", ["*"])[0] or "*"
    record.moves = trees
    return record


def _size_parameter(game: str) -> str | None:
    """The parameter of ``game``'s description that SZ sets (None: it has none)."""
    from game.logic.rules.catalogue import design, shipped

    names = {p.name for p in design(game).parameters} if game in shipped() else set()
    return next((name for name in SIZE_PARAMETERS if name in names), None)


def _sgf_parse(text: str, source: str) -> tuple[dict[str, list[str]], list[Line]]:
    """The root node's properties and the tree of moves (B and W properties; ``[]`` or
    ``[tt]`` a pass, written ``pass``; the point kept as written, ``@aa``, until
    :func:`check_record` names it)."""
    i, n = 0, len(text)
    root: dict[str, list[str]] | None = None
    top: list[Line] = []
    stack: list[list[Line]] = []
    here: list[Line] = top  # where the next node of this sequence goes
    count = 0
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == "(":
            stack.append(here)
            i += 1
        elif ch == ")":
            if not stack:
                break
            here = stack.pop()
            i += 1
            if not stack:
                break  # the first game of a collection
        elif ch == ";":
            i += 1
            props: dict[str, list[str]] = {}
            while True:
                while i < n and text[i].isspace():
                    i += 1
                found = re.compile(r"[A-Za-z]+").match(text, i)
                if found is None:
                    break
                name, i = found.group(0).upper(), found.end()
                values = []
                while True:
                    while i < n and text[i].isspace():
                        i += 1
                    if i >= n or text[i] != "[":
                        break
                    value, i = _sgf_value(text, i + 1, source)
                    values.append(value)
                if not values:
                    raise GameRecordError(f"{source}: SGF property {name} has no [value]")
                props[name] = values
            if root is None:
                root = props
                continue
            move = [(k, v[0]) for k, v in props.items() if k in ("B", "W")]
            if not move:
                continue  # a node without a move (a comment): nothing to play
            count += 1
            if count > MAX_MOVES:
                raise GameRecordError(f"{source}: more than {MAX_MOVES} moves")
            colour, point = move[0]
            written = "pass" if point in ("", "tt") else "@" + point
            node = Line(written, seat=0 if colour == "B" else 1)
            here.append(node)
            here = node.children
        else:
            raise GameRecordError(f"{source}: SGF cannot have {ch!r} at character {i + 1}")
    if root is None:
        raise GameRecordError(f"{source}: not an SGF game tree: it has no root node")
    return root, top


def _sgf_value(text: str, i: int, source: str) -> tuple[str, int]:
    out = []
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
        elif ch == "]":
            return "".join(out), i + 1
        else:
            out.append(ch)
            i += 1
    raise GameRecordError(f"{source}: an SGF value '[' is never closed")
