"""Reversi: the scene controller.

A :class:`~game.logic.match.Match` holds the game: the record, undo and redo (against the
computer, back and forth to the person's turns), jumps from the move list, the forced passes,
the computer thinking and the hint, which the level the computer plays answers. The levels
think in a worker process (:mod:`game.logic.workers.pool`) that first readies the
compiled engine: on the first start numba compiles it there for a minute or more while the
window keeps drawing, takes the person's moves (the rules are plain Python) and shows how far
the compile got; the computer's move and the hint start the moment it is done. The window's
own process never loads numba. The controller turns the match's steps into scene work
(:mod:`game.games.reversi.board`): each move drops its disc and flips the others, one
step at a time; the judge speaks when the step that ended the game has played, and the result
counts once per game in the session's statistics (per level and colour, with the disc
difference).

The options that set the look (theme, marks, animation) take effect at once and are saved
with the others; F1 shows the help (:mod:`game.games.reversi.help`) and S the
statistics (:mod:`game.games.reversi.stats`) on the HUD's sheet.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from game.engine.commands import CommandTable
from game.engine.controller import Host, Sheet, Status, Tone
from game.engine.scene import Node, Scene, load_scene
from game.engine.tweens import Call, Parallel, Sequence, Tween, Wait
from game.games.reversi.board import Look, ReversiBoardView
from game.games.reversi.commands import COLORS, build_commands, side_label
from game.games.reversi.entry import ENTRY
from game.games.reversi.help import PAGES, help_sheet
from game.games.reversi.look import THEMES
from game.games.reversi.stats import stats_key
from game.hall.keeping import kept_game, kept_options, resume_kept
from game.hall.match_controls import MatchControls
from game.logic.contract import Limits
from game.logic.match import Match, MatchError, Step
from game.logic.options import OptionError
from game.logic.reversi.board import (
    PASS,
    Color,
    IllegalMoveError,
    Position,
    ReversiError,
    format_transcript,
    parse_move,
    parse_transcript,
)
from game.logic.reversi.game import DEFAULT_HINT, HUMAN, ReversiGame
from game.logic.reversi.players import ReversiLevelAgent
from game.logic.workers.pool import WorkerAgent, submit
from game.registry import GameSession
from game.resources import asset_path

__all__ = ["ReversiController"]

log = logging.getLogger(__name__)

#: Seconds from a disc's sound to its flips' (as the disc lands and the others start to turn).
FLIP_SOUND_DELAY = 0.25


class ReversiController(MatchControls):
    """The Reversi scene; see the module docstring.

    ``session`` gives the options to start with (who plays each colour, the computer's time a
    move, the look), keeps changed sides and options and counts results. ``overrides``:
    option values for this controller only (``black="master"``), ``moves`` (a transcript's
    moves to start from; such a game is not counted) and ``seed`` (the computer's random
    choices).
    """

    name = "reversi"
    title = "Reversi"
    refusal_error = IllegalMoveError
    options_schema = ENTRY.options
    settle_text = "Wait for the discs to settle."

    def __init__(self, session: GameSession, **overrides: Any) -> None:
        # A game asked for (a transcript, a seed, options for this scene) starts afresh;
        # otherwise the game kept when the person left comes back.
        kept, note = kept_game(session, self.name, fresh=bool(overrides))
        moves = overrides.pop("moves", None)
        seed = overrides.pop("seed", None)
        self.session = session
        self.options, kept, refused = kept_options(session, ENTRY.options, kept, overrides)
        note = refused or note
        self.sides: dict[Color, str] = {
            Color.BLACK: self.options["black"],
            Color.WHITE: self.options["white"],
        }
        self.game = ReversiGame(self.options)
        self.match: Match[int] = Match(
            self.game,
            [self._seat_agent(color) for color in COLORS],
            seed=seed,
            limits=Limits(time=self.options["time_per_move"]),
            hint_agent=self._thinker(self._hint_level(Color.BLACK)),
            background=True,
        )
        self.match.on_step = self._on_step
        self.host: Host | None = None
        self.scene: Scene | None = None
        self.board: ReversiBoardView | None = None
        self.message = ""
        self.tone = Tone.INFO
        self.news: list[str] = []  # what just happened, for the banner
        self.typed = ""
        self.hover: int | None = None
        self.recorded = False  # the finished game has been counted (or is not to be)
        self.judged = False
        self.hint_shown: object = None  # the key of the position whose hint the banner shows
        self.play_hint = False  # Next was pressed before the hint was found
        self.last_choice: ReversiLevelAgent | None = None  # whose details the overlay shows
        self.search_about = ""  # which move or hint that was, in words
        self.thinking_since: float | None = None
        self.clock = 0.0
        self._marks_dirty = True
        self._version = 0
        self._table: tuple[tuple[Any, ...], CommandTable] | None = None
        self.look = Look.from_options(self.options)
        self.panel: str | None = None  # the sheet shown: "help", "stats" or none
        self.help_page = next(iter(PAGES))
        self.show_options = False  # the look's option buttons
        self._stats_version = 0
        self._sheet: tuple[tuple[Any, ...], Sheet | None] | None = None
        # The evaluation's terms for the overlay: (position key, the engine's answer to come).
        self._terms: tuple[object, Any] | None = None
        self._updates = 0
        if moves:
            self.load_moves(moves)
        if kept is not None:
            self.match.on_step = None
            note = resume_kept(session, self.match, kept)
            self.match.on_step = self._on_step
        self._say(note or self._turn_text(), Tone.WARN if note else Tone.INFO)

    # -- the game ---------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        state = self.match.state
        assert isinstance(state, Position)
        return state

    # -- SceneController --------------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "reversi.toml"))
        self.board = ReversiBoardView(self.scene, self.look)
        self.board.snap(self.position)
        self._follow_kept()
        self.clear_steps()
        self._marks_dirty = True
        self._refresh_marks()
        self._updates = 0  # the engine starts readying at the second (see update)
        return self.scene

    def update(self, dt: float) -> None:
        self._updates += 1
        if self._updates == 2:  # after the first frame, which no new process slows down
            self.start_engine()  # readied (compiled the first time) before the first move
        self.clock += dt
        try:
            self.poll_match(self.match)
        except MatchError as exc:  # the level failed: the match waits for the person
            log.error("the computer could not move: %s", exc)
            self._say(f"The engine failed: {exc}", Tone.WARN)
        self._follow_match()

    def commands(self) -> CommandTable:
        signature = (
            self._version, self.sides[Color.BLACK], self.sides[Color.WHITE], self.panel,
            self.help_page, self.show_options, self.look,
        )  # fmt: skip
        if self._table is None or self._table[0] != signature:
            self._table = (signature, CommandTable(build_commands(self)))
        return self._table[1]

    def status(self) -> Status:
        black, white = self.position.disc_count()
        if self.match.over:
            counter = f"Black {black}   White {white}   game over"
        else:
            mover = self.sides[self.position.to_move]
            who = "you" if mover == HUMAN else "computer"
            side = self.position.to_move.name.title()
            counter = f"Black {black}   White {white}   {side} to move ({who})"
        help_text = (
            "Click a ringed square or type it (d3). Click a move in the list to go back. "
            "F1: rules, keys and marks."
        )
        banner = f"{self.message} {self._engine_text()}".strip()
        return Status(self.title, counter, banner, self.tone, help_text)

    def status_line(self) -> str:
        black, white = self.position.disc_count()
        state = "over" if self.match.over else "playing"
        return (
            f"status={state} black={black} white={white} moves={self.match.cursor} "
            f"to_move={self.position.to_move.value}"
        )

    def sheet(self) -> Sheet | None:
        """The help (F1) or the statistics (S) docked at the left, or None."""
        if self.panel is None:
            return None
        key = (self.panel, self.help_page, self.look.theme, self._stats_version, self._version)
        if self._sheet is None or self._sheet[0] != key:
            if self.panel == "help":
                sheet: Sheet | None = help_sheet(
                    self.help_page, self.commands(), THEMES[self.look.theme]
                )
            else:
                from game.registry import get

                sheet = get("reversi").statistics_sheet(self.session.statistics())
            self._sheet = (key, sheet)
        return self._sheet[1]

    def world_labels(self) -> list[tuple[Any, ...]]:
        """The board's coordinates."""
        return self.board.labels() if self.board is not None else []

    def on_hover(self, node: Node | None) -> None:
        square = self._square_under_mouse() if node is not None else None
        if square != self.hover:
            self.hover = square
            self._marks_dirty = True
            self._refresh_marks()

    def on_pick(self, node: Node | None) -> int | None:
        """The square clicked (its move), or None off the board."""
        return self._square_under_mouse() if node is not None else None

    def on_text(self, text: str) -> None:
        """Moves typed on the keyboard: a letter a-h, then a digit 1-8."""
        ch = text.lower()
        if len(ch) == 1 and ch in "abcdefgh":
            self.typed = ch
            return
        if len(ch) == 1 and ch in "12345678" and self.typed:
            move, self.typed = parse_move(self.typed + ch), ""
            try:
                self.play(move)
            except ValueError as exc:
                self._toast(str(exc))
            return
        self.typed = ""

    def play(self, action: Any) -> None:
        """The person's move; raises IllegalActionError (a ValueError) with the rules' reason
        when it is refused (the match applies it once)."""
        self._check_settled()
        self._check_turn()
        self._commit(action)

    def debug_panel(self) -> None:
        from game.games.reversi.panel import draw_panel

        draw_panel(self)

    def evaluation_terms(self) -> dict[str, float] | str:
        """The evaluation's terms of the position shown, for the overlay: asked of the engine's
        worker (the window does not load the compiled evaluation); until it answers, or if it
        cannot, a line that says so."""
        key = self.position.key()
        if self._terms is None or self._terms[0] != key:
            asked = submit(
                ENTRY.compiled_search, "game.logic.reversi.evaluation:explain", self.position
            )
            self._terms = (key, asked)
        future = self._terms[1]
        if not future.done():
            return "evaluation: waiting for the engine"
        if future.exception() is not None:
            return f"evaluation unavailable: {future.exception()}"
        terms: dict[str, float] = future.result()
        return terms

    # -- commands -----------------------------------------------------------------------------

    def toggle_help(self) -> bool:
        """F1: the help on the sheet, or back to the board alone."""
        self._show_panel(None if self.panel == "help" else "help")
        return True

    def toggle_stats(self) -> None:
        """S: the statistics on the sheet, or back to the board alone."""
        self._show_panel(None if self.panel == "stats" else "stats")

    def show_help_page(self, page: str) -> None:
        """Open the help at ``page`` (a key of :data:`PAGES`)."""
        if page not in PAGES:
            raise IllegalMoveError(f"no help page {page!r}; the pages are {', '.join(PAGES)}")
        self.help_page = page
        self._show_panel("help")

    def turn_help_page(self, delta: int) -> None:
        """The next (``delta`` 1) or previous (-1) help page, round."""
        pages = list(PAGES)
        self.show_help_page(pages[(pages.index(self.help_page) + delta) % len(pages)])

    def option_help(self, name: str) -> str:
        """The options schema's line of help for ``name``."""
        return ENTRY.options[name].help

    def toggle_options(self) -> None:
        """O: show or hide the buttons of the look's options."""
        self.show_options = not self.show_options

    def set_option(self, assignment: tuple[str, str]) -> None:
        """``(name, value)``: set one option as typed (``theme``, ``wood``); refused with
        the schema's reason for an unknown name or a bad value."""
        name, value = assignment
        if name not in ENTRY.options:
            names = ", ".join(ENTRY.options.names())
            raise IllegalMoveError(f"no option {name!r}; the options are {names}")
        try:
            values = ENTRY.options.validate({**self.options, name: value})
        except OptionError as exc:
            raise IllegalMoveError(str(exc)) from None
        if name in ("black", "white"):
            self._set_sides(values["black"], values["white"])
        else:
            self.set_options(values)

    def set_options(self, values: dict[str, Any]) -> None:
        """Take checked ``values``: saved, and the look (theme, marks, animation) and the
        computer's time in effect at once."""
        self.options = dict(values)
        self.session.save_options(self.options)
        self.match.limits = Limits(time=self.options["time_per_move"])
        self.look = Look.from_options(self.options)
        if self.board is not None:
            self.board.set_look(self.look)
        self._version += 1
        self._marks_dirty = True
        self._refresh_marks()

    def swap(self) -> None:
        """Exchange the two sides' players (play the other colour mid-game)."""
        self._set_sides(self.sides[Color.WHITE], self.sides[Color.BLACK])

    def cycle_side(self, color: Color) -> None:
        """A person, then each computer level in turn, for one colour."""
        cycle = ENTRY.seat_choices("black")
        current = self.sides[color] if self.sides[color] in cycle else cycle[0]
        following = cycle[(cycle.index(current) + 1) % len(cycle)]
        sides = dict(self.sides)
        sides[color] = following
        self._set_sides(sides[Color.BLACK], sides[Color.WHITE])

    def save(self, path: Path | None = None) -> None:
        """Write the game up to the current move as a transcript (passes are implied), by the
        one safe writer: a link, a pipe, a device or a folder at ``path`` is refused."""
        from game.safewrite import write_bytes_atomic

        path = path or _default_save_path()
        moves = self.match.actions()
        try:
            write_bytes_atomic(path, (format_transcript(moves) + "\n").encode("utf-8"))
        except OSError as exc:
            raise IllegalMoveError(f"cannot write {path}: {exc.strerror or exc}") from None
        self._say(f"Saved {_count_moves(moves)} moves to {path}")

    def load(self, path: Path | None = None) -> None:
        """Read a transcript; a bad file is reported and the current game is kept."""
        from game.userfiles import UserFileError, read_text

        path = path or _default_save_path()
        try:  # a regular file only: a pipe in its place would hang the game
            text = read_text(path, "Reversi transcript")
        except UserFileError as exc:
            raise IllegalMoveError(str(exc)) from None
        try:
            moves = parse_transcript(text)
        except ReversiError as exc:
            raise IllegalMoveError(f"{path}: not a Reversi transcript: {exc}") from None
        if self.host is not None:
            self.host.tweens.cancel_all()
        self.load_moves(moves)
        self._say(f"Loaded {_count_moves(moves)} moves from {path}")

    # -- inside -------------------------------------------------------------------------------

    def _start_step(self, before: Position, step: Step, after: Position) -> Tween | None:
        """The news of ``step`` (who played what, or passed) and the tween that plays it; the
        overlay shows the details of the level that chose it."""
        who = before.to_move.name.title()
        agent = _level_of(self.match.seats[step.seat])
        if agent is not None and not step.forced:
            self.last_choice = agent
            number = self.match.cursor - len(self.pending)  # the steps after it wait
            self.search_about = f"{who}'s move {number}, {step.text}"
        if step.action == PASS:
            self.news.append(f"{who} has no move and passes.")
            return None
        self.news = [f"{who} played {step.text}."]
        if self.board is None or self.host is None:
            return None
        tween = self.board.move_tween(before, step.action)
        host = self.host
        host.sound("place")  # the disc set down, then the discs it turns
        if tween is None:  # no animation: the move shows at once
            host.sound("flip")
            return None
        return Parallel(tween, Sequence(Wait(FLIP_SOUND_DELAY), Call(lambda: host.sound("flip"))))

    def _judge(self) -> None:
        """The result, once the step that ended the game has played; counted once a game."""
        if not self.match.over or self.judged:
            return
        self.judged = True
        black, white = self.position.disc_count()
        text = self.game.result_text(self.position)
        tone = Tone.INFO
        if black != white:
            winner = Color.BLACK if black > white else Color.WHITE
            tone = Tone.WON if self.sides[winner] == HUMAN else Tone.LOST
        if not self.recorded:
            self.recorded = True
            note = self._record(black, white)
            if note:
                text += f" {note}"
        self._say(text, tone)

    def _record(self, black: int, white: int) -> str:
        """Count the game against each computer level a person played; computer-only games
        and games between people are not a person's statistics."""
        notes = []
        for me, them in ((Color.BLACK, Color.WHITE), (Color.WHITE, Color.BLACK)):
            if self.sides[me] != HUMAN or self.sides[them] == HUMAN:
                continue
            mine, theirs = (black, white) if me is Color.BLACK else (white, black)
            level = self.sides[them]
            note = self.session.record(
                stats_key(level, me), won=mine > theirs, drawn=mine == theirs, margin=mine - theirs
            )
            self._stats_version += 1
            if note:
                notes.append(f"Against {level} as {me.name.title()}: {note}")
        return " ".join(notes)

    def _prepare_hint(self) -> None:
        """The hint comes from the level of the computer the person plays against."""
        level = self._hint_level(self.position.to_move)
        if self.match.hint_agent is None or self.match.hint_agent.name != level:
            self.match.hint_agent = self._thinker(level)
            self.match.hint_result = None

    def _on_new_hint(self) -> None:
        """The overlay shows the details of the level that found the hint (the banner says
        its score: the level's :meth:`~ReversiLevelAgent.explain`)."""
        agent = _level_of(self.match.hint_agent)
        if agent is not None:
            self.last_choice = agent
            side = self.position.to_move.name.title()
            self.search_about = f"the hint for {side} after move {self.match.cursor}"

    def _show_panel(self, panel: str | None) -> None:
        self.panel = panel
        self._version += 1

    def _set_sides(self, black: str, white: str) -> None:
        self.sides = {Color.BLACK: black, Color.WHITE: white}
        for seat, color in enumerate(COLORS):
            self.match.set_seat(seat, self._seat_agent(color))
        self.match.paused = False
        self.match.hint_result = None
        self.options = {**self.options, "black": black, "white": white}
        self.session.save_options(self.options)
        self._version += 1
        self._marks_dirty = True
        self._refresh_marks()
        self._say(f"Black: {side_label(black)}, White: {side_label(white)}.")

    def load_moves(self, moves: list[int]) -> None:
        """Start from a transcript's moves (the passes in it the match plays by itself); the
        game is not counted in the statistics when it ends."""
        self.match.on_step = None
        try:
            self.match.restart()
            for move in moves:
                if move == PASS and self.match.state.legal_actions() != [PASS]:
                    continue  # already played as a forced pass
                self.match.play_any(move)
        finally:
            self.match.on_step = self._on_step
        self.recorded = True  # a loaded game is not a game played here
        self._reset_scene()

    def _seat_agent(self, color: Color) -> Any:
        side = self.sides[color]
        return None if side == HUMAN else self._thinker(side)

    def _thinker(self, level: str) -> Any:
        """The level as the window seats it: thinking in the engine's worker process."""
        return ENTRY.thinker(level, self.options)

    def _engine_text(self) -> str:
        """While the engine gets ready: how far it got ("" once it is)."""
        prep = self.engine_preparation()
        return "" if prep is None else prep.describe()

    def _hint_level(self, to_move: Color) -> str:
        """The level of the computer the person plays against (the side to move's when the
        computer plays both, the strongest when nobody does)."""
        levels = [side for side in self.sides.values() if side != HUMAN]
        if len(levels) == 2:
            return self.sides[to_move]
        return levels[0] if levels else DEFAULT_HINT

    def _refresh_marks(self) -> None:
        """Rings on a person's legal squares, the hover preview, the last move, the hint."""
        if self.board is None or not self._marks_dirty or not self.settled():
            return
        self._marks_dirty = False
        pos = self.position
        person = self.match.person_to_move() and not self.match.over
        hint = self.match.current_hint()
        record = self.match.record
        self.board.show_marks(
            pos,
            legal=pos.legal_moves() if person else [],
            hover=self.hover,
            last=record[-1].action if record else None,
            hint=hint.action if hint is not None else None,
            clock=self.clock,
        )

    def _square_under_mouse(self) -> int | None:
        if self.board is None or self.host is None:
            return None
        return self.board.square_at(self.host.hit)  # the Director's pick: no second cast

    def _turn_text(self, prefix: str = "", position: Position | None = None) -> str:
        pos = position if position is not None else self.position
        if pos.is_terminal():
            return prefix
        mover = self.sides[pos.to_move]
        who = "your move" if mover == HUMAN else f"the {side_label(mover)} thinks"
        return f"{prefix} {pos.to_move.name.title()} to move: {who}.".strip()


def _level_of(agent: Any) -> ReversiLevelAgent | None:
    """The level behind a seat or the hint (an agent thinking in a worker comes back with its last
    choice), or None."""
    if isinstance(agent, WorkerAgent):
        agent = agent.agent
    return agent if isinstance(agent, ReversiLevelAgent) else None


def _count_moves(moves: list[int]) -> int:
    """The moves of a record, passes left out (a transcript implies them)."""
    return sum(1 for move in moves if move != PASS)


def _default_save_path() -> Path:
    from game.settings import data_dir

    return data_dir() / "reversi" / "saved-game.txt"
