"""MasterGrab: the scene controller.

The match (its start, the robots' rounds, what they say) is :mod:`game.games.grab.match`;
the map side (what is drawn, the hover, the camera) :mod:`game.games.grab.map`. The map is
a render layer (:mod:`game.games.grab.view`): extruded tiles in the owners'
colours, taller the more armies they hold, mountains as grey rock, the army number and a
capacity bar over every country, and rings for what happened this round
(:mod:`game.games.grab.paint`). The world wraps: panning past an edge shows the other
side, drawn as another copy of the map.

The game is a :class:`~game.logic.match.Match` of a
:class:`~game.logic.grab.game.GrabGame`: the person in seat 0 (unless the robots play
alone), a robot agent in every other seat, the ``strategic`` robot as the hint. A click on an
enemy country is the attack with every own country next to it; on an own country, the
gather into it (spec 6.4). The robots think in the background and move one by one; undo goes
back to the person's last turn. With robots only the match stays paused between rounds:
Space lets one round pass, P plays rounds by itself.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from game.engine.commands import CommandTable
from game.engine.controller import Status, Tone, release
from game.engine.scene import Scene, load_scene
from game.games.grab.anim import Playback
from game.games.grab.atlas import paint_ahead
from game.games.grab.commands import AUTOPLAY, build_commands
from game.games.grab.hud import MAP_KEY
from game.games.grab.making import MapOrder
from game.games.grab.map import MapSide
from game.games.grab.match import MatchSide
from game.games.grab.panel import OptionsPanel
from game.games.grab.scene import MapView
from game.games.grab.text import (
    counter,
    describe_move,
    panel_text,
    status_line,
)
from game.hall.keeping import follow, keep, kept_data, kept_game
from game.hall.scene import GameScene
from game.logic.grab.game import GrabGame, click_move
from game.logic.grab.options import ROBOT_SPEEDS, SCHEMA, GrabOptions
from game.logic.grab.record import grab_state
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.sandbox import DEFAULT_BUDGET_S
from game.logic.grab.state import NO_MOVE, GrabMoveError, Move
from game.logic.match import Match
from game.registry import GameSession, MemorySession
from game.resources import asset_path

if TYPE_CHECKING:
    from game.engine.controller import Host
    from game.engine.scene import Node
    from game.logic.grab.discovery import RobotRegistry

log = logging.getLogger(__name__)

INFO: Final = ("ranking", "trace", "rules", "none")  # what the left panel shows, in turn


class GrabController(MatchSide, MapSide, GameScene):
    """The MasterGrab scene (see the module docstring).

    ``session`` gives the options (saved again on Apply) and counts the person's finished
    games. ``overrides``: ``seed`` (the first game's map and armies), ``watch`` (the robots
    play alone), ``size`` and ``countries`` (the map's pixels and a country count past the
    options' limit, for the benchmark), ``registry`` (the robots; default: those this program
    finds) and ``budget_s`` (a robot's seconds a move).
    """

    name = "grab"
    title = "MasterGrab"
    refusal_error = GrabMoveError

    def __init__(self, session: GameSession | None = None, **overrides: Any) -> None:
        self.session: GameSession = session if session is not None else MemorySession()
        seed = overrides.pop("seed", None)
        watch = bool(overrides.pop("watch", False))
        self.size_override: tuple[int, int] | None = overrides.pop("size", None)
        self.countries_override: int | None = overrides.pop("countries", None)
        self.registry: RobotRegistry | None = overrides.pop("registry", None)
        self.budget_s = float(overrides.pop("budget_s", DEFAULT_BUDGET_S))
        if overrides:
            raise TypeError(f"GrabController got unknown overrides: {', '.join(overrides)}")
        # A game asked for (a seed, robots alone, a map's size) starts afresh; otherwise the
        # game kept when the person left comes back (its map from its seed, its moves).
        fresh = seed is not None or watch or self.size_override or self.countries_override
        self._kept, kept_note = kept_game(self.session, self.name, fresh=bool(fresh))
        self.message = ""
        self.tone = Tone.INFO
        self._warnings: list[str] = [kept_note] if kept_note else []  # instead of the
        # next game's opening words
        self._said_lost: set[str] = set()  # lost turns already said (each once a game)
        values = self._checked(self.session.options)
        if watch:
            robots = values["robots"].split(",")
            robots = robots if len(robots) >= 2 else robots * 2
            values = SCHEMA.validate({**values, "human_playing": False, "robots": ",".join(robots)})
        self.options = GrabOptions.from_values(values)
        self.panel = OptionsPanel(values, lambda: self._robots().names())
        self.show_options = False
        self.seed = seed if seed is not None else random.randrange(1 << 30)
        self.host: Host | None = None
        self.playback = Playback(ROBOT_SPEEDS[self.options.robot_speed])
        self.scene: Scene | None = None
        self.view: MapView | None = None
        self.game: GrabGame | None = None
        self.match: Match[Move] | None = None
        self.hover: int | None = None
        self.info = INFO[0]
        self.autoplay = 0
        self.recorded = False
        self._next_tick = 0.0
        self._round_goal: int | None = None  # robots only: the turn that ends this round
        self._record_changes = 0  # a step taken, a game started: the move list follows
        self._play_hint = False  # N was pressed before the hint was found
        self._hint_shown: object = None  # the hint the banner talks about
        self._table: tuple[tuple[Any, ...], CommandTable] | None = None
        self._hover_scripted = False  # the hover came from ``hover:N``, not the mouse
        #: The map of the next game, asked of a worker (see grab_making).
        self._order: MapOrder | None = None
        #: Whether maps are asked of a worker (None: in a window, not headless).
        self.maps_in_worker: bool | None = None

    # -- SceneController ------------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "grab.toml"))
        self.view = MapView(self.scene, host.ctx)
        kept, self._kept = self._kept, None
        options = self.options
        if kept is not None:
            try:
                options = GrabOptions.from_values(kept.options)
            except ValueError as exc:
                kept = None
                why = f"has options this game refuses ({exc})"
                self._warnings.append(self.session.set_aside_match(why))
        self._new_match(options, self.seed, kept)
        follow(self.session, self.kept_now)
        return self.scene

    def kept_now(self) -> dict[str, Any] | None:
        """What to keep of the game now (None: none is in progress): the options its map was
        made with and the match's record (a kept game whose map is still being made: as it
        was kept)."""
        order = self._order
        if order is not None and order.kept is not None:
            kept = order.kept
            return {"game": self.name, "options": kept.options, "record": kept.record,
                    "extra": kept.extra}  # fmt: skip
        if self.match is None or self.game is None:
            return None
        return kept_data(self.name, self.match, self.game.grab_options.values())

    def exit(self) -> None:
        keep(self.session, self.kept_now)
        if self.match is not None:
            self.match.close()
        release(self.view)
        self.view = self.host = None

    def update(self, dt: float) -> None:
        self.clock += dt
        order = self._order
        if order is not None:
            if order.done():
                self._order = None
                made = order.take()
                self._start_match(order.game, order.options, order.seed, order.kept, made)
            elif self.match is None:
                self._say(order.describe())
                paint_ahead()  # the map's label atlas, a cell a frame, while the map is made
        match = self.match
        if match is not None:
            before = match.cursor
            steps = match.poll()
            if steps or match.cursor != before:
                self._after_steps()
            self._show_hint()
            if self._autoplay_due():
                self._next_tick = self.clock + AUTOPLAY[self.autoplay]
                self._start_round()
        view = self.view
        if match is not None:
            # The camera stays where the player put it while the robots' moves play: it
            # used to pan to each move out of view, so the view jumped every round.
            was = self.playback.busy(match)
            if self.playback.update(match, dt):
                self._redraw()
            if was and not self.playback.busy(match):
                self._after_steps()  # the robots' moves are all on the map now
        if view is not None:
            view.update(dt)
            if view.dirty and match is not None:
                self._draw_map(match, view)

    def preparing(self) -> bool:
        """Whether the next game's map is still being made (the first start: its kernels
        compiling; ``gamehall shot`` and the tests wait for it, however long)."""
        return self._order is not None

    def idle(self) -> bool:
        if self._order is not None:
            return False  # the map is being made
        match = self.match
        if match is None:
            return True
        if match.hinting() or self._play_hint or self.playback.busy(match):
            return False
        if match.over:
            return True
        if self.autoplay and not self.options.human_playing:
            return False
        return match.paused or match.agent_to_move() is None

    def commands(self) -> CommandTable:
        match = self.match
        # The move list follows the record: its steps, its point, a new game.
        record = (match.cursor, self._record_changes) if match is not None else None
        signature = (
            self.options.human_playing,
            self.show_options,
            self.autoplay,
            self.info,
            self.panel.signature(),
            record,
        )
        if self._table is None or self._table[0] != signature:
            self._table = (signature, CommandTable(build_commands(self)))
        return self._table[1]

    def status(self) -> Status:
        match = self.match
        text = ""
        if match is not None:
            text = counter(match, AUTOPLAY[self.autoplay], self.playback.busy(match))
        # The ranking is a sheet of its own (with the colours); trace and rules are text.
        info = self.info
        panel = panel_text(match, info) if match is not None and info != "ranking" else ""
        if info == "rules":
            panel += "\n" + MAP_KEY
        return Status(self.title, text, self.message, self.tone, panel)

    def status_line(self) -> str:
        return status_line(self.match)

    def on_pick(self, node: Node | None) -> Move | None:
        """The move a click on the country under the mouse means (spec 6.4), or None (a
        mountain, the sea, an enemy none of yours borders: the banner says why)."""
        country = self._country_under_mouse()
        if country is None:
            return None
        try:
            return self.move_for(country)
        except ValueError as exc:
            self._say(str(exc), Tone.WARN)
            return None

    def play(self, action: Any) -> None:
        """The person's move; raises ValueError (nothing changes) when it is illegal or not
        the person's turn. The robots answer in the background."""
        match = self._require_turn()
        if type(action) is not Move:
            raise GrabMoveError(f"not a MasterGrab move: {action!r}")
        before = grab_state(match)
        index = match.cursor
        match.play(action)  # applied once; refused with the rules' own reason
        self._hint_shown = None
        self._say(describe_move(self._game(), before, action, grab_state(match, index + 1)))
        self._after_steps()

    # -- commands ---------------------------------------------------------------------------

    def move_for(self, country: int) -> Move:
        """Spec 6.4: the attack on an enemy country with every own neighbour, or the gather
        into an own country from every own neighbour; raises ValueError for a country that
        is not there, a mountain, or an enemy none of yours borders."""
        match = self._require_turn()
        state = grab_state(match)
        if not 0 <= country < state.board.countries:
            raise GrabMoveError(f"there is no country {country}")
        if state.owners[country] == MOUNTAIN:
            name = self._game().country_name(state, country)
            raise GrabMoveError(f"{name} is a mountain: nobody can own, attack or cross it")
        move = click_move(state, country)
        if move is None:
            owner = self._game().seat_name(state.owners[country])
            name = self._game().country_name(state, country)
            raise GrabMoveError(f"none of your countries borders {name} ({owner}'s)")
        return move

    def click_country(self, country: int) -> None:
        """``country:N``: play what a click on country N means."""
        self.play(self.move_for(country))

    def next_step(self) -> None:
        """N: play the hinted move (asking for the hint first when there is none yet)."""
        match = self._require_turn()
        hint = match.current_hint()
        if hint is not None:
            self.play(hint.action)
            return
        self._play_hint = True
        match.hint()

    def pass_turn(self) -> None:
        """Space: skip the person's move (the robots answer); robots only: one round. While
        the robots' moves are being shown, Space shows the newest state at once instead."""
        if self.match is not None and self.playback.skip(self.match):
            self._after_skip()
            return
        if not self.options.human_playing:
            match = self._require_running()
            if self.autoplay:
                raise GrabMoveError("autoplay is on: press P to stop it first")
            self._start_round()
            self._say(f"Round {grab_state(match).turn // match.game.seats + 1}.")
            return
        self.play(NO_MOVE)

    def skip(self) -> None:
        """Esc or Space while the robots' moves are being shown: show the newest state now."""
        match = self._require_match()
        if not self.playback.skip(match):
            raise GrabMoveError("no moves are being shown")
        self._after_skip()

    def on_escape(self) -> bool:
        """Esc ends the animation of the robots' moves, if one plays (else: the menu)."""
        match = self.match
        if match is None or not self.playback.skip(match):
            return False
        self._after_skip()
        return True

    def hint(self) -> None:
        """H: the strategic robot's move for the person, drawn on the map."""
        match = self._require_turn()
        self._hint_shown = None
        match.hint()

    def undo(self) -> None:
        """U: back to the person's previous turn (robots only: one move back)."""
        self._travel(self._require_match().undo, "Undone.")

    def redo(self) -> None:
        """Y: forward again to the person's next turn (robots only: one move)."""
        self._travel(self._require_match().redo, "Redone.")

    def _travel(self, go: Callable[[], None], said: str) -> None:
        """Undo or redo: the rounds stop, the map shows the new point at once."""
        match = self._require_match()
        self._stop_rounds()
        go()
        self.playback.sync(match)
        self._say(said)
        self._after_steps(summary=False)

    def goto(self, number: int) -> None:
        """The map after step ``number`` of the record (0: the start): a row of the move list
        ends where you are to move (robots only: where a round starts); the rounds stop."""
        match = self._require_match()
        total = len(match.full_record)
        if not 0 <= number <= total:
            raise GrabMoveError(f"there is no move {number}; the game has {total}")
        self._travel(lambda: match.jump(number), f"Move {number} of {total}.")

    def new_game(self) -> None:
        """R: a new map (with fresh random options when they are on); asks once while a game
        is in progress."""
        self._require_match()
        if self.confirmed("new", "R", "for a new map"):
            self.restart()

    def restart(self) -> None:
        """A new map at once (with fresh random options when they are on)."""
        self._new_match(self._drawn(self.options), random.randrange(1 << 30))

    def in_progress(self) -> bool:
        """A game with moves made that is not over (R and G then ask for a second press)."""
        match = self.match
        return match is not None and match.cursor > 0 and not match.over

    def replay(self) -> None:
        """M: the same map and starting armies again; asks once while a game is in progress."""
        match = self._require_match()
        if not self.confirmed("replay", "G", "to replay this map"):
            return
        self._stop_rounds()
        match.restart(start=match.state_at(0))
        self._after_restart("Replay: the same map and armies again.")

    def apply(self) -> None:
        """Start a new game with the options panel's values, and keep them."""
        self._require_match()
        values = self.panel.values
        self.options = GrabOptions.from_values(values)
        self.session.save_options(values)
        self.show_options = False
        self._new_match(self._drawn(self.options), random.randrange(1 << 30))

    def cycle_autoplay(self) -> None:
        """P: robots only, play rounds by themselves every 0.1 .. 2 s, or stop."""
        if self.options.human_playing:
            raise GrabMoveError("autoplay is for games the robots play alone")
        self.autoplay = (self.autoplay + 1) % len(AUTOPLAY)
        self._next_tick = self.clock

    def cycle_info(self) -> None:
        """I: the left panel shows the ranking, the trace, the rules, or nothing."""
        self.info = INFO[(INFO.index(self.info) + 1) % len(INFO)]

    def toggle_options(self) -> None:
        self.show_options = not self.show_options
        self.panel.reset(self.options.values())

    def debug_panel(self) -> None:
        from game.games.grab.debug import debug_panel

        debug_panel(self)

    def panel_changed(self) -> None:
        """After an options panel step: show the panel, and what the step said."""
        self.show_options = True
        if self.panel.note:
            self._say(self.panel.note)

    # -- checks -----------------------------------------------------------------------------

    def your_turn(self) -> bool:
        """True while the person may move (a person plays, it is their turn, not over)."""
        match = self.match
        return (
            match is not None
            and self.options.human_playing
            and not match.over
            and match.person_to_move()
            and not self.playback.busy(match)
        )

    def _require_match(self) -> Match[Move]:
        if self.match is None:
            raise GrabMoveError("no game yet")
        return self.match

    def _require_running(self) -> Match[Move]:
        match = self._require_match()
        if match.over:
            raise GrabMoveError("the game is over: press R for a new game or G to replay")
        return match

    def _require_turn(self) -> Match[Move]:
        match = self._require_running()
        if not self.options.human_playing:
            raise GrabMoveError("the robots play this game alone; press Space or P")
        if not match.person_to_move():
            raise GrabMoveError("wait: the robots are moving")
        if self.playback.busy(match):
            raise GrabMoveError("wait: the robots' moves are being shown (Space or Esc skips)")
        return match

    def _game(self) -> GrabGame:
        assert self.game is not None
        return self.game

    def _checked(self, values: Any) -> dict[str, Any]:
        try:
            return SCHEMA.validate(dict(values))
        except ValueError as exc:  # OptionError, or the cross-check's GrabOptionsError
            self._warnings.append(f"The options are not valid ({exc}); using the defaults.")
            return SCHEMA.defaults()

    def _after_skip(self) -> None:
        self._redraw()
        self._after_steps()


__all__ = ["GrabController"]
