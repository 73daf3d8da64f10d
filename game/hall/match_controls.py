"""What the scene controllers of the two-player board games (Reversi, the described games)
do the same way around a :class:`~game.logic.match.Match`: the hint, Next, undo and redo,
jumps in the record, New game, the match's steps played in the scene one at a time and the
hint shown (:class:`MatchControls`); and the pieces of their command tables that read the
same (:func:`match_commands`, :func:`move_list_commands`, :func:`move_number`,
:func:`side_label`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, Protocol

from game.engine.commands import Command
from game.engine.controller import Tone
from game.hall.keeping import follow, keep, kept_data
from game.hall.scene import Control, GameScene
from game.logic.workers.pool import WorkerAgent

if TYPE_CHECKING:
    from game.engine.controller import Host
    from game.logic.match import Match, Step
    from game.logic.workers.pool import Preparation
    from game.registry import GameSession

__all__ = [
    "LIST_LENGTH",
    "MatchControls",
    "goto_command",
    "level_title",
    "match_commands",
    "move_list_commands",
    "move_number",
    "move_rows",
    "side_label",
    "whole_argument",
]

#: Moves shown in the HUD's move list.
LIST_LENGTH: Final = 12
#: Seconds of the scene's clock before the game's own engine starts readying (after the
#: first frames, which it must not slow), and between two looks at how far it got.
ENGINE_AFTER_S: Final = 0.5


class SceneBoard(Protocol):
    """What the controls ask of a scene's board view."""

    def snap(self, state: Any, /) -> None:
        """Show ``state``'s pieces where they stand, no tween."""

    def bob(self, clock: float, /) -> None:
        """Move what bobs (a hover marker) to the time ``clock``."""


class MatchControls(GameScene):
    """The commands and the scene loop of a controller that plays a match a move at a time,
    each move a tween; see the module docstring.

    The controller provides the attributes and methods declared below (``match``, ``host``,
    ``board``, ``play``, ``_turn_text``...) and :meth:`_start_step` (the news of a step and its
    tween); it sets the match's ``on_step`` to :meth:`_on_step`, which queues the step in the
    base's queue (:attr:`~game.hall.scene.GameScene.pending`), and polls the match with
    :meth:`~game.hall.scene.GameScene.poll_match`. It sets :attr:`refusal_error`, the
    ValueError its refusals raise, and :attr:`settle_text`, the refusal while a move's tween
    plays; it may override :meth:`_check_turn` (what a move needs), :meth:`_prepare_hint`
    (the agent asked for the hint), :meth:`_on_new_hint` (a hint found) and
    :meth:`_reset_scene` (what else the scene forgets when it snaps to the match's point).
    """

    settle_text: ClassVar[str] = "Wait for the pieces to settle."
    #: How far the game's own engine got (:meth:`~game.logic.contract.Game.ready_engine`),
    #: for the banner; "" when nothing is under way.
    engine_note: str = ""
    _engine_looked: float = 0.0

    if TYPE_CHECKING:
        name: str
        session: GameSession
        options: dict[str, Any]
        match: Match[Any]
        host: Host | None
        board: SceneBoard | None
        news: list[str]
        thinking_since: float | None
        recorded: bool
        judged: bool
        play_hint: bool
        hint_shown: object
        _marks_dirty: bool
        _version: int

        def play(self, action: Any) -> None: ...
        def _refresh_marks(self) -> None: ...
        def _judge(self) -> None: ...
        def _turn_text(self, prefix: str = "", state: Any = None, /) -> str: ...

    # -- commands -----------------------------------------------------------------------------

    def hint(self) -> None:
        """Ask the hint's agent for the best move here; the scene shows it when it comes."""
        if self.match.over:
            raise self.refusal_error("The game is over: no hint.")
        if self.match.thinking():
            raise self.refusal_error("The computer is thinking; the hint can wait.")
        self._prepare_hint()
        self.start_engine()  # if it was not (a failed one starts again)
        self.match.hint()
        if self.match.current_hint() is None:
            if self.engine_preparation() is not None:
                self._say("The hint waits for the engine and comes when it is ready.", Tone.HINT)
            else:
                self._say("Thinking about a hint…", Tone.HINT)
        self._show_hint()

    def next_step(self) -> None:
        """Play the hinted move (asking for the hint first when there is none yet)."""
        self._check_turn()
        hint = self.match.current_hint()
        if hint is not None:
            self.play(hint.action)
            return
        self.hint()
        self.play_hint = True
        self._show_hint()

    def undo(self) -> None:
        """Back one move; against the computer, back to the person's last turn."""
        self._navigate(self.match.undo)

    def redo(self) -> None:
        """Forward one move; against the computer, on to the person's next turn."""
        self._navigate(self.match.redo)

    def undo_all(self) -> None:
        """Back to the person's first turn (the start when a person plays first)."""

        def back() -> None:
            while self.match.can_undo():
                self.match.undo()

        self._navigate(back)

    def redo_all(self) -> None:
        """On to the last move of the record."""
        self._navigate(lambda: self.match.jump(len(self.match.full_record)))

    def goto(self, number: int) -> None:
        """The position after move ``number`` of the record (0: the start)."""
        total = len(self.match.full_record)
        if not 0 <= number <= total:
            raise self.refusal_error(f"there is no move {number}; the game has {total}")
        self._navigate(lambda: self.match.jump(number))

    def in_progress(self) -> bool:
        """A game with moves made that is not over."""
        return self.match.cursor > 0 and not self.match.over

    def restart(self) -> None:
        """A new game at once: the match starts again, the scene snaps to its start."""
        self.forget_question()
        if self.host is not None:
            self.host.tweens.cancel_all()
        self.match.restart()
        self.recorded = False
        self._reset_scene()
        self._say(self._turn_text())

    # -- SceneController --------------------------------------------------------------------

    def exit(self) -> None:
        """Keep the game in progress for when the person comes back (not a match played on
        a stand-in: the server keeps it, and its steps are not all told), then stop thinking."""
        if not getattr(self.match, "stands_in", False):
            keep(self.session, self.kept_now)
        self.match.close()
        self.host = None

    def kept_now(self) -> dict[str, Any] | None:
        """What to keep of the game now (:mod:`game.hall.keeping`; None: no game is in
        progress): the options it is played with and the match's record."""
        return kept_data(self.name, self.match, self.options, self._kept_extra())

    def _kept_extra(self) -> dict[str, Any]:
        """What the scene keeps of its own beside the record (nothing by default)."""
        return {}

    def _follow_kept(self) -> None:
        """The scene opened: the session asks it whether a game is in progress."""
        if not getattr(self.match, "stands_in", False):
            follow(self.session, self.kept_now)

    def idle(self) -> bool:
        """Nothing queued: no step to animate, no hint coming, no computer to move."""
        if self.pending or self.match.hinting():
            return False
        return self.match.over or self.match.paused or self.match.agent_to_move() is None

    def start_engine(self) -> None:
        """Start readying the engine the computer and the hint think with, if they need one
        (it compiles in a worker process the first time; see game.logic.workers.pool)."""
        for agent in (*self.match.seats, self.match.hint_agent):
            if isinstance(agent, WorkerAgent):
                agent.preparation(start=True)

    def engine_preparation(self) -> Preparation | None:
        """The readying of the engine the computer and the hint think with while it is not
        ready (under way, or failed); None once it is, or when they need none."""
        for agent in (*self.match.seats, self.match.hint_agent):
            prep = agent.preparation() if isinstance(agent, WorkerAgent) else None
            if prep is not None and not prep.ready:
                return prep
        return None

    def preparing(self) -> bool:
        """Whether the engine is being readied now (``gamehall shot`` waits for it, however
        long the first compile takes)."""
        prep = self.engine_preparation()
        return prep is not None and not prep.done.is_set()

    # -- checks and hooks -----------------------------------------------------------------------

    def _check_turn(self) -> None:
        """Refuse a move once the game is over or while the computer is to move."""
        if self.match.over:
            raise self.refusal_error("The game is over: start a new game (R) or undo (U).")
        if not self.match.person_to_move():
            raise self.refusal_error("It is the computer's turn: it is thinking.")

    def _check_settled(self) -> None:
        """Refuse while a move's tween plays."""
        if self.animating():
            raise self.refusal_error(self.settle_text)

    def _prepare_hint(self) -> None:
        """Set the match's hint agent before a hint is asked for (nothing by default)."""

    def _on_new_hint(self) -> None:
        """A hint for a new position has come (nothing by default)."""

    # -- inside -------------------------------------------------------------------------------

    def _commit(self, action: Any) -> None:
        """Play ``action`` and start showing it. The match applies it once and refuses an
        illegal one with the rules' own reason (an IllegalActionError); nothing changes then."""
        self.match.play(action)
        self.news = []
        self.play_hint = False
        self.show_steps()

    def _follow_match(self) -> None:
        """After the match is polled: how long the computer has been thinking, the steps to
        play in the scene, the hint, the board's bobbing, and now and then the game's own
        engine (started, and how far it got)."""
        self.thinking_since = (
            (self.thinking_since or time.perf_counter()) if self.match.thinking() else None
        )
        self.show_steps()
        self._show_hint()
        if self.board is not None:
            self.board.bob(self.clock)
        if self.clock - self._engine_looked >= ENGINE_AFTER_S:
            self._engine_looked = self.clock
            self.engine_note = self.match.game.ready_engine()

    def banner(self) -> str:
        """The banner's words: the scene's message, and how far the game's own engine got."""
        return f"{self.message} {self.engine_note}".strip()

    def _step_started(self, after: Any) -> None:
        """A step has begun to play: the banner says what happened and whose turn follows."""
        self._say(self._turn_text(" ".join(self.news), after))
        self._marks_dirty = True

    def _settled(self, after: Any) -> None:
        """After a move's tween: every piece exactly where the position says."""
        if self.board is not None:
            self.board.snap(after)
        self._marks_dirty = True

    def _steps_shown(self) -> None:
        """The last step has played: the marks come back, the judge speaks."""
        self._refresh_marks()
        self._judge()

    def _on_step(self, step: Step) -> None:
        """A step the match took: queued for the scene to play (:meth:`show_steps`)."""
        self.queue_step(self.match, step)
        self._version += 1
        self.judged = False

    def _reset_scene(self) -> None:
        """The scene shows the match's point at once (undo, redo, a jump, a new game): the
        steps still to show are forgotten, and so are the news, a Next waiting for its hint and
        the judge's verdict."""
        self.clear_steps()
        self.news = []
        self.play_hint = False
        self.judged = False
        self._version += 1
        if self.board is not None:
            self.board.snap(self.match.state)
        self._marks_dirty = True
        self._refresh_marks()

    def _match_reset(self) -> None:
        """The match's record was rebuilt (an undo every seat agreed to): shown at once."""
        self._reset_scene()
        self._say(self._turn_text(f"Back to move {self.match.cursor}."))
        self._judge()

    def _show_hint(self) -> None:
        """Say the hint that came and mark it; play it when Next asked for it."""
        hint = self.match.current_hint()
        if hint is None:
            return
        if hint.key != self.hint_shown:
            self.hint_shown = hint.key
            self._on_new_hint()
            note = f" ({hint.note})" if hint.note else ""
            self._say(f"Hint: {hint.text}{note}", Tone.HINT)
            if self.host is not None:
                self.host.sound("hint")
            self._marks_dirty = True
            self._refresh_marks()
        if self.play_hint and not self.animating() and self.match.person_to_move():
            self.play_hint = False
            try:
                self.play(hint.action)
            except ValueError as exc:
                self._toast(str(exc))

    def _navigate(self, move: Callable[[], None]) -> None:
        """Undo, redo or a jump: refused while pieces move; the scene snaps to the new point."""
        self._check_settled()
        move()  # raises MatchError (a ValueError) when there is nothing to go to
        self.match.paused = False
        self._reset_scene()
        total = len(self.match.full_record)
        self._say(self._turn_text(f"Move {self.match.cursor} of {total}."))
        self._judge()


def match_commands(c: MatchControls, hint_help: str, ends_group: str = "main") -> list[Command]:
    """The commands of :class:`MatchControls` a table starts with: H hint (``hint_help`` says
    how the scene shows it), N next, U undo, Y redo, and Home and End (buttons in
    ``ends_group``; "" for keys only)."""
    m = c.match
    return [
        c.control("hint", Control("Hint", hint_help, enabled=lambda: not m.over,
                                  why_disabled="The game is over: no hint.")),
        c.control("next", Control("Next", "play the hinted move", enabled=lambda: not m.over,
                                  why_disabled="The game is over.")),
        c.control("undo", Control("Undo", "back one move (against the computer, back to "
                                  "your turn)", enabled=m.can_undo,
                                  why_disabled="Nothing to undo.")),
        c.control("redo", Control("Redo", "forward one move (to your next turn)",
                                  enabled=m.can_redo, why_disabled="Nothing to redo.")),
        Command("undo-all", c.undo_all, "First", "HOME", "back to the start",
                enabled=m.can_undo, why_disabled="Already at the start.", group=ends_group),
        Command("redo-all", c.redo_all, "Last", "END", "on to the last move",
                enabled=m.can_redo, why_disabled="Already at the last move.",
                group=ends_group),
    ]  # fmt: skip


def goto_command(goto: Callable[[int], None]) -> Command:
    """``goto:N``, for scripts: the position after move N of the record (0: the start)."""
    return Command("goto", goto, group="", parse=move_number, argument="a move number",
                   help="the position after that move (0: the start)")  # fmt: skip


def move_list_commands(
    match: Match[Any],
    goto: Callable[[int], None],
    write: Callable[[Step], str] | None = None,
    summary: Callable[[int, int], str] | None = None,
    tip: Callable[[int, int], str] | None = None,
) -> list[Command]:
    """The HUD's move list: a ``move-N`` command for each of the last :data:`LIST_LENGTH`
    moves of ``match``'s record, a move being one turn of every seat (:func:`move_rows`),
    labelled as a score sheet writes it (``2. Nf3 Nc6``; ``▸`` marks the move the game stands
    at, and the turns of it undone are in brackets), that calls ``goto`` with the point after
    the move's last turn. ``write``: how a turn is written in its row (default: as the record
    writes it); ``summary``: what the row says instead of its turns, from the indices of its
    first step and of the step after its last (the row's number and ``▸`` stay); ``tip``:
    the row's tooltip, from the same two indices."""
    rows = move_rows(match.full_record, write)
    cursor = match.cursor
    commands = []
    for number, texts, first in rows[-LIST_LENGTH:]:
        end = first + len(texts)
        current = first < cursor <= end
        shown = [t if first + i < cursor or not current else f"({t})" for i, t in enumerate(texts)]
        body = " ".join(shown) if summary is None else summary(first, end)
        lead = f"{number}." if texts and not _starts_late(match, first) else f"{number}…"
        label = f"{'▸ ' if current else ''}{lead} {body}"
        tooltip = tip(first, end) if tip is not None else ""
        jump = lambda end=end: goto(end)  # noqa: E731
        commands.append(Command(f"move-{number}", jump, label, group="list", tooltip=tooltip))
    return commands


def move_rows(
    steps: Sequence[Step], write: Callable[[Step], str] | None = None
) -> list[tuple[int, list[str], int]]:
    """The steps of a record as the moves of a score sheet: each ``(number, the turns' texts,
    the index of its first step)``. A move begins with the first seat's turn (or with the
    record, when another seat plays first), so ``e4 e5 Nf3`` is ``1. e4 e5`` and ``2. Nf3``.
    A turn is written as the record writes it, or as ``write`` does; a lost turn ``-``.

    >>> from game.logic.match import Step
    >>> move_rows([Step(0, 1, "e4"), Step(1, 2, "e5"), Step(0, 3, "Nf3")])
    [(1, ['e4', 'e5'], 0), (2, ['Nf3'], 2)]
    """
    rows: list[tuple[int, list[str], int]] = []
    for index, step in enumerate(steps):
        if not rows or step.seat <= steps[index - 1].seat:
            rows.append((len(rows) + 1, [], index))
        text = step.text if write is None else write(step)
        rows[-1][1].append("-" if step.forfeit is not None else text)
    return rows


def _starts_late(match: Match[Any], first: int) -> bool:
    """Whether the move starting at step ``first`` begins with a seat other than the first
    (a game set up with the second player to move): written ``1… e5``."""
    return first == 0 and bool(match.full_record) and match.full_record[0].seat > 0


def move_number(text: str) -> int:
    """``goto``'s argument: a whole number (ASCII digits: the one number reader's)."""
    return whole_argument(text, "a move number")


def whole_argument(text: str, what: str) -> int:
    """A command's whole-number argument, read by the one number reader (ASCII digits); a
    ValueError "WHAT, not TEXT" for anything else."""
    from game.logic.numbers import parse_whole
    from game.logic.quoting import excerpt

    number = parse_whole(text)
    if number is None:
        raise ValueError(f"{what}, not {excerpt(text)}")
    return number


def side_label(side: str) -> str:
    """How the HUD names the player of a side: ``you`` for ``"human"`` (a person, in every
    game's options), else the computer with its agent's own name, which says its level
    (``computer (master)``, ``computer (classic expert)``).

    >>> side_label("human"), side_label("classic-expert")
    ('you', 'computer (classic expert)')
    """
    return "you" if side == "human" else f"computer ({side.replace('-', ' ')})"


def level_title(name: str) -> str:
    """An agent's name as a title, for a table of the levels (``Classic Expert``)."""
    return name.replace("-", " ").title()
