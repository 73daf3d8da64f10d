"""The robots' moves, shown one after another: arrows grow from the attacking (or giving)
countries to the target, the armies travel along them, then the target takes its new colour
and numbers.

:class:`Playback` keeps the index of the record the map shows (``shown``), which trails the
match while moves are being shown; the controller feeds it time, asks it for the
:class:`Flight` of the move in flight, and calls :meth:`Playback.skip` (Space, Esc, ``skip``)
to show the newest state at once. The person's own moves, passes and lost turns are shown at
once. Nothing here changes the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from game.games.grab.mesh import PIXELS_PER_UNIT
from game.games.grab.paint import LABEL_HEIGHT, OUTLINE, move_arrow
from game.games.grab.view import Arrow, Sprite
from game.logic.grab.map import GrabMap
from game.logic.grab.record import grab_state
from game.logic.grab.state import Move, MoveKind
from game.logic.match import Match

__all__ = ["GROW", "TRAVEL", "Flight", "Playback"]

#: Where a move's animation is (share of its time) when the arrows are grown and when the
#: armies have arrived; after that the target changes colour.
GROW = 0.4
TRAVEL = 0.8

RGB = tuple[float, float, float]


@dataclass
class Flight:
    """What a move in flight adds to the map: its arrows, the armies on their way (sprites),
    and the target's colour (None: its owner's colour as the shown state has it)."""

    arrows: list[Arrow] = field(default_factory=list)
    sprites: list[Sprite] = field(default_factory=list)
    target: int = -1
    colour: RGB | None = None


class Playback:
    """See the module docstring; ``seconds`` is one move's animation (0: none)."""

    def __init__(self, seconds: float = 0.9) -> None:
        self.seconds = seconds
        self.shown = 0
        self.t = 0.0  # time into the move being shown (record[shown])

    def busy(self, match: Match[Move]) -> bool:
        """True while a move the match made is not on the map yet."""
        return self.shown < match.cursor

    def sync(self, match: Match[Move]) -> None:
        """Show the match's newest state (undo, redo, a new game)."""
        self.shown = match.cursor
        self.t = 0.0

    def skip(self, match: Match[Move]) -> bool:
        """Show the newest state at once; True when something was being shown."""
        was = self.busy(match)
        self.sync(match)
        return was

    def update(self, match: Match[Move], dt: float) -> bool:
        """Advance by ``dt`` seconds; True when the map must be drawn again."""
        if self.shown > match.cursor:
            self.sync(match)
            return True
        changed = False
        while self.shown < match.cursor:
            if not self._animated(match, self.shown) or self.seconds <= 0:
                self.shown += 1
                self.t = 0.0
                changed = True
                continue
            self.t += dt
            dt = 0.0
            changed = True
            if self.t < self.seconds:
                break
            dt = self.t - self.seconds
            self.shown += 1
            self.t = 0.0
        return changed

    def frame(
        self, match: Match[Move], grab_map: GrabMap, palette: Sequence[RGB], advance: float
    ) -> Flight | None:
        """The move in flight, or None when the map shows the newest state."""
        if not self.busy(match) or not self._animated(match, self.shown):
            return None
        step = match.record[self.shown]
        move: Move = step.action
        before = grab_state(match, self.shown)
        after = grab_state(match, self.shown + 1)
        p = min(1.0, self.t / self.seconds) if self.seconds > 0 else 1.0
        fill = (*palette[step.seat], 1.0)
        result = after.results[step.seat]
        how = "move" if move.kind is MoveKind.GATHER else ("won" if result.success else "lost")
        grown = min(1.0, p / GROW)
        out = Flight(target=move.target)
        for source in move.sources:
            out.arrows.append(
                move_arrow(grab_map, source, move.target, fill, OUTLINE[how], grown=grown)
            )
        if GROW <= p < TRAVEL:
            along = (p - GROW) / (TRAVEL - GROW)
            for i, source in enumerate(result.sources):
                sent = result.before[1 + i] - result.after[1 + i]
                if sent > 0:
                    out.sprites += _token(grab_map, source, move.target, along, sent, advance)
        if p >= TRAVEL and after.owners[move.target] != before.owners[move.target]:
            k = (p - TRAVEL) / (1.0 - TRAVEL)
            old = palette[before.owners[move.target]]
            new = palette[after.owners[move.target]]
            out.colour = (
                old[0] + (new[0] - old[0]) * k,
                old[1] + (new[1] - old[1]) * k,
                old[2] + (new[2] - old[2]) * k,
            )
        return out

    def _animated(self, match: Match[Move], index: int) -> bool:
        """A robot's real move (not the person's, not a pass, not a lost turn)."""
        step = match.record[index]
        move = step.action
        person = match.game.seats > 0 and grab_state(match, index).board.human_playing
        return (
            not (person and step.seat == 0)
            and step.forfeit is None
            and not step.forced
            and type(move) is Move
            and move.kind is not MoveKind.NONE
        )


def _token(
    grab_map: GrabMap, source: int, target: int, along: float, armies: int, advance: float
) -> list[Sprite]:
    """The number of armies on their way from ``source`` to ``target`` (``along``: 0..1)."""
    arrow = move_arrow(grab_map, source, target, (0, 0, 0, 0), (0, 0, 0, 0), grown=along)
    x, z = arrow.end
    anchor = (x, LABEL_HEIGHT + 0.3, z)
    scale = 16.0 / PIXELS_PER_UNIT
    text = str(armies)
    return [
        Sprite(anchor, "b" + ch, (i - (len(text) - 1) / 2) * advance, 0.0, scale,
               (1.0, 0.93, 0.55, 1.0))
        for i, ch in enumerate(text)
    ]  # fmt: skip
