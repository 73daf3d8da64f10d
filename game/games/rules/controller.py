"""Any described board game (``game/logic/rules/games/*.txt``, or a person's own file): the
scene controller.

A :class:`~game.logic.match.Match` holds the game: the record, undo and redo, jumps from the
move list, forced passes, the computer thinking on a worker thread and the hint (alpha-beta, as
the computer plays). The board is built from the description's geometry
(:mod:`game.games.rules.view`); a person plays by clicks (:mod:`game.games.rules.select`): a
piece, then each position its move goes through, or an empty position to place a piece (a
piece in hand, then its square: :mod:`game.games.rules.hand_pick`); where the clicks leave
several moves open (a promotion), numbered buttons choose. Each move plays as tweens
(:mod:`game.games.rules.motion`), one step at a time; the judge speaks when the step that
ended the game has played.

A person's own file (the ``description`` override) is looked at about once a second: when it
changes it is read again; a mistake is shown (``file:line:column: what``) and the last good
version goes on, a good version starts a new game with the new rules.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from game.engine.commands import CommandTable
from game.engine.controller import Host, Status, Tone, release
from game.engine.scene import Node, Scene, load_scene
from game.engine.tweens import Tween
from game.games.rules.commands import build_commands, side_label
from game.games.rules.dice_view import DiceView, dice_view
from game.games.rules.file import POLL_SECONDS, DescriptionFile
from game.games.rules.hand_pick import HandControls, HandPick, hand_of
from game.games.rules.motion import move_tween
from game.games.rules.seats import SEAT_OPTIONS, quarter_turns
from game.games.rules.select import Click, click, next_steps, taking, targets
from game.games.rules.shelf import lettered
from game.games.rules.texts import (
    HUMAN,
    AboutHelp,
    choice_labels,
    group_result,
    group_tally,
    help_text,
    piece_counts,
    piece_name,
    refusal,
    turn_text,
)
from game.games.rules.variations import RecordControls, hidden_placements
from game.games.rules.view import BoardView, Marks
from game.hall.keeping import kept_game, resume_kept
from game.logic.contract import CHANCE, IllegalActionError, Limits
from game.logic.linked import LinkedMatch
from game.logic.match import Match, MatchError, Step
from game.logic.rules.limits import RulesError
from game.logic.rules.win_numbers import win_numbers
from game.registry import GameSession
from game.resources import asset_path

__all__ = ["BoardController"]

log = logging.getLogger(__name__)


class BoardController(AboutHelp, HandControls, RecordControls):
    """The scene of a described game; see the module docstring.

    ``session`` gives the options (who plays each side, the computer's time, a start
    position) and counts results. ``overrides``: ``game`` (a shipped description's id; by
    default the session's game), ``description`` (a person's file, read instead), ``variant``
    (which game of a ``.zrf`` file), ``seed``, and option values for this controller only.
    """

    refusal_error = IllegalActionError
    plays_stand_in = True  # a concealed piece stays a blank on a server's match, to the end

    def __init__(self, session: GameSession, **overrides: Any) -> None:
        description, variant = overrides.pop("description", None), overrides.pop("variant", 0)
        game_id = overrides.pop("game", None) or getattr(session, "game", None)
        self.seed = overrides.pop("seed", None)
        loaded = overrides.pop("record", None)  # (text, file name) of --load
        self.session = session
        self.file: DescriptionFile | None = None
        if description is not None:
            self.file = DescriptionFile(Path(description), variant)
            rulebook = self.file.read()
        elif game_id:
            from game.logic.rules.catalogue import rulebook as shipped_rulebook

            rulebook = shipped_rulebook(str(game_id))
        else:
            raise ValueError("a described game needs its id or a description file")
        self.overrides = overrides
        self.file_error = ""
        self.host: Host | None = None
        self.scene: Scene | None = None
        self.board: BoardView | None = None
        self.dice: DiceView | None = None
        self.prefix: tuple[int, ...] = ()
        self.choices: list[tuple[str, Any]] = []
        self.hover: int | None = None
        self.message = ""
        self.tone = Tone.INFO
        self.news: list[str] = []
        self.recorded = False
        self.judged = False
        self.hint_shown: object = None
        self.play_hint = False
        self.thinking_since: float | None = None
        self.clock = 0.0
        self.next_look = POLL_SECONDS
        self._marks_dirty = True
        self._version = 0
        self._table: tuple[tuple[Any, ...], CommandTable] | None = None
        # A game asked for (a seed, options for this scene) starts afresh; otherwise the game
        # kept when the person left comes back, with the options it was played with.
        fresh = self.seed is not None or bool(overrides) or loaded is not None
        self._kept, note = kept_game(session, rulebook.design.id, fresh=fresh)
        try:
            self._start(rulebook)
        except ValueError as exc:
            if self._kept is None:
                raise
            self._kept = None
            note = session.set_aside_match(f"has options this game refuses ({exc})")
            self._start(rulebook)
        if self._kept is not None:
            self.match.on_step = None
            note = resume_kept(session, self.match, self._kept)
            self.resume_variations(self._kept.extra)
            self.match.on_step = self._on_step
            self._kept = None
        self._say(note or self._turn_text(), Tone.WARN if note else Tone.INFO)
        if loaded is not None:
            self.load_text(*loaded)

    # -- the game ---------------------------------------------------------------------------

    def _start(self, rulebook: Any) -> None:
        """A match of ``rulebook``'s game with the session's options (raises ValueError for
        options or a start position the game refuses)."""
        from game.games.rules.entry import entry_for
        from game.logic.rules.levels import steady_name
        from game.logic.rules.state import RulesGame

        entry = entry_for(rulebook.design.id, rulebook)
        base = self._kept.options if self._kept is not None else self.session.options
        options = entry.options.validate({**base, **self.overrides})
        rulebook = self._with_parameters(rulebook, options)
        game = RulesGame(rulebook, options)
        sides = [options[name] for name in SEAT_OPTIONS[: len(rulebook.design.players)]]
        match: Match[Any] = Match(
            game,
            [None if side == HUMAN else entry.thinker(side, options) for side in sides],
            seed=self.seed,
            limits=Limits(time=options["time_per_move"]),
            # The hint is steady: a budget of positions, so the same position gets the same
            # hint on every run (the sides think for the time given).
            hint_agent=entry.thinker(steady_name(rulebook.design.computer), options),
            background=True,
        )
        old = getattr(self, "match", None)
        if old is not None:
            old.close()
        self.rulebook = rulebook
        self.entry = entry
        self.options = options
        self.game = game
        self.sides = sides
        self.match = match
        self.match.on_step = self._on_step
        self.design = rulebook.design
        self.name = self.design.id
        self.title = self.design.title
        self.recorded = False
        self._clear_selection()
        self._say(self._turn_text())

    @property
    def state(self) -> Any:
        """The position at the match's current point (a RulesState)."""
        return self.match.state

    # -- SceneController --------------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "board.toml"))
        self._build_board()
        self._follow_kept()
        return self.scene

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.file is not None and self.clock >= self.next_look:
            self.next_look = self.clock + POLL_SECONDS
            self._look_at_file()
        try:
            self.poll_match(self.match)
        except MatchError as exc:  # the agent failed: the match waits for a person
            log.error("the computer could not move: %s", exc)
            self._say(f"The computer failed: {exc}", Tone.WARN)
        except RulesError as exc:  # its move leads past a bound of the description's rules
            self.match.paused = True  # the match waits for a person (undo, a new game)
            log.error("the computer's move cannot be played: %s", exc)
            self._say(f"The computer's move cannot be played: {exc}", Tone.WARN)
        self._follow_match()

    def commands(self) -> CommandTable:
        signature = (
            self._version,
            tuple(self.sides),
            self.match.cursor,
            tuple(label for label, _ in self.choices),
        )
        if self._table is None or self._table[0] != signature:
            self._table = (signature, CommandTable(build_commands(self)))
        return self._table[1]

    def status(self) -> Status:
        if self.design.counters:  # the seeds each player has won so far
            counts = list(getattr(self.state, "scores", lambda: [0, 0])())
            word = "score"
        else:
            counts, word = piece_counts(self.design, self.state), "pieces"
            won_by = win_numbers(self.state.rulebook, self.state.pos)
            if won_by is not None:  # a game won by a number of tallies (Chaturaji's points)
                counts, word = won_by, "score"
        pieces = ", ".join(f"{p} {n}" for p, n in zip(self.design.players, counts, strict=True))
        if self.design.groups is not None:  # Go: captures, and the area as it would count
            word, pieces = "captured", group_tally(self.design, self.state)
        hands: list[dict[str, int]] = getattr(self.state, "hands", lambda: [])()
        if any(hands):  # pieces still to be placed (Nine Men's Morris's first phase)
            waiting = ", ".join(
                f"{p} {sum(h.values())}" for p, h in zip(self.design.players, hands, strict=True)
            )
            pieces += f"   in hand: {waiting}"
        if getattr(self.state.pos, "throw", None) is not None:  # a game of dice
            pieces += f"   thrown: {'-'.join(str(v) for v in self.state.pos.throw)}"
        if self.match.over:
            counter = f"Game over   {word}: {pieces}"
        else:
            seat = self.match.to_move()
            who = "you" if self.sides[seat] == HUMAN else "computer"
            counter = f"{self.design.players[seat]} to move ({who})   {word}: {pieces}"
        if self.file_error:
            return Status(self.title, counter, self.file_error, Tone.WARN, self._help())
        return Status(self.title, counter, self.banner(), self.tone, self._help())

    def status_line(self) -> str:
        state = "over" if self.match.over else "playing"
        seat = self.match.to_move()
        to_move = self.design.players[seat] if 0 <= seat < len(self.design.players) else "-"
        result = self.match.result_text().replace(" ", "_") if self.match.over else "-"
        return (
            f"status={state} game={self.design.id} moves={self.match.cursor} "
            f"to_move={to_move} result={result}"
        )

    def world_labels(self) -> list[tuple[str, Any]]:
        if self.board is None:
            return []
        if not self.design.counters:
            extra = self.board.shelf.labels(self.state) if lettered(self.design) else []
            return [*self.board.labels(), *extra]
        # Each pit's name and seeds on its outer side: behind the far row, in front of the
        # near row and of the stores.
        labels = []
        board = getattr(self.state, "pos", None)
        middle = float(np.mean([self.board.world(p)[2] for p in self.board.playable]))
        names = self.design.board.names
        for p, count in enumerate(board.board if board is not None else ()):
            if p in self.board.playable:
                at = self.board.world(p)
                side = -1.0 if at[2] < middle - 1e-3 else 1.0
                shift = np.array([0.0, 0.03, side * 0.62 * self.board.cell], dtype="f4")
                labels.append((f"{names[p]}: {count}", at + shift))
        return labels

    def on_hover(self, node: Node | None) -> None:
        position = self._position_under_mouse(node)
        if position != self.hover:
            self.hover = position
            self._marks_dirty = True
            self._refresh_marks()
        if self.board is not None:  # a token of the mover's hand under the mouse is lit
            self.board.shelf.light(self.held, self.own_token(hand_of(node)))

    def on_pick(self, node: Node | None) -> Click | HandPick | None:
        """The position clicked (a :class:`Click` for :meth:`play`) or the piece in hand (a
        :class:`HandPick`); a click off the board drops the piece picked up."""
        if (pick := hand_of(node)) is not None:
            return pick
        position = self._position_under_mouse(node)
        if position is None:
            self.cancel()
            return None
        return Click(position)

    def play(self, action: Any) -> None:
        """A click on a position (:class:`Click`), on a piece in hand (:class:`HandPick`), or
        a whole move (a move of the rules rulebook: ``shot --do move:e2-e4``); raises
        ValueError saying why it is refused."""
        self._check_turn()
        if isinstance(action, HandPick):
            self.pick_from_hand(action)
            return
        if isinstance(action, Click):
            self._click(action.position)
            return
        selection = self.prefix, self.choices
        self._clear_selection()
        try:
            self._commit(action)  # the match refuses an illegal move with the rules' reason
        except ValueError:
            self.prefix, self.choices = selection
            raise

    def debug_panel(self) -> None:
        from game.games.rules.panel import draw_panel

        draw_panel(self)

    # -- commands -----------------------------------------------------------------------------

    def swap(self) -> None:
        """Exchange the two sides' players (with more, each side's goes to the next side)."""
        self._set_sides([self.sides[-1], *self.sides[:-1]])

    def cycle_side(self, seat: int) -> None:
        """A person, then each computer player in turn, for one side."""
        sides = list(self.sides)
        cycle = self.entry.seat_choices("first")
        current = sides[seat] if sides[seat] in cycle else cycle[0]
        sides[seat] = cycle[(cycle.index(current) + 1) % len(cycle)]
        self._set_sides(sides)

    def can_pass(self) -> bool:
        """Whether the person to move may pass (the rules list a pass among the moves)."""
        return (
            not self.match.over
            and self.match.person_to_move()
            and any(not m[0] for m in self.state.legal_actions())
        )

    def pass_turn(self) -> None:
        passes = [m for m in self.state.legal_actions() if not m[0]]
        if not passes:
            raise IllegalActionError("You cannot pass now.")
        self.play(passes[0])

    def choose(self, number: int) -> None:
        """Play choice ``number`` (1-based) of the moves the clicks left open."""
        if not 1 <= number <= len(self.choices):
            raise IllegalActionError(f"there is no choice {number}")
        self.play(self.choices[number - 1][1])

    def click_named(self, name: str) -> None:
        """A click on the position named ``name`` (scripts: ``click:e2``)."""
        try:
            position = self.design.board.index(name.strip())
        except ValueError:
            raise IllegalActionError(
                f"there is no position {name.strip()!r} on this board"
            ) from None
        self.play(Click(position))

    # -- clicks ---------------------------------------------------------------------------------

    def _check_turn(self) -> None:
        """Refuse a move while pieces move, once the game is over or on the computer's turn."""
        self._check_settled()
        super()._check_turn()

    def _click(self, position: int) -> None:
        if self.drop_held(position):
            return
        moves = list(self.state.legal_actions())
        chosen = taking(m for _, m in self.choices)
        if position in chosen:  # a click on the piece to take picks the move that takes it
            self.play(chosen[position])
            return
        decision = click(moves, self.prefix, position)
        name = self.design.board.names[position]
        if decision.kind == "play":
            self.play(decision.moves[0])
            return
        if decision.kind == "refuse":
            raise IllegalActionError(refusal(self.design, self.state, position, self.prefix, moves))
        if decision.kind == "clear":
            self.cancel()
            return
        self.prefix = decision.prefix
        self.choices = choice_labels(self.state, decision.moves)
        steps = next_steps(moves, self.prefix)
        options = ", ".join(f"{i}: {label}" for i, (label, _) in enumerate(self.choices, 1))
        if decision.kind == "choose" and taking(m for _, m in self.choices):
            self._say(f"{name}: click the piece to take (gold rings), or {options}.", Tone.HINT)
        elif decision.kind == "choose":
            self._say(f"Choose the move to {name}: {options} (keys or buttons).", Tone.HINT)
        elif self.choices:
            self._say(f"Stop on {name} (buttons 1-{len(self.choices)}), or click the next "
                      f"step (gold ring).", Tone.HINT)  # fmt: skip
        elif len(self.prefix) == 1:
            piece = piece_name(self.state, position)
            more = "its next square" if len(steps) == 1 else f"one of {len(steps)} gold rings"
            self._say(f"{piece} on {name} picked up: click {more} (Backspace: put it down).")
        else:
            self._say(f"On to {name}: click the next step (gold ring).")
        self._marks_dirty = True
        self._refresh_marks()

    # -- inside -------------------------------------------------------------------------------

    def _build_board(self) -> None:
        if self.scene is None:
            return
        release(self.board)
        bounds = self.host.bounds if self.host is not None else {}
        self.board = BoardView(
            self.scene, self.design, bounds, quarter=quarter_turns(self.design, self.sides)
        )
        self.board.watcher = self.watcher()
        self.board.snap(self.state)
        self.dice = dice_view(self.board, self.design, self.state)  # a game of dice's
        self.clear_steps()
        self._marks_dirty = True
        self._refresh_marks()

    def watcher(self) -> int:
        """The seat whose view the board shows where pieces are concealed: the one held on a
        server's match (-1, watching: no seat's), else the one person's (0: several, none)."""
        if isinstance(self.match, LinkedMatch):
            return -1 if self.match.you is None else self.match.you
        people = [seat for seat, side in enumerate(self.sides) if side == HUMAN]
        return people[0] if len(people) == 1 else 0

    def _look_at_file(self) -> None:
        """Read a person's file again when it changed: a mistake is shown and the game goes
        on; a good version starts a new game with its rules."""
        assert self.file is not None
        if not self.file.changed():
            return
        try:
            rulebook = self.file.read()
            if self.host is not None:
                self.host.tweens.cancel_all()
            self._start(rulebook)
        except ValueError as exc:
            self.file_error = f"{exc} (the last good version goes on)"
            log.info("%s", exc)
            return
        self.file_error = ""
        self._version += 1
        self._build_board()
        self._say(f"Read {self.file.path.name} again: a new game of {self.title}.")

    def _start_step(self, before: Any, step: Step, after: Any) -> Tween | None:
        """The news of ``step`` (who played what, or passed) and the tween that plays it."""
        if step.seat == CHANCE:  # a throw: the dice roll before the move that follows
            self.news = [
                f"{self.design.players[self.rulebook.player(before.pos)]} threw: {step.text}."
            ]
            return self.dice.roll(after.pos.throw) if self.dice is not None else None
        who = self.design.players[step.seat]
        if step.action is None:  # another seat's step on a server, its move not told
            self.news = [f"{who} moved."]
            return None
        if not step.action[0]:
            self.news.append(f"{who} has no move and passes.")
            return None
        hidden = hidden_placements(self)(step)  # a concealed piece: only where it went
        self.news = [f"{who} played {'?@' + step.text.split('@', 1)[1] if hidden else step.text}."]
        if self.board is None or self.host is None:
            return None
        owners = {p: o for p, o, _ in before.pieces()}
        turned = any(p in owners and owners[p] != o for p, o, _ in after.pieces())
        self.host.sound("flip" if turned else "place")  # Othello's discs turn over
        return move_tween(self.board, before, step.action, after)

    def _judge(self) -> None:
        """The result, once the step that ended the game has played; counted once a game."""
        if not self.match.over or self.judged:
            return
        self.judged = True
        scores = self.state.returns()
        text = f"Game over: {self.match.result_text() or self.game.result_text(self.state)}."
        if self.design.groups is not None:
            text = f"{text[:-1]}{group_result(self.design, self.state)}."
        tone = Tone.INFO
        if max(scores) != min(scores):
            winner = scores.index(max(scores))
            people = [seat for seat, side in enumerate(self.sides) if side == HUMAN]
            if len(people) == 1:
                tone = Tone.WON if winner in people else Tone.LOST
        if not self.recorded:
            self.recorded = True
            note = self._record(scores)
            if note:
                text += f" {note}"
        self._say(text, tone)

    def _record(self, scores: Sequence[float]) -> str:
        """Count the game against the computer player a person played."""
        notes = []
        for me, them in ((0, 1), (1, 0)):
            if self.sides[me] != HUMAN or self.sides[them] == HUMAN:
                continue
            key = f"{self.design.id}:{self.sides[them]}"
            note = self.session.record(
                key, won=scores[me] > scores[them], drawn=scores[me] == scores[them]
            )
            if note:
                notes.append(f"Against {side_label(self.sides[them])}: {note}")
        return " ".join(notes)

    def _reset_scene(self) -> None:
        self._clear_selection()  # before the marks, which show the selection
        super()._reset_scene()
        if self.dice is not None:  # undo, redo, a jump: the throw of the point reached
            self.dice.show(self.state.pos.throw)

    def _with_parameters(self, rulebook: Any, options: Mapping[str, Any]) -> Any:
        """``rulebook``, or the same description compiled again when the options set its
        parameters (a board's size) to other values."""
        from game.logic.rules.catalogue import rulebook as shipped_rulebook

        design = rulebook.design
        values = {p.name: int(options[p.name]) for p in design.parameters if p.name in options}
        if all(design.values.get(name) == value for name, value in values.items()):
            return rulebook
        if self.file is not None:
            return self.file.read(values)
        return shipped_rulebook(design.id, values)

    def _set_sides(self, sides: list[str]) -> None:
        self.sides = sides
        for seat, side in enumerate(sides):
            agent = None if side == HUMAN else self.entry.thinker(side, self.options)
            self.match.set_seat(seat, agent)
        self.match.paused = False
        self._clear_selection()
        self.options = {**self.options, **dict(zip(SEAT_OPTIONS, sides, strict=False))}
        self.session.save_options(self.options)
        self._version += 1
        if self.board is not None and self.board.quarter != quarter_turns(self.design, self.sides):
            self._build_board()
        self._marks_dirty = True
        self._refresh_marks()
        players = self.design.players
        said = ", ".join(f"{p}: {side_label(s)}" for p, s in zip(players, sides, strict=False))
        self._say(said + ".")

    def _refresh_marks(self) -> None:
        """Rings where a person's click can go, the last move, the hint."""
        if self.board is None or not self._marks_dirty or not self.settled():
            return
        self._marks_dirty = False
        person = self.match.person_to_move() and not self.match.over
        moves = list(self.state.legal_actions()) if person else []
        empty = len(self.board.playable) - len(self.state.pieces())
        steps, pieces, spots = targets(moves, self.prefix, self.hover, empty)
        if self.held is not None:  # a piece from the hand: every square it may drop on
            pieces, spots = [], list(self.held_drops)
        marks = Marks(steps, spots, pieces, self.prefix, self.hover)
        marks.take = list(taking(m for _, m in self.choices))  # the pieces a choice takes
        record = self.match.record
        if record and record[-1].action and record[-1].action[0]:
            marks.last = tuple(record[-1].action[0])
        hint = self.match.current_hint()
        if hint is not None and hint.action[0]:
            marks.hint = tuple(hint.action[0])
        marks.won = self.state.winning()
        self.board.show_marks(marks, self.clock)
        self.board.shelf.light(self.held)

    def _position_under_mouse(self, node: Node | None) -> int | None:
        if self.board is None or node is None:
            return None
        found = self.board.position_of(node)
        if found is not None:
            return found
        # Where the Director's pick met the board (the scene is picked once); of a stack's
        # layers, the one a click can go to now.
        moves = list(self.state.legal_actions()) if self.state.current_player() >= 0 else []
        steps = next_steps(moves, self.prefix)
        return self.board.position_at(self.host.hit if self.host is not None else None, steps)

    def _help(self) -> str:
        last = self.board.last_name if self.board is not None else "red"
        empty = len(self.board.playable) - len(self.state.pieces()) if self.board else 0
        return help_text(self.design, last, self.state.legal_actions(), empty)

    def _turn_text(self, prefix: str = "", state: Any = None) -> str:
        return turn_text(self.design, self.sides, self.state if state is None else state, prefix)
