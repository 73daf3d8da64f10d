"""A description read into a :class:`Design`: the board as a graph, the pieces and their move
programs, turn order, invariants and end conditions, checked word by word.

Every mistake is a :class:`~game.logic.rules.sexpr.DescriptionError` naming the file, line and
column of the word at fault. The move programs are kept as checked lists here;
:mod:`game.logic.rules.compile` turns them into generators. The reader's parts for the move
programs, the ``(rules ...)`` form and the ``(end ...)`` form live in
:mod:`~game.logic.rules.programs`, :mod:`~game.logic.rules.read_rules` and
:mod:`~game.logic.rules.read_ends`.

The top-level forms (each at most once unless said):

``(game ID)`` ``(title "..")`` ``(players P1 P2)`` ``(board ...)`` ``(piece NAME ...)`` (one per
piece type) ``(define (MACRO PARAM..) STATEMENT..)`` (any number) ``(setup ...)``
``(rules ...)`` ``(end ...)`` ``(notation ...)`` ``(hook NAME "why")`` ``(about "..")``.
See ``docs/rules.md`` for the whole language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from game.logic.rules.board import Board, positions, read_board
from game.logic.rules.concealed import ConcealedReader
from game.logic.rules.dice import Dice, DiceReader
from game.logic.rules.groups import GroupRules
from game.logic.rules.hidden import FaceDown, FaceDownReader
from game.logic.rules.numbers import Tally, TallyReader
from game.logic.rules.parameters import Parameter, bind, parameters
from game.logic.rules.piece_numbers import read_number, span_of
from game.logic.rules.prefer import Key
from game.logic.rules.programs import ACTIONS, CONDITIONS, Program, ProgramReader
from game.logic.rules.read_ends import End, EndReader
from game.logic.rules.read_rules import RulesReader
from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item, digest, read
from game.logic.rules.words import (
    arg,
    colour_of,
    distinct,
    err,
    hand_count,
    heading_of,
    text_of,
    text_or_word,
    whole_number,
    word_of,
)

__all__ = [
    "ACTIONS",
    "CONDITIONS",
    "Board",
    "Design",
    "End",
    "Parameter",
    "PieceType",
    "Program",
    "from_forms",
    "load",
    "parse",
]

#: The most piece types, attributes and players a description may declare.
MAX_TYPES: Final = 64
MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 12

#: The agents a description may choose for its hints and computer side.
COMPUTERS: Final = ("beginner", "intermediate", "advanced", "master", "alphabeta", "uct")
#: Former agent names (old -> now): still read from settings and command lines, never offered.
FORMER_AGENTS: Final = {"uct": "mcts"}
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
    "pentagon",
)


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
    #: Its whole-number attributes: (name, start, least, most) (rules/piece_numbers.py).
    numbers: tuple[tuple[str, int, int, int], ...] = ()


@dataclass
class Evaluation:
    """How alpha-beta scores a position it does not search further, from the side to move:
    ``material`` times the pieces' values, ``mobility`` times the difference in legal moves,
    ``frontier`` for each own piece next to an empty position (the levels only), and for each
    (zone, weight, type) the weight for each own piece there (the opponent's count against)."""

    material: int = 1
    mobility: int = 0
    frontier: int = 0
    zones: list[tuple[str, int, str | None]] = field(default_factory=list)


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
    digest: str = ""  # of the forms it was read from, parameters bound (rules/sexpr.py digest)
    evaluation: Evaluation = field(default_factory=lambda: Evaluation())
    #: The agent that gives hints and plays the computer's side: the strongest level, which
    #: chooses its way of thinking by how the game is won.
    computer: str = "master"
    #: The family the game belongs to ("Draughts", "Mancala"): the menu groups the described
    #: games by it ("" when the description names none).
    family: str = ""
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
    #: How a move is written in the record: ``path`` (``e2-e4``, every game) or ``san``
    #: (standard algebraic, ``e4`` ``Nxf3+`` ``O-O``: :mod:`game.logic.rules.san`).
    move_format: str = "path"
    drop_format: str = "position"  #: ``letter``: every drop as ``P*e5`` (notation.py)
    #: Players who win and lose together, by index ((0, 2), (1, 3)); every other player
    #: plays alone (:mod:`game.logic.rules.teams`).
    teams: tuple[tuple[int, ...], ...] = ()
    #: Pieces that stand face down until chance turns them up (rules/hidden.py).
    face_down: FaceDown | None = None
    #: The dice thrown before each turn (None: no chance); captured pieces go home to hand.
    dice: Dice | None = None
    captured_home: bool = False
    #: ``(prefer KEY...)``: the keys that choose among complete moves (:mod:`.prefer`).
    prefer: tuple[Key, ...] = ()
    tallies: tuple[Tally, ...] = ()
    #: Groups, liberties, ko, passes and komi (Go): :mod:`game.logic.rules.groups`.
    groups: GroupRules | None = None
    #: Captured pieces go to the captor's hand; moves of these types may not mate (hands.py).
    captures_to_hand: bool = False
    no_mate: tuple[str, ...] = ()
    #: The attribute of a revealed piece where pieces are concealed (rules/concealed.py).
    concealed: str | None = None
    #: ``(perft past-ends)``: perft goes on past a finished game (ZRF's counts); a continuation
    #: of a partial move need not capture (``(free-partial)``), but never comes back.
    perft_past_ends: bool = False
    #: ``(priorities T...)``: as compulsory, and a move of a type not listed is never made.
    priorities: bool = False
    free_partial: bool = False
    #: ``(take-own)``: a move onto a piece of the mover's takes it (ZRF's add): relays.py.
    take_own: bool = False
    #: ``(pass-partial)``: a free partial move may also end after any of its parts (goals.py).
    pass_partial: bool = False
    #: ``(random PLAYER...)``: the seats whose moves chance chooses (rules/random_players.py).
    random_players: tuple[int, ...] = ()
    #: The seat that chooses at each step of the turn order, where one names two (turn_seats.py).
    turn_seats: tuple[int, ...] = ()

    def type_index(self, name: str) -> int:
        for i, piece in enumerate(self.pieces):
            if piece.name == name:
                return i
        raise ValueError(f"no piece type {name!r}")

    @property
    def royal(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.pieces) if p.royal)


def load(path: str | Path, values: Mapping[str, int] | None = None) -> Design:
    """The design in the shipped file at ``path`` (one of the package's own descriptions);
    raises DescriptionError (or OSError). A file a person names is read by
    :func:`game.userfiles.read_text`, which refuses pipes, devices and files over its size
    cap, and its text given to :func:`parse`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DescriptionError(f"not UTF-8 text ({exc.reason})", str(path)) from None
    return parse(text, str(path), values)


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
    items = [bind(item, chosen) for item in items]
    design = _Reader(items, source, text.count("\n") + 1).design()
    design.parameters = tuple(declared)
    design.values = dict(chosen)
    return design


def from_forms(items: list[Item], source: str) -> Design:
    """The design of forms made by another reader (a ZRF file's, :mod:`game.logic.zrf`)."""
    return _Reader(items, source, 0).design()


DEFAULT_COLOURS: Final = ((0.93, 0.9, 0.82), (0.16, 0.15, 0.16))
#: With more than two players: red, blue, yellow and green, as four-handed chess sets are;
#: then orange, purple, cyan, pink, brown, ivory, grey and slate.
MANY_COLOURS: Final = ((0.8, 0.2, 0.16), (0.18, 0.38, 0.8), (0.9, 0.75, 0.15), (0.2, 0.6, 0.28),
    (0.93, 0.5, 0.1), (0.5, 0.25, 0.65), (0.2, 0.7, 0.75), (0.9, 0.5, 0.65), (0.45, 0.3, 0.18),
    (0.93, 0.9, 0.82), (0.55, 0.55, 0.55), (0.25, 0.28, 0.33))  # fmt: skip


class _Reader(
    ProgramReader, RulesReader, EndReader, FaceDownReader, DiceReader, TallyReader, ConcealedReader
):
    def __init__(self, items: list[Item], source: str, lines: int) -> None:
        self.source = source
        self.lines, self.digest = lines, digest(items)
        self.forms: dict[str, list[Form]] = {}
        for item in items:
            if not isinstance(item, Form) or not item.head:
                raise err(item, "expected a form such as (game ...) or (board ...)")
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
            "family",
            "face-down",
            "dice",
            "tally",
            "concealed",
        }
        for head, forms in self.forms.items():
            if head not in known:
                raise forms[0].error(
                    f"unknown form ({head} ...); the forms are: {', '.join(sorted(known))}"
                )
            if head not in ("piece", "define", "hook", "parameter", "tally") and len(forms) > 1:
                raise forms[1].error(f"({head} ...) is given twice")

    def design(self) -> Design:
        game = self.one("game")
        assert game is not None
        ident = word_of(arg(game, 1, 1)[0])
        if not ident.replace("-", "").isalnum() or not ident.islower():
            raise err(game[1], "the game id is lower-case letters, digits and '-'")
        title_form = self.one("title", required=False)
        title = heading_of(arg(title_form, 1, 1)[0], "title") if title_form else ident
        players_form = self.one("players")
        assert players_form is not None
        players = tuple(word_of(a) for a in arg(players_form, MIN_PLAYERS, MAX_PLAYERS))
        distinct(players_form.args, "player")
        self.players = players
        rules = self.one("rules", required=False)
        self.counting = rules is not None and any(
            isinstance(item, Form) and item.head == "counters" for item in rules.args
        )
        self.defines = self._defines()
        board_form = self.one("board")
        assert board_form is not None
        self.board = read_board(board_form, players)
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
            colours=DEFAULT_COLOURS if len(players) == 2 else MANY_COLOURS[: len(players)],
            lines=self.lines,
            digest=self.digest,
            defines=self.defines,
        )
        span_of(design, self.forms.get("piece", [None])[0])  # refuses numbers of too many values
        self._setup(design)
        design.face_down = self._face_down()
        design.dice = self._dice()
        design.concealed = self._concealed(attributes)
        self._rules(design)
        for target in self.gotos:
            if word_of(target) not in design.labels:
                raise err(target, f"no (label {word_of(target)}) in the turn order")
        self._tallies(design)
        self._ends(design)
        self._notation(design)
        for hook in self.forms.get("hook", []):
            name, why = arg(hook, 2, 2)
            design.hooks[word_of(name)] = text_of(why)
        evaluation = self.one("evaluation", required=False)
        if evaluation:
            design.evaluation = self._evaluation(evaluation)
        about = self.one("about", required=False)
        if about:
            design.about = " ".join(text_of(a) for a in arg(about, 1, 40))
        family = self.one("family", required=False)
        if family:
            design.family = heading_of(arg(family, 1, 1)[0], "family").strip()
            if not design.family or len(design.family) > 40:
                raise err(family[1], "the family is a name of 1 to 40 characters")
        computer = self.one("computer", required=False)
        if computer:  # the agent that gives hints and plays the computer's side
            design.computer = word_of(arg(computer, 1, 1)[0])
            if design.computer not in COMPUTERS:
                raise err(computer[1], f"the computer is one of {', '.join(COMPUTERS)}")
        colours = self.one("colours", required=False)
        if colours:
            # One per player, and one more for the pieces no one owns (Neutron's neutron).
            given = arg(colours, len(players), len(players) + 1)
            design.colours = tuple(colour_of(a) for a in given)
        return design

    def _evaluation(self, form: Form) -> Evaluation:
        """``(evaluation (material W) (mobility W) (frontier W) (zone Z W [TYPE])...)``."""
        out = Evaluation()
        terms = ("material", "mobility", "frontier", "zone")
        for item in form.args:
            if not isinstance(item, Form) or item.head not in terms:
                raise err(
                    item,
                    "expected (material W), (mobility W), (frontier W) or (zone NAME W [TYPE])",
                )
            if item.head == "material":
                out.material = whole_number(arg(item, 1, 1)[0], -1000, 1000)
            elif item.head == "mobility":
                out.mobility = whole_number(arg(item, 1, 1)[0], -1000, 1000)
            elif item.head == "frontier":
                out.frontier = whole_number(arg(item, 1, 1)[0], -1000, 1000)
            else:
                args = arg(item, 2, 3)
                zone = self._zone_name(args[0])
                kind = self._type_name(args[2]) if len(args) > 2 else None
                out.zones.append((zone, whole_number(args[1], -1000, 1000), kind))
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
                name, params = word_of(sig), ()
            else:
                if not sig.items:
                    raise err(sig, "a macro needs a name")
                name = word_of(sig[0])
                params = tuple(word_of(p) for p in sig.args)
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
        names = [word_of(arg(f, 1, 99)[0]) for f in forms]
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
                            self.kinds.add(word_of(prog[2][1]))
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
        numbers: list[tuple[str, int, int, int]] = []
        promote: tuple[str, str] | None = None
        royal = False
        shared = False
        for item in form.items[2:]:
            if not isinstance(item, Form) or not item.head:
                raise err(item, "expected (letter ..), (shape ..), (value ..), (moves ..)...")
            head = item.head
            if head == "letter":
                letter = text_or_word(arg(item, 1, 1)[0])
            elif head == "shape":
                given = arg(item, 1, len(self.players))
                for at in given:
                    if word_of(at) not in SHAPES:
                        raise err(
                            at, f"unknown shape {word_of(at)!r}; the shapes: {', '.join(SHAPES)}"
                        )
                shapes = tuple(word_of(at) for at in given)
                shape = shapes[0]
            elif head == "value":
                value = whole_number(arg(item, 1, 1)[0], -1000, 1000)
            elif head == "royal":
                arg(item, 0, 0)
                royal = True
            elif head == "shared":  # any player may move it (Neutron's neutron)
                arg(item, 0, 0)
                shared = True
            elif head == "attribute":
                for a in arg(item, 1, 4):
                    word = word_of(a)
                    own_attrs.append(word)
                    if word not in attributes:
                        attributes.append(word)
            elif head == "number":
                numbers.append(read_number(item))
            elif head == "promote-at-end":
                kind, zone = arg(item, 2, 2)
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
            numbers=tuple(numbers),
        )

    def _setup(self, design: Design) -> None:
        form = self.one("setup", required=False)
        if form is None:
            return
        for side in form.args:
            if not isinstance(side, Form) or side.head not in self.players:
                raise err(side, f"(PLAYER (PIECE POSITION...)...) for one of {self.players}")
            player = self.players.index(side.head)
            for group in side.args:
                if not isinstance(group, Form) or not group.head:
                    raise err(group, "(PIECE POSITION...) or (in-hand PIECE COUNT|unlimited)")
                if group.head == "in-hand":
                    kind, count = arg(group, 2, 2)
                    t = self.type_names.index(self._type_name(kind))
                    design.hands.setdefault(player, {})[t] = hand_count(count)
                    continue
                t = self.type_names.index(self._type_name(group[0]))
                places = list(group.args)
                many = 1
                if places and isinstance(places[0], Form) and places[0].head == "count":
                    many = whole_number(arg(places[0], 1, 1)[0], 1, 1000)
                    places = places[1:]
                for pos in positions(self.board, places):
                    if pos in self.board.off_board:
                        raise err(group, f"{self.board.names[pos]} is off the board")
                    for other in design.setup.values():
                        if any(p == pos for p, _ in other):
                            raise err(group, f"{self.board.names[pos]} is set up twice")
                    if any(p == pos for p, _ in design.setup.get(player, [])):
                        raise err(group, f"{self.board.names[pos]} is set up twice")
                    design.setup.setdefault(player, []).extend([(pos, t)] * many)

    def _notation(self, design: Design) -> None:
        form = self.one("notation", required=False)
        if form is None:
            return
        for item in form.args:
            if not isinstance(item, Form) or item.head not in ("position", "moves", "drops"):
                raise err(item, "expected (position FORMAT), (moves FORMAT) or (drops FORMAT)")
            word = word_of(arg(item, 1, 1)[0])
            if item.head == "drops" and word in ("position", "letter"):
                design.drop_format = word
            elif item.head == "drops":
                raise err(item[1], "drop formats: position, letter")
            elif item.head == "moves":
                if word not in ("path", "san"):
                    raise err(item[1], "move formats: path, san")
                design.move_format = word
            elif word not in ("fen", "pdn", "squares", "sgf", "sfen", "generic"):
                raise err(item[1], "position formats: fen, pdn, squares, sgf, sfen, generic")
            else:
                design.position_format = word
