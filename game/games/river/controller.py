"""Priests and Devils: the scene controller.

A :class:`~game.logic.match.Match` holds the game (the record, undo, redo, a new game) and the
:class:`~game.logic.river.game.SolverAgent` answers the hint; Next step and Solve play the agent's
choices one by one, each when the previous one has finished moving. A click boards the
character clicked, not just one of its kind: the controller plays each board or land with the
name of who moves as the step's detail, so the match's record alone says who stands where at
every point (:attr:`places`), through undo, redo and a resumed game. Beside the match the
controller keeps the tweens that walk the characters (:mod:`game.games.river.cast`), the hint
marks, and the banner. The judge speaks
when the animation of the move that ended the game completes, and the result is counted in
the session's statistics once per game, under the key of its rules: T shows the table of
every setting played (:mod:`game.games.river.stats`).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Sequence
from typing import Any

from game.engine.commands import CommandTable
from game.engine.controller import Host, Sheet, Status, Tone
from game.engine.scene import Node, Scene, load_scene
from game.engine.tweens import Tween
from game.games.river.cast import Cast, Place, hint_targets, kind_of, moved, mover, start_places
from game.games.river.commands import RULES_HELP, build_commands
from game.games.river.stats import PREFIX, statistics_sheet, stats_key
from game.hall.keeping import (
    follow,
    keep,
    kept_data,
    kept_game,
    kept_options,
    resume_kept,
)
from game.hall.scene import GameScene
from game.logic.contract import Limits
from game.logic.match import Match, Step
from game.logic.river.game import (
    OPTIONS,
    Action,
    BoardBoat,
    Cross,
    IllegalRiverActionError,
    Outcome,
    RiverGame,
    RiverPuzzle,
    RiverState,
    Side,
    SolverAgent,
    Unboard,
    rules_from,
)
from game.registry import GameSession
from game.resources import asset_path

__all__ = ["RiverController"]

log = logging.getLogger(__name__)


class Autoplay(enum.Enum):
    """What the solver is playing for the person: one crossing, or the whole game."""

    NEXT = "next"
    SOLVE = "solve"


class RiverController(GameScene):
    """The river scene; see the module docstring.

    ``session`` gives the options to start with, keeps changed ones and counts results;
    ``overrides`` are option values (``priests=4``) for this controller only.
    """

    name = "river"
    title = "Priests and Devils"
    refusal_error = IllegalRiverActionError
    options_schema = OPTIONS

    def __init__(self, session: GameSession, **overrides: Any) -> None:
        self.session = session
        # Options asked for start afresh; otherwise the game kept when the person left
        # comes back, with its options.
        kept, note = kept_game(session, self.name, fresh=bool(overrides))
        self.options, kept, refused = kept_options(session, OPTIONS, kept, overrides)
        note = refused or note
        self.rules = rules_from(self.options)
        self.puzzle = RiverPuzzle(self.rules)
        self.agent = SolverAgent()
        self.match = self._new_match()
        self.host: Host | None = None
        self.scene: Scene | None = None
        self.cast: Cast | None = None
        self.autoplay: Autoplay | None = None
        self.hint_on = False  # the hint follows the person's boarding until the boat goes
        self.assisted = False  # Next step or Solve played part of this game
        self.recorded = False  # this game's result went into the statistics
        self.announced = False  # the judge has spoken about the current (final) state
        self.message = ""
        self.tone = Tone.INFO
        self.hover: Node | None = None
        self._picked: tuple[Action, str] | None = None  # the click being played
        self.show_stats = False  # the statistics table is docked at the left
        self._stats: Sheet | None = None  # the table as last read (None: read it again)
        self._table: tuple[tuple[Any, ...], CommandTable] | None = None  # by what it shows
        self._note = note  # said when the scene opens: a kept game that could not be used
        if kept is not None:
            who = kept.extra.get("who")
            names = [n if isinstance(n, str) else "" for n in who] if isinstance(who, list) else []
            self._note = resume_kept(session, self.match, kept, names)

    # -- what is there ----------------------------------------------------------------------

    @property
    def state(self) -> RiverState:
        state = self.match.state
        assert isinstance(state, RiverState)
        return state

    @property
    def places(self) -> dict[str, Place]:
        """Who stands where now: character name to bank slot or boat seat, as the record up
        to the current point says."""
        return self._places_along(self.match.record)[-1]

    @property
    def hint_marks(self) -> list[str]:
        """What the hint points at now: character names, or ``"boat"``."""
        return self.cast.marks if self.cast is not None else []

    # -- SceneController --------------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "river.toml"))
        self.cast = Cast(self.scene, self.rules)
        if self.match.full_record:  # a kept game, resumed
            self.cast.snap(self.places, self.state.boat_side)
            self._say(f"Welcome back: {self.rules.describe()}.", Tone.INFO, keep=True)
        else:
            self.restart()
        if self._note:
            self._say(self._note, Tone.WARN, keep=True)
            self._note = ""
        follow(self.session, self.kept_now)
        return self.scene

    def exit(self) -> None:
        keep(self.session, self.kept_now)
        self.autoplay = None
        self.match.close()
        self.host = None

    def kept_now(self) -> dict[str, Any] | None:
        """What to keep of the game now (None: none is in progress): the options, the
        crossing's record (redo steps too) and who moved at each board or land."""
        record = self.match.full_record
        before = self._places_along(record)[:-1]
        who = [
            mover(places, step.action, self._side_before(i), step.detail or None)
            for i, (step, places) in enumerate(zip(record, before, strict=True))
        ]
        return kept_data(self.name, self.match, self.options, {"who": who})

    def _places_along(self, steps: Sequence[Step]) -> list[dict[str, Place]]:
        """Who stands where at the start and after each of ``steps`` (the record from its
        start): each board or land moves the character its step names, or (a step without
        a fitting name) the one nearest the water."""
        places = [start_places(self.rules)]
        for i, step in enumerate(steps):
            side = self._side_before(i)
            places.append(
                moved(places[-1], step.action, side, self.rules.capacity, step.detail or None)
            )
        return places

    def _side_before(self, index: int) -> Side:
        """The boat's bank before step ``index`` of the record."""
        state = self.match.state_at(index)
        assert isinstance(state, RiverState)
        return state.boat_side

    def update(self, dt: float) -> None:
        self.clock += dt
        self._picked = None  # a click is played in the frame it was made, or not at all
        if self.autoplay is not None and not self.animating():
            self._autoplay_step()
        if self.cast is not None:
            self.cast.bob_marks(self.clock, self.host.bounds if self.host is not None else {})

    def idle(self) -> bool:
        return self.autoplay is None

    def commands(self) -> CommandTable:
        """The command table, built again when what it shows changes: the options (the
        variant buttons) or the record and its point (the move list)."""
        record = self.match.full_record
        shown = (id(self.match), self.match.cursor, *(step.text for step in record))
        if self._table is None or self._table[0] != shown:
            self._table = (shown, build_commands(self))
        return self._table[1]

    def status(self) -> Status:
        optimum = self.puzzle.optimal_crossings()
        to_go = self.puzzle.distance(self.state)
        counter = f"Crossings {self.state.crossings}   best possible {optimum}"
        if to_go is not None and self._playing():
            counter += f"   ({to_go} to go)"
        help_text = f"{self.rules.describe()}.  Click a character to board or land, Go to cross."
        return Status(self.title, counter, self.message, self.tone, help_text)

    def help_intro(self) -> list[str]:
        """The rules and their variants, for the top of the F1 panel."""
        return list(RULES_HELP)

    def sheet(self) -> Sheet | None:
        """The statistics table while it is shown (T), else None."""
        if not self.show_stats:
            return None
        if self._stats is None:
            games = self.session.statistics().games
            records = {k: r for k, r in games.items() if k.startswith(PREFIX)}
            self._stats = statistics_sheet(records, self.rules, self.puzzle.optimal_crossings())
        return self._stats

    def toggle_stats(self) -> None:
        """Show or hide the statistics of every setting played (read again when shown)."""
        self.show_stats = not self.show_stats
        self._stats = None

    def status_line(self) -> str:
        return (
            f"status={self.state.outcome().value} crossings={self.state.crossings} "
            f"optimal={self.puzzle.optimal_crossings()}"
        )

    def on_hover(self, node: Node | None) -> None:
        if node is self.hover:
            return
        if self.hover is not None:
            self.hover.highlight = 0.0
            if self.cast is not None:
                self.cast.show_marks(self.cast.marks)  # a hinted node keeps its glow
        self.hover = node
        if node is not None and self._ready():
            node.highlight = max(node.highlight, 0.35)

    def on_pick(self, node: Node | None) -> Action | None:
        """The boat means a crossing; a character in the boat, landing it; a character on the
        boat's bank, boarding it (that one, when the move is played). A character on the
        other bank: a message, and no action."""
        if node is None:
            return None
        if node.name == "boat":
            return Cross()
        if node.name not in self.places:
            return None
        try:
            action = self._action_for(node.name)
        except IllegalRiverActionError as exc:
            if self.host is not None:
                self.host.say(str(exc), Tone.WARN)
            return None
        self._picked = (action, node.name)
        return action

    def play(self, action: Any) -> None:
        """A move by the person (a click, a key, a script); raises IllegalRiverActionError (shown
        in the banner) while anything moves, after the end, or when it is not legal."""
        picked, self._picked = self._picked, None
        who = picked[1] if picked is not None and picked[0] == action else None
        self.forget_question()
        self._check_input()
        self._move(action, who)

    # -- commands ---------------------------------------------------------------------------

    def hint(self) -> None:
        """Show every optimal load to send next and mark who should move (never changes the
        state). The marks follow the person's boarding and landing until the boat leaves."""
        if self.cast is not None:
            self.cast.clear_marks()
        self.hint_on = False
        hint = self.puzzle.hint(self.state)
        choice = self._agent_choice()
        if choice is None:
            self._say(f"No hint: {hint.reason}", Tone.WARN)
            return
        first, _ = choice
        if isinstance(first, Cross):
            step = "row across now"
        elif isinstance(first, BoardBoat):
            step = f"board a {first.kind.value}"
        else:
            step = f"put a {first.kind.value} ashore"
        if hint.loads:
            loads = " or ".join(str(load) for load in hint.loads)
            text = f"Hint: send {loads}; {step}. {hint.distance} crossings to go."
        else:
            text = f"Hint: {hint.reason}; {step}."
        self.hint_on = True
        self._say(text, Tone.HINT, keep=True)
        self._mark(self.puzzle.plan(self.state))

    def next_step(self) -> None:
        """Play the next optimal crossing: land or board who must, then row."""
        self._start_autoplay(Autoplay.NEXT)

    def solve(self) -> None:
        """Play optimal steps all the way to the win from any safe state."""
        self._start_autoplay(Autoplay.SOLVE)
        self._say("Solving: watch the optimal crossings. Undo (U) stops.", Tone.HINT, keep=True)

    def undo(self) -> None:
        """Take back the last board, land or crossing (also after a loss). While Next step or
        Solve is playing, the first Undo stops it after the current move."""
        if self.autoplay is not None:
            self.autoplay = None
            self._say("Stopped. Press Undo again to take moves back.", Tone.INFO, keep=True)
            return
        self._travel("undo", self.match.can_undo, self.match.undo, "Undone.")

    def redo(self) -> None:
        """Play again the move that the last Undo took back."""
        if self.autoplay is not None:
            raise IllegalRiverActionError("Wait for the move to finish before redoing.")
        self._travel("redo", self.match.can_redo, self.match.redo, "Redone.")

    def _travel(
        self, word: str, can: Callable[[], bool], go: Callable[[], None], said: str
    ) -> None:
        """Undo or redo (``word``), once no move is being shown: the scene walks to the new
        point."""
        if self.animating():
            raise IllegalRiverActionError(f"Wait for the move to finish before {word}ing.")
        if not can():
            raise IllegalRiverActionError(f"Nothing to {word}.")
        old = self.places
        go()
        self._went_back(old, said)

    def goto(self, number: int) -> None:
        """The point after move ``number`` of the record (0: the start), once no move is
        being shown: the scene walks there."""
        if self.autoplay is not None or self.animating():
            raise IllegalRiverActionError("Wait for the move to finish.")
        total = len(self.match.full_record)
        if not 0 <= number <= total:
            raise IllegalRiverActionError(f"No move {number}: the record has {total}.")
        old = self.places
        self.match.jump(number)
        self._went_back(old, f"Move {number} of {total}.")

    def in_progress(self) -> bool:
        """A game with moves made that is not over (R then asks for a second press)."""
        return self.match.cursor > 0 and not self.match.over

    def restart(self) -> None:
        """A fresh game with the current options, at once; cancels everything that runs."""
        if self.host is not None:
            self.host.tweens.cancel_all()
        self.autoplay = None
        self.forget_question()
        self.match.restart()
        self.announced = self.assisted = self.recorded = self.hint_on = False
        if self.cast is not None:
            self.cast.clear_marks()
            self.cast.snap(self.places, self.state.boat_side)
        self._say(
            "Bring everyone across. Devils must never outnumber priests on a bank.",
            Tone.INFO,
            keep=True,
        )

    def set_options(self, values: dict[str, Any]) -> None:
        """Start a new game with ``values`` (checked by the schema: an option button's press)
        and keep them in the session for the next game and the next start."""
        self.match.close()
        self.options, self.rules = values, rules_from(values)
        self.puzzle = RiverPuzzle(self.rules)
        self.match = self._new_match()
        if self.cast is not None:
            self.cast.build(self.rules)
        self.restart()
        self.session.save_options(values)
        self._table = None  # the variant buttons name the new values
        self._stats = None
        self._say(
            f"New game: {self.rules.describe()}; "
            f"{self.puzzle.optimal_crossings()} crossings at best.",
            Tone.INFO,
            keep=True,
        )

    def click(self, name: str) -> None:
        """Click the character called ``name``: board it, or land it."""
        self.forget_question()
        self._check_input()
        self._move(self._action_for(name), name)

    # -- the debug overlay panel ------------------------------------------------------------

    def debug_panel(self) -> None:
        from game.games.river.panel import draw_panel

        draw_panel(self)

    # -- inside -----------------------------------------------------------------------------

    def _new_match(self) -> Match[Action]:
        game = RiverGame(self.options)
        return Match(game, [None], hint_agent=self.agent, limits=Limits(time=1.0))

    def _character(self, name: str) -> str:
        if name not in self.places:
            raise IllegalRiverActionError(f"there is no character named {name!r}")
        return name

    def _action_for(self, name: str) -> Action:
        """What a click on the character ``name`` means now."""
        place = self.places[name]
        kind = kind_of(name)
        if place.aboard:
            return Unboard(kind)
        side = self.state.boat_side
        if place.side is not side:
            raise IllegalRiverActionError(
                f"The boat is at the {side.value} bank; that {kind.value} waits on the "
                f"{side.other.value} bank."
            )
        return BoardBoat(kind)

    def _playing(self) -> bool:
        return self.state.outcome() is Outcome.PLAYING

    def _ready(self) -> bool:
        return not self.animating() and self.autoplay is None and self._playing()

    def _check_input(self) -> None:
        if not self._playing():
            raise IllegalRiverActionError("The game is over: press New game (R), or Undo (U).")
        if self.animating() or self.autoplay is not None:
            raise IllegalRiverActionError("Wait for the move to finish.")

    def _agent_choice(self) -> tuple[Action, str] | None:
        """The hint agent's next click and what it says about it (None when it has none)."""
        if not self._playing():
            return None
        self.match.hint()
        hint = self.match.current_hint()
        return (hint.action, hint.note) if hint is not None else None

    def _start_autoplay(self, mode: Autoplay) -> None:
        self._check_input()
        if self._agent_choice() is None:
            refusal = "no next step" if mode is Autoplay.NEXT else "cannot solve from here"
            raise IllegalRiverActionError(f"{refusal}: {self.puzzle.hint(self.state).reason}")
        self.assisted = True  # this game sets no best score
        self.hint_on = False
        if self.cast is not None:
            self.cast.clear_marks()
        self.autoplay = mode

    def _autoplay_step(self) -> None:
        """Play the agent's next click; Next step ends with the crossing, Solve with the end."""
        choice = self._agent_choice()
        if choice is None:
            self.autoplay = None
            if self._playing():
                self._say(f"Stopped: {self.puzzle.hint(self.state).reason}", Tone.WARN)
            return
        action, _ = choice
        try:
            self._move(action)
        except IllegalRiverActionError as exc:  # the agent's click no longer fits: stop, say why
            self.autoplay = None
            self._say(f"Stopped: {exc}", Tone.WARN)
            return
        if self.match.over or (self.autoplay is Autoplay.NEXT and isinstance(action, Cross)):
            self.autoplay = None

    def _move(self, action: Action, who: str | None = None) -> None:
        """Play ``action`` in the match, then walk the scene to it; ``who`` is the character
        that boards or lands (default: the one nearest the water, the last seated)."""
        old = self.places
        try:
            name = mover(old, action, self.state.boat_side, who)
        except IllegalRiverActionError:  # nobody of that kind there: the rules say why below
            name = ""
        self.match.play(action, detail=name)  # applied once; refused with the rules' reason
        places = self.places
        follow = self.hint_on and not isinstance(action, Cross)
        self.hint_on = False
        if self.cast is not None:
            self.cast.clear_marks()
        if self.hover is not None:  # the glow stays with the mouse, not with who walks away
            self.hover.highlight = 0.0
            self.hover = None
        if self.message and self.tone not in (Tone.WON, Tone.LOST) and self.autoplay is None:
            self.message = ""
        if self.host is not None:  # the oars for a crossing, a step on wood for the rest
            self.host.sound("oars" if isinstance(action, Cross) else "place")
        self._animate(old, places)
        if follow and self._playing():
            self.hint()

    def _went_back(self, old: dict[str, Place], text: str) -> None:
        """After an undo or redo: the scene walks to the places of the new point."""
        self.hint_on = False
        if self.cast is not None:
            self.cast.clear_marks()
        self.announced = False
        self.message = ""
        self._animate(old, self.places)
        self._say(text, Tone.INFO)

    def _animate(self, old: dict[str, Place], new: dict[str, Place]) -> None:
        """Walk the scene from ``old`` to ``new``; the judge speaks when it arrives."""
        tween: Tween | None = None
        if self.cast is not None:
            tween = self.cast.tween(old, new, self.state.boat_side)
        if tween is None or self.host is None:
            if tween is not None:  # no window: jump to the end
                while not tween.done:
                    tween.step(1.0)
            self._judge()
        else:
            self.host.tweens.run(tween, self._judge)

    def _judge(self) -> None:
        """Say how the game ended, once; count it in the statistics once per game."""
        verdict = self.state.verdict()
        if verdict.outcome is Outcome.PLAYING or self.announced:
            return
        self.announced = True
        self.autoplay = None
        won = verdict.outcome is Outcome.WON
        note = ""
        if not self.recorded:
            self.recorded = True
            score = self.state.crossings if won and not self.assisted else None
            note = self.session.record(
                stats_key(self.rules), won=won, setting=self.rules.key(), score=score
            )
            self._stats = None  # the table shows this game next time it is drawn
            if note and won and self.assisted:
                note += " (Solved with help: no best score.)"
        if won:
            best = self.puzzle.optimal_crossings()
            crossings = self.state.crossings
            text = f"You win! {verdict.message} {crossings} crossings (best possible {best})."
        else:
            text = f"Game over. {verdict.message}"
        if note:
            text += f" {note}"
        self._say(text, Tone.WON if won else Tone.LOST, keep=True)

    def _mark(self, plan: list[Action]) -> None:
        """Arrows over who the hint's next click moves (each of a run of equal clicks: both
        devils of "board a devil" twice), or onto the boat when it should go."""
        if self.cast is None:
            return
        side, capacity = self.state.boat_side, self.rules.capacity
        self.cast.show_marks(hint_targets(self.places, plan, side, capacity))

    def _say(self, text: str, tone: Tone = Tone.INFO, keep: bool = False) -> None:
        """``keep``: the game's own banner, until the next message; otherwise a short toast
        over it (the banner comes back when the toast ends)."""
        if keep or self.host is None:
            self.message, self.tone = text, tone
        else:
            self.host.say(text, tone)
