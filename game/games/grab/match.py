"""The match side of the MasterGrab controller: a new game (its map made here, or asked of a
worker in a window, :mod:`game.games.grab.making`), the robots in their seats, the rounds
they play (one at a time, or by autoplay when they play alone), what their steps and the game's
end say, and the hint when it comes.

:class:`MatchSide` is a base of :class:`~game.games.grab.controller.GrabController`: it keeps the
controller's match, game, seed and playback.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import TYPE_CHECKING, Any

from game.engine.controller import Tone
from game.games.grab.anim import Playback
from game.games.grab.making import MapOrder
from game.games.grab.text import describe_hint, round_summary
from game.hall.keeping import Kept, resume_kept
from game.logic.contract import Limits
from game.logic.grab.game import GrabGame
from game.logic.grab.options import ROBOT_SPEEDS, GrabOptions, random_options
from game.logic.grab.record import failures, grab_state, round_steps
from game.logic.grab.sandbox import RobotAgent
from game.logic.grab.state import Move, MoveKind
from game.logic.match import Match, Step

if TYPE_CHECKING:
    from game.engine.commands import CommandTable
    from game.engine.controller import Host
    from game.games.grab.scene import MapView
    from game.logic.grab.discovery import RobotRegistry
    from game.registry import GameSession

__all__ = ["MatchSide"]

log = logging.getLogger("game.games.grab.controller")  # the controller's log, as before the split


class MatchSide:
    """See the module docstring."""

    host: Host | None
    session: GameSession
    view: MapView | None
    game: GrabGame | None
    match: Match[Move] | None
    seed: int
    options: GrabOptions
    playback: Playback
    registry: RobotRegistry | None
    budget_s: float
    size_override: tuple[int, int] | None
    countries_override: int | None
    maps_in_worker: bool | None
    hover: int | None
    autoplay: int
    recorded: bool
    clock: float
    _next_tick: float
    _round_goal: int | None
    _record_changes: int
    _play_hint: bool
    _hint_shown: object
    _table: tuple[tuple[Any, ...], CommandTable] | None
    _order: MapOrder | None
    _warnings: list[str]
    _said_lost: set[str]

    if TYPE_CHECKING:  # the controller's and the map side's

        def _say(self, text: str, tone: Tone = Tone.INFO) -> None: ...
        def _redraw(self) -> None: ...
        def _look_at(self, countries: list[int]) -> None: ...
        def _game(self) -> GrabGame: ...
        def _require_running(self) -> Match[Move]: ...
        def play(self, action: Any) -> None: ...

    def _new_match(self, options: GrabOptions, seed: int, kept: Kept | None = None) -> None:
        """A game with ``options`` whose map and armies come from ``seed``; ``kept``: a kept
        game's record to replay on it (one that does not fit is set aside and said). In a
        window the map is first asked of a worker (:mod:`game.games.grab.making`): the
        game starts when it comes, the old one (if any) is over now."""
        game = GrabGame(options, size=self.size_override, countries=self.countries_override)
        in_worker = self.maps_in_worker
        if in_worker is None:
            in_worker = self.host is not None and not self.host.headless
        if in_worker:
            if self.match is not None:
                self.match.close()
                self.match = None
            self._order = MapOrder.place(game, options, seed, kept)
            self._table = None
            self._say(self._order.describe())
            if self.registry is None:  # found meanwhile, not in the frame the map comes in
                from game.games.grab.entry import robot_registry

                threading.Thread(target=robot_registry, name="grab-robots", daemon=True).start()
            return
        self._start_match(game, options, seed, kept)

    def _start_match(
        self,
        game: GrabGame,
        options: GrabOptions,
        seed: int,
        kept: Kept | None = None,
        made: Any = None,
    ) -> None:
        """Start the match of ``_new_match`` (its map made, or to be made here); ``made``:
        the map's numbers' places and its mesh when they came with it."""
        seats: list[RobotAgent | None] = [None] if options.human_playing else []
        seats += [self._agent(key) for key in options.robots]
        hint = self._agent("strategic") if options.human_playing else None
        match = Match(
            game,
            seats,
            seed=seed,
            limits=Limits(time=self.budget_s),
            hint_agent=hint,
            background=True,
        )
        if kept is not None:
            note = resume_kept(self.session, match, kept)
            if note:
                self._warnings.append(note)
        match.on_step = self._on_step
        match.paused = not options.human_playing
        if self.match is not None:
            self.match.close()
        self.game, self.match, self.seed = game, match, seed
        self.playback = Playback(ROBOT_SPEEDS[options.robot_speed])
        self._table = None
        self.hover = None
        if self.view is not None:
            self.view.colour = options.colour
            spots, mesh = made if made is not None else (None, None)
            self.view.build(game.map_of(grab_state(match)), spots, mesh)
        opening = (
            f"You are {options.colour}. Click an enemy country next to yours to attack it, or "
            "one of yours to gather armies into it."
            if options.human_playing
            else "The robots play alone: press Space for a round, or P for autoplay."
        )
        self._after_restart(opening)

    def _after_restart(self, text: str) -> None:
        self._record_changes += 1
        if self.match is not None:
            self.playback.sync(self.match)
        self.recorded = False
        self._said_lost.clear()
        self._play_hint = False
        self._hint_shown = None
        self._round_goal = None
        if self._warnings:
            self._say(" ".join(self._warnings), Tone.WARN)
            self._warnings.clear()
        else:
            self._say(text)
        if self.view is not None:
            self.view.jump()
        if self.autoplay:
            self._next_tick = self.clock + 0.5

    def _agent(self, key: str) -> RobotAgent:
        registry = self._robots()
        if key not in registry:
            broken = registry.broken.get(key)
            why = f"Robot {key!r} is broken ({broken})" if broken else f"There is no robot {key!r}"
            log.warning("%s; basic plays instead", why)
            self._warnings.append(f"{why}: basic plays instead.")
            key = "basic"
        return registry.agent(key, self.budget_s, self.options.robot_memory_mb)

    def _robots(self) -> RobotRegistry:
        if self.registry is None:
            from game.games.grab.entry import robot_registry

            self.registry = robot_registry()
        return self.registry

    def _drawn(self, options: GrabOptions) -> GrabOptions:
        return random_options(options, random.Random()) if options.random_options else options

    def _on_step(self, step: Step) -> None:
        """An attack sounds; robots only: pause the match at the end of the round played."""
        self._record_changes += 1
        if self.host is not None and getattr(step.action, "kind", None) is MoveKind.ATTACK:
            self.host.sound("attack")
        match = self.match
        goal = self._round_goal
        if match is not None and goal is not None and grab_state(match).turn >= goal:
            match.paused = True
            self._round_goal = None

    def _start_round(self) -> None:
        match = self._require_running()
        players = match.game.seats
        self._round_goal = (grab_state(match).turn // players + 1) * players
        match.paused = False

    def _stop_rounds(self) -> None:
        """Before the record moves by hand: no round running, no autoplay, no N waiting."""
        if self.match is not None and not self.options.human_playing:
            self.match.paused = True
        self._round_goal = None
        self._play_hint = False
        self.autoplay = 0

    def _autoplay_due(self) -> bool:
        match = self.match
        return (
            bool(self.autoplay)
            and match is not None
            and not match.over
            and match.paused
            and not self.playback.busy(match)
            and self.clock >= self._next_tick
        )

    def _after_steps(self, *, summary: bool = True) -> None:
        """The record moved (steps played, undo, redo): redraw; once the robots are done,
        say what their round did (a lost turn first) unless ``summary`` is off."""
        match = self.match
        assert match is not None
        self._redraw()
        if self.playback.busy(match):
            return  # said once the moves have been shown
        if match.over:
            self._finish()
            return
        settled = match.person_to_move() if self.options.human_playing else match.paused
        if not settled or not summary:
            return
        steps = round_steps(match)
        # A lost turn is said once: a robot disabled for the game loses every turn the same way.
        lost = [line for line in failures(match, steps) if line not in self._said_lost]
        if lost:
            self._said_lost.update(lost)
            self._say(lost[-1], Tone.WARN)
        elif steps and steps[-1].seat != 0:
            self._say(round_summary(match))

    def _finish(self) -> None:
        match = self.match
        assert match is not None
        state = grab_state(match)
        text = match.result_text()
        winner = state.decided_winner()
        tone = Tone.WON if winner == 0 or not self.options.human_playing else Tone.LOST
        if self.options.human_playing and not self.recorded:
            self.recorded = True
            note = self.session.record("grab", won=winner == 0)
            if note:
                text += " " + note
        self.autoplay = 0
        self._play_hint = False
        self._say(text + " Press R for a new game or G to replay.", tone)

    def _show_hint(self) -> None:
        """The hint arrived: say it, or after N play it."""
        match = self.match
        if match is None:
            return
        hint = match.current_hint()
        if hint is None:
            if self._play_hint and not match.hinting():
                self._play_hint = False  # the hint agent failed (logged): nothing to play
                self._say("No hint this time: play a move yourself.", Tone.WARN)
            return
        if hint is self._hint_shown:
            return
        if self._play_hint:
            self._play_hint = False
            try:
                self.play(hint.action)
            except ValueError as exc:  # the turn passed meanwhile (undo, a new game)
                self._say(str(exc), Tone.WARN)
            return
        self._hint_shown = hint
        self._redraw()
        if hint.action.kind is not MoveKind.NONE:
            self._look_at([*hint.action.sources, hint.action.target])
        self._say(describe_hint(self._game(), grab_state(match), hint.action), Tone.HINT)
