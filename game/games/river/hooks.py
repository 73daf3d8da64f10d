"""Priests and Devils on the command line: ``gamehall solve river``, the fewest crossings for
the options, yielded as lines for the CLI to print (:class:`game.registry.CliHook`)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import TYPE_CHECKING

from game.logic.river.game import OPTIONS, RiverPuzzle, RiverState, rules_from
from game.registry import CliHook, Refusal

if TYPE_CHECKING:
    from game.registry import Entry


def solve(args: argparse.Namespace, entry: Entry) -> Iterator[str]:
    """The optimal crossings from the start, one a line, then ``crossings=N``. Options out of
    range, a start already lost or one that cannot be solved raise ValueError with the
    reason; a position is refused (:class:`Refusal`): the puzzle takes options."""
    if getattr(args, "position", None):
        raise Refusal("takes options, not a position")
    rules = rules_from(entry.options.validate(entry.options.from_arguments(args)))
    state = RiverState.start(rules)
    node = state.crossing()
    loads = RiverPuzzle(rules).solution(state)
    for i, load in enumerate(loads, 1):
        side = node.boat
        landed = node.after(load)
        yield (
            f"{i:3d}. {side.value:>5} -> {side.other.value:<5}  {load}"
            f"   left bank then {landed.left_priests}P {landed.left_devils}D"
        )
        node = landed
    yield f"crossings={len(loads)}"


HOOKS = {
    "solve": CliHook(
        help="print the fewest crossings for the options (default 3 priests, 3 devils, "
        "a boat for 2), one a line, then crossings=N",
        add_arguments=OPTIONS.add_arguments,
        run=solve,
    )
}
