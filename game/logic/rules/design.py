"""A description read into a :class:`Design`: the board as a graph, the pieces and their move
programs, turn order, invariants and end conditions, checked word by word.

Every mistake is a :class:`~game.logic.rules.sexpr.DescriptionError` naming the file, line and
column of the word at fault. The move programs are kept as checked lists here;
:mod:`game.logic.rules.compile` turns them into generators.

The top-level forms (each at most once unless said):

``(game ID)`` ``(title "..")`` ``(players P1 P2)`` ``(board ...)`` ``(piece NAME ...)`` (one per
piece type) ``(define (MACRO PARAM..) STATEMENT..)`` (any number) ``(setup ...)``
``(rules ...)`` ``(end ...)`` ``(notation ...)`` ``(hook NAME "why")`` ``(about "..")``.
See ``docs/rules.md`` for the whole language.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item, read

__all__ = [
    "ACTIONS",
    "CONDITIONS",
    "Board",
    "Design",
    "End",
    "Parameter",
    "PieceType",
    "Program",
    "load",
    "parse",
]

#: The most positions a board may have.
MAX_POSITIONS: Final = 1024
#: The most piece types, attributes and players a description may declare.
MAX_TYPES: Final = 32
MAX_PLAYERS: Final = 2

#: Statements without arguments that a move program may use as bare words.
ACTIONS: Final = frozenset({"add", "capture", "flip", "mark", "back", "set-flag", "again"})
#: The rules that are a word alone, and the design flag each sets.
RULE_FLAGS: Final = {
    "most-captures": "most_captures",
    "pass-when-stuck": "pass_when_stuck",
    "drops-first": "drops_first",
    "stacks": "stacks",
    "counters": "counters",
}
#: Words a move program gives a meaning of its own: no direction may take one as its name.
RESERVED: Final = frozenset(
    {
        "add", "capture", "flip", "mark", "back", "set-flag", "again", "dir", "verify", "if",
        "else", "while", "one-of", "do", "anywhere", "sweep", "promote", "change-type",
        "set-attr", "clear-attr", "cascade", "add-partial", "sow", "take-to", "move", "goto",
    }
)  # fmt: skip
#: Conditions without arguments.
CONDITIONS: Final = frozenset(
    {
        "empty",
        "friend",
        "enemy",
        "captured",
        "last-to",
        "last-from",
        "attacked",
        "check",
        "flipped",
        "flag",
        "at-origin",
        "true",
        "false",
    }
)
#: Conditions with arguments: name -> (least, most) arguments.
CONDITION_FORMS: Final = {
    "not": (1, 1),
    "and": (1, 16),
    "or": (1, 16),
    "piece": (1, 8),
    "friend": (1, 8),
    "enemy": (1, 8),
    "in-zone": (1, 1),
    "on-board": (1, 1),
    "attr": (1, 1),
    "moving": (1, 8),
    "makes-line": (1, 1),
    "in-line": (1, 1),
    "only-lines": (1, 1),
    "pieces-at-most": (1, 1),
    "exists": (1, 1),
    "counters": (1, 1),
    "counters-at-least": (1, 1),
    "next": (2, 2),
}
#: End conditions: name -> (least, most) arguments.
END_CONDITIONS: Final = {
    "stuck": (0, 0),
    "check": (0, 0),
    "line": (1, 1),
    "reached": (1, 3),
    "none-left": (0, 8),
    "repetition": (1, 1),
    "quiet-moves": (1, 9),
    "plies": (1, 1),
    "full": (0, 0),
    "both-stuck": (0, 0),
    "pieces-below": (1, 1),
    "zone-empty": (1, 1),
    "in-hand": (0, 0),
    "connects": (2, 2),
    "and": (1, 4),
    "not": (1, 1),
}
OUTCOMES: Final = ("win", "loss", "draw", "count")
#: The agents a description may choose for its hints and computer side.
COMPUTERS: Final = ("alphabeta", "uct")
SHAPES: Final = (
    "man",
    "king",
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "disc",
    "stone",
    "cross",
    "ring",
)


@dataclass(frozen=True)
class Board:
    """The positions (names, centres in board units), the named links between them, the
    zones, and how it is drawn (``kind``: "square", "hex" or "points")."""

    names: tuple[str, ...]
    xy: tuple[tuple[float, float], ...]
    directions: tuple[str, ...]
    #: links[d][p]: the position one step in direction d from p, or -1.
    links: tuple[tuple[int, ...], ...]
    #: symmetry[player][d]: the direction d means for that player.
    symmetry: tuple[tuple[int, ...], ...]
    #: zones[name][player]: the positions of the zone for that player.
    zones: dict[str, tuple[frozenset[int], ...]]
    kind: str
    #: Links drawn as lines (free-form boards); grid lines are not listed.
    drawn: tuple[tuple[int, int], ...]
    #: Positions coloured dark (checkered boards), for the scene.
    dark: frozenset[int]
    size: tuple[int, int]
    #: Positions that are part of the graph but never hold a piece (Surakarta's loop arcs).
    off_board: frozenset[int] = frozenset()
    #: (direction, position) -> direction: a walk arriving at the position in the first
    #: direction goes on in the second (a loop turns a horizontal walk into a vertical one).
    turns: dict[tuple[int, int], int] = field(default_factory=dict)

    def index(self, name: str) -> int:
        try:
            return self._index[name]
        except KeyError:
            raise ValueError(f"no position {name!r} on this board") from None

    @property
    def _index(self) -> dict[str, int]:
        cache = self.__dict__.get("_index_cache")
        if cache is None:
            cache = {n: i for i, n in enumerate(self.names)}
            object.__setattr__(self, "_index_cache", cache)
        return cache


@dataclass(frozen=True)
class Program:
    """One move program: its statements (checked, macros expanded), its move type, whether it
    is a drop, and where it was written."""

    name: str
    kind: str
    body: tuple[Item, ...]
    drop: bool
    where: Form


@dataclass(frozen=True)
class PieceType:
    name: str
    letter: str
    shape: str
    value: int
    programs: tuple[Program, ...]
    attributes: tuple[str, ...]
    #: (type, zone) to become when a composite move ends in the zone.
    promote_at_end: tuple[str, str] | None
    royal: bool
    #: The shape each player's piece is drawn as (``(shape cross ring)``: X's and O's).
    shapes: tuple[str, ...] = ()
    #: Any player may move it, whoever it belongs to.
    shared: bool = False


@dataclass
class Evaluation:
    """How alpha-beta scores a position it does not search further, from the side to move:
    ``material`` times the pieces' values, ``mobility`` times the difference in legal moves,
    and for each (zone, weight, type) the weight for each own piece there (the opponent's
    count against)."""

    material: int = 1
    mobility: int = 0
    zones: list[tuple[str, int, str | None]] = field(default_factory=list)


@dataclass(frozen=True)
class End:
    outcome: str
    condition: Item


@dataclass
class Design:
    """Everything a description says, checked; see the module docstring."""

    id: str
    title: str
    source: str
    players: tuple[str, ...]
    board: Board
    pieces: tuple[PieceType, ...]
    attributes: tuple[str, ...]
    setup: dict[int, list[tuple[int, int]]]
    hands: dict[int, dict[int, int]]
    turn_order: tuple[int, ...]
    repeat_from: int
    compulsory: tuple[str, ...]
    most_captures: bool
    identity: str
    pass_when_stuck: bool
    ends: tuple[End, ...]
    perft_ended_leaves: bool
    position_format: str
    hooks: dict[str, str]
    about: str
    colours: tuple[tuple[float, float, float], ...]
    lines: int = 0
    evaluation: Evaluation = field(default_factory=lambda: Evaluation())
    #: The agent that gives hints and plays the computer's side: alpha-beta for games its
    #: evaluation reads well, UCT (random playouts) for connection games such as Hex.
    computer: str = "alphabeta"
    #: The move type each step of the turn order allows ("" for any).
    turn_kinds: tuple[str, ...] = ()
    #: The turn order's labels, in order of first appearance (a move's ``(goto NAME)`` is
    #: the label's index + 1), and for each the steps it stands before.
    labels: tuple[str, ...] = ()
    label_steps: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: After a move at step i: (label, condition) pairs; the first whose condition holds
    #: sends the turn to the label (phases).
    turn_jumps: dict[int, tuple[tuple[str, Item], ...]] = field(default_factory=dict)
    parameters: tuple[Parameter, ...] = ()
    values: dict[str, int] = field(default_factory=dict)
    #: A player with pieces in hand must drop one (Nine Men's Morris's first phase).
    drops_first: bool = False
    #: Pieces stand in stacks (columns) owned by their top piece; a capture takes the
    #: captured stack's top piece under the capturing stack.
    stacks: bool = False
    #: Positions hold a number of counters (seeds), not pieces: any player may sow from
    #: their positions, and a player's score is the counters in their part of score_zone.
    counters: bool = False
    score_zone: str = ""
    #: Counters left in a player's part of this zone when the game ends count for them.
    keep_zone: str = ""
    defines: dict[str, tuple[tuple[str, ...], tuple[Item, ...]]] = field(default_factory=dict)

    def type_index(self, name: str) -> int:
        for i, piece in enumerate(self.pieces):
            if piece.name == name:
                return i
        raise ValueError(f"no piece type {name!r}")

    @property
    def royal(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.pieces) if p.royal)


def load(path: str | Path, values: Mapping[str, int] | None = None) -> Design:
    """The design in the file at ``path``; raises DescriptionError (or OSError)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DescriptionError(f"not UTF-8 text ({exc.reason})", str(path)) from None
    return parse(text, str(path), values)


@dataclass(frozen=True)
class Parameter:
    """A number the description leaves to the player (``(parameter k 5 3 9 "in a row")``):
    its name, default, least and greatest value and what it means; ``$k`` stands for it."""

    name: str
    default: int
    least: int
    most: int
    help: str


#: Names a parameter may not take: every described game's options already have them.
TAKEN: Final = frozenset({"first", "second", "time_per_move", "position"})


def parameters(items: list[Item]) -> list[Parameter]:
    """The ``(parameter ...)`` forms among ``items``, checked."""
    out: list[Parameter] = []
    for item in items:
        if not (isinstance(item, Form) and item.head == "parameter"):
            continue
        name, default, least, most, *text = _arg(item, 4, 5)
        word = _word(name)
        if not word.isidentifier() or not word.islower() or word in TAKEN:
            raise _err(name, "a parameter is a lower-case name other than " + ", ".join(TAKEN))
        if any(p.name == word for p in out):
            raise _err(name, f"parameter {word!r} is given twice")
        low, high = _int(least, -10_000, 10_000), _int(most, -10_000, 10_000)
        if low > high:
            raise _err(most, "the greatest value is below the least")
        out.append(
            Parameter(word, _int(default, low, high), low, high, _string(text[0]) if text else "")
        )
    return out


def parse(
    text: str, source: str = "<description>", values: Mapping[str, int] | None = None
) -> Design:
    """The design ``text`` describes, its parameters set to ``values`` (the rest to their
    defaults); raises DescriptionError naming line and column."""
    items = read(text, source)
    declared = parameters(items)
    chosen = {p.name: p.default for p in declared}
    for name, value in (values or {}).items():
        found = next((p for p in declared if p.name == name), None)
        if found is None:
            raise DescriptionError(f"the description has no parameter {name!r}", source)
        if not found.least <= value <= found.most:
            raise DescriptionError(
                f"{name} must be from {found.least} to {found.most}, not {value}", source
            )
        chosen[name] = value
    items = [_bind(item, chosen) for item in items]
    design = _Reader(items, source, text.count("\n") + 1).design()
    design.parameters = tuple(declared)
    design.values = dict(chosen)
    return design


def _bind(item: Item, values: Mapping[str, int]) -> Item:
    """``item`` with each ``$name`` word replaced by the parameter's value."""
    if isinstance(item, Atom):
        if not item.quoted and isinstance(item.value, str) and item.value.startswith("$"):
            name = item.value[1:]
            if name not in values:
                raise item.error(f"no parameter {name!r} (declare it with (parameter ...))")
            return Atom(values[name], item.line, item.column, item.source)
        return item
    return Form(
        tuple(_bind(i, values) for i in item.items),
        item.line,
        item.column,
        item.source,
        item.closed_at,
    )


DEFAULT_COLOURS: Final = ((0.93, 0.9, 0.82), (0.16, 0.15, 0.16))


class _Reader:
    def __init__(self, items: list[Item], source: str, lines: int) -> None:
        self.source = source
        self.lines = lines
        self.forms: dict[str, list[Form]] = {}
        for item in items:
            if not isinstance(item, Form) or not item.head:
                raise _err(item, "expected a form such as (game ...) or (board ...)")
            self.forms.setdefault(item.head, []).append(item)
        known = {
            "game",
            "title",
            "players",
            "board",
            "piece",
            "define",
            "setup",
            "rules",
            "end",
            "notation",
            "hook",
            "about",
            "colours",
            "evaluation",
            "parameter",
            "computer",
        }
        for head, forms in self.forms.items():
            if head not in known:
                raise forms[0].error(
                    f"unknown form ({head} ...); the forms are: {', '.join(sorted(known))}"
                )
            if head not in ("piece", "define", "hook", "parameter") and len(forms) > 1:
                raise forms[1].error(f"({head} ...) is given twice")

    def one(self, head: str, required: bool = True) -> Form | None:
        forms = self.forms.get(head)
        if not forms:
            if required:
                raise DescriptionError(f"the description has no ({head} ...)", self.source)
            return None
        return forms[0]

    def design(self) -> Design:
        game = self.one("game")
        assert game is not None
        ident = _word(_arg(game, 1, 1)[0])
        if not ident.replace("-", "").isalnum() or not ident.islower():
            raise _err(game[1], "the game id is lower-case letters, digits and '-'")
        title_form = self.one("title", required=False)
        title = _string(_arg(title_form, 1, 1)[0]) if title_form else ident
        players_form = self.one("players")
        assert players_form is not None
        players = tuple(_word(a) for a in _arg(players_form, 2, MAX_PLAYERS))
        _distinct(players_form.args, "player")
        self.players = players
        rules = self.one("rules", required=False)
        self.counting = rules is not None and any(
            isinstance(item, Form) and item.head == "counters" for item in rules.args
        )
        self.defines = self._defines()
        board_form = self.one("board")
        assert board_form is not None
        self.board = _read_board(board_form, players)
        pieces, attributes = self._pieces()
        self.pieces = pieces
        design = Design(
            id=ident,
            title=title,
            source=self.source,
            players=players,
            board=self.board,
            pieces=pieces,
            attributes=attributes,
            setup={},
            hands={},
            turn_order=tuple(range(len(players))),
            repeat_from=0,
            compulsory=(),
            most_captures=False,
            identity="path",
            pass_when_stuck=False,
            ends=(),
            perft_ended_leaves=False,
            position_format="generic",
            hooks={},
            about="",
            colours=DEFAULT_COLOURS,
            lines=self.lines,
            defines=self.defines,
        )
        self._setup(design)
        self._rules(design)
        for target in self.gotos:
            if _word(target) not in design.labels:
                raise _err(target, f"no (label {_word(target)}) in the turn order")
        self._ends(design)
        self._notation(design)
        for hook in self.forms.get("hook", []):
            name, why = _arg(hook, 2, 2)
            design.hooks[_word(name)] = _string(why)
        evaluation = self.one("evaluation", required=False)
        if evaluation:
            design.evaluation = self._evaluation(evaluation)
        about = self.one("about", required=False)
        if about:
            design.about = " ".join(_string(a) for a in _arg(about, 1, 40))
        computer = self.one("computer", required=False)
        if computer:  # the agent that gives hints and plays the computer's side
            design.computer = _word(_arg(computer, 1, 1)[0])
            if design.computer not in COMPUTERS:
                raise _err(computer[1], f"the computer is one of {', '.join(COMPUTERS)}")
        colours = self.one("colours", required=False)
        if colours:
            # One per player, and one more for the pieces no one owns (Neutron's neutron).
            given = _arg(colours, len(players), len(players) + 1)
            design.colours = tuple(_colour(a) for a in given)
        return design

    def _evaluation(self, form: Form) -> Evaluation:
        """``(evaluation (material W) (mobility W) (zone Z W [TYPE])...)``."""
        out = Evaluation()
        for item in form.args:
            if not isinstance(item, Form) or item.head not in ("material", "mobility", "zone"):
                raise _err(item, "expected (material W), (mobility W) or (zone NAME W [TYPE])")
            if item.head == "material":
                out.material = _int(_arg(item, 1, 1)[0], -1000, 1000)
            elif item.head == "mobility":
                out.mobility = _int(_arg(item, 1, 1)[0], -1000, 1000)
            else:
                args = _arg(item, 2, 3)
                zone = self._zone_name(args[0])
                kind = self._type_name(args[2]) if len(args) > 2 else None
                out.zones.append((zone, _int(args[1], -1000, 1000), kind))
        return out

    # -- pieces and programs ------------------------------------------------------------

    def _defines(self) -> dict[str, tuple[tuple[str, ...], tuple[Item, ...]]]:
        out: dict[str, tuple[tuple[str, ...], tuple[Item, ...]]] = {}
        for form in self.forms.get("define", []):
            if len(form) < 3:
                raise form.error("(define (NAME PARAM...) STATEMENT...) needs a body")
            sig = form[1]
            params: tuple[str, ...]
            if isinstance(sig, Atom):
                name, params = _word(sig), ()
            else:
                if not sig.items:
                    raise _err(sig, "a macro needs a name")
                name = _word(sig[0])
                params = tuple(_word(p) for p in sig.args)
            if name in out:
                raise form.error(f"macro {name!r} is defined twice")
            out[name] = (params, form.items[2:])
        return out

    def _pieces(self) -> tuple[tuple[PieceType, ...], tuple[str, ...]]:
        forms = self.forms.get("piece", [])
        if not forms:
            raise DescriptionError("the description has no (piece ...)", self.source)
        if len(forms) > MAX_TYPES:
            raise forms[MAX_TYPES].error(f"more than {MAX_TYPES} piece types")
        names = [_word(_arg(f, 1, 99)[0]) for f in forms]
        for form, name in zip(forms, names, strict=True):
            if names.count(name) > 1:
                raise form.error(f"piece {name!r} is declared twice")
        self.type_names = names
        self.kinds = {"normal"}
        self.gotos: list[Item] = []  # each (goto LABEL) of a move program, checked later
        for form in forms:
            for item in form.items[2:]:
                if isinstance(item, Form) and item.head in ("moves", "drops"):
                    for prog in item.args:
                        if (
                            isinstance(prog, Form)
                            and prog.head == "move"
                            and len(prog) > 2
                            and isinstance(prog[2], Form)
                            and prog[2].head == "type"
                            and len(prog[2]) == 2
                        ):
                            self.kinds.add(_word(prog[2][1]))
        attributes: list[str] = []
        pieces = []
        for form, name in zip(forms, names, strict=True):
            pieces.append(self._piece(form, name, attributes))
        if len(attributes) > 4:
            raise forms[0].error("at most 4 attributes")
        return tuple(pieces), tuple(attributes)

    def _piece(self, form: Form, name: str, attributes: list[str]) -> PieceType:
        letter, shape, value = name[0].upper(), "man", 1
        shapes: tuple[str, ...] = ()
        programs: list[Program] = []
        own_attrs: list[str] = []
        promote: tuple[str, str] | None = None
        royal = False
        shared = False
        for item in form.items[2:]:
            if not isinstance(item, Form) or not item.head:
                raise _err(item, "expected (letter ..), (shape ..), (value ..), (moves ..)...")
            head = item.head
            if head == "letter":
                letter = _string_or_word(_arg(item, 1, 1)[0])
            elif head == "shape":
                given = _arg(item, 1, len(self.players))
                for at in given:
                    if _word(at) not in SHAPES:
                        raise _err(
                            at, f"unknown shape {_word(at)!r}; the shapes: {', '.join(SHAPES)}"
                        )
                shapes = tuple(_word(at) for at in given)
                shape = shapes[0]
            elif head == "value":
                value = _int(_arg(item, 1, 1)[0], -1000, 1000)
            elif head == "royal":
                _arg(item, 0, 0)
                royal = True
            elif head == "shared":  # any player may move it (Neutron's neutron)
                _arg(item, 0, 0)
                shared = True
            elif head == "attribute":
                for a in _arg(item, 1, 4):
                    word = _word(a)
                    own_attrs.append(word)
                    if word not in attributes:
                        attributes.append(word)
            elif head == "promote-at-end":
                kind, zone = _arg(item, 2, 2)
                promote = (self._type_name(kind), self._zone_name(zone))
            elif head in ("moves", "drops"):
                for prog in item.args:
                    programs.append(self._program(prog, head == "drops", len(programs)))
            else:
                raise item.error(f"unknown piece property ({head} ...)")
        return PieceType(
            name,
            letter,
            shape,
            value,
            tuple(programs),
            tuple(own_attrs),
            promote,
            royal,
            shapes=(shapes + (shapes[-1],) * len(self.players))[: len(self.players)]
            if shapes
            else (shape,) * len(self.players),
            shared=shared,
        )

    def _type_name(self, item: Item) -> str:
        name = _word(item)
        if name not in self.type_names:
            raise _err(item, f"no piece type {name!r}; the types: {', '.join(self.type_names)}")
        return name

    def _zone_name(self, item: Item) -> str:
        name = _word(item)
        if name not in self.board.zones:
            zones = ", ".join(self.board.zones) or "none"
            raise _err(item, f"no zone {name!r}; the zones: {zones}")
        return name

    def _program(self, prog: Item, drop: bool, index: int) -> Program:
        """``(move NAME (type T) STATEMENT...)``, or a macro call standing for one."""
        if not isinstance(prog, Form) or not prog.head:
            raise _err(prog, "a move program is (move NAME STATEMENT...) or a macro call")
        if prog.head != "move":
            body = self._expand([prog], {}, 0)
            self._check_body(body, in_while=False, in_sweep=False)
            if drop and _mentions(body, "add-partial"):
                raise prog.error("a drop cannot go on with add-partial; use a move program")
            return Program(prog.head, "normal", tuple(body), drop, prog)
        if len(prog) < 2:
            raise prog.error("(move NAME STATEMENT...) needs a name")
        name = _word(prog[1])
        kind = "normal"
        rest = list(prog.items[2:])
        if rest and isinstance(rest[0], Form) and rest[0].head == "type":
            kind = _word(_arg(rest[0], 1, 1)[0])
            rest = rest[1:]
        body = self._expand(rest, {}, 0)
        self._check_body(body, in_while=False, in_sweep=False)
        if drop and _mentions(body, "add-partial"):
            raise prog.error("a drop cannot go on with add-partial; use a move program")
        return Program(name, kind, tuple(body), drop, prog)

    def _expand(self, items: Sequence[Item], env: dict[str, Item], depth: int) -> list[Item]:
        """Macro calls replaced by their bodies, parameters by their arguments."""
        if depth > 16:
            raise _err(items[0], "macros call each other more than 16 deep")
        out: list[Item] = []
        for item in items:
            item = _substitute(item, env)
            if isinstance(item, Form) and item.head in self.defines:
                params, body = self.defines[item.head]
                if len(item.args) != len(params):
                    raise item.error(
                        f"macro {item.head!r} takes {len(params)} arguments, not {len(item.args)}"
                    )
                out.extend(self._expand(body, dict(zip(params, item.args, strict=True)), depth + 1))
            elif isinstance(item, Atom) and not item.quoted and item.value in self.defines:
                params, body = self.defines[str(item.value)]
                if params:
                    raise _err(item, f"macro {item.value!r} takes {len(params)} arguments")
                out.extend(self._expand(body, {}, depth + 1))
            elif isinstance(item, Form) and item.head in (
                "if",
                "while",
                "sweep",
                "one-of",
                "do",
                "anywhere",
            ):
                head = item.items[:2] if item.head in ("if", "while", "sweep") else item.items[:1]
                inner = self._expand(item.items[len(head) :], env, depth)
                out.append(Form(tuple(head) + tuple(inner), item.line, item.column, item.source))
            elif isinstance(item, Form) and item.head == "else":
                inner = self._expand(item.args, env, depth)
                out.append(Form((item[0], *inner), item.line, item.column, item.source))
            else:
                out.append(item)
        return out

    def _check_body(self, body: Sequence[Item], in_while: bool, in_sweep: bool) -> None:
        directions = set(self.board.directions)
        for i, item in enumerate(body):
            if isinstance(item, Atom):
                word = _word(item)
                if word in directions or word in ACTIONS:
                    if in_sweep and word in ("add", "add-partial"):
                        raise _err(item, f"{word} is not allowed inside sweep")
                    continue
                if word == "dir" and in_sweep:
                    continue
                raise _err(item, f"unknown statement {word!r}; a direction or an action is needed")
            head = item.head
            if head in ACTIONS and len(item) == 1:
                continue
            if head in directions:
                for d in item.items:
                    self._direction(d)
            elif head == "verify":
                self._check_condition(_arg(item, 1, 1)[0], in_sweep)
            elif head == "if":
                if len(item) < 2:
                    raise item.error("(if CONDITION STATEMENT... (else STATEMENT...))")
                self._check_condition(item[1], in_sweep)
                rest = list(item.items[2:])
                if rest and isinstance(rest[-1], Form) and rest[-1].head == "else":
                    self._check_body(rest[-1].args, in_while, in_sweep)
                    rest = rest[:-1]
                self._check_body(rest, in_while, in_sweep)
            elif head == "while":
                if len(item) < 3:
                    raise item.error("(while CONDITION STATEMENT...) needs a body")
                self._check_condition(item[1], in_sweep)
                self._check_body(item.items[2:], True, in_sweep)
            elif head == "anywhere":
                if in_while or in_sweep:
                    raise item.error("anywhere is not allowed inside while or sweep")
                self._check_body(item.args, in_while, in_sweep)
            elif head == "one-of":
                if in_while or in_sweep:
                    raise item.error("one-of is not allowed inside while or sweep")
                for alt in item.args:
                    self._check_body([alt], in_while, in_sweep)
            elif head == "do":
                self._check_body(item.args, in_while, in_sweep)
            elif head == "sweep":
                if in_sweep or in_while:
                    raise item.error("sweep is not allowed inside while or sweep")
                if len(item) < 3 or not isinstance(item[1], Form):
                    raise item.error("(sweep (DIRECTION...) STATEMENT...)")
                for d in item[1].items:
                    self._direction(d)
                self._check_body(item.items[2:], False, True)
            elif head in ("change-type", "promote"):
                self._type_name(_arg(item, 1, 1)[0])
            elif head in ("set-attr", "clear-attr"):
                attr = _word(_arg(item, 1, 1)[0])
                if not any(attr in p for p in self._all_attrs()):
                    raise _err(item[1], f"no piece has the attribute {attr!r}")
            elif head == "cascade":
                src, dst = _arg(item, 2, 2)
                for part in (src, dst):
                    if not isinstance(part, Form):
                        raise _err(part, "(cascade (DIRECTION...) (DIRECTION...)) from the origin")
                    for d in part.items:
                        self._direction(d)
            elif head == "sow":
                if in_sweep or in_while:
                    raise item.error("sow is not allowed inside while or sweep")
                self._direction(_arg(item, 1, 1)[0])
            elif head == "take-to":
                self._zone_name(_arg(item, 1, 1)[0])
            elif head == "goto":
                self.gotos.append(_arg(item, 1, 1)[0])
            elif head == "add-partial":
                if in_sweep:
                    raise item.error("add-partial is not allowed inside sweep")
                kind = _word(_arg(item, 1, 1)[0])
                if kind not in self.kinds:
                    raise _err(item[1], f"no move program has the type {kind!r}")
            else:
                raise item.error(f"unknown statement ({head} ...)")
            del i

    def _all_attrs(self) -> list[tuple[str, ...]]:
        out = []
        for form in self.forms.get("piece", []):
            for item in form.items[2:]:
                if isinstance(item, Form) and item.head == "attribute":
                    out.append(tuple(_word(a) for a in item.args))
        return out

    def _direction(self, item: Item) -> str:
        word = _word(item)
        if word not in self.board.directions:
            raise _err(
                item,
                f"unknown direction {word!r}; the directions: {', '.join(self.board.directions)}",
            )
        return word

    def _check_condition(self, cond: Item, in_sweep: bool) -> None:
        ownership = {"friend", "enemy", "piece", "moving", "attacked", "check", "captured"}
        if self.counting and (cond.head if isinstance(cond, Form) else cond.value) in ownership:
            raise _err(cond, "counters belong to no one: a game of counters cannot ask this")
        if isinstance(cond, Atom):
            word = _word(cond)
            if word not in CONDITIONS:
                raise _err(
                    cond,
                    f"unknown condition {word!r}; the conditions: "
                    f"{', '.join(sorted(CONDITIONS | set(CONDITION_FORMS)))}",
                )
            return
        head = cond.head
        if head not in CONDITION_FORMS:
            raise cond.error(f"unknown condition ({head} ...)")
        low, high = CONDITION_FORMS[head]
        args = _arg(cond, low, high)
        if head in ("not", "and", "or", "exists"):
            for a in args:
                self._check_condition(a, in_sweep)
        elif head in ("piece", "friend", "enemy", "moving"):
            for a in args:
                self._type_name(a)
        elif head == "in-zone":
            self._zone_name(args[0])
        elif head == "on-board":
            self._direction(args[0])
        elif head == "next":  # (next DIRECTION CONDITION): the condition one step away
            self._direction(args[0])
            self._check_condition(args[1], in_sweep)
        elif head == "attr":
            _word(args[0])
        elif head in ("makes-line", "in-line", "only-lines", "pieces-at-most"):
            _int(args[0], 1, 64)
        elif head in ("counters", "counters-at-least"):
            _int(args[0], 0, 10_000)

    # -- setup, rules, ends -----------------------------------------------------------

    def _setup(self, design: Design) -> None:
        form = self.one("setup", required=False)
        if form is None:
            return
        for side in form.args:
            if not isinstance(side, Form) or side.head not in self.players:
                raise _err(side, f"(PLAYER (PIECE POSITION...)...) for one of {self.players}")
            player = self.players.index(side.head)
            for group in side.args:
                if not isinstance(group, Form) or not group.head:
                    raise _err(group, "(PIECE POSITION...) or (in-hand PIECE COUNT)")
                if group.head == "in-hand":
                    kind, count = _arg(group, 2, 2)
                    t = self.type_names.index(self._type_name(kind))
                    design.hands.setdefault(player, {})[t] = _int(count, 0, 1000)
                    continue
                t = self.type_names.index(self._type_name(group[0]))
                places = list(group.args)
                many = 1
                if places and isinstance(places[0], Form) and places[0].head == "count":
                    many = _int(_arg(places[0], 1, 1)[0], 1, 1000)
                    places = places[1:]
                for pos in _positions(self.board, places):
                    if pos in self.board.off_board:
                        raise _err(group, f"{self.board.names[pos]} is off the board")
                    for other in design.setup.values():
                        if any(p == pos for p, _ in other):
                            raise _err(group, f"{self.board.names[pos]} is set up twice")
                    if any(p == pos for p, _ in design.setup.get(player, [])):
                        raise _err(group, f"{self.board.names[pos]} is set up twice")
                    design.setup.setdefault(player, []).extend([(pos, t)] * many)

    def _rules(self, design: Design) -> None:
        form = self.one("rules", required=False)
        if form is None:
            return
        kinds = {p.kind for piece in design.pieces for p in piece.programs}
        for item in form.args:
            if not isinstance(item, Form) or not item.head:
                raise _err(item, "expected (turn-order ..), (compulsory ..), (option ..)...")
            head = item.head
            if head == "turn-order":
                order: list[int] = []
                steps: list[str] = []
                repeat = 0
                labels: dict[str, list[int]] = {}
                jumps: dict[int, list[tuple[str, Item]]] = {}
                targets: list[Item] = []
                for step in _arg(item, 1, 64):
                    kind = ""
                    who: Item = step
                    if isinstance(step, Form) and step.head == "label":
                        name = _word(_arg(step, 1, 1)[0])
                        labels.setdefault(name, []).append(len(order))
                        continue
                    if isinstance(step, Form) and step.head == "goto":
                        target, *given = _arg(step, 1, 2)
                        if not order:
                            raise step.error("(goto LABEL [CONDITION]) follows a player's turn")
                        always = Atom("true", step.line, step.column, self.source)
                        cond = given[0] if given else always
                        if given:
                            self._end_condition(cond)
                        jumps.setdefault(len(order) - 1, []).append((_word(target), cond))
                        targets.append(target)
                        continue
                    if isinstance(step, Form):  # (PLAYER KIND): that player moves that kind
                        if len(step) != 2:
                            raise _err(step, "a turn is PLAYER or (PLAYER MOVE-TYPE)")
                        who, kind = step[0], _word(step[1])
                        if kind not in kinds:
                            raise _err(step[1], f"no move program has the type {kind!r}")
                    a = who
                    word = _word(a)
                    if word == "repeat" and not kind:
                        repeat = len(order)
                        continue
                    if word not in self.players:
                        raise _err(a, f"no player {word!r}")
                    order.append(self.players.index(word))
                    steps.append(kind)
                if repeat >= len(order):
                    raise item.error("repeat must come before a player")
                design.turn_order, design.repeat_from = tuple(order), repeat
                design.turn_kinds = tuple(steps)
                design.labels = tuple(labels)
                design.label_steps = {
                    name: tuple(i % len(order) for i in at) for name, at in labels.items()
                }
                for target in targets:
                    if _word(target) not in labels:
                        raise _err(target, f"no (label {_word(target)}) in the turn order")
                design.turn_jumps = {at: tuple(pairs) for at, pairs in jumps.items()}
            elif head == "compulsory":
                for a in _arg(item, 1, 8):
                    word = _word(a)
                    if word not in kinds:
                        raise _err(a, f"no move program has the type {word!r}")
                design.compulsory = tuple(_word(a) for a in item.args)
            elif head in RULE_FLAGS:
                _arg(item, 0, 0)
                setattr(design, RULE_FLAGS[head], True)
            elif head == "score-zone":
                args = _arg(item, 1, 2)
                design.score_zone = self._zone_name(args[0])
                if len(args) > 1:
                    design.keep_zone = self._zone_name(args[1])
            elif head == "identity":
                word = _word(_arg(item, 1, 1)[0])
                if word not in ("path", "from-to-captured"):
                    raise _err(item[1], "identity is path or from-to-captured")
                design.identity = word
            elif head == "perft":
                word = _word(_arg(item, 1, 1)[0])
                if word not in ("paths", "ended-leaves"):
                    raise _err(item[1], "perft is paths or ended-leaves")
                design.perft_ended_leaves = word == "ended-leaves"
            else:
                raise item.error(f"unknown rule ({head} ...)")

    def _ends(self, design: Design) -> None:
        form = self.one("end", required=False)
        if form is None:
            raise DescriptionError("the description has no (end ...)", self.source)
        ends = []
        for item in form.args:
            if not isinstance(item, Form) or item.head not in OUTCOMES:
                raise _err(item, f"an end is ({' | '.join(OUTCOMES)} CONDITION)")
            cond = _arg(item, 1, 1)[0]
            self._end_condition(cond)
            ends.append(End(item.head, cond))
        if not ends:
            raise form.error("(end ...) needs at least one condition")
        design.ends = tuple(ends)

    def _end_condition(self, cond: Item) -> None:
        if isinstance(cond, Atom):
            word = _word(cond)
            if END_CONDITIONS.get(word, (1, 1))[0] != 0:
                raise _err(
                    cond,
                    f"unknown end condition {word!r}; the conditions: {', '.join(END_CONDITIONS)}",
                )
            return
        head = cond.head
        if head not in END_CONDITIONS:
            raise cond.error(f"unknown end condition ({head} ...)")
        low, high = END_CONDITIONS[head]
        args = _arg(cond, low, high)
        if head in ("and", "not"):
            for a in args:
                self._end_condition(a)
        elif head in ("line", "repetition", "plies", "pieces-below"):
            _int(args[0], 1, 10_000)
        elif head == "quiet-moves":
            _int(args[0], 1, 10_000)
            for a in args[1:]:
                self._type_name(a)
        elif head == "reached":
            self._zone_name(args[0])
            if len(args) > 1:
                self._type_name(args[1])
            if len(args) > 2 and _word(args[2]) != "theirs":
                raise _err(args[2], "(reached ZONE TYPE theirs): the other player's part")
        elif head == "none-left":
            for a in args:
                self._type_name(a)
        elif head == "zone-empty":
            self._zone_name(args[0])
        elif head == "connects":
            self._zone_name(args[0])
            self._zone_name(args[1])

    def _notation(self, design: Design) -> None:
        form = self.one("notation", required=False)
        if form is None:
            return
        for item in form.args:
            if not isinstance(item, Form) or item.head != "position":
                raise _err(item, "expected (position FORMAT)")
            word = _word(_arg(item, 1, 1)[0])
            if word not in ("fen", "pdn", "squares", "generic"):
                raise _err(item[1], "position formats: fen, pdn, squares, generic")
            design.position_format = word


# -- the board -------------------------------------------------------------------------


def _read_board(form: Form, players: tuple[str, ...]) -> Board:
    names: list[str] = []
    xy: list[tuple[float, float]] = []
    directions: list[str] = []
    vectors: list[tuple[int, int]] = []
    kind = "square"
    keep: str | None = None
    numbered: str | None = None
    cols = rows = 0
    grid_form: Form | None = None
    for item in form.args:
        if not isinstance(item, Form) or not item.head:
            raise _err(item, "expected (grid ..), (directions ..), (zone ..)...")
        if item.head == "grid":
            grid_form = item
            for part in item.args:
                if not isinstance(part, Form):
                    raise _err(part, "(grid (columns ..) (rows ..) (keep dark))")
                if part.head == "size":  # columns a, b, ... and rows 1, 2, ...
                    across, up = (_int(a, 1, 26) for a in _arg(part, 2, 2))
                    col_names = [chr(ord("a") + i) for i in range(across)]
                    row_names = [str(i + 1) for i in range(up)]
                elif part.head == "columns":
                    col_names = [_string_or_word(a) for a in _arg(part, 1, 32)]
                elif part.head == "rows":
                    row_names = [_string_or_word(a) for a in _arg(part, 1, 32)]
                elif part.head == "keep":
                    keep = _word(_arg(part, 1, 1)[0])
                    if keep not in ("dark", "light"):
                        raise _err(part[1], "keep dark or keep light")
                elif part.head == "numbered":
                    numbered = _word(_arg(part, 1, 1)[0])
                    if numbered != "top-left":
                        raise _err(part[1], "numbered top-left")
                elif part.head == "hex":
                    _arg(part, 0, 0)
                    kind = "hex"
                else:
                    raise part.error(f"unknown grid property ({part.head} ...)")
        elif item.head == "directions":
            for d in item.args:
                if not isinstance(d, Form) or len(d) != 3:
                    raise _err(d, "a direction is (NAME DX DY)")
                name = _word(d[0])
                if name in directions:
                    raise _err(d, f"direction {name!r} is given twice")
                if name in RESERVED:
                    raise _err(d[0], f"{name!r} is a word of the language, not a direction name")
                directions.append(name)
                vectors.append((_int(d[1], -32, 32), _int(d[2], -32, 32)))
        elif item.head in (
            "positions",
            "link",
            "symmetry",
            "zone",
            "kind",
            "off-board",
            "track",
            "turn",
        ):
            pass
        else:
            raise item.error(f"unknown board property ({item.head} ...)")
    if grid_form is not None:
        try:
            cols, rows = len(col_names), len(row_names)
        except NameError:
            raise grid_form.error("a grid needs (columns ...) and (rows ...)") from None
        cells: list[tuple[int, int]] = []
        for r in range(rows):
            for c in range(cols):
                is_dark = (c + r) % 2 == 0
                if (keep == "dark" and not is_dark) or (keep == "light" and is_dark):
                    continue
                cells.append((c, r))
        if numbered:
            ordered = sorted(cells, key=lambda cr: (-cr[1], cr[0]))
            number = {cr: str(i + 1) for i, cr in enumerate(ordered)}
        for c, r in cells:
            names.append(number[(c, r)] if numbered else f"{col_names[c]}{row_names[r]}")
            xy.append((float(c), float(r)))
    for item in form.args:
        if isinstance(item, Form) and item.head == "positions":
            for p in item.args:
                if not isinstance(p, Form) or len(p) != 3:
                    raise _err(p, "a position is (NAME X Y)")
                names.append(_string_or_word(p[0]))
                xy.append((_number(p[1]), _number(p[2])))
            kind = "points" if grid_form is None else kind
        if isinstance(item, Form) and item.head == "kind":
            kind = _word(_arg(item, 1, 1)[0])
            if kind not in ("square", "hex", "points"):
                raise _err(item[1], "kind is square, hex or points")
    if not names:
        raise form.error("the board has no positions: give (grid ...) or (positions ...)")
    if len(names) > MAX_POSITIONS:
        raise form.error(f"more than {MAX_POSITIONS} positions")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise form.error(f"position {dup!r} is named twice")
    index = {n: i for i, n in enumerate(names)}
    off_board: set[int] = set()
    for item in form.args:
        if isinstance(item, Form) and item.head == "off-board":
            off_board |= set(_positions_named(names, xy, item.args))
    # Grid links from the direction vectors (none for a (0 0) direction, none to or from a
    # position off the board); explicit links and tracks added to them.
    by_xy = {(round(x * 2), round(y * 2)): i for i, (x, y) in enumerate(xy) if i not in off_board}
    links = []
    for dx, dy in vectors:
        row = []
        for i, (x, y) in enumerate(xy):
            if (dx, dy) == (0, 0) or i in off_board:
                row.append(-1)
            else:
                row.append(by_xy.get((round((x + dx) * 2), round((y + dy) * 2)), -1))
        links.append(row)
    drawn: list[tuple[int, int]] = []
    turns: dict[tuple[int, int], int] = {}
    for item in form.args:
        if isinstance(item, Form) and item.head == "track":
            if len(item) < 4 or not isinstance(item[1], Form) or len(item[1]) != 2:
                raise item.error("(track (FORWARD BACKWARD) POSITION POSITION...)")
            ways = []
            for d in item[1].items:
                word = _word(d)
                if word not in directions:
                    raise _err(d, f"unknown direction {word!r}")
                ways.append(directions.index(word))
            points = []  # names in order, a name again where the track comes back to it
            for at in item.items[2:]:
                word = _string_or_word(at)
                if word not in index:
                    raise _err(at, f"no position {word!r}")
                points.append(index[word])
            for here, there in itertools.pairwise(points):
                links[ways[0]][here] = there
                links[ways[1]][there] = here
                if (there, here) not in drawn and (here, there) not in drawn:
                    drawn.append((here, there))
        if isinstance(item, Form) and item.head == "turn":
            if len(item) < 4:
                raise item.error("(turn ARRIVING LEAVING POSITION...)")
            ways = []
            for d in item.items[1:3]:
                word = _word(d)
                if word not in directions:
                    raise _err(d, f"unknown direction {word!r}")
                ways.append(directions.index(word))
            for where in _positions_named(names, xy, item.items[3:]):
                turns[(ways[0], where)] = ways[1]
    for item in form.args:
        if isinstance(item, Form) and item.head == "link":
            if len(item) < 3:
                raise item.error("(link DIRECTION (A B)...)")
            dname = _word(item[1])
            if dname not in directions:
                raise _err(item[1], f"unknown direction {dname!r}")
            for pair in item.items[2:]:
                if not isinstance(pair, Form) or len(pair) != 2:
                    raise _err(pair, "a link is (FROM TO)")
                a, b = (_string_or_word(x) for x in pair.items)
                for n, at in ((a, pair[0]), (b, pair[1])):
                    if n not in index:
                        raise _err(at, f"no position {n!r}")
                links[directions.index(dname)][index[a]] = index[b]
                dx, dy = vectors[directions.index(dname)]
                if (-dx, -dy) in vectors and (dx, dy) != (0, 0):
                    links[vectors.index((-dx, -dy))][index[b]] = index[a]
                if (index[b], index[a]) not in drawn:
                    drawn.append((index[a], index[b]))
    symmetry = [list(range(len(directions))) for _ in players]
    zones: dict[str, list[set[int]]] = {}
    for item in form.args:
        if isinstance(item, Form) and item.head == "symmetry":
            if len(item) < 3:
                raise item.error("(symmetry PLAYER (A B)...)")
            who = _word(item[1])
            if who not in players:
                raise _err(item[1], f"no player {who!r}")
            table = symmetry[players.index(who)]
            for pair in item.items[2:]:
                if not isinstance(pair, Form) or len(pair) != 2:
                    raise _err(pair, "a swap is (DIRECTION DIRECTION)")
                a, b = (_word(x) for x in pair.items)
                for n, at in ((a, pair[0]), (b, pair[1])):
                    if n not in directions:
                        raise _err(at, f"unknown direction {n!r}")
                ia, ib = directions.index(a), directions.index(b)
                table[ia], table[ib] = ib, ia
        if isinstance(item, Form) and item.head == "zone":
            if len(item) < 3:
                raise item.error("(zone NAME (PLAYER POSITION...)...) or (zone NAME POSITION...)")
            zname = _word(item[1])
            if zname in zones:
                raise _err(item[1], f"zone {zname!r} is given twice")
            per: list[set[int]] = [set() for _ in players]
            groups = item.items[2:]
            if all(isinstance(g, Form) and g.head in players for g in groups):
                for g in groups:
                    assert isinstance(g, Form)
                    per[players.index(g.head)] |= set(
                        _positions_named(names, xy, g.args, off_board)
                    )
            else:
                cells_ = set(_positions_named(names, xy, groups, off_board))
                per = [set(cells_) for _ in players]
            zones[zname] = per
    dark = frozenset(i for i, (x, y) in enumerate(xy) if (round(x) + round(y)) % 2 == 0)
    width = int(max(x for x, _ in xy) - min(x for x, _ in xy)) + 1
    height = int(max(y for _, y in xy) - min(y for _, y in xy)) + 1
    return Board(
        names=tuple(names),
        xy=tuple(xy),
        directions=tuple(directions),
        links=tuple(tuple(r) for r in links),
        symmetry=tuple(tuple(t) for t in symmetry),
        zones={k: tuple(frozenset(s) for s in v) for k, v in zones.items()},
        kind=kind,
        drawn=tuple(drawn),
        dark=dark if grid_form is not None and kind == "square" else frozenset(),
        size=(width, height),
        off_board=frozenset(off_board),
        turns=turns,
    )


def _positions(board: Board, items: Iterable[Item]) -> list[int]:
    return _positions_named(list(board.names), list(board.xy), items, board.off_board)


def _positions_named(
    names: list[str],
    xy: list[tuple[float, float]],
    items: Iterable[Item],
    off_board: Collection[int] = (),
) -> list[int]:
    """Position names, ``(row N...)`` (rows counted from 1 at the bottom), ``(column N...)``
    (from 1 at the left) and ``all``; rows, columns and ``all`` leave out positions off the
    board."""
    index = {n: i for i, n in enumerate(names)}
    out: list[int] = []
    on = [(i, p) for i, p in enumerate(xy) if i not in off_board]
    ys = sorted({round(y) for _, (_, y) in on})
    xs = sorted({round(x) for _, (x, _) in on})
    for item in items:
        if isinstance(item, Form) and item.head in ("row", "column"):
            for a in _arg(item, 1, 32):
                n = _int(a, 1, 64)
                axis = ys if item.head == "row" else xs
                if n > len(axis):
                    raise _err(a, f"the board has {len(axis)} {item.head}s")
                want = axis[n - 1]
                for i, (x, y) in on:
                    if round(y if item.head == "row" else x) == want and i not in out:
                        out.append(i)
        elif isinstance(item, Atom) and item.value == "all" and not item.quoted:
            out.extend(i for i, _ in on if i not in out)
        elif isinstance(item, Atom):
            name = str(item.value)
            if name not in index:
                raise _err(item, f"no position {name!r}")
            if index[name] not in out:
                out.append(index[name])
        else:
            raise _err(item, "a position, (row N...), (column N...) or all")
    return out


# -- small readers ---------------------------------------------------------------------


def _err(item: Item, message: str) -> DescriptionError:
    return item.error(message)


def _arg(form: Form, least: int, most: int) -> tuple[Item, ...]:
    args = form.args
    if not least <= len(args) <= most:
        want = str(least) if least == most else f"{least} to {most}"
        raise form.error(f"({form.head} ...) takes {want} arguments, not {len(args)}")
    return args


def _word(item: Item) -> str:
    if not isinstance(item, Atom) or item.quoted or not isinstance(item.value, str):
        raise _err(item, f"expected a word here, not {_shown(item)}")
    return item.value


def _shown(item: Item) -> str:
    """A short quote of ``item`` for a message."""
    text = str(item)
    return text if len(text) <= 24 else text[:21] + "..."


def _string(item: Item) -> str:
    if not isinstance(item, Atom) or not item.quoted:
        raise _err(item, 'expected a "quoted string"')
    return str(item.value)


def _string_or_word(item: Item) -> str:
    if not isinstance(item, Atom):
        raise _err(item, "expected a word or a number")
    return str(item.value)


def _int(item: Item, low: int, high: int) -> int:
    if not isinstance(item, Atom) or item.quoted or not isinstance(item.value, int):
        raise _err(item, "expected a whole number")
    if not low <= item.value <= high:
        raise _err(item, f"expected a number from {low} to {high}, not {item.value}")
    return item.value


def _number(item: Item) -> float:
    if isinstance(item, Atom) and isinstance(item.value, int):
        return float(item.value)
    if isinstance(item, Atom) and not item.quoted:
        try:
            value = float(str(item.value))
        except ValueError:
            pass
        else:
            if abs(value) < 1e4:
                return value
    raise _err(item, "expected a number")


def _colour(item: Item) -> tuple[float, float, float]:
    text = _string(item)
    if len(text) != 7 or text[0] != "#":
        raise _err(item, 'a colour is "#rrggbb"')
    try:
        return tuple(int(text[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
    except ValueError:
        raise _err(item, 'a colour is "#rrggbb"') from None


def _distinct(items: Sequence[Item], what: str) -> None:
    seen: set[object] = set()
    for item in items:
        value = item.value if isinstance(item, Atom) else str(item)
        if value in seen:
            raise _err(item, f"{what} {value!r} is given twice")
        seen.add(value)


def _substitute(item: Item, env: dict[str, Item]) -> Item:
    if not env:
        return item
    if isinstance(item, Atom):
        if not item.quoted and isinstance(item.value, str) and item.value in env:
            return env[item.value]
        return item
    return Form(tuple(_substitute(i, env) for i in item.items), item.line, item.column, item.source)


def _mentions(items: Iterable[Item], head: str) -> bool:
    for item in items:
        if isinstance(item, Form) and (item.head == head or _mentions(item.items, head)):
            return True
    return False
