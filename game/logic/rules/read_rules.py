"""The ``(rules ...)`` form of a description: the turn order (with its labels and jumps), the
compulsory moves, the options of the game and the rule flags, each checked as it is read.
:class:`RulesReader` is the part of the description's reader (:mod:`game.logic.rules.design`)
that reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from game.logic.rules.demotion import base_types
from game.logic.rules.groups import read_groups
from game.logic.rules.per_die import refuse_turn_measures
from game.logic.rules.prefer import read_key
from game.logic.rules.random_players import read_random
from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.rules.turn_seats import read_step
from game.logic.rules.words import ReaderPart, arg, err, word_of

if TYPE_CHECKING:
    from game.logic.rules.design import Design

__all__ = ["RULE_FLAGS", "RulesReader"]

#: The rules that are a word alone, and the design flag each sets.
RULE_FLAGS: Final = {
    "most-captures": "most_captures",
    "pass-when-stuck": "pass_when_stuck",
    "drops-first": "drops_first",
    "stacks": "stacks",
    "counters": "counters",
    "captured-home": "captured_home",
    "captures-to-hand": "captures_to_hand",
    "free-partial": "free_partial",
    "take-own": "take_own",
    "pass-partial": "pass_partial",
}


class RulesReader(ReaderPart):
    """Reads and checks the ``(rules ...)`` form; the description's reader holds the players
    and the zones and end conditions the rules refer to."""

    players: tuple[str, ...]

    if TYPE_CHECKING:

        def _end_condition(self, cond: Item) -> None: ...

    def _rules(self, design: Design) -> None:
        form = self.one("rules", required=False)
        if form is None:
            return
        kinds = {p.kind for piece in design.pieces for p in piece.programs}
        for item in form.args:
            if not isinstance(item, Form) or not item.head:
                raise err(item, "expected (turn-order ..), (compulsory ..), (option ..)...")
            head = item.head
            if head == "turn-order":
                order: list[int] = []
                steps: list[str] = []
                seats: list[int] = []
                repeat = 0
                labels: dict[str, list[int]] = {}
                jumps: dict[int, list[tuple[str, Item]]] = {}
                targets: list[Item] = []
                for step in arg(item, 1, 64):
                    kind = ""
                    who: Item = step
                    if isinstance(step, Form) and step.head == "label":
                        name = word_of(arg(step, 1, 1)[0])
                        labels.setdefault(name, []).append(len(order))
                        continue
                    if isinstance(step, Form) and step.head == "goto":
                        target, *given = arg(step, 1, 2)
                        if not order:
                            raise step.error("(goto LABEL [CONDITION]) follows a player's turn")
                        always = Atom("true", step.line, step.column, self.source)
                        cond = given[0] if given else always
                        if given:
                            self._end_condition(cond)
                        jumps.setdefault(len(order) - 1, []).append((word_of(target), cond))
                        targets.append(target)
                        continue
                    chooser = ""  # (PLAYER [SIDE] KIND): rules/turn_seats.py
                    if isinstance(step, Form):
                        chooser, who, kind = read_step(step, self.players, kinds)
                    a = who
                    word = word_of(a)
                    if word == "repeat" and not kind:
                        repeat = len(order)
                        continue
                    if word not in self.players:
                        raise err(a, f"no player {word!r}")
                    order.append(self.players.index(word))
                    steps.append(kind)
                    seats.append(self.players.index(chooser) if chooser else order[-1])
                if repeat >= len(order):
                    raise item.error("repeat must come before a player")
                design.turn_order, design.repeat_from = tuple(order), repeat
                design.turn_kinds = tuple(steps)
                design.turn_seats = tuple(seats) if seats != order else ()
                design.labels = tuple(labels)
                design.label_steps = {
                    name: tuple(i % len(order) for i in at) for name, at in labels.items()
                }
                for target in targets:
                    if word_of(target) not in labels:
                        raise err(target, f"no (label {word_of(target)}) in the turn order")
                design.turn_jumps = {at: tuple(pairs) for at, pairs in jumps.items()}
            elif head in ("compulsory", "no-mate", "priorities"):
                for a in arg(item, 1, 8):
                    word = word_of(a)
                    if word not in kinds:
                        raise err(a, f"no move program has the type {word!r}")
                design.priorities = design.priorities or head == "priorities"
                field = "compulsory" if head == "priorities" else head.replace("-", "_")
                setattr(design, field, tuple(word_of(a) for a in item.args))
            elif head == "prefer":
                types = [p.name for p in design.pieces]
                design.prefer = tuple(read_key(k, types) for k in arg(item, 1, 8))
                if not (design.dice and design.dice.each):
                    refuse_turn_measures(item)  # dice-used, pips-used: rules.per_die
            elif head in RULE_FLAGS:
                arg(item, 0, 0)
                setattr(design, RULE_FLAGS[head], True)
                if head == "captures-to-hand":
                    base_types(design)  # refuses two types promoting to one
            elif head == "score-zone":
                args = arg(item, 1, 2)
                design.score_zone = self._zone_name(args[0])
                if len(args) > 1:
                    design.keep_zone = self._zone_name(args[1])
            elif head == "identity":
                word = word_of(arg(item, 1, 1)[0])
                if word not in ("path", "from-to-captured"):
                    raise err(item[1], "identity is path or from-to-captured")
                design.identity = word
            elif head == "perft":
                word = word_of(arg(item, 1, 1)[0])
                if word not in ("paths", "ended-leaves", "past-ends"):
                    raise err(item[1], "perft is paths, ended-leaves or past-ends")
                design.perft_ended_leaves = word == "ended-leaves"
                design.perft_past_ends = word == "past-ends"
            elif head == "teams":
                design.teams = self._teams(item)
            elif head == "groups":
                design.groups = read_groups(item)
            elif head == "random":
                design.random_players = read_random(item, self.players)
            else:
                raise item.error(f"unknown rule ({head} ...)")

    def _teams(self, item: Form) -> tuple[tuple[int, ...], ...]:
        """``(teams (A C) (B D))``: players who win and lose together; each player in one
        team at most, a team of two or more, and more than one side in the game."""
        if len(self.players) < 3:
            raise item.error("teams need more than two players")
        teams: list[tuple[int, ...]] = []
        seen: set[int] = set()
        for team in arg(item, 1, len(self.players) // 2):
            if not isinstance(team, Form):
                raise err(team, "a team is (PLAYER PLAYER ...)")
            items = [team[i] for i in range(len(team))]
            members = [word_of(a) for a in items]
            for word, where in zip(members, items, strict=True):
                if word not in self.players:
                    raise err(where, f"no player {word!r}")
                if self.players.index(word) in seen:
                    raise err(where, f"{word} is in two teams")
                seen.add(self.players.index(word))
            if len(members) < 2:
                raise err(team, "a team has two players or more")
            teams.append(tuple(self.players.index(w) for w in members))
        if len(teams) == 1 and len(seen) == len(self.players):
            raise item.error("one team of every player leaves no one to play against")
        return tuple(teams)
