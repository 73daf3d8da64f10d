"""Reversi: the scene controller.

It keeps the game as a list of positions (undo and redo move a cursor along it), turns
UserActions into moves on :mod:`game.logic.reversi.board`, and animates each move: the new
disc drops in, then the flipped discs turn over one after another, outward from it. The
computer thinks in a worker thread (the numba search releases the GIL), so the window keeps
drawing; undo, restart or a new game cancel the search through its stop flag.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from game.engine.controller import Button, Status, Tone, UnknownActionError
from game.engine.scene import Node, Scene, load_scene, quat_from_axis_angle
from game.engine.tweens import MoveTo, Parallel, RotateBy, Sequence, Tween, Wait
from game.logic.reversi import LEVELS
from game.logic.reversi.board import (
    PASS,
    Color,
    IllegalMoveError,
    Position,
    ReversiError,
    format_transcript,
    parse_move,
    parse_transcript,
    square_name,
    squares,
)
from game.resources import asset_path

if TYPE_CHECKING:
    from game.engine.director import Director

log = logging.getLogger(__name__)

HUMAN = "human"
#: What a side can be, in the order the side buttons cycle through.
SIDES = [HUMAN, *LEVELS]
UP_WHITE = np.array([0.0, 0.0, 0.0, 1.0], dtype="f4")
UP_BLACK = quat_from_axis_angle((1.0, 0.0, 0.0), math.pi)  # the black face on top
LIST_LENGTH = 12  # moves shown in the HUD's move list


@dataclass
class Thinking:
    """A search running in the worker thread, and what it is for."""

    future: Future[Any]
    stop: np.ndarray
    position: Position
    purpose: str  # "move" or "hint"
    started: float = field(default_factory=time.perf_counter)


class ReversiController:
    """Scene controller and UserActions for Reversi."""

    name = "reversi"
    title = "Reversi"

    def __init__(
        self,
        *,
        black: str = HUMAN,
        white: str = "intermediate",
        time_per_move: float = 1.0,
        moves: list[int] | None = None,
        on_options: Any = None,
        on_result: Any = None,
    ) -> None:
        for side in (black, white):
            if side not in SIDES:
                raise ValueError(f"unknown player {side!r}; choose one of {', '.join(SIDES)}")
        self.sides = {Color.BLACK: black, Color.WHITE: white}
        self.time_per_move = time_per_move
        self.on_options = on_options
        self.on_result = on_result
        self.director: Director | None = None
        self.scene: Scene | None = None
        self.positions: list[Position] = [Position.start()]
        self.played: list[int] = []  # the move that led to positions[i + 1]
        self.cursor = 0  # positions[cursor] is on the board; later ones can be redone
        self.discs: dict[int, Node] = {}
        self.thinking: Thinking | None = None
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reversi-search")
        self.warm: Future[Any] | None = None
        self.last_search: dict[str, Any] = {}  # the latest search's details, for the overlay
        self.last_score = 0.0
        self.hint_move: int | None = None
        self.typed = ""
        self.message = ""
        self.tone = Tone.INFO
        self.hover_square: int | None = None
        self.recorded = False
        self._time = 0.0
        if moves:
            self._load_moves(moves)

    # -- the position -----------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.positions[self.cursor]

    def _mover(self) -> str:
        return self.sides[self.position.to_move]

    # -- SceneController ------------------------------------------------------------------

    def enter(self, director: Director) -> Scene:
        self.director = director
        self.scene = load_scene(asset_path("scenes", "reversi.toml"))
        for sq in range(64):
            node = self.scene.spawn("disc", f"disc_{square_name(sq)}")
            node.hidden = True
            node.position = self._square_center(sq, self.scene.number("disc_rest"))
            self.discs[sq] = node
            self.scene.spawn("legal", f"legal_{square_name(sq)}").position = self._square_center(
                sq, 0.008
            )
        self.scene.spawn("last", "last_move")
        self.scene.spawn("hint", "hint_arrow")
        # Compile the search kernels in the worker before anyone waits on them: the window
        # keeps drawing meanwhile, and the first computer move simply queues behind this.
        self.warm = self.executor.submit(_warm_up)
        self._snap()
        self._say(self._turn_text(), Tone.INFO, keep=True)
        return self.scene

    def exit(self) -> None:
        self._cancel_thinking()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.director = None

    def update(self, dt: float) -> None:
        self._time += dt
        self._collect()
        if (
            self.thinking is None
            and not self._animating()
            and not self.position.is_terminal()
            and self._mover() != HUMAN
            and self.cursor == len(self.positions) - 1
        ):
            self._think("move")
        self._auto_pass()
        self._bob_hint()

    def idle(self) -> bool:
        """Nothing queued: no search running and no computer to move (headless settling)."""
        return self.thinking is None and (
            self.position.is_terminal()
            or self._mover() == HUMAN
            or self.cursor < len(self.positions) - 1
        )

    def actions(self) -> list[str]:
        return ["d3 (any square)", "pass", "hint", "undo", "redo", "undo-all", "redo-all",
                "restart", "swap", "black", "white", "goto:N", "save", "save:PATH", "load",
                "load:PATH"]  # fmt: skip

    def keys(self) -> dict[str, str]:
        return {"H": "hint", "U": "undo", "Y": "redo", "R": "restart", "W": "swap",
                "HOME": "undo-all", "END": "redo-all"}  # fmt: skip

    def buttons(self) -> list[Button]:
        has_past = lambda: self.cursor > 0 and not self._animating()  # noqa: E731
        has_future = lambda: self.cursor < len(self.positions) - 1 and not self._animating()  # noqa: E731
        main = [
            Button("Hint", "hint", "H", lambda: not self.position.is_terminal()),
            Button("Undo", "undo", "U", has_past),
            Button("Redo", "redo", "Y", has_future),
            Button("First", "undo-all", "Home", has_past),
            Button("Last", "redo-all", "End", has_future),
            Button("Swap", "swap", "W", lambda: not self._animating()),
            Button("New game", "restart", "R"),
            Button("Save", "save"),
            Button("Load", "load"),
        ]
        options = [
            Button(f"Black: {_side_label(self.sides[Color.BLACK])}", "black", group="options"),
            Button(f"White: {_side_label(self.sides[Color.WHITE])}", "white", group="options"),
        ]
        start = max(0, len(self.played) - LIST_LENGTH)
        listing = []
        for i in range(start, len(self.played)):
            mark = "▸ " if i == self.cursor - 1 else ""
            label = f"{mark}{i + 1}. {_move_text(self.played[i])}"
            listing.append(Button(label, f"goto:{i + 1}", group="list"))
        return main + options + listing

    def status(self) -> Status:
        black, white = self.position.disc_count()
        to_move = self.position.to_move
        who = "you" if self._mover() == HUMAN else _side_label(self._mover())
        if self.position.is_terminal():
            counter = f"Black {black}   White {white}   game over"
        else:
            counter = f"Black {black}   White {white}   {to_move.name.title()} to move ({who})"
        help_text = "Click a ringed square or type it (d3). Click a move in the list to go back."
        return Status(self.title, counter, self.message, self.tone, help_text)

    def status_line(self) -> str:
        black, white = self.position.disc_count()
        state = "over" if self.position.is_terminal() else "playing"
        return (
            f"status={state} black={black} white={white} moves={self.cursor} "
            f"to_move={self.position.to_move.value}"
        )

    def world_labels(self) -> list[tuple[str, np.ndarray]]:
        """The coordinates around the board: a-h along the near and far edges, 1-8 down
        both sides."""
        if self.scene is None:
            return []
        off = 0.5 + self.scene.number("label_offset")
        out = []
        for i in range(8):
            col = self._square_center(i, 0.1)
            row = self._square_center(8 * i, 0.1)
            out.append((chr(ord("a") + i), col - np.array([0, 0, off], "f4")))
            out.append(
                (chr(ord("a") + i), self._square_center(56 + i, 0.1) + np.array([0, 0, off], "f4"))
            )
            out.append((str(i + 1), row - np.array([off, 0, 0], "f4")))
            out.append(
                (str(i + 1), self._square_center(8 * i + 7, 0.1) + np.array([off, 0, 0], "f4"))
            )
        return out

    def on_hover(self, node: Node | None) -> None:
        square = self._square_under_mouse() if node is not None else None
        if square == self.hover_square:
            return
        self.hover_square = square
        self._refresh_marks()

    def on_pick(self, node: Node | None) -> None:
        square = self._square_under_mouse() if node is not None else None
        if square is None:
            return
        if self.director is not None:
            self.director.perform(square_name(square))
        else:
            self.perform(square_name(square))

    def on_text(self, text: str) -> None:
        """Moves typed on the keyboard: a letter a-h, then a digit 1-8."""
        ch = text.lower()
        if ch in "abcdefgh" and len(ch) == 1:
            self.typed = ch
        elif ch in "12345678" and len(ch) == 1 and self.typed:
            move, self.typed = self.typed + ch, ""
            if self.director is not None:
                self.director.perform(move)
        else:
            self.typed = ""

    def perform(self, action: str) -> None:
        text = action.strip()
        low = text.lower()
        simple: dict[str, Callable[[], None]] = {
            "hint": self.hint, "undo": self.undo, "redo": self.redo,
            "undo-all": self.undo_all, "redo-all": self.redo_all, "restart": self.restart,
            "swap": self.swap, "black": lambda: self.cycle_side(Color.BLACK),
            "white": lambda: self.cycle_side(Color.WHITE), "save": lambda: self.save(None),
            "load": lambda: self.load(None),
        }  # fmt: skip
        if low in simple:
            simple[low]()
        elif low.startswith("goto:"):
            try:
                self.goto(int(low[5:]))
            except ValueError:
                raise UnknownActionError(f"goto needs a move number, not {text[5:]!r}") from None
        elif low.startswith("save:"):
            self.save(Path(text[5:]))
        elif low.startswith("load:"):
            self.load(Path(text[5:]))
        else:
            try:
                move = parse_move(low)
            except ReversiError:
                raise UnknownActionError(
                    f"unknown action {action!r} for reversi; try a square like d3, or one of "
                    + ", ".join(self.actions()[1:])
                ) from None
            self.play(move)

    # -- UserActions ----------------------------------------------------------------------

    def play(self, move: int) -> None:
        """A move by the person whose turn it is."""
        if self._animating():
            raise IllegalMoveError("Wait for the discs to settle.")
        if self.position.is_terminal():
            raise IllegalMoveError("The game is over: start a new game (R) or undo (U).")
        if self._mover() != HUMAN:
            raise IllegalMoveError("It is the computer's turn: it is thinking.")
        self._make(move)

    def hint(self) -> None:
        """Ask the engine for the best move here; shown with an arrow and its evaluation."""
        if self.position.is_terminal():
            raise IllegalMoveError("The game is over: no hint.")
        if self.thinking is not None and self.thinking.purpose == "move":
            raise IllegalMoveError("The computer is thinking; the hint can wait.")
        self._cancel_thinking()
        self._think("hint")
        self._say("Thinking about a hint…", Tone.HINT, keep=True)

    def undo(self) -> None:
        """Back one move; against the computer, back to your own last turn."""
        self._goto(self._undo_target(self.cursor - 1))

    def redo(self) -> None:
        self._goto(min(len(self.positions) - 1, self.cursor + 1))

    def undo_all(self) -> None:
        self._goto(0)

    def redo_all(self) -> None:
        self._goto(len(self.positions) - 1)

    def goto(self, number: int) -> None:
        """The position after move ``number`` (0: the start), as the move list shows it."""
        if not 0 <= number <= len(self.played):
            raise IllegalMoveError(f"there is no move {number}; the game has {len(self.played)}")
        self._goto(number)

    def restart(self) -> None:
        self._cancel_thinking()
        if self.director is not None:
            self.director.tweens.cancel_all()
        self.positions = [Position.start()]
        self.played = []
        self.cursor = 0
        self.recorded = False
        self._snap()
        self._say(self._turn_text(), Tone.INFO, keep=True)

    def swap(self) -> None:
        """Exchange the two sides' players (play the other colour mid-game)."""
        self._cancel_thinking()
        self.sides = {Color.BLACK: self.sides[Color.WHITE], Color.WHITE: self.sides[Color.BLACK]}
        self._options_changed()

    def cycle_side(self, color: Color) -> None:
        """Human, then each computer level in turn, for one colour."""
        self._cancel_thinking()
        current = SIDES.index(self.sides[color])
        self.sides[color] = SIDES[(current + 1) % len(SIDES)]
        self._options_changed()

    def save(self, path: Path | None) -> None:
        """Write the game as a transcript (the moves up to the current one)."""
        path = path or _default_save_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(format_transcript(self.played[: self.cursor]) + "\n", encoding="utf-8")
        self._say(f"Saved {self.cursor} moves to {path}", Tone.INFO)

    def load(self, path: Path | None) -> None:
        """Read a transcript; a bad file is reported and the current game is kept."""
        path = path or _default_save_path()
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise IllegalMoveError(f"cannot read {path}: {exc.strerror}") from None
        try:
            moves = parse_transcript(text)
        except ReversiError as exc:
            raise IllegalMoveError(f"{path}: {exc}") from None
        self._cancel_thinking()
        self._load_moves(moves)
        self._snap()
        self._say(f"Loaded {len(self.played)} moves from {path}", Tone.INFO)

    # -- the debug overlay ----------------------------------------------------------------

    def debug_panel(self) -> None:
        from imgui_bundle import imgui

        pos = self.position
        imgui.text(f"board {pos.text()}")
        imgui.text(f"to move {pos.to_move.name.lower()}   cursor {self.cursor}/{len(self.played)}")
        r = self.last_search
        if r:
            imgui.separator()
            exact = " (exact)" if r.get("exact") else ""
            imgui.text(
                f"{r.get('player', '')}: depth {r.get('depth')}{exact}   "
                f"score {self.last_score:+.2f}"
            )
            imgui.text(
                f"nodes {r.get('nodes', 0):,}   {r.get('nps', 0.0) / 1e6:.2f} M nodes/s   "
                f"{r.get('seconds', 0.0):.2f} s"
            )
            imgui.text(f"TT hits {r.get('tt_hits', 0):,}")
            imgui.text_wrapped("PV " + " ".join(_move_text(m) for m in r.get("pv", [])))
        if self.thinking is not None:
            imgui.text(
                f"thinking ({self.thinking.purpose}) for "
                f"{time.perf_counter() - self.thinking.started:.1f} s"
            )
        try:
            from game.logic.reversi.evaluation import explain

            terms = explain(pos)
        except Exception as exc:  # the overlay never takes the game down
            imgui.text(f"evaluation unavailable: {exc}")
            return
        imgui.separator()
        imgui.text("evaluation terms (side to move)")
        for name, value in terms.items():
            imgui.text(f"  {name:<18} {value:+8.2f}")

    # -- internals ------------------------------------------------------------------------

    def _make(self, move: int) -> None:
        """Apply a move at the cursor (dropping any redo branch) and animate it."""
        before = self.position
        after = before.apply(move)  # raises IllegalMoveError with the reason
        flipped = before.flips(move) if move != PASS else 0
        del self.positions[self.cursor + 1 :]
        del self.played[self.cursor :]
        self.positions.append(after)
        self.played.append(move)
        self.cursor += 1
        self.hint_move = None
        self.typed = ""
        self._animate_move(before, move, flipped)
        who = "Black" if before.to_move is Color.BLACK else "White"
        if move == PASS:
            self._say(f"{who} has no move and passes.", Tone.INFO, keep=True)
        else:
            self._say(
                self._turn_text(prefix=f"{who} played {square_name(move)}."), Tone.INFO, keep=True
            )
        self._judge()

    def _judge(self) -> None:
        pos = self.position
        if not pos.is_terminal():
            return
        black, white = pos.disc_count()
        if black == white:
            text, tone = f"Draw, {black}–{white}.", Tone.INFO
        else:
            winner = "Black" if black > white else "White"
            text = f"{winner} wins {max(black, white)}–{min(black, white)}."
            human_won = self.sides[Color.BLACK if black > white else Color.WHITE] == HUMAN
            tone = Tone.WON if human_won else Tone.LOST
        if self.on_result is not None and not self.recorded and self.cursor == len(self.played):
            self.recorded = True
            note = self.on_result(self.sides, black, white)
            if note:
                text += f" {note}"
        self._say(text, tone, keep=True)

    def _goto(self, index: int) -> None:
        if self._animating():
            raise IllegalMoveError("Wait for the discs to settle.")
        index = max(0, min(index, len(self.positions) - 1))
        self._cancel_thinking()
        self.cursor = index
        self.hint_move = None
        self._snap()
        self._say(
            self._turn_text(prefix=f"Move {index} of {len(self.played)}."), Tone.INFO, keep=True
        )
        self._judge()

    def _undo_target(self, index: int) -> int:
        """Against a computer, keep going back until it is a person's turn."""
        index = max(0, index)
        while index > 0 and self.sides[self.positions[index].to_move] != HUMAN:
            index -= 1
        return index

    def _auto_pass(self) -> None:
        """A side with no move passes by itself (after its previous animation)."""
        pos = self.position
        if (
            not self._animating()
            and not pos.is_terminal()
            and self.thinking is None
            and self.cursor == len(self.positions) - 1
            and pos.legal_moves() == [PASS]
        ):
            self._make(PASS)

    def _think(self, purpose: str) -> None:
        from game.logic.reversi.players import get_player

        side = self._mover() if purpose == "move" else "master"
        player = get_player(side)
        stop = np.zeros(1, dtype=np.uint8)
        pos = self.position
        limit = self.time_per_move if purpose == "move" else min(self.time_per_move, 1.0)
        future = self.executor.submit(_choose, player, pos, limit, stop)
        self.thinking = Thinking(future, stop, pos, purpose)

    def _collect(self) -> None:
        """Pick up a finished search, if it still belongs to the position on the board."""
        t = self.thinking
        if t is None or not t.future.done():
            return
        self.thinking = None
        if t.future.cancelled() or t.position != self.position:
            return
        try:
            choice = t.future.result()
        except Exception as exc:  # a crashed search is reported; the game goes on
            log.exception("search failed")
            self._say(f"The engine failed: {exc}", Tone.WARN, keep=True)
            return
        self.last_search = dict(choice.info)
        self.last_score = choice.score
        if t.purpose == "hint":
            self.hint_move = choice.move
            score = choice.score
            self._say(
                f"Hint: {_move_text(choice.move)} (evaluation {score:+.1f} for "
                f"{self.position.to_move.name.lower()})",
                Tone.HINT,
                keep=True,
            )
            self._refresh_marks()
        else:
            self._make(choice.move)

    def _cancel_thinking(self) -> None:
        t = self.thinking
        if t is not None:
            t.stop[0] = 1
            t.future.cancel()
            self.thinking = None

    def _animating(self) -> bool:
        return self.director is not None and self.director.tweens.busy > 0

    def _animate_move(self, before: Position, move: int, flipped: int) -> None:
        if self.scene is None or move == PASS:
            self._refresh_marks()
            return
        s = self.scene
        color = before.to_move
        disc = self.discs[move]
        rest = self._square_center(move, s.number("disc_rest"))
        disc.hidden = False
        disc.rotation = UP_BLACK if color is Color.BLACK else UP_WHITE
        disc.position = rest + np.array([0.0, s.number("drop_height"), 0.0], dtype="f4")
        steps: list[Tween] = [MoveTo(disc, rest, duration=s.number("drop_time"))]
        # Flips turn outward from the new disc: nearer discs first, each about the axis
        # across the line from the new disc, so it rolls away from it.
        mr, mc = divmod(move, 8)
        order = sorted((max(abs(sq // 8 - mr), abs(sq % 8 - mc)), sq) for sq in squares(flipped))
        flip_time = s.number("flip_time")
        lift = np.array([0.0, s.number("flip_height"), 0.0], dtype="f4")
        flips: list[Tween] = []
        for dist, sq in order:
            node = self.discs[sq]
            r, c = divmod(sq, 8)
            axis = (float(r - mr), 0.0, float(-(c - mc)))  # perpendicular to the direction
            base = self._square_center(sq, s.number("disc_rest"))
            flips.append(
                Sequence(
                    Wait((dist - 1) * s.number("flip_stagger")),
                    Parallel(
                        RotateBy(node, axis, math.pi, duration=flip_time),
                        Sequence(
                            MoveTo(node, base + lift, duration=flip_time / 2),
                            MoveTo(node, base, duration=flip_time / 2),
                        ),
                    ),
                )
            )
        if flips:
            steps.append(Parallel(*flips))
        self._hide_marks()
        if self.director is not None:
            self.director.tweens.run(Sequence(*steps), self._settled)
        else:
            self._snap()

    def _settled(self) -> None:
        """After a move's animation: put every disc exactly where the position says."""
        self._snap()

    def _snap(self) -> None:
        """Discs, marks and the last-move dot as the position on the board says, at once."""
        if self.scene is None:
            return
        pos = self.position
        rest = self.scene.number("disc_rest")
        for sq, node in self.discs.items():
            bit = 1 << sq
            node.hidden = not (pos.black | pos.white) & bit
            node.rotation = UP_BLACK if pos.black & bit else UP_WHITE
            node.position = self._square_center(sq, rest)
            node.highlight = 0.0
        self._refresh_marks()

    def _hide_marks(self) -> None:
        if self.scene is None:
            return
        for name, node in self.scene.nodes.items():
            if name.startswith(("legal_", "last_move", "hint_arrow")):
                node.hidden = True
        for node in self.discs.values():
            node.highlight = 0.0

    def _refresh_marks(self) -> None:
        """Legal squares (for a person to move), the hover preview, the last move, the hint."""
        if self.scene is None:
            return
        self._hide_marks()
        if self._animating():
            return
        pos = self.position
        human = self._mover() == HUMAN and not pos.is_terminal()
        legal = [m for m in pos.legal_moves() if m != PASS] if human else []
        for sq in legal:
            mark = self.scene[f"legal_{square_name(sq)}"]
            mark.hidden = False
            mark.highlight = 0.8 if sq == self.hover_square else 0.0
        if self.hover_square in legal:
            for sq in squares(pos.flips(self.hover_square)):
                self.discs[sq].highlight = 0.55
        if self.cursor > 0 and self.played[self.cursor - 1] != PASS:
            last = self.scene["last_move"]
            last.hidden = False
            last.position = self._square_center(
                self.played[self.cursor - 1], 2 * self.scene.number("disc_rest") + 0.004
            )
        if self.hint_move is not None and self.hint_move != PASS:
            self.scene["hint_arrow"].hidden = False
            ring = self.scene[f"legal_{square_name(self.hint_move)}"]
            ring.hidden = False
            ring.highlight = 1.0
            self._bob_hint()

    def _bob_hint(self) -> None:
        if self.scene is None or self.hint_move is None or self.hint_move == PASS:
            return
        arrow = self.scene["hint_arrow"]
        if arrow.hidden:
            return
        lift = 0.25 + 0.1 * (1.0 + math.sin(self._time * 4.0))
        arrow.position = self._square_center(self.hint_move, lift)

    def _square_center(self, sq: int, height: float) -> np.ndarray:
        assert self.scene is not None
        a1 = self.scene.anchor("a1")
        step = self.scene.number("square")
        row, col = divmod(sq, 8)
        return np.array([a1[0] + col * step, height, a1[2] + row * step], dtype="f4")

    def _square_under_mouse(self) -> int | None:
        """The square the last mouse ray crosses on the felt (y = 0), or None."""
        if self.director is None or self.director.ray is None or self.scene is None:
            return None
        origin, direction = self.director.ray
        if abs(direction[1]) < 1e-6:
            return None
        t = -origin[1] / direction[1]
        if t <= 0:
            return None
        hit = origin + t * direction
        a1 = self.scene.anchor("a1")
        step = self.scene.number("square")
        col = math.floor((hit[0] - a1[0]) / step + 0.5)
        row = math.floor((hit[2] - a1[2]) / step + 0.5)
        if 0 <= col < 8 and 0 <= row < 8:
            return int(row * 8 + col)
        return None

    def _load_moves(self, moves: list[int]) -> None:
        positions = [Position.start()]
        for move in moves:
            positions.append(positions[-1].apply(move))
        self.positions = positions
        self.played = list(moves)
        self.cursor = len(moves)
        self.recorded = True  # a loaded game is not a game played here

    def _options_changed(self) -> None:
        if self.on_options is not None:
            self.on_options(dict(self.sides))
        self._say(
            f"Black: {_side_label(self.sides[Color.BLACK])}, "
            f"White: {_side_label(self.sides[Color.WHITE])}.",
            Tone.INFO,
            keep=True,
        )
        self._refresh_marks()

    def _turn_text(self, prefix: str = "") -> str:
        pos = self.position
        if pos.is_terminal():
            return prefix
        side = pos.to_move.name.title()
        who = "your move" if self._mover() == HUMAN else f"{_side_label(self._mover())} thinks"
        return f"{prefix} {side} to move: {who}.".strip()

    def _say(self, text: str, tone: Tone, keep: bool = False) -> None:
        if keep or self.director is None:
            self.message, self.tone = text, tone
        else:
            self.director.say(text, tone)


def _choose(player: Any, position: Position, limit: float, stop: np.ndarray) -> Any:
    return player.choose(position, time_limit=limit, stop=stop)


def _warm_up() -> None:
    """Compile (or load from numba's cache) the code the computer players run."""
    from game.logic.reversi.players import warm_up

    warm_up()


def _move_text(move: int) -> str:
    return "pass" if move == PASS else square_name(move)


def _side_label(side: str) -> str:
    return "Human" if side == HUMAN else side.replace("-", " ").title()


def _default_save_path() -> Path:
    from game.settings import data_dir

    return data_dir() / "reversi" / "saved-game.txt"
