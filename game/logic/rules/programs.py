"""Move programs of a description: the statements a piece's moves are written in, checked
as they are read (macros expanded, every word known, loops that move, conditions and counts
of the right shape). :class:`ProgramReader` is the part of the description's reader
(:mod:`game.logic.rules.design`) that reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from game.logic.rules.flags import (
    FLAG_CONDITIONS,
    FLAG_STATEMENTS,
    check_flag_condition,
    check_flag_statement,
)
from game.logic.rules.piece_numbers import COMPARE, NUMBER_STATEMENTS, NumberChecks
from game.logic.rules.read_tree import statements
from game.logic.rules.rotations import check_rotate
from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.rules.tree import ACTS, TESTS, Stmt
from game.logic.rules.words import (
    ReaderPart,
    arg,
    err,
    form_args,
    mentions,
    shown,
    substitute,
    whole_number,
    word_of,
)

__all__ = ["ACTIONS", "CONDITIONS", "CONDITION_FORMS", "Program", "ProgramReader"]

#: Statements without arguments that a move program may use as bare words.
ACTIONS: Final = frozenset(ACTS) - {"dir"}
#: Conditions without arguments.
CONDITIONS: Final = frozenset(TESTS)
#: Conditions with arguments: name -> (least, most) arguments, by what the arguments are.
CONDITION_FORMS: Final = {
    "not": (1, 1),
    "exists": (1, 1),
    "and": (1, 16),
    "or": (1, 16),
    "next": (2, 2),  # a direction and a condition
    **dict.fromkeys(("piece", "friend", "enemy", "moving"), (1, 8)),  # piece types
    **dict.fromkeys(("in-zone", "on-board", "attr"), (1, 1)),  # a zone, direction, attribute
    **dict.fromkeys(("makes-line", "in-line", "only-lines", "pieces-at-most"), (1, 1)),  # a number
    **dict.fromkeys(("counters", "counters-at-least"), (1, 1)),  # a count of counters
    **dict.fromkeys(COMPARE, (2, 2)),  # two numbers (rules/piece_numbers.py)
    **FLAG_CONDITIONS,  # named flags, (at POSITION COND) (rules/flags.py)
}


@dataclass(frozen=True)
class Program:
    """One move program: its name, its move type, whether it is a drop, where it was
    written, and its statements (checked, macros expanded) as the typed tree that everything
    after the reader reads (:mod:`game.logic.rules.tree`)."""

    name: str
    kind: str
    drop: bool
    where: Form
    tree: tuple[Stmt, ...]


class ProgramReader(NumberChecks, ReaderPart):
    """Reads and checks move programs; the description's reader holds what they refer to
    (the board, the macros, the piece types and zones)."""

    counting: bool
    defines: dict[str, tuple[tuple[str, ...], tuple[Item, ...]]]
    gotos: list[Item]
    kinds: set[str]

    def _program(self, prog: Item, drop: bool, index: int) -> Program:
        """``(move NAME (type T) STATEMENT...)``, or a macro call standing for one."""
        if not isinstance(prog, Form) or not prog.head:
            raise err(prog, "a move program is (move NAME STATEMENT...) or a macro call")
        if prog.head != "move":
            body = self._expand([prog], {}, 0)
            self._check_body(body, in_while=False, in_sweep=False)
            if drop and mentions(body, "add-partial"):
                raise prog.error("a drop cannot go on with add-partial; use a move program")
            return Program(prog.head, "normal", drop, prog, statements(body))
        if len(prog) < 2:
            raise prog.error("(move NAME STATEMENT...) needs a name")
        name = word_of(prog[1])
        kind = "normal"
        rest = list(prog.items[2:])
        if rest and isinstance(rest[0], Form) and rest[0].head == "type":
            kind = word_of(arg(rest[0], 1, 1)[0])
            rest = rest[1:]
        body = self._expand(rest, {}, 0)
        self._check_body(body, in_while=False, in_sweep=False)
        if drop and mentions(body, "add-partial"):
            raise prog.error("a drop cannot go on with add-partial; use a move program")
        return Program(name, kind, drop, prog, statements(body))

    def _expand(self, items: Sequence[Item], env: dict[str, Item], depth: int) -> list[Item]:
        """Macro calls replaced by their bodies, parameters by their arguments."""
        if depth > 16:
            raise err(items[0], "macros call each other more than 16 deep")
        out: list[Item] = []
        for item in items:
            item = substitute(item, env)
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
                    raise err(item, f"macro {item.value!r} takes {len(params)} arguments")
                out.extend(self._expand(body, {}, depth + 1))
            elif isinstance(item, Form) and item.head == "one-of":
                # Each alternative stays one statement, a macro of several becoming a (do ...).
                alternatives = []
                for alt in item.args:
                    one = self._expand([alt], env, depth)
                    where = (alt.line, alt.column, alt.source)
                    do = Atom("do", *where)
                    alternatives.append(one[0] if len(one) == 1 else Form((do, *one), *where))
                out.append(Form((item[0], *alternatives), item.line, item.column, item.source))
            elif isinstance(item, Form) and item.head in (
                "if",
                "while",
                "repeat",
                "sweep",
                "do",
                "anywhere",
            ):
                two = ("if", "while", "repeat", "sweep")
                head = item.items[:2] if item.head in two else item.items[:1]
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
                word = word_of(item)
                if word in directions or word in ACTIONS:
                    if in_sweep and word in ("add", "add-partial"):
                        raise err(item, f"{word} is not allowed inside sweep")
                    continue
                if word == "dir" and in_sweep:
                    continue
                raise err(item, f"unknown statement {word!r}; a direction or an action is needed")
            head = item.head
            if head in ACTIONS and len(item) == 1:
                continue
            if head in directions:
                for d in item.items:
                    self._direction(d)
            elif head == "verify":
                self._check_condition(arg(item, 1, 1)[0], in_sweep)
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
                if not any(self._moves_cursor(i) for i in item.items[2:]):
                    raise item.error(
                        "this while never moves: its body needs a step (a direction), or it "
                        "would repeat the same place for ever"
                    )
            elif head == "repeat":
                if len(item) < 3:
                    raise item.error("(repeat COUNT STATEMENT...) needs a count and a body")
                self._check_count(item[1])
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
                self._type_name(arg(item, 1, 1)[0])
            elif head in ("set-attr", "clear-attr"):
                attr = word_of(arg(item, 1, 1)[0])
                if not any(attr in p for p in self._all_attrs()):
                    raise err(item[1], f"no piece has the attribute {attr!r}")
            elif head == "cascade":
                src, dst = arg(item, 2, 2)
                for part in (src, dst):
                    if not isinstance(part, Form):
                        raise err(part, "(cascade (DIRECTION...) (DIRECTION...)) from the origin")
                    for d in part.items:
                        self._direction(d)
            elif head in ("sow", "sow-skip"):
                if in_sweep or in_while:
                    raise item.error(f"{head} is not allowed inside while or sweep")
                self._direction(arg(item, 1, 1)[0])
            elif head == "rotate":
                check_rotate(self, item)
            elif head == "take-to":
                self._zone_name(arg(item, 1, 1)[0])
            elif head == "goto":
                self.gotos.append(arg(item, 1, 1)[0])
            elif head in ("go", "put"):  # their words: read_tree.check (rules/relays.py)
                arg(item, 1, 1 if head == "go" else 3)
            elif head in NUMBER_STATEMENTS:
                self._check_number_statement(item)
            elif head in FLAG_STATEMENTS:
                check_flag_statement(item)
            elif head == "add-partial":
                if in_sweep:
                    raise item.error("add-partial is not allowed inside sweep")
                kind = word_of(arg(item, 1, 1)[0])
                if kind not in self.kinds:
                    raise err(item[1], f"no move program has the type {kind!r}")
            else:
                raise item.error(f"unknown statement ({head} ...)")
            del i

    def _moves_cursor(self, item: Item) -> bool:
        """Whether a statement may move the cursor (a step, ``dir``, ``back``, ``sow``)."""
        if isinstance(item, Atom):
            word = word_of(item)
            return word in self.board.directions or word in ("dir", "back")
        if item.head in self.board.directions or item.head in (
            "sow",
            "sow-skip",
            "back",
            "anywhere",
            "go",
        ):
            return True
        if item.head == "verify":
            return False
        body = item.items[2:] if item.head in ("if", "while", "repeat") else item.items[1:]
        return any(self._moves_cursor(i) for i in body)

    def _all_attrs(self) -> list[tuple[str, ...]]:
        out = []
        for form in self.forms.get("piece", []):
            for item in form.items[2:]:
                if isinstance(item, Form) and item.head == "attribute":
                    out.append(tuple(word_of(a) for a in item.args))
        return out

    def _direction(self, item: Item) -> str:
        word = word_of(item)
        if word not in self.board.directions:
            raise err(
                item,
                f"unknown direction {word!r}; the directions: {', '.join(self.board.directions)}",
            )
        return word

    def _check_count(self, count: Item) -> None:
        """A count: a whole number, ``(line-pieces DIRECTION)`` (the pieces of both players
        on the line through the cursor along the direction and its opposite, the cursor's
        own position included) or ``(minus COUNT N)``."""
        if isinstance(count, Atom) and isinstance(count.value, int) and not count.quoted:
            whole_number(count, 0, 1024)
            return
        if isinstance(count, Atom) and count.value == "thrown" and not count.quoted:
            if "dice" not in self.forms:
                raise err(count, "thrown is the throw of the dice: the game has no (dice ...)")
            return
        if isinstance(count, Form) and count.head == "line-pieces":
            self._direction(arg(count, 1, 1)[0])
            return
        if isinstance(count, Form) and count.head == "minus":
            inner, less = arg(count, 2, 2)
            self._check_count(inner)
            whole_number(less, 0, 1024)
            return
        raise err(
            count,
            f"a count is a whole number, thrown, (line-pieces DIRECTION) or (minus COUNT N), "
            f"not {shown(count)}",
        )

    def _check_condition(self, cond: Item, in_sweep: bool, in_exists: bool = False) -> None:
        ownership = {"friend", "enemy", "piece", "moving", "attacked", "check", "captured"}
        if self.counting and (cond.head if isinstance(cond, Form) else cond.value) in ownership:
            raise err(cond, "counters belong to no one: a game of counters cannot ask this")
        if isinstance(cond, Atom):
            word = word_of(cond)
            if word not in CONDITIONS:
                raise err(
                    cond,
                    f"unknown condition {word!r}; the conditions: "
                    f"{', '.join(sorted(CONDITIONS | set(CONDITION_FORMS)))}",
                )
            return
        head = cond.head
        args = form_args(cond, CONDITION_FORMS, "condition")
        if head == "exists" and in_exists:
            # It would look at every position again for each position the outer one looks
            # at (n ** depth), and read the same at each: one exists says as much.
            raise cond.error(
                "(exists ...) inside (exists ...) reads the same at every position the outer "
                "one looks at: write it beside it, in an (and ...)"
            )
        if head in ("not", "and", "or", "exists"):
            for a in args:
                self._check_condition(a, in_sweep, in_exists or head == "exists")
        elif head in ("piece", "friend", "enemy", "moving"):
            for a in args:
                self._type_name(a)
        elif head == "in-zone":
            self._zone_name(args[0])
        elif head == "on-board":
            self._direction(args[0])
        elif head == "next":  # (next DIRECTION CONDITION): the condition one step away
            self._direction(args[0])
            self._check_condition(args[1], in_sweep, in_exists)
        elif head == "attr":
            word_of(args[0])
        elif head in ("makes-line", "in-line", "only-lines", "pieces-at-most"):
            whole_number(args[0], 1, 64)
        elif head in ("counters", "counters-at-least"):
            whole_number(args[0], 0, 10_000)
        elif head in COMPARE:
            self._check_comparison(cond)
        elif head in FLAG_CONDITIONS:
            check_flag_condition(
                self.board, cond, lambda c: self._check_condition(c, in_sweep, in_exists)
            )

    # -- setup, rules, ends -----------------------------------------------------------
