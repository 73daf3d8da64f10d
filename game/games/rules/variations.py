"""A described game's record in the window: the moves as a tree of variations, the move list
that shows it, and saving and loading it (:mod:`game.logic.rules.records`: PGN, PDN, SGF or
the plain record).

The :class:`~game.logic.match.Match` keeps one line (undo, redo, a jump); the tree keeps
every line the game has been: a move played after an undo starts a variation beside the one
undone, and both stay. The move list shows the match's line, a row per move, each row's
tooltip naming the move rule of its turns (``Man jump 11x18x25``); under a move that has
others beside it, a row per other one (``↳ 3... Nc6``), whose click goes to that variation
(the match replays its line, the rest of the variation after it to redo). ``save`` and
``load`` use a file in the data folder (one per game), ``save-to:FILE`` and ``load-from:FILE``
the file named; ``gamehall play GAME --load FILE`` opens a record.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from game.engine.commands import Command
from game.hall.match_controls import LIST_LENGTH, MatchControls, move_list_commands, move_rows
from game.logic.contract import IllegalActionError
from game.logic.match import ReplayError, Step
from game.logic.rules.records import (
    GameRecordError,
    Line,
    Record,
    check_record,
    graft,
    line_at,
    read_record,
    record_format,
    record_suffix,
    result_text,
    write_record,
)

if TYPE_CHECKING:
    from game.logic.rules.rulebook import Rulebook

__all__ = ["RecordControls", "record_commands"]

log = logging.getLogger(__name__)

#: The moves a variation's row shows before ``…``.
SHOWN_MOVES: Final = 3


class RecordControls(MatchControls):
    """The record's part of a described game's controller; see the module docstring. The
    controller provides ``rulebook``, ``options``, ``overrides`` and ``_start``."""

    if TYPE_CHECKING:
        rulebook: Rulebook
        overrides: dict[str, Any]

        def _start(self, rulebook: Any, /) -> None: ...
        def _build_board(self) -> None: ...

    _tree: list[Line]
    _tree_match: object = None

    # -- the tree -----------------------------------------------------------------------------

    def tree(self) -> list[Line]:
        """The tree of moves, the match's line grafted on (a new game: a new tree)."""
        if self._tree_match is not self.match or not hasattr(self, "_tree"):
            self._tree, self._tree_match = [], self.match
        graft(self._tree, [(s.seat, s.text) for s in self.match.full_record])
        return self._tree

    def record(self) -> Record:
        """The game as a record: every variation, the game's parameters, start and seed."""
        design = self.rulebook.design
        result = result_text(self.rulebook, self.match.returns()) if self.match.over else "*"
        parameters = {p.name: design.values[p.name] for p in design.parameters}
        record = Record(design.id, record_format(self.rulebook), parameters)
        record.position = str(self.options.get("position") or "")
        record.seed, record.moves, record.result = self.match.seed, self.tree(), result
        return check_record(self.rulebook, record)

    def variation(self, ply: int, choice: int) -> None:
        """Go to alternative ``choice`` of the match's move ``ply`` (0: the first): the match
        plays that line, the variation's own continuation left to redo."""
        self._check_settled()
        path = self._path()
        alternatives = line_at(self.tree(), path[:ply])[-1].children if ply else self.tree()
        if not 0 <= choice < len(alternatives):
            raise IllegalActionError(f"there is no variation {choice} at move {ply + 1}")
        steps = line_at(self.tree(), path[:ply])
        steps.append(alternatives[choice])
        while steps[-1].children:
            steps.append(steps[-1].children[0])
        self._play_line(steps, ply + 1)
        self._say(self._turn_text(f"Variation: {self._long(ply)}."))

    def goto(self, number: int) -> None:
        """The position after move ``number`` of the record, the move named by its rule."""
        super().goto(number)
        if number:
            total = len(self.match.full_record)
            self._say(self._turn_text(f"Move {number} of {total}: {self._long(number - 1)}."))

    # -- files --------------------------------------------------------------------------------

    def save(self, path: Path | None = None) -> None:
        """Write the game with all its variations in its format, by the one safe writer."""
        from game.safewrite import write_bytes_atomic

        path = path or self._default_path()
        record = self.record()
        text = write_record(self.rulebook, record)
        try:
            write_bytes_atomic(path, text.encode("utf-8"))
        except OSError as exc:
            raise IllegalActionError(f"cannot write {path}: {exc.strerror or exc}") from None
        lines = sum(1 for _ in record.lines())
        self._say(f"Saved {self.match.cursor} moves ({lines} lines) to {path}")

    def load(self, path: Path | None = None) -> None:
        """Read a record (the game's own, from the data folder, or the file named); a bad
        file is reported and the game in progress goes on."""
        from game.userfiles import UserFileError, read_text

        path = path or self._default_path()
        try:
            text = read_text(path, f"{self.rulebook.design.title} record")
        except UserFileError as exc:
            raise IllegalActionError(str(exc)) from None
        self.load_text(text, str(path))

    def load_text(self, text: str, source: str) -> None:
        """Play the record ``text`` (from ``source``, for messages): its parameters and start
        become the game's, its main line is played and every variation kept."""
        try:
            record = read_record(text, source)
        except GameRecordError as exc:
            raise IllegalActionError(str(exc)) from None
        design = self.rulebook.design
        if record.game != design.id:
            raise IllegalActionError(f"{source} is a game of {record.game}, not {design.id}")
        wanted = {**record.parameters, "position": record.position}
        if any(self.options.get(k) != v for k, v in wanted.items()):
            self.overrides = {**self.overrides, **wanted}
            try:
                self._start(self.rulebook)
            except ValueError as exc:
                raise IllegalActionError(f"{source}: {exc}") from None
            self._build_board()
        try:
            record = check_record(self.rulebook, record, source)
        except GameRecordError as exc:
            raise IllegalActionError(str(exc)) from None
        if record.seed is not None:
            self.match.seed = record.seed
        main = record.main_line()
        self._play_line(main, len(main))
        self._tree, self._tree_match = record.moves, self.match
        lines = sum(1 for _ in record.lines())
        self._say(f"Loaded {len(main)} moves ({lines} lines) from {source}")

    # -- hooks of the match's controls -----------------------------------------------------------

    def restart(self) -> None:
        """A new game, and a new tree."""
        super().restart()
        self._tree = []

    def _on_step(self, step: Step) -> None:
        super()._on_step(step)
        self.tree()

    def _reset_scene(self) -> None:
        # After undo, redo or a jump: the line is in the tree before a move can replace it.
        self.tree()
        super()._reset_scene()

    def _kept_extra(self) -> dict[str, Any]:
        """The variations beside the match's line, kept for Continue as the game's record."""
        if len(self.tree()) <= 1 and all(len(n.children) <= 1 for n in _nodes(self.tree())):
            return {}
        return {"variations": write_record(self.rulebook, self.record())}

    def resume_variations(self, extra: dict[str, Any]) -> None:
        """Take back the variations :meth:`_kept_extra` kept (a kept game resumed); a record
        that no longer reads is left out (the match's line stays)."""
        text = extra.get("variations")
        if not isinstance(text, str):
            return
        try:
            record = check_record(self.rulebook, read_record(text, "the kept variations"))
        except ValueError as exc:
            log.info("the kept variations are left out: %s", exc)
            return
        self._tree, self._tree_match = record.moves, self.match
        self.tree()

    # -- inside -------------------------------------------------------------------------------

    def _play_line(self, line: Sequence[Line], cursor: int) -> None:
        """The match replays ``line`` and stands after its first ``cursor`` moves."""
        if self.host is not None:
            self.host.tweens.cancel_all()
        steps = [Step(node.seat, None, node.text) for node in line]
        hook, self.match.on_step = self.match.on_step, None
        try:
            self.match.replay(steps, cursor)
        except ReplayError as exc:
            raise IllegalActionError(str(exc)) from None
        finally:
            self.match.on_step = hook
        self.match.paused = False
        self.recorded = self.match.over  # a game loaded finished is not counted again
        self._reset_scene()

    def _path(self) -> tuple[int, ...]:
        return graft(self.tree(), [(s.seat, s.text) for s in self.match.full_record])

    def _long(self, index: int) -> str:
        """Step ``index`` of the match's line named by its move rule (``Pawn double-step
        e2-e4``)."""
        step = self.match.full_record[index]
        describe = getattr(self.match.state_at(index), "describe", None)
        if describe is None or step.action is None:
            return step.text
        try:
            return str(describe(step.action))
        except (ValueError, IndexError):
            return step.text

    def _show_hint(self) -> None:
        """The hint names the move rule too: ``Hint: Nf3 (Knight leap g1-f3)``."""
        hint = self.match.current_hint()
        if hint is not None and hint.key != self.hint_shown and "(" not in hint.text:
            describe = getattr(self.match.state, "describe", None)
            if describe is not None and hint.action in self.match.state.legal_actions():
                long = describe(hint.action)
                self.match.hint_result = replace(hint, text=f"{hint.text} ({long})")
        super()._show_hint()

    def _default_path(self) -> Path:
        from game.settings import data_dir

        design = self.rulebook.design
        return data_dir() / "rules" / f"{design.id}-saved{record_suffix(self.rulebook)}"


def _nodes(moves: list[Line]) -> list[Line]:
    out, stack = [], list(moves)
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


def record_commands(c: RecordControls) -> list[Command]:
    """The record's commands: Save and Load (buttons), ``save-to:FILE`` and
    ``load-from:FILE``, the move list with its variations' rows (``variation-P-C``)."""
    m = c.match
    commands = [
        Command("save", c.save, "Save", group="options",
                help="write the game, with its variations, to the data folder"),
        Command("load", c.load, "Load", group="options", help="read the saved game back"),
        Command("save-to", c.save, group="", parse=Path, argument="a file",
                help="write the game, with its variations, to a file (PGN, PDN, SGF or text)"),
        Command("load-from", c.load, group="", parse=Path, argument="a file",
                help="read a game record from a file"),
    ]  # fmt: skip
    tree, path = c.tree(), c._path()
    rows = move_rows(m.full_record)[-LIST_LENGTH:]

    hidden = hidden_placements(c)

    def tip(first: int, end: int) -> str:
        return "; ".join(
            "a piece placed where you cannot see it" if hidden(m.full_record[i]) else c._long(i)
            for i in range(first, end)
        )

    def write(step: Step) -> str:
        return "?@" + step.text.split("@", 1)[1] if hidden(step) else step.text

    listed = move_list_commands(m, c.goto, write=write, tip=tip)
    for (_number, texts, first), row in zip(rows, listed, strict=True):
        commands.append(row)
        for ply in range(first, first + len(texts)):
            here = line_at(tree, path[:ply])[-1].children if ply else tree
            for choice, node in enumerate(here):
                if choice != path[ply]:
                    commands.append(_variation_row(c, ply, choice, node))
    return commands


def hidden_placements(c: RecordControls) -> Callable[[Step], bool]:
    """Whether the move list must hide a turn's piece: a placement (``M@e1``) by another seat
    than the one the board is shown to, in a game whose pieces are concealed (Barrage's
    hidden set-up); the list then reads ``?@e1``, as the board shows a blank piece there."""
    board = getattr(c, "board", None)
    watcher = getattr(board, "watcher", None)
    if c.rulebook.design.concealed is None or watcher is None:
        return lambda step: False
    return lambda step: step.seat != watcher and "@" in step.text


def _variation_row(c: RecordControls, ply: int, choice: int, node: Line) -> Command:
    shown: list[str] = []
    here: Line | None = node
    while here is not None and len(shown) < SHOWN_MOVES:
        number = f"{here.number}. " if here.seat <= 0 else ""
        if not shown and here.seat > 0:
            number = f"{here.number}… "
        shown.append(number + here.text)
        here = here.children[0] if here.children else None
    more = " …" if here is not None else ""
    return Command(
        f"variation-{ply + 1}-{choice}",
        lambda: c.variation(ply, choice),
        "  ↳ " + " ".join(shown) + more,
        group="list",
        help="go to this variation (the other line stays in the record)",
    )
