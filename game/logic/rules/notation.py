"""Move and position notation for described games.

A move's text is the path of the moving piece, position names joined by ``-`` (``x`` when it
captures): ``e2-e4``, ``e5xd6``, ``11x18x25``; a drop is the position's name (``b2``), with
the piece's letter when several types can be dropped (``N@b2``; ``N*b2`` and a promotion
marked ``+`` in a game whose captures go to hand, as shogi writes them; every drop as ``P*e5``
under ``(notation (drops letter))``, as Zillions writes them); a pass is ``pass``. Where
two legal moves would read the same, the promoted piece is added (``e7-e8=Q``), then the
captured positions (``1x23 [x12,x18]``).

Positions are read and written in the field's own notation, as the description says:
``fen`` (chess: Forsyth-Edwards), ``pdn`` (draughts: ``W:W31,32,K33:B1,2``), ``squares``
(Reversi: 64 characters of X, O and -, row by row from the top left as the board is drawn,
A1..H8 in Othello, then the side to move), ``sgf`` (Go: ``SZ[9]AB[dd]AW[ee]PL[W]``,
:mod:`~game.logic.rules.sgf_position`) or ``generic``
(``White: Pawn a2 b2, King e1 / Black: King e8 / White to move``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from game.logic.contract import NotationError
from game.logic.rules import placement
from game.logic.rules.compile import PROGRAM
from game.logic.rules.dice import throw_text
from game.logic.rules.hidden import TURN_UP
from game.logic.rules.per_die import die_of
from game.logic.rules.piece_numbers import numbers_text, read_tallies, tallies_text, with_numbers
from game.logic.rules.position import THROW
from game.logic.rules.rotations import rotation_text
from game.logic.rules.rulebook import PASS, DescribedPosition, Move, Rulebook
from game.logic.rules.sfen import sfen_read, sfen_text
from game.logic.rules.sgf_position import sgf_read, sgf_text

__all__ = ["coordinate_text", "move_texts", "parse_move", "position_text", "read_position"]


def move_texts(rulebook: Rulebook, pos: DescribedPosition, moves: Sequence[Move]) -> list[str]:
    """The text of each move, distinct within ``moves``."""
    names = rulebook.design.board.names
    c = rulebook.c
    droppable = {t for t, row in enumerate(c.drops) if any(f is not None for f in row)}
    to_hand = rulebook.design.captures_to_hand  # shogi's marks: P*5e, 8h-2b+
    texts = []
    for move in moves:
        path, caps, effects, pid = move
        if not path:
            texts.append(throw_text(effects) if pid == THROW else "pass")  # type: ignore[arg-type]
        elif pid == TURN_UP:  # chance turns a face-down piece up: c3=K (c3=k: the second's)
            code = move[2][0][1]
            letter = rulebook.design.pieces[c.kind_of[code]].letter
            texts.append(f"{names[path[0]]}={letter.lower() if c.owner[code] else letter.upper()}")
        elif len(path) == 1:
            text = names[path[0]] + rotation_text(rulebook, move)
            lettered = rulebook.design.drop_format == "letter"  # ZRF's: P*e5, always
            if len(droppable) > 1 or lettered:
                letter = rulebook.design.pieces[c.programs[pid & PROGRAM][0]].letter or "?"
                text = f"{letter}{'*' if to_hand or lettered else '@'}{text}"
            texts.append(text)
        else:
            text = ("x" if caps else "-").join(names[p] for p in path)
            if to_hand and c.kind_of[effects[-1][1]] != c.kind_of[pos.board[path[0]]]:
                text += "+"  # shogi's promotion
            aside = [p for p in caps if p != path[-1] and not _between_steps(rulebook, path, p)]
            if aside:  # a capture off the piece's way (a mill's): named after the move
                text = (
                    "-".join(names[p] for p in path) + " " + " ".join("x" + names[p] for p in aside)
                )
            texts.append(text)

    # Where texts coincide, add what tells them apart: a drop's captures, the piece a move
    # ends as, the captured positions, and last a number. Each round compares the texts as
    # they stood before it, so changing one does not hide its twin.
    def clashing() -> list[bool]:  # counted once a round: thousands of drops (Filler 40x20)
        seen = Counter(texts)
        return [seen[t] > 1 for t in texts]

    if any(clash := clashing()):
        for i, move in enumerate(moves):
            if clash[i] and len(move[0]) == 1 and move[1]:
                texts[i] += " " + " ".join("x" + names[p] for p in move[1])
    if any(clash := clashing()):
        dice: dict[str, set[int]] = {}  # a text's dice: a part's die tells apart only twins
        for text, move in zip(texts, moves, strict=True):  # of other dice (not promotions)
            dice.setdefault(text, set()).add(die_of(move))
        for i, move in enumerate(moves):
            if clash[i] and len(dice[texts[i]]) > 1:  # one part of a turn die by die: its die
                texts[i] += f" ({die_of(move)})"
    if any(clash := clashing()):
        for i, move in enumerate(moves):
            if clash[i] and move[0]:
                final = move[2][-1][1]
                piece = rulebook.design.pieces[c.kind_of[final]]
                texts[i] += f"={piece.letter or piece.name}"
    if any(clash := clashing()):
        for i, move in enumerate(moves):
            if clash[i] and move[1]:
                texts[i] += " [" + ",".join("x" + names[p] for p in sorted(move[1])) + "]"
    if any(clash := clashing()):
        seen: dict[str, int] = {}
        for i, text in enumerate(list(texts)):
            if clash[i]:
                seen[text] = seen.get(text, 0) + 1
                texts[i] = f"{text} #{seen[text]}"
    return texts


def coordinate_text(rulebook: Rulebook, pos: DescribedPosition, move: Move) -> str:
    """``move`` as its start and landing positions' names, then the letter (lower case) of
    the type the piece lands as where that is another type: ``e7e8q``, the Universal Chess
    Interface's form of a move."""
    path, _caps, effects, _pid = move
    names = rulebook.design.board.names
    before = rulebook.c.kind_of[pos.board[path[0]]]
    after = rulebook.c.kind_of[effects[-1][1]]
    promoted = rulebook.design.pieces[after].letter.lower() if after != before else ""
    return names[path[0]] + names[path[-1]] + promoted


def _between_steps(rulebook: Rulebook, path: tuple[int, ...], p: int) -> bool:
    """Whether ``p`` lies on the straight way between two consecutive positions of
    ``path`` (a jumped piece)."""
    xy = rulebook.design.board.xy
    px, py = xy[p]
    for a, b in itertools.pairwise(path):
        (ax, ay), (bx, by) = xy[a], xy[b]
        cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        if (
            abs(cross) < 1e-6
            and min(ax, bx) <= px <= max(ax, bx)
            and min(ay, by) <= py <= max(ay, by)
        ):
            return True
    return False


def parse_move(
    rulebook: Rulebook,
    pos: DescribedPosition,
    moves: Sequence[Move],
    texts: Sequence[str],
    text: str,
) -> Move:
    """The legal move ``text`` names; NotationError names what was wrong."""
    want = text.strip()
    if not want:
        raise NotationError("no move given")
    for move, name in zip(moves, texts, strict=True):
        if name == want:
            return move
    folded = _fold(want)
    names = [_fold(name) for name in texts]
    found = [m for m, name in zip(moves, names, strict=True) if name == folded]
    if len(found) == 1:
        return found[0]
    # The path alone, when the game's texts add more (a promotion, the captured pieces); a
    # throw is named whole ("roll 5" is no throw of two dice, not the first of "roll 5-5").
    found = [
        m
        for m, name, text in zip(moves, names, texts, strict=True)
        if name.startswith(folded) and not text.startswith("roll ")
    ]
    if len(found) == 1:
        return found[0]
    if found:
        options = ", ".join(t for m, t in zip(moves, texts, strict=True) if m in found)
        raise NotationError(f"{text!r} could be several moves: {options}")
    sample = ", ".join(texts[:8]) + (" ..." if len(texts) > 8 else "")
    raise NotationError(f"{text!r} is not a legal move here; legal: {sample or 'none'}")


def _fold(text: str) -> str:
    return text.lower().translate(_FOLDED)


#: What :func:`_fold` leaves out of a move's text.
_FOLDED = str.maketrans("", "", " -x[],")


# -- positions ------------------------------------------------------------------------


def position_text(rulebook: Rulebook, pos: DescribedPosition) -> str:
    """``pos`` in the design's position notation."""
    write = {
        "fen": _fen_text,
        "pdn": _pdn_text,
        "squares": _squares_text,
        "sgf": sgf_text,
        "sfen": sfen_text,
    }
    text = write.get(rulebook.design.position_format, _generic_text)(rulebook, pos)
    chance = rulebook.dice is not None or rulebook.design.captured_home
    return rulebook.chance_text(pos, text) if chance else text


def read_position(rulebook: Rulebook, text: str) -> DescribedPosition:
    """The position ``text`` gives in the design's notation (or the generic one);
    raises NotationError saying what is wrong."""
    fmt = rulebook.design.position_format
    text = text.strip()
    if not text:
        raise NotationError("an empty position")
    if len(text) > 10_000:
        raise NotationError("a position text longer than 10,000 characters")
    if rulebook.dice is not None or rulebook.design.captured_home:
        return rulebook.chance_read(text, lambda rest: _read_position(rulebook, rest, fmt))
    return _read_position(rulebook, text, fmt)


def _read_position(rulebook: Rulebook, text: str, fmt: str) -> DescribedPosition:
    if "/" in text and ":" in text.split("/")[0]:
        return rulebook.from_text(_generic_read(rulebook, text))
    readers = {
        "fen": _fen_read,
        "pdn": _pdn_read,
        "squares": _squares_read,
        "sgf": sgf_read,
        "sfen": sfen_read,
    }
    return rulebook.from_text(readers.get(fmt, _generic_read)(rulebook, text))


def _fen_text(rulebook: Rulebook, pos: DescribedPosition) -> str:
    c = rulebook.c
    side = "w" if rulebook.player(pos) == 0 else "b"
    rights = _castling_text(rulebook, pos)
    ep = "-"
    names = rulebook.design.board.names
    if pos.last_from >= 0 and pos.last_to >= 0 and pos.board[pos.last_to]:
        v = pos.board[pos.last_to]
        fx, fy = rulebook.design.board.xy[pos.last_from]
        tx, ty = rulebook.design.board.xy[pos.last_to]
        if rulebook.design.pieces[c.kind_of[v]].letter == "" and fx == tx and abs(fy - ty) == 2:
            mid = rulebook.design.board.xy.index((fx, (fy + ty) / 2))
            ep = names[mid]
    board = placement.rows_text(rulebook, pos)
    return f"{board} {side} {rights} {ep} {pos.quiet} {pos.plies // 2 + 1}"


def _castling_text(rulebook: Rulebook, pos: DescribedPosition) -> str:
    if "moved" not in rulebook.design.attributes:
        return "-"
    bit = 1 << rulebook.design.attributes.index("moved")
    c = rulebook.c
    grid, _width, _height = placement.grid(rulebook)
    out = ""
    for player, row in ((0, grid[-1]), (1, grid[0])):
        king = [
            p
            for p in row
            if p >= 0
            and pos.board[p]
            and c.owner[pos.board[p]] == player
            and rulebook.design.pieces[c.kind_of[pos.board[p]]].royal
            and not c.attrs[pos.board[p]] & bit
        ]
        if not king:
            continue
        for corner, letter in ((row[-1], "K"), (row[0], "Q")):
            v = pos.board[corner]
            if (
                v
                and c.owner[v] == player
                and "moved" in rulebook.design.pieces[c.kind_of[v]].attributes
                and not rulebook.design.pieces[c.kind_of[v]].royal
                and not (c.attrs[v] & bit)
            ):
                out += letter if player == 0 else letter.lower()
    return out or "-"


def _fen_read(rulebook: Rulebook, text: str) -> DescribedPosition:
    fields = text.split()
    if len(fields) < 2:
        raise NotationError("a FEN needs at least the board and the side to move")
    grid, width, height = placement.grid(rulebook)
    rows = fields[0].split("/")
    if len(rows) != height:
        raise NotationError(f"a FEN board needs {height} rows separated by '/', not {len(rows)}")
    letters = placement.letters(rulebook)
    board = [0] * rulebook.n
    for r, row in enumerate(rows):
        col = 0
        for ch in row:
            if ch.isdigit():
                col += int(ch)
                continue
            kind = letters.get(ch.upper())
            if kind is None:
                raise NotationError(f"unknown piece letter {ch!r} in the FEN")
            if col >= width or grid[r][col] < 0:
                raise NotationError(f"row {r + 1} of the FEN is too long")
            board[grid[r][col]] = rulebook.c.code(0 if ch.isupper() else 1, kind)
            col += 1
        if col != width:
            raise NotationError(f"row {r + 1} of the FEN has {col} squares, not {width}")
    if fields[1] not in ("w", "b"):
        raise NotationError("the side to move is w or b")
    player = 0 if fields[1] == "w" else 1
    turn = rulebook.design.turn_order.index(player)
    pos = DescribedPosition(board, turn, hands=rulebook.start().hands)
    if "moved" in rulebook.design.attributes:
        bit = 1 << rulebook.design.attributes.index("moved")
        c = rulebook.c
        rights = fields[2] if len(fields) > 2 else "-"
        keep: set[int] = set()
        for ch in rights if rights != "-" else "":
            if ch not in "KQkq":
                raise NotationError(f"unknown castling right {ch!r}")
            player_row = grid[-1] if ch.isupper() else grid[0]
            corner = player_row[-1] if ch.upper() == "K" else player_row[0]
            keep.add(corner)
            keep.update(
                p
                for p in player_row
                if p >= 0 and board[p] and rulebook.design.pieces[c.kind_of[board[p]]].royal
            )
        for p, v in enumerate(board):
            if v and "moved" in rulebook.design.pieces[c.kind_of[v]].attributes and p not in keep:
                board[p] = c.code(c.owner[v], c.kind_of[v], c.attrs[v] | bit)
    if len(fields) > 3 and fields[3] != "-":
        names = rulebook.design.board.names
        if fields[3] not in names:
            raise NotationError(f"no square {fields[3]!r} for en passant")
        ep = names.index(fields[3])
        x, y = rulebook.design.board.xy[ep]
        step = 1.0 if player == 1 else -1.0  # the pawn that passed moved away from its side
        xy = rulebook.design.board.xy
        try:
            pos.last_from = xy.index((x, y - step))
            pos.last_to = xy.index((x, y + step))
        except ValueError:
            raise NotationError(f"{fields[3]} cannot be an en passant square") from None
    if len(fields) > 4:
        if not fields[4].isdigit():
            raise NotationError("the halfmove clock is a whole number")
        pos.quiet = int(fields[4])
    if len(fields) > 5:
        if not fields[5].isdigit() or int(fields[5]) < 1:
            raise NotationError("the move number is a whole number from 1")
        pos.plies = (int(fields[5]) - 1) * 2 + player
    pos.history = (rulebook.key(pos),) if rulebook.repetition else ()
    return pos


def _pdn_text(rulebook: Rulebook, pos: DescribedPosition) -> str:
    c = rulebook.c
    names = rulebook.design.board.names
    parts = []
    for player, label in enumerate(p[0].upper() for p in rulebook.design.players):
        squares = []
        for i, v in enumerate(pos.board):
            if v and c.owner[v] == player:
                letter = rulebook.design.pieces[c.kind_of[v]].letter
                squares.append(f"{letter}{names[i]}")
        parts.append(label + ",".join(squares))
    side = rulebook.design.players[rulebook.player(pos)][0].upper()
    return f"{side}:" + ":".join(parts)


def _pdn_read(rulebook: Rulebook, text: str) -> DescribedPosition:
    fields = [f.strip() for f in text.strip().rstrip(".").split(":")]
    labels = [p[0].upper() for p in rulebook.design.players]
    if len(fields) < 2 or fields[0].upper() not in labels:
        raise NotationError(f"a PDN position starts with the side to move ({'/'.join(labels)}:)")
    names = rulebook.design.board.names
    index = {n.lower(): i for i, n in enumerate(names)}
    letters = {p.letter.upper(): t for t, p in enumerate(rulebook.design.pieces)}
    board = [0] * rulebook.n
    for field in fields[1:]:
        if not field:
            continue
        side = field[0].upper()
        if side not in labels:
            raise NotationError(f"{field!r}: a side is one of {', '.join(labels)}")
        player = labels.index(side)
        for square in filter(None, (s.strip() for s in field[1:].split(","))):
            letter = ""
            while square and square[0].isalpha() and square.lower() not in index:
                letter += square[0].upper()
                square = square[1:]
            if letter not in letters:
                raise NotationError(f"unknown piece letter {letter!r}")
            span = square.split("-")
            if len(span) == 2 and all(s.isdigit() for s in span):
                squares = [str(n) for n in range(int(span[0]), int(span[1]) + 1)]
            else:
                squares = [square]
            for name in squares:
                if name.lower() not in index:
                    raise NotationError(f"no square {name!r} on this board")
                board[index[name.lower()]] = rulebook.c.code(player, letters[letter])
    player = labels.index(fields[0].upper())
    pos = DescribedPosition(
        board, rulebook.design.turn_order.index(player), hands=rulebook.start().hands
    )
    if rulebook.design.stacks:
        pos.under = [()] * rulebook.n
    pos.history = (rulebook.key(pos),) if rulebook.repetition else ()
    return pos


def _squares_text(rulebook: Rulebook, pos: DescribedPosition) -> str:
    marks = "XO"
    c = rulebook.c
    body = "".join(
        marks[c.owner[pos.board[p]]] if pos.board[p] else "-" for p in _reading_order(rulebook)
    )
    return f"{body} {marks[rulebook.player(pos)]}"


def _reading_order(rulebook: Rulebook) -> list[int]:
    """The positions row by row from the top, each row from the left (as FEN reads)."""
    grid, _, _ = placement.grid(rulebook)
    return [p for row in grid for p in row if p >= 0]


def _squares_read(rulebook: Rulebook, text: str) -> DescribedPosition:
    fields = text.split()
    if len(fields) != 2 or len(fields[0]) != rulebook.n or fields[1].upper() not in ("X", "O"):
        raise NotationError(
            f'a position is "BOARD SIDE": {rulebook.n} characters of X, O and -, then X or O'
        )
    board = [0] * rulebook.n
    for p, ch in zip(_reading_order(rulebook), fields[0].upper(), strict=True):
        if ch in "XO":
            board[p] = rulebook.c.code("XO".index(ch), 0)
        elif ch not in "-.":
            raise NotationError(f"unknown square mark {ch!r}: use X, O or -")
    player = "XO".index(fields[1].upper())
    return DescribedPosition(
        board, rulebook.design.turn_order.index(player), hands=rulebook.start().hands
    )


def _stack_text(rulebook: Rulebook, pos: DescribedPosition, i: int) -> str:
    """``[mK]``: the pieces under position ``i``'s top, bottom first, by letter (upper case
    for the first player); empty when there are none."""
    if pos.under is None or not pos.under[i]:
        return ""
    c = rulebook.c
    letters = []
    for v in pos.under[i]:
        piece = rulebook.design.pieces[c.kind_of[v]]
        letter = (piece.letter or piece.name[0]).upper()
        letters.append(letter if c.owner[v] == 0 else letter.lower())
    return "[" + "".join(letters) + "]"


def _generic_text(rulebook: Rulebook, pos: DescribedPosition) -> str:
    c = rulebook.c
    ns = c.namespace  # type: ignore[attr-defined]
    names = rulebook.design.board.names
    parts = []
    if rulebook.design.counters:  # "Seed: s1 4, s2 4, ... / South to move"
        counts = ", ".join(f"{names[i]} {v}" for i, v in enumerate(pos.board) if v)
        mover = rulebook.design.players[rulebook.player(pos)]
        return f"{rulebook.design.pieces[0].name}: {counts} / {mover} to move"
    for player, pname in enumerate(rulebook.design.players):
        groups = []
        for t, piece in enumerate(rulebook.design.pieces):
            squares = [
                names[i]
                + numbers_text(rulebook.design, ns, c.kind_of, v)
                + _stack_text(rulebook, pos, i)
                for i, v in enumerate(pos.board)
                if v and c.owner[v] == player and c.kind_of[v] == t
            ]
            if squares:
                groups.append(f"{piece.name} {' '.join(squares)}")
        parts.append(f"{pname}: {', '.join(groups)}")
    if pos.tallies:  # those that differ from their start: rules/piece_numbers.py
        parts.extend(filter(None, [tallies_text(rulebook.design, pos.tallies)]))
    parts.append(f"{rulebook.design.players[rulebook.player(pos)]} to move")
    return " / ".join(parts)


def _side(part: str, players: list[str]) -> int:
    """The player a ``PLAYER to move`` part names; NotationError for anyone else."""
    who = part[: -len(" to move")].strip()
    if who not in players:
        raise NotationError(f"no player {who!r}")
    return players.index(who)


def _sides(text: str, players: list[str]) -> tuple[int, list[str]]:
    """The player a ``PLAYER to move`` part of ``text`` names (the first player when none
    does) and the other parts, as ``/`` separates them."""
    to_move, parts = 0, []
    for part in (p.strip() for p in text.split("/")):
        if part.endswith(" to move"):
            to_move = _side(part, players)
        else:
            parts.append(part)
    return to_move, parts


def _counters_read(rulebook: Rulebook, text: str) -> DescribedPosition:
    names = rulebook.design.board.names
    players = list(rulebook.design.players)
    board = [0] * rulebook.n
    to_move, parts = _sides(text, players)
    for part in parts:
        _, _, rest = part.partition(":")
        for item in filter(None, (g.strip() for g in rest.split(","))):
            words = item.split()
            if len(words) != 2 or words[0] not in names or not words[1].isdigit():
                raise NotationError(f"{item!r}: a position and its counters, as 's1 4'")
            board[names.index(words[0])] = int(words[1])
    return DescribedPosition(
        board, rulebook.design.turn_order.index(to_move), hands=rulebook.start().hands
    )


def _generic_read(rulebook: Rulebook, text: str) -> DescribedPosition:
    if rulebook.design.counters:
        return _counters_read(rulebook, text)
    players = list(rulebook.design.players)
    types = {p.name: t for t, p in enumerate(rulebook.design.pieces)}
    letters = placement.letters(rulebook)
    names = rulebook.design.board.names
    board = [0] * rulebook.n
    under: list[tuple[int, ...]] = [()] * rulebook.n
    to_move, parts = _sides(text, players)
    tallies: tuple[int, ...] = ()
    for part in parts:
        who, _, rest = part.partition(":")
        if who.strip() == "tallies" and "tallies" not in players:
            try:
                tallies = read_tallies(rulebook.design, rest)
            except ValueError as e:
                raise NotationError(str(e)) from None
            continue
        if who.strip() not in players:
            raise NotationError(f"{part!r}: start with a player ({', '.join(players)}:)")
        player = players.index(who.strip())
        for group in filter(None, (g.strip() for g in rest.split(","))):
            words = group.split()
            if words[0] not in types:
                raise NotationError(f"no piece type {words[0]!r}")
            for word in words[1:]:
                name, _, stack = word.partition("[")
                name, _, numbers = name.partition("{")  # Pawn a2{moves=3}: rules/piece_numbers.py
                if name not in names:
                    raise NotationError(f"no position {name!r}")
                at = names.index(name)
                board[at] = rulebook.c.code(player, types[words[0]])
                if numbers:
                    if not numbers.endswith("}"):
                        raise NotationError(f"{word!r}: a piece's numbers are {{NAME=N;...}}")
                    ns = rulebook.c.namespace  # type: ignore[attr-defined]
                    try:
                        board[at] = with_numbers(rulebook.design, ns, board[at], numbers[:-1])
                    except ValueError as e:
                        raise NotationError(f"{word!r}: {e}") from None
                if stack:
                    if rulebook.design.stacks is False or not stack.endswith("]"):
                        raise NotationError(f"{word!r}: stacks are [letters] in a game of stacks")
                    pieces = []
                    for ch in stack[:-1]:
                        if ch.upper() not in letters:
                            raise NotationError(f"unknown piece letter {ch!r} in {word!r}")
                        pieces.append(
                            rulebook.c.code(0 if ch.isupper() else 1, letters[ch.upper()])
                        )
                    under[at] = tuple(pieces)
    pos = DescribedPosition(
        board, rulebook.design.turn_order.index(to_move), hands=rulebook.start().hands
    )
    if rulebook.design.stacks:
        pos.under = under
    pos.tallies = tallies
    pos.history = (rulebook.key(pos),) if rulebook.repetition else ()
    return pos


__all__ += ["PASS"]
