"""Priests and Devils on the command line: ``gamehall solve river``, the fewest crossings for
the options, yielded as lines for the CLI to print (:func:`game.hooks.hook`)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import TYPE_CHECKING

from game.hooks import Refusal, hook
from game.logic.river.game import RiverPuzzle, RiverState, rules_from

if TYPE_CHECKING:
    from game.registry import Entry


@hook(
    "print the fewest crossings for the options (default 3 priests, 3 devils, a boat for 2), "
    "one a line, then crossings=N"
)
def solve(args: argparse.Namespace, entry: Entry) -> Iterator[str]:
    """The optimal crossings from the start, one a line, then ``crossings=N``, for the options
    the command line checked (``args.options``). A start already lost or one that cannot be
    solved raises ValueError with the reason; a position is refused (:class:`Refusal`): the
    puzzle takes options."""
    if getattr(args, "position", None):
        raise Refusal("takes options, not a position")
    rules = rules_from(args.options)  # checked by the command line against OPTIONS
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
