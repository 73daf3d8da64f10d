"""One ZRF game (a ``(game ...)`` or a completed ``(variant ...)``, macros expanded) written
as the engine's own description forms: the board as positions with one-way arrows, the
pieces with their move programs, the set-up, the turn order, the move priorities and the
goals. Every form made carries the line and column of the ZRF form it comes from, so that a
message about it names the ``.zrf`` file's own place.

What is not read yet is refused with a :class:`DescriptionError` naming the form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item
from game.logic.rules.words import RESERVED
from game.logic.zrf import goals, moving
from game.logic.zrf.geometry import Geometry, read_geometry
from game.logic.zrf.look import ZrfLook
from game.logic.zrf.macros import piece_name
from game.logic.zrf.made import form as _form
from game.logic.zrf.made import text as _text
from game.logic.zrf.players import check_players, random_rule, typeless_turns
from game.logic.zrf.properties import STATEMENTS, Properties
from game.logic.zrf.supply import uncounted

__all__ = ["ABOUT", "IGNORED", "Translation"]

#: Top-level game forms that only concern Zillions' own window, sounds and pictures.
IGNORED: Final = frozenset(
    {
        "image", "move-sound", "release-sound", "capture-sound", "drop-sound",
        "change-sound", "click-sound", "draw-sound", "loss-sound", "win-sound",
        "opening-sound", "music", "solution", "version", "default", "board-image",
        "piece-image", "animate", "notation",
    }
)  # fmt: skip
#: Texts a game gives for its help screen.
TEXTS: Final = ("description", "history", "strategy")
#: The texts the help screen shows (the design's about text), each after its label.
ABOUT: Final = (
    ("description", ""), ("help", "How to play: "), ("history", "History: "),
    ("strategy", "Strategy: "),
)  # fmt: skip
#: ZRF's plain conditions (with ``?``), and the engine's word for each.
_TESTS: Final = {
    "empty?": "empty",
    "friend?": "friend",
    "enemy?": "enemy",
    "last-to?": "last-to",
    "last-from?": "last-from",
    "attacked?": "attacked",
}
#: A safe name: one the engine's reader takes as a name, not a word of its language.
_SAFE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,47}")


class Translation:
    """Writes one ZRF game as description forms (:meth:`forms`)."""

    def __init__(self, game: Form, source: str, ident: str) -> None:
        self.game = game
        self.source = source
        self.ident = ident
        self.parts: dict[str, list[Form]] = {}
        for item in game.args:
            if not isinstance(item, Form) or not item.head:
                raise _error(item, "expected a form such as (players ...) or (board ...)")
            self.parts.setdefault(item.head, []).append(item)
        #: Engine names for ZRF's names of directions, piece types, zones, players, kinds.
        self.names: dict[str, str] = {}
        self._kinds: set[str] | None = None
        self.used: set[str] = set(RESERVED)
        self.players: tuple[str, ...] = ()
        self.geometry = Geometry()
        self.texts: dict[str, str] = {}
        self.options: dict[str, str] = {}
        self.counter = 0
        self.properties = Properties(self)

    # -- names -----------------------------------------------------------------------------

    def name(self, zrf: str) -> str:
        """The engine's name for a ZRF name (the same where the reader takes it)."""
        got = self.names.get(zrf)
        if got is not None:
            return got
        base = zrf if _SAFE.fullmatch(zrf) and zrf not in RESERVED else ""
        if not base:
            base = "z-" + re.sub(r"[^A-Za-z0-9_-]", "-", zrf)[:40].strip("-") or "z"
        made, k = base, 1
        while made in self.used:
            k += 1
            made = f"{base}-{k}"
        self.used.add(made)
        self.names[zrf] = made
        return made

    def one(self, head: str) -> Form | None:
        found = self.parts.get(head, [])
        return found[-1] if found else None

    # -- the whole game ---------------------------------------------------------------------

    def forms(self) -> list[Item]:
        at = self.game
        for head, found in self.parts.items():
            if head in IGNORED or head in TEXTS or head in _READ_HEADS:
                continue
            raise found[0].error(f"the game form ({head} ...) is not read yet")
        for option in self.parts.get("option", []):
            if len(option) >= 3 and isinstance(option[1], Atom):
                self.options[str(option[1].value).lower().replace("-", " ")] = str(option[2])
        for head in ("title", *TEXTS, "help"):
            form = self.one(head)
            if form is not None:
                self.texts[head] = " ".join(str(a.value) for a in form.args if isinstance(a, Atom))
        players_form = self.one("players")
        if players_form is None:
            raise at.error("the game has no (players ...)")
        self.players = tuple(_word(p) for p in players_form.args)
        check_players(self, players_form)
        board = self.one("board")
        if board is None:
            raise at.error("the game has no (board ...)")
        self.geometry = read_geometry(board, self.players)
        self.properties.prepare()
        self.look = ZrfLook(self)
        self.look.arrange()
        out: list[Item] = [
            _form(at, "game", self.ident),
            _form(at, "title", _text(at, self.texts.get("title", self.ident)[:80] or self.ident)),
            _form(players_form, "players", *(self.name(p) for p in self.players)),
            *self.look.colours(players_form),
        ]
        about = [label + self.texts[h] for h, label in ABOUT if self.texts.get(h)]
        if about:
            out.append(_form(at, "about", *(_text(at, t[:2000]) for t in about)))
        out.append(self.board_form(board))
        out.extend(self.pieces())
        setup = self.setup()
        if setup is not None:
            out.append(setup)
        rules = self.rules()
        out.append(rules)
        typeless_turns(out, rules)
        out.append(_form(at, "notation", _form(at, "drops", "letter")))  # P*e5, as Zillions
        ends = self.ends()
        if ends is not None:
            out.append(ends)
        return out

    # -- board ------------------------------------------------------------------------------

    def board_form(self, board: Form) -> Form:
        geo = self.geometry
        for n in geo.names:
            self.used.add(n)
        parts: list[Item] = [
            _form(board, "positions", *(
                _form(board, _text(board, n), _real(board, x), _real(board, y))
                for n, (x, y) in zip(geo.names, geo.xy, strict=True)
            )),
            _form(board, "kind", geo.kind),
        ]  # fmt: skip
        if geo.directions:
            parts.append(
                _form(
                    board, "directions", *(_form(board, self.name(d), 0, 0) for d in geo.directions)
                )
            )
        for d in geo.directions:
            pairs = [
                _form(board, _text(board, a), _text(board, b)) for a, b in geo.links[d].items()
            ]
            if pairs:
                parts.append(_form(board, "arrows", self.name(d), *pairs))
        for who, table in geo.symmetry.items():
            pairs = [
                _form(board, self.name(a), self.name(b))
                for a, b in table.items()
                if a in geo.links and b in geo.links
            ]
            if pairs:
                parts.append(_form(board, "direction-map", self.name(who), *pairs))
        for zname, per in geo.zones.items():
            groups = [
                _form(board, self.name(who), *(_text(board, p) for p in where))
                for who, where in per.items()
            ]
            parts.append(_form(board, "zone", self.name(zname), *groups))
        parts.extend(self.look.board(board))
        return _form(board, "board", *parts)

    # -- pieces -----------------------------------------------------------------------------

    def pieces(self) -> list[Form]:
        out = []
        letters: set[str] = set()
        royal = goals.royal_types(self)
        for name, piece in self.declared().items():
            if not name:
                raise piece.error("a piece needs (name ...)")
            given = [
                _word(_arg(p, 1))
                for p in piece.args
                if isinstance(p, Form) and p.head == "notation"
            ]
            mark = given[0] if given else ""  # (notation "P"): the letter it is written with
            letter = mark if mark and mark not in letters else _letter(name, letters)
            letters.add(letter)
            body: list[Item] = [_form(piece, "letter", _text(piece, letter))]
            if name in royal:
                body.append(_form(piece, "royal"))
            if self.options.get("shared pieces") == "true":  # any player may move it
                body.append(_form(piece, "shared"))
            body.extend(self.look.piece(name, piece))
            for part in piece.args:
                if not isinstance(part, Form):
                    raise _error(part, "expected (name ...), (moves ...) ...")
                if part.head in ("moves", "drops"):
                    programs = self.programs(part, name)
                    if programs:
                        body.append(_form(part, part.head, *programs))
                elif part.head in (
                    "name",
                    "help",
                    "description",
                    "image",
                    "notation",
                    "dummy",
                    "glyph",
                ):
                    continue
                elif part.head == "attribute":
                    body.extend(self.properties.declare(part))
                else:
                    raise part.error(f"the piece form ({part.head} ...) is not read yet")
            out.append(_form(piece, "piece", self.name(name), *body))
        if not out:
            raise self.game.error("the game has no (piece ...)")
        return out

    def programs(self, form: Form, piece: str) -> list[Form]:
        kind = "normal"
        out: list[Form] = []
        for prog in form.args:
            if isinstance(prog, Form) and prog.head == "move-type":
                kind = _word(prog[1]) if len(prog) > 1 else "normal"
                continue
            if not isinstance(prog, Form):
                raise _error(prog, "a move is a list of statements")
            self.counter += 1
            body = self.statements(prog.items)
            header: list[Item] = [Atom("move", prog.line, prog.column, prog.source)]
            header.append(Atom(f"m{self.counter}", prog.line, prog.column, prog.source))
            if kind != "normal":
                header.append(_form(prog, "type", self.name(kind)))
            out.append(Form((*header, *body), prog.line, prog.column, prog.source))
        return out

    # -- statements and conditions ----------------------------------------------------------

    def statements(self, items: Sequence[Item]) -> list[Item]:
        out: list[Item] = []
        i = 0
        items = list(items)
        while i < len(items):
            item = items[i]
            i += 1
            if isinstance(item, Atom):
                out.extend(self.word_statement(item))
                continue
            head = item.head
            if head == "verify":
                out.append(_form(item, "verify", self.condition(_arg(item, 1))))
            elif head == "if":
                cond = self.condition(_arg(item, 1))
                rest = list(item.items[2:])
                split = next(
                    (k for k, x in enumerate(rest) if isinstance(x, Atom) and x.value == "else"),
                    None,
                )
                then = rest if split is None else rest[:split]
                parts: list[Item] = [Atom("if", item.line, item.column, item.source), cond]
                parts.extend(self.statements(then))
                if split is not None:
                    other = self.statements(rest[split + 1 :])
                    parts.append(_form(item, "else", *other))
                out.append(Form(tuple(parts), item.line, item.column, item.source))
            elif head == "while":
                cond = self.condition(_arg(item, 1))
                out.append(_form(item, "while", cond, *self.statements(item.items[2:])))
            elif head == "add":
                out.extend(self.add(item))
            elif head == "add-partial":
                out.extend(self.add_partial(item))
            elif head in STATEMENTS:
                out.extend(self.properties.statement(item))
            elif head == "opposite":
                out.append(
                    Atom(
                        self.name(self.opposite(_arg(item, 1))), item.line, item.column, item.source
                    )
                )
            elif head in ("mark", "back", "capture", "flip") and len(item) == 1:
                out.append(Atom(head, item.line, item.column, item.source))
            elif head in moving.FORMS:
                out.extend(moving.form(self, item))
            elif (not head and item.items) or head in self.geometry.links:
                out.extend(self.statements(item.items))  # a list of statements: spliced
            else:
                raise item.error(f"the move form ({head or str(item)[:20]} ...) is not read yet")
        return out

    def word_statement(self, item: Atom) -> list[Item]:
        word = str(item.value)
        if word in self.geometry.links:
            return [Atom(self.name(word), item.line, item.column, item.source)]
        if word in ("add", "capture", "flip", "mark", "back"):
            return [item]
        if word in moving.WORDS or word in self.geometry.names:
            return moving.word(self, item)
        if re.fullmatch(r"\$\d+", word):  # a macro's argument the call did not give
            return [_form(item, "verify", "false")]  # the move fails there, as in Zillions
        if word in self.geometry.zones:
            raise item.error(f"the zone {word!r} stands where a direction or position must")
        raise item.error(f"the move word {word!r} is not read yet")

    def add(self, item: Form) -> list[Item]:
        if len(item) == 1:
            return [Atom("add", item.line, item.column, item.source)]
        if len(item) == 2:
            return [
                _form(item, "promote", self.name(_word(item[1]))),
                Atom("add", item.line, item.column, item.source),
            ]
        return moving.form(self, item)

    def add_partial(self, item: Form) -> list[Item]:
        args = [_word(a) for a in item.args]
        if not args:
            return [_form(item, "add-partial", "normal")]
        out: list[Item] = []
        if len(args) == 2:
            out.append(_form(item, "promote", self.name(args[-2])))
        if args[-1] not in self.kinds():  # no move goes on with that type: the move ends here
            return [*out, Atom("add", item.line, item.column, item.source)]
        out.append(_form(item, "add-partial", self.name(args[-1])))
        return out

    def declared(self) -> dict[str, Form]:
        """The pieces by name; a piece declared again (by a macro used twice) is its last
        declaration."""
        return {piece_name(p): p for p in self.parts.get("piece", [])}

    def kinds(self) -> set[str]:
        """The move types the pieces' moves and drops declare (worked out once)."""
        if self._kinds is None:
            self._kinds = {
                _word(t[1])
                for piece in self.parts.get("piece", [])
                for part in piece.args
                if isinstance(part, Form) and part.head in ("moves", "drops")
                for t in part.args
                if isinstance(t, Form) and t.head == "move-type" and len(t) > 1
            }
        return self._kinds

    def opposite(self, item: Item) -> str:
        d = _word(item)
        links = self.geometry.links.get(d)
        if links is None:
            raise item.error(f"no direction {d!r}")
        # The direction that undoes every step of d (and goes nowhere else).
        for other, table in self.geometry.links.items():
            if len(table) == len(links) and all(links.get(b) == a for a, b in table.items()):
                return other
        raise item.error(f"no direction goes back along {d!r}")

    def condition(self, item: Item) -> Item:
        at = item
        mine = self.properties.condition(item)
        if mine is not None:
            return mine
        if isinstance(item, Atom):
            word = str(item.value)
            if word in _TESTS:
                return Atom(_TESTS[word], item.line, item.column, item.source)
            if word.startswith("not-") and word[4:] in _TESTS:
                return _form(item, "not", _TESTS[word[4:]])
            if word in ("true", "false"):
                return Atom(word, item.line, item.column, item.source)
            raise item.error(f"the condition {word!r} is not read yet")
        head = item.head
        negate = head.startswith("not-") and head not in ("not",)
        base = head[4:] if negate else head
        out: Item
        if head in ("not", "and", "or"):
            out = _form(item, head, *(self.condition(a) for a in item.args))
        elif base in _TESTS and len(item) == 2:
            out = _form(item, "next", self.name(_word(item[1])), _TESTS[base])
        elif base == "piece?":
            inner = _form(item, "piece", self.name(_word(_arg(item, 1))))
            out = inner if len(item) == 2 else _form(item, "next", self.name(_word(item[2])), inner)
        elif base == "in-zone?":
            inner = _form(item, "in-zone", self.name(_word(_arg(item, 1))))
            out = inner if len(item) == 2 else _form(item, "next", self.name(_word(item[2])), inner)
        elif base == "on-board?":
            out = _form(item, "on-board", self.name(_word(_arg(item, 1))))
        else:
            raise at.error(f"the condition ({head} ...) is not read yet")
        return _form(item, "not", out) if negate else out

    # -- set-up, rules, goals -----------------------------------------------------------------

    def setup(self) -> Form | None:
        form = self.one("board-setup")
        if form is None:
            return None
        sides: dict[str, list[Item]] = {}
        counted: set[tuple[str, str]] = set()  # (player, piece) given an off count
        where: dict[str, Form] = {}
        # A position set up twice holds what it is given last (as Zillions places them).
        final = {
            _word(a): id(a)
            for side in form.args
            if isinstance(side, Form)
            for group in side.args
            if isinstance(group, Form)
            for a in group.args
            if isinstance(a, Atom)
        }
        for side in form.args:
            if not isinstance(side, Form) or side.head not in self.players:
                who = f"no player {side.head!r}: " if isinstance(side, Form) else ""
                raise _error(side, f"{who}(PLAYER (PIECE POSITION...)...)")
            groups: list[Item] = []
            for group in side.args:
                if not isinstance(group, Form) or not group.head:
                    raise _error(group, "(PIECE POSITION... [off N])")
                kind = self.name(group.head)
                places: list[Item] = []
                args = list(group.args)
                k = 0
                while k < len(args):
                    a = args[k]
                    if isinstance(a, Atom) and a.value == "off" and k + 1 < len(args):
                        groups.append(_form(group, "in-hand", kind, args[k + 1]))
                        counted.add((side.head, group.head))
                        k += 2
                        continue
                    if _word(a) in self.geometry.names and final[_word(a)] == id(a):
                        places.append(_text(a, _word(a)))
                    k += 1
                if places:
                    groups.append(_form(group, kind, *places))
            sides.setdefault(side.head, []).extend(groups)
            where.setdefault(side.head, side)
        for player, names in uncounted(self.players, self.declared(), counted).items():
            sides.setdefault(player, []).extend(
                _form(form, "in-hand", self.name(n), "unlimited") for n in names
            )
        made = (_form(where.get(p, form), self.name(p), *g) for p, g in sides.items())
        return _form(form, "setup", *made)

    def rules(self) -> Form:
        at = self.game
        parts: list[Item] = []
        order = self.one("turn-order")
        if order is not None:
            steps: list[Item] = []
            for step in order.args:
                if isinstance(step, Atom) and step.value == "repeat":
                    steps.append(step)
                elif isinstance(step, Atom) and _word(step) in self.players:
                    steps.append(Atom(self.name(_word(step)), step.line, step.column, step.source))
                elif isinstance(step, Form) and len(step) in (2, 3) and step.head in self.players:
                    # (P TYPE), (P Q): P moves Q's pieces, (P Q TYPE)
                    steps.append(_form(step, *(self.name(_word(a)) for a in step.items)))
                else:
                    raise _error(step, "the turn-order step is not read yet")
            parts.append(_form(order, "turn-order", *steps))
        priorities = self.one("move-priorities")
        if priorities is not None:  # a type the list leaves out never starts a move
            listed = [self.name(_word(a)) for a in priorities.args]
            parts.append(_form(priorities, "priorities", *listed))
        if self.options.get("pass turn") in ("true", "forced"):
            parts.append(_form(at, "pass-when-stuck"))
        parts.extend(goals.turn_rules(self))
        parts.extend(random_rule(self, at))
        parts.append(_form(at, "perft", "past-ends"))
        parts.append(_form(at, "free-partial"))
        parts.append(_form(at, "take-own"))  # add takes whatever stands there
        return _form(at, "rules", *parts)

    def ends(self) -> Form | None:
        """The goals as end conditions (:mod:`game.logic.zrf.goals`)."""
        return goals.ends(self)


#: The game forms this module reads.
_READ_HEADS: Final = frozenset(
    {
        "title", "players", "turn-order", "board", "board-setup", "piece", "option",
        "move-priorities", "help", "win-condition", "loss-condition", "draw-condition",
        "count-condition",
    }
)  # fmt: skip


def _letter(name: str, used: set[str]) -> str:
    for candidate in (name[:1].upper(), name[:2].capitalize(), name[:3].capitalize(), name):
        if candidate and candidate not in used:
            used.add(candidate)
            return candidate
    return name


def _error(item: Item, message: str) -> DescriptionError:
    return item.error(message)


def _arg(form: Form, k: int) -> Item:
    if len(form) <= k:
        raise form.error(f"({form.head} ...) needs {k} argument{'s' if k > 1 else ''}")
    return form[k]


def _word(item: Item) -> str:
    if isinstance(item, Atom):
        return str(item.value)
    raise item.error("expected a name")


def _real(at: Item, value: float) -> Atom:
    """A position's coordinate: a whole number, or a decimal word."""
    made: str | int = int(value) if value == int(value) else f"{value:.4f}"
    return Atom(made, at.line, at.column, at.source)
