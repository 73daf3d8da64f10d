"""The scene base of every game: the controls every game has under the same keys.

:class:`GameScene` extends the engine's :class:`~game.engine.controller.SceneController` (the
hooks the Director calls, each with a default) with what a player finds the same in every
game: H hint, N play the hint, U undo, Y redo and R new game, declared once here (the command
name, the key and the method a key runs: :data:`CONTROLS`); a new game asked for while a game
is in progress waits for a second press (:meth:`GameScene.confirmed`); the banner's message
and a short toast over it. A game overrides the five methods and :meth:`GameScene.restart`,
and places each control in its command table with :meth:`GameScene.control`, saying how it
labels it and when it is enabled. The steps a game's :class:`~game.logic.match.Match` takes
are shown through one queue (:attr:`GameScene.pending`): the match plays a computer's choice
only once the scene has shown every step before it (:meth:`GameScene.poll_match`), and the
queued steps play one at a time, each as a tween (:meth:`GameScene.show_steps`). Games played
a move at a time around a match get the rest from
:class:`game.hall.match_controls.MatchControls`.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

from game.engine.commands import Command
from game.engine.controller import SceneController, Tone
from game.logic.linked import LinkedMatch

if TYPE_CHECKING:
    from game.engine.controller import Host
    from game.engine.tweens import Tween
    from game.logic.match import Match, Step
    from game.logic.options import OptionsSchema

__all__ = ["CONFIRM_SECONDS", "CONTROLS", "Control", "GameScene"]

#: How long a first press of New game (or another control that throws a game away) waits
#: for the second.
CONFIRM_SECONDS: Final = 3.0

#: The controls every game has: command name, key, and the :class:`GameScene` method it runs.
CONTROLS: Final[dict[str, tuple[str, Callable[[GameScene], Callable[[], None]]]]] = {
    "hint": ("H", lambda scene: scene.hint),
    "next": ("N", lambda scene: scene.next_step),
    "undo": ("U", lambda scene: scene.undo),
    "redo": ("Y", lambda scene: scene.redo),
    "new": ("R", lambda scene: scene.new_game),
}


@dataclass(frozen=True)
class Control:
    """How a game shows one of :data:`CONTROLS`: its button's label, its help line, when it
    is enabled (and why not), and its group ("main": the bottom bar; "": a key only)."""

    label: str
    help: str
    enabled: Callable[[], bool] | None = None
    why_disabled: str = ""
    group: str = "main"
    tooltip: str = ""


class GameScene(SceneController):
    """The base of every game's scene controller; see the module docstring."""

    #: The scene's own time in seconds, advanced by the game's ``update`` (the confirmation
    #: of a new game and the bobbing marks count in it).
    clock: float = 0.0
    #: The banner: the game's own message until the next one, and its tone.
    message: str = ""
    tone: Tone = Tone.INFO
    host: Host | None = None
    #: The refusal the controls raise (a ValueError of the game's own).
    refusal_error: ClassVar[type[ValueError]] = ValueError
    #: The game's options schema: the option buttons step through it (None: no buttons).
    options_schema: ClassVar[OptionsSchema | None] = None
    #: The option values in force (the schema's names to values).
    options: Any
    #: A question asked by the first press of a control that throws a game away: the
    #: control's name and the clock until which a second press answers it.
    _asked: tuple[str, float] | None = None
    #: How many rebuilds of a match on a server the scene has shown.
    _resets_seen: int = 0
    #: Whether the scene plays a hiding match of a server on a stand-in
    #: (:meth:`~game.logic.contract.Game.stand_in`): it shows nothing of the state but what
    #: its seat may know, at the end too, and takes steps whose action it was not told.
    plays_stand_in: ClassVar[bool] = False

    # -- the controls every game has ----------------------------------------------------------

    def hint(self) -> None:
        """H: show the best move here; never changes the game."""
        raise self.refusal_error(f"{self.title}: no hint here")

    def next_step(self) -> None:
        """N: play the hinted move."""
        raise self.refusal_error(f"{self.title}: no hinted move to play")

    def undo(self) -> None:
        """U: back one move (against the computer, back to the person's turn)."""
        raise self.refusal_error("Nothing to undo.")

    def redo(self) -> None:
        """Y: forward again over what undo took back."""
        raise self.refusal_error("Nothing to redo.")

    def new_game(self) -> None:
        """R: a new game (:meth:`restart`); while a game is in progress, only after a second
        press within :data:`CONFIRM_SECONDS`."""
        if self.confirmed("new", "R", "for a new one"):
            self.restart()

    def restart(self) -> None:
        """A new game at once, nothing asked."""
        raise NotImplementedError(f"{type(self).__name__} cannot start a new game")

    def in_progress(self) -> bool:
        """Whether a game is being played that a new game would throw away (none by
        default: a new game starts at the first press)."""
        return False

    # -- option buttons -----------------------------------------------------------------------

    def set_options(self, values: dict[str, Any]) -> None:
        """Take the checked option ``values`` (saved; in effect as the game says)."""
        raise NotImplementedError(f"{type(self).__name__} has no options to set")

    def step_option(self, name: str, delta: int = 1) -> None:
        """An option button: ``name`` moved ``delta`` steps (a number), or on to the next
        choice (a choice, on/off) that the schema's cross-check takes, round to the start;
        refused with the schema's reason when none is."""
        schema = self.options_schema
        if schema is None:
            raise self.refusal_error(f"{self.title} has no options")
        try:
            values = schema.press(self.options, name, delta)
        except ValueError as exc:  # OptionError, or the game's cross-check
            raise self.refusal_error(f"Refused: {exc}") from None
        self.set_options(values)

    def option_button(
        self, command: str, name: str, label: str, delta: int = 1, **shown: Any
    ) -> Command:
        """The button ``command`` that steps option ``name`` (:meth:`step_option`), labelled
        ``label``, with the schema's help unless ``help`` is given; ``shown``: the rest of the
        :class:`~game.engine.commands.Command`'s fields (``group`` defaults to "options")."""
        schema = self.options_schema
        assert schema is not None, "option buttons need the game's schema"
        fields: dict[str, Any] = {"group": "options", "help": schema[name].help, **shown}
        return Command(command, lambda: self.step_option(name, delta), label, **fields)

    # -- helpers for the games ----------------------------------------------------------------

    def control(self, name: str, shown: Control) -> Command:
        """The command of the shared control ``name`` (a key of :data:`CONTROLS`), shown as
        ``shown`` says: its key and method are the same in every game."""
        key, method = CONTROLS[name]
        return Command(
            name,
            lambda: method(self)(),  # the method in force when it runs (a game's override)
            shown.label,
            key,
            shown.help,
            group=shown.group,
            enabled=shown.enabled or _always,
            why_disabled=shown.why_disabled,
            tooltip=shown.tooltip,
        )

    def confirmed(self, what: str, key: str, doing: str) -> bool:
        """Whether the control ``what`` (its ``key``) may throw the game in progress away
        now: at once when none is (:meth:`in_progress`), else at the second press within
        :data:`CONFIRM_SECONDS`; the first asks in the banner (``doing``: what the second
        press does, "for a new one")."""
        asked, self._asked = self._asked, None
        if not self.in_progress():
            return True
        if asked is not None and asked[0] == what and self.clock < asked[1]:
            return True
        self._asked = (what, self.clock + CONFIRM_SECONDS)
        self.message = f"A game is in progress: press {key} again {doing}; this game will be lost."
        self.tone = Tone.WARN
        return False

    @property
    def asking(self) -> bool:
        """Whether a control waits for its second press now."""
        return self._asked is not None and self.clock < self._asked[1]

    def forget_question(self) -> None:
        """Another command came between two presses: the question is forgotten."""
        self._asked = None

    def animating(self) -> bool:
        """Whether a tween is playing in the scene (input waits for it)."""
        return self.host is not None and self.host.tweens.busy > 0

    # -- the step queue -------------------------------------------------------------------------

    @functools.cached_property
    def pending(self) -> deque[tuple[Any, Step, Any]]:
        """The steps the match took that the scene has still to show, oldest first: (the
        position before the step, the step, the position after it)."""
        return deque()

    def settled(self) -> bool:
        """Whether the scene shows the match's point: no step queued, no tween playing."""
        return not self.pending and not self.animating()

    def poll_match(self, match: Match[Any], limit: int | None = None) -> list[Step]:
        """Let ``match`` go on (chance, forced steps, a computer's choice, at most ``limit``
        of those): a choice is played only once the scene has shown every step before it
        (:meth:`settled`); the thinking may start meanwhile. Returns the steps played."""
        steps = match.poll(apply=self.settled(), limit=limit)
        if isinstance(match, LinkedMatch):
            self._follow_link(match)
        return steps

    def _follow_link(self, match: LinkedMatch) -> None:
        """A match on a server: its news as toasts, and a record it rebuilt (an undo all
        agreed to) shown at once (:meth:`_match_reset`)."""
        while match.notices:
            self._toast(match.notices.popleft(), Tone.INFO)
        if match.resets != self._resets_seen:
            self._resets_seen = match.resets
            self._match_reset()

    def _match_reset(self) -> None:
        """The match's record was rebuilt: the steps still to show are forgotten."""
        self.clear_steps()

    def queue_step(self, match: Match[Any], step: Step) -> None:
        """Queue ``step``, the one ``match`` has just taken, to be shown with the positions
        before and after it."""
        self.pending.append((match.state_at(match.cursor - 1), step, match.state))

    def clear_steps(self) -> None:
        """Forget the steps still to show (undo, redo, a jump, a new game: the scene shows the
        match's point at once)."""
        self.pending.clear()

    def show_steps(self) -> None:
        """Show the queued steps one at a time: each step's tween (:meth:`_start_step`) plays
        to its end, and the position after it is shown as it stands (:meth:`_settled`),
        before the next step starts; once the last has played, :meth:`_steps_shown`."""
        while self.pending and not self.animating():
            before, step, after = self.pending.popleft()
            tween = self._start_step(before, step, after)
            self._step_started(after)
            if tween is not None and self.host is not None:
                self.host.tweens.run(tween, functools.partial(self._settled, after))
            else:
                self._settled(after)
        if self.settled():
            self._steps_shown()

    def _start_step(self, before: Any, step: Step, after: Any) -> Tween | None:
        """The news of ``step`` and the tween that plays it (None: it shows at once)."""
        return None

    def _step_started(self, after: Any) -> None:
        """A step has begun to play; ``after`` is the position it leads to."""

    def _settled(self, after: Any) -> None:
        """A step has played: the scene shows ``after`` as it stands."""

    def _steps_shown(self) -> None:
        """Every queued step has played."""

    def _say(self, text: str, tone: Tone = Tone.INFO) -> None:
        """The game's own banner, until the next message."""
        self.message, self.tone = text, tone

    def _toast(self, text: str, tone: Tone = Tone.WARN) -> None:
        """A short message over the banner (the banner itself without a window)."""
        if self.host is not None:
            self.host.say(text, tone)
        else:
            self._say(text, tone)


def _always() -> bool:
    return True
