"""Priests and Devils as a game of the contract (:mod:`game.logic.contract`): the options schema,
:class:`RiverGame`, and :class:`SolverAgent`, the computer player behind the hint.

The rules live in :mod:`game.logic.river.rules`, the judge and the actions in
:mod:`game.logic.river.state`, the solver in :mod:`game.logic.river.solver`; all are
re-exported here, so ``game.logic.river.game`` is the one module a caller imports.

:data:`OPTIONS` is the one declaration of the options (team sizes, boat seats and the rule
variants: ``boat_counts``, ``rowers``, ``goal``): the settings file, the command line, the
window's option buttons and :class:`RiverGame` all check values with it. Its cross-check
refuses a setting whose start is lost or that has no solution, with the puzzle's reason.

>>> game = RiverGame({"priests": 3, "devils": 3, "capacity": 2})
>>> state = game.initial_state(random.Random(0))
>>> agent = SolverAgent()
>>> action = agent.choose(state, Limits(), random.Random(0), Stop())
>>> state.action_text(action), agent.explain()
('board:devil', '11 crossings to go: send 2 devils')
>>> OPTIONS.validate({"priests": 4, "devils": 4})
Traceback (most recent call last):
...
game.logic.options.OptionError: 4 priests and 4 devils cannot cross in a boat for 2
>>> OPTIONS.validate({"priests": 3, "devils": 0})["devils"]
0
>>> try:
...     OPTIONS.validate({"rowers": "priests"})
... except OptionError as exc:
...     print(exc)
3 priests and 3 devils cannot cross in a boat for 2 when only priests row
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from game.logic.contract import Game, Limits, State, Stop
from game.logic.options import OptionError, OptionsSchema
from game.logic.river.rules import (
    MAX_CAPACITY,
    MAX_CHARACTERS,
    RULE_OPTIONS,
    Crossing,
    Goal,
    IllegalRiverActionError,
    InvalidActionError,
    Kind,
    Load,
    Outcome,
    RiverError,
    RiverRules,
    RiverSettingError,
    Rowers,
    Side,
    people,
)
from game.logic.river.solver import NextCrossings, NoSolutionError, RiverPuzzle
from game.logic.river.state import (
    Action,
    BoardBoat,
    Cross,
    RiverState,
    Unboard,
    Verdict,
    parse_action,
)

__all__ = [
    "MAX_CAPACITY",
    "MAX_CHARACTERS",
    "OPTIONS",
    "Action",
    "BoardBoat",
    "Cross",
    "Crossing",
    "Goal",
    "IllegalRiverActionError",
    "InvalidActionError",
    "Kind",
    "Load",
    "NextCrossings",
    "NoSolutionError",
    "Outcome",
    "RiverError",
    "RiverGame",
    "RiverPuzzle",
    "RiverRules",
    "RiverSettingError",
    "RiverState",
    "Rowers",
    "Side",
    "SolverAgent",
    "Unboard",
    "Verdict",
    "parse_action",
    "people",
    "rules_from",
]


def _check_rules(values: Mapping[str, Any]) -> None:
    """The schema's cross-check: a start that is lost, or a setting with no solution, is
    refused with the puzzle's reason."""
    try:
        RiverPuzzle.check(rules_from(values))
    except RiverSettingError as exc:
        raise OptionError(str(exc)) from None


#: The options of a game: the rules' own (:data:`~game.logic.river.rules.RULE_OPTIONS`: any
#: team may be empty, as long as someone has to cross), with the cross-check that says which
#: combinations start lost or cannot be solved.
OPTIONS: Final = OptionsSchema(RULE_OPTIONS.options, cross_check=_check_rules)


def rules_from(values: Mapping[str, Any]) -> RiverRules:
    """The :class:`RiverRules` of checked option values (missing ones default).

    Raises :class:`RiverSettingError` for counts the rules refuse.
    """
    merged = {**OPTIONS.defaults(), **values}
    try:
        rowers, goal = Rowers(merged["rowers"]), Goal(merged["goal"])
    except ValueError as exc:
        raise RiverSettingError(str(exc)) from None
    return RiverRules(
        merged["priests"], merged["devils"], merged["capacity"], merged["boat_counts"], rowers, goal
    )


class RiverGame(Game[Action]):
    """Priests and Devils for one player, with options checked by :data:`OPTIONS`.

    ``returns()`` of a finished game is 1 for a win and -1 for a loss. Raises
    :class:`~game.logic.options.OptionError` for options the schema refuses.
    """

    id = "river"
    title = "Priests and Devils"
    seats = 1
    returns_sum = None

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(OPTIONS.validate(dict(options or {})))
        self.rules = rules_from(self.options)

    def initial_state(self, rng: random.Random) -> RiverState:
        """Everyone ashore on the left bank with the empty boat; nothing is random."""
        return RiverState.start(self.rules)

    def result_text(self, state: State[Action]) -> str:
        if isinstance(state, RiverState) and state.is_terminal():
            return str(state.verdict())
        return super().result_text(state)

    def seat_name(self, seat: int) -> str:
        return "you"


class SolverAgent:
    """The optimal player: the first click of the next optimal crossing.

    Among the loads that start a shortest way to the win it picks the one that leaves the
    fewest board and unboard clicks (:meth:`RiverPuzzle.plan`); followed click by click from
    any safe state it wins in :meth:`RiverPuzzle.distance` crossings. It thinks in
    microseconds (a table look-up once the puzzle's graph is built) and never changes a state.
    :meth:`explain` tells the crossings left and the load to send.
    """

    name = "solver"
    description = "the fewest crossings, and the fewest clicks among them"

    def __init__(self) -> None:
        self._note = ""

    def choose(
        self, state: State[Action], limits: Limits, rng: random.Random, stop: Stop
    ) -> Action:
        """The next optimal click; raises :class:`NoSolutionError` when the game is over or
        there is no way across, and :class:`RiverError` for a state of another game."""
        if not isinstance(state, RiverState):
            raise RiverError(f"the river solver plays Priests and Devils, not {state!r}")
        stop.check()
        puzzle = RiverPuzzle(state.rules)
        plan = puzzle.plan(state)
        hint = puzzle.hint(state)
        if not plan:
            raise NoSolutionError(f"no next step: {hint.reason}")
        load = puzzle.next_load(state)
        if load is None:
            self._note = str(hint.reason)
        else:
            crossings = "1 crossing" if hint.distance == 1 else f"{hint.distance} crossings"
            self._note = f"{crossings} to go: send {load}"
        return plan[0]

    def explain(self) -> str:
        """Why the last choice: the crossings left and the load it sends."""
        return self._note
