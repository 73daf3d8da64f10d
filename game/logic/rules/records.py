"""Game records of described games: the moves as a tree that keeps every variation, written
and read in the field's format.

Chess (a game whose positions are FEN and whose moves are SAN) is written as PGN, the draughts
games (positions in PDN's FEN) as PDN, Hex and Go as SGF (``FF[4]``, ``GM[11]`` Hex,
``GM[1]`` Go), and any other described game as the plain record: PGN's layout with its own
tags (``[Game "kalah"]``, ``[Parameters "side=5"]``, ``[Seed "7"]``). The three text formats
write a variation in brackets after the move it replaces (``1. e4 (1. d4 d5) 1... e5``), SGF
as its own trees (``(;B[aa](;W[bb])(;W[cc]))``). A record is read in two stages:
:func:`read_record` takes the text apart (no game needed: the format names its game), then
:func:`check_record` plays every branch from the start and writes each move as the game does,
so that a record from another program (``11x25`` for ``11x18x25``, a forced pass left out)
loads as if it were our own.

>>> from game.logic.rules.catalogue import rulebook
>>> book = rulebook("tic-tac-toe")
>>> record = read_record('[Game "tic-tac-toe"]\\n\\n1. b2 a1 (1... c3 2. a1) 2. c1 *')
>>> record = check_record(book, record)
>>> [line.text for line in record.moves[0].children]
['a1', 'c3']
>>> print(write_record(book, record).splitlines()[-1])
1. b2 a1 (1... c3 2. a1) 2. c1 *
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Final

from game.logic.rules.record_tree import MAX_MOVES, GameRecordError, Line, Record, graft, line_at
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sgf import SGF_GAMES, read_sgf, sgf_points, write_sgf
from game.logic.rules.state import RulesState

__all__ = [
    "GameRecordError",
    "Line",
    "Record",
    "check_record",
    "end_of",
    "graft",
    "line_at",
    "read_record",
    "record_format",
    "record_suffix",
    "result_text",
    "write_record",
]

#: PDN's GameType of each draughts game pydraughts and PDN 3.0 number.
PDN_TYPES: Final = {
    "international-draughts": 20,
    "english-draughts": 21,
    "italian-draughts": 22,
    "pool-checkers": 23,
    "russian-draughts": 25,
    "brazilian-draughts": 26,
    "czech-draughts": 29,
}
RESULTS: Final = frozenset({"*", "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0"})
_SUFFIX: Final = {"pgn": ".pgn", "pdn": ".pdn", "sgf": ".sgf", "plain": ".txt"}
_TOKEN = re.compile(r'\s+|\{[^}]*\}|;[^\n]*|\$\d+|"(?:[^"\\]|\\.)*"|[()]|[^\s(){}";]+')
_NUMBER = re.compile(r"^(\d+)(\.+|…)(.*)$")


def record_format(rulebook: Rulebook) -> str:
    """How ``rulebook``'s game is recorded: ``pgn``, ``pdn``, ``sgf`` or ``plain``."""
    d = rulebook.design
    if d.position_format == "fen" and d.move_format == "san":
        return "pgn"
    if d.position_format == "pdn":
        return "pdn"
    if d.id in SGF_GAMES:
        return "sgf"
    return "plain"


def record_suffix(rulebook: Rulebook) -> str:
    """The file name's end for ``rulebook``'s records (``.pgn``, ``.pdn``, ``.sgf``, ``.txt``)."""
    return _SUFFIX[record_format(rulebook)]


def result_text(rulebook: Rulebook, returns: Sequence[float]) -> str:
    """A finished game's result as its format writes it: White's score first (``1-0``,
    ``1/2-1/2``; PDN's ``2-0``, ``1-1``); ``*`` for a game of one player or of more than two,
    whose result the format has no words for."""
    fmt = record_format(rulebook)
    if len(rulebook.design.players) != 2:  # no two-sided result: the moves tell who won
        return "*"
    white, black = _named_seats(rulebook.design.players)
    if returns[white] == returns[black]:
        return "1-1" if fmt == "pdn" else "1/2-1/2"
    won = returns[white] > returns[black]
    if fmt == "pdn":
        return "2-0" if won else "0-2"
    return "1-0" if won else "0-1"


# -- writing --------------------------------------------------------------------------------


def write_record(rulebook: Rulebook, record: Record) -> str:
    """``record`` (checked: :func:`check_record`) in its game's format, ending in a newline."""
    fmt = record_format(rulebook)
    if fmt == "sgf":
        return write_sgf(rulebook, record)
    tags = _tags(rulebook, record, fmt)
    head = "".join(f'[{k} "{_escape(v)}"]\n' for k, v in tags.items())
    return head + "\n" + _wrap([*_movetext(record.moves, fmt, True), record.result]) + "\n"


def _tags(rulebook: Rulebook, record: Record, fmt: str) -> dict[str, str]:
    d = rulebook.design
    seats = _named_seats(d.players)
    tags: dict[str, str] = {}
    if fmt in ("pgn", "pdn"):
        tags = {"Event": "Gamehall game", "Site": "?", "Date": "????.??.??", "Round": "?"}
        tags |= {"White": d.players[seats[0]], "Black": d.players[seats[1]]}
        tags["Result"] = record.result
        if fmt == "pdn":
            tags["GameType"] = str(PDN_TYPES.get(d.id, 20))
        if record.position:
            tags |= {"SetUp": "1", "FEN": record.position} if fmt == "pgn" else {}
            tags |= {"FEN": record.position} if fmt == "pdn" else {}
    else:
        tags["Game"] = d.id
        if record.parameters:
            tags["Parameters"] = " ".join(f"{k}={v}" for k, v in record.parameters.items())
        if record.seed is not None:
            tags["Seed"] = str(record.seed)
        if record.position:
            tags["Position"] = record.position
        tags["Result"] = record.result
    for key, value in record.tags.items():
        tags.setdefault(key, value)
    return tags


def _movetext(alternatives: list[Line], fmt: str, numbered: bool) -> list[str]:
    """The tokens of a stretch of moves: the main one, its alternatives in brackets, then
    what follows it. ``numbered``: the first move gets its number whoever plays it."""
    out: list[str] = []
    while alternatives:
        main = alternatives[0]
        out.append(_numbered(main, numbered) + _token(main.text, fmt))
        for other in alternatives[1:]:
            inner = _movetext([other], fmt, True)
            out += (
                ["(" + inner[0], *inner[1:-1], inner[-1] + ")"]
                if len(inner) > 1
                else ["(" + inner[0] + ")"]
            )
        # After a variation the move's number comes again (``1... e5``), except in PDN: its
        # readers (pydraughts) take a number written twice for two moves.
        numbered = len(alternatives) > 1 and fmt != "pdn"
        alternatives = main.children
    return out


def _numbered(node: Line, forced: bool) -> str:
    if node.seat <= 0:
        return f"{node.number}. "
    return f"{node.number}... " if forced else ""


def _token(text: str, fmt: str) -> str:
    """A move's text as one token: quoted where it holds a space or a bracket."""
    if re.search(r'[\s(){}";]', text) or text in RESULTS or _NUMBER.match(text):
        return '"' + _escape(text) + '"'
    return text


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(tokens: Sequence[str], width: int = 79) -> str:
    """The tokens as lines of at most ``width`` characters (a longer token alone), broken
    only between tokens (a quoted move keeps its space)."""
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    return "\n".join([*lines, line])


def _named_seats(players: Sequence[str]) -> tuple[int, int]:
    """The seats PGN and PDN call White and Black (by the players' names where they say)."""
    if "White" in players and "Black" in players and len(players) == 2:
        return players.index("White"), players.index("Black")
    return 0, 1


# -- SGF --------------------------------------------------------------------------------------

# -- reading ----------------------------------------------------------------------------------


def read_record(text: str, source: str = "the record") -> Record:
    """The record ``text`` holds, its format told by its look (SGF's ``(;``, a PDN GameType
    tag or a draughts FEN, the plain record's Game tag, else PGN); the moves are read as
    written (:func:`check_record` plays them). Raises :class:`GameRecordError`."""
    body = text.lstrip("\ufeff \t\r\n")
    if re.match(r"\(\s*;", body):
        return read_sgf(body, source)
    tags, rest = _read_tags(body, source)
    if "Game" in tags:
        fmt, game = "plain", tags["Game"]
    elif "GameType" in tags:
        fmt = "pdn"
        number = tags["GameType"].split(",")[0].strip()
        game = next((g for g, n in PDN_TYPES.items() if str(n) == number), "")
        if not game:
            raise GameRecordError(f"{source}: no described game has PDN's GameType {number}")
    else:
        fmt, game = "pgn", "chess"
    record = Record(game, fmt, tags=dict(tags))
    record.position = tags.get("FEN", tags.get("Position", ""))
    for item in tags.get("Parameters", "").split():
        name, _, value = item.partition("=")
        if not value.isdigit():
            raise GameRecordError(f"{source}: a parameter is NAME=N, not {item!r}")
        record.parameters[name] = int(value)
    if "Seed" in tags:
        if not tags["Seed"].isdigit():
            raise GameRecordError(f"{source}: the seed is a whole number, not {tags['Seed']!r}")
        record.seed = int(tags["Seed"])
    record.moves, record.result = _read_moves(rest, source)
    for known in ("Game", "Parameters", "Seed", "Position", "FEN", "SetUp", "Result"):
        record.tags.pop(known, None)
    return record


def _read_tags(text: str, source: str) -> tuple[dict[str, str], str]:
    tags: dict[str, str] = {}
    rest = text
    while True:
        rest = rest.lstrip()
        found = re.match(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]', rest)
        if found is None:
            if rest.startswith("["):
                line = rest.split("\n", 1)[0][:60]
                raise GameRecordError(f'{source}: a tag is [Name "value"], not {line!r}')
            return tags, rest
        tags[found.group(1)] = re.sub(r"\\(.)", r"\1", found.group(2))
        rest = rest[found.end() :]


def _read_moves(text: str, source: str) -> tuple[list[Line], str]:
    """The tree of moves of a movetext (PGN's, PDN's, the plain record's) and its result."""
    root: list[Line] = []
    here, last_list = root, None  # where the next move goes; the list the last one joined
    stack: list[tuple[list[Line], list[Line] | None]] = []
    result, count = "*", 0
    for token in _tokens(text):
        if token == "(":
            if last_list is None:
                raise GameRecordError(f"{source}: a variation '(' before any move it could replace")
            stack.append((here, last_list))
            here, last_list = last_list, None
        elif token == ")":
            if not stack:
                raise GameRecordError(f"{source}: a ')' closes no variation")
            here, last_list = stack.pop()
        elif token in RESULTS:
            result = token
        else:
            count += 1
            if count > MAX_MOVES:
                raise GameRecordError(f"{source}: more than {MAX_MOVES} moves")
            node = Line(token)
            here.append(node)
            last_list, here = here, node.children
    if stack:
        raise GameRecordError(f"{source}: a variation '(' is never closed")
    return root, result


def _tokens(text: str) -> Iterator[str]:
    for found in _TOKEN.finditer(text):
        token = found.group(0)
        if token[0].isspace() or token[0] in "{;$":
            continue
        if token.startswith('"'):
            yield re.sub(r"\\(.)", r"\1", token[1:-1])
            continue
        number = _NUMBER.match(token)
        if number is not None:
            token = number.group(3)
            if not token:
                continue
        token = token.rstrip("!?")
        if token:
            yield token


# -- checking -------------------------------------------------------------------------------


def check_record(rulebook: Rulebook, record: Record, source: str = "the record") -> Record:
    """``record`` with every branch played from its start in ``rulebook``'s game: each move
    written as the game writes it, its seat and number filled in, a forced pass the record
    left out put in. Raises :class:`GameRecordError` naming the first move that is not legal."""
    from game.logic.rules.notation import read_position

    if record.game != rulebook.design.id:
        raise GameRecordError(f"{source} is a game of {record.game}, not {rulebook.design.id}")
    try:
        pos = read_position(rulebook, record.position) if record.position else rulebook.start()
    except ValueError as exc:
        raise GameRecordError(f"{source}: its start position: {exc}") from None
    points = {v: k for k, v in sgf_points(rulebook).items()}
    state = RulesState(rulebook, pos)
    record.moves = [_walk(state, node, points, source, 1, -1) for node in record.moves]
    return record


def end_of(rulebook: Rulebook, record: Record) -> RulesState:
    """The position at the end of ``record``'s main line (a checked record)."""
    from game.logic.rules.notation import read_position

    pos = read_position(rulebook, record.position) if record.position else rulebook.start()
    state = RulesState(rulebook, pos)
    for node in record.main_line():
        state = state.apply(state.parse_action(node.text))
    return state


def _walk(
    state: RulesState, node: Line, points: Mapping[str, str], source: str, number: int, last: int
) -> Line:
    """``node`` and what follows it, checked (see :func:`check_record`): followed along its
    main line in a loop, so that only a variation recurses."""
    head = here = _checked(state, node, points, source, number, last)
    while True:
        after = state.apply(state.parse_action(here.text))
        rest, here.children = here.children, []
        if not rest:
            return head
        main = _checked(after, rest[0], points, source, here.number, here.seat)
        here.children.append(main)
        for other in rest[1:]:
            here.children.append(_walk(after, other, points, source, here.number, here.seat))
        state, here = after, main


def _checked(
    state: RulesState, node: Line, points: Mapping[str, str], source: str, number: int, last: int
) -> Line:
    """``node`` played at ``state``: its text as the game writes it, its seat and number; a
    forced pass the record left out comes before it (the node returned is then the pass)."""
    text = node.text
    if state.is_terminal():
        raise GameRecordError(f"{source}: move {number} ({text}) comes after the game is over")
    seat = state.current_player()
    own = number if seat > last else number + 1
    moves = state.legal_actions()
    if text != "pass" and len(moves) == 1 and not moves[0][0]:
        return Line("pass", [node], seat, own)
    if text.startswith("@"):
        text = points.get(text[1:], text)
    try:
        move = state.parse_action(text)
    except ValueError as exc:
        why = str(exc)
        if "not a legal move" in why:  # the legal moves as the record writes them (SAN)
            legal = [state.action_text(m) for m in moves]
            why = f"not a legal move there; legal: {', '.join(legal[:8])}"
            why += " ..." if len(legal) > 8 else ""
        raise GameRecordError(f"{source}: move {own} ({node.text}): {why}") from None
    node.text, node.seat, node.number = state.action_text(move), seat, own
    return node
