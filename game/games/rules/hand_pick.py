"""Dropping a piece from the hand by clicks (no GL): the person clicks a token on the hand
shelf (:mod:`game.games.rules.shelf`), the squares that piece may be dropped on are marked,
and a click on one of them drops it. The other way round works too: a click on an empty
square offers the types that may be dropped there as buttons, and a click on one of those
types on the shelf plays it. Any game whose moves drop pieces from a hand gets both (shogi's
captured pieces, Ur's pieces waiting to enter).

:class:`HandControls` is the part of the board's controller that holds the piece picked up
and the selection (:meth:`HandControls.cancel` drops both).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from game.engine.controller import Tone
from game.games.rules.texts import choice_labels
from game.logic.contract import IllegalActionError

if TYPE_CHECKING:
    from game.engine.scene import Node

__all__ = ["HandControls", "HandPick", "drops_of", "hand_of"]

Move = Any  # the rulebook's (path, captures, effects, program) tuple


class HandPick(NamedTuple):
    """A click on the token of type ``kind`` in ``owner``'s hand (what ``on_pick`` hands to
    ``play``); equal to the token node's ``hand`` tag."""

    owner: int
    kind: str


def hand_of(node: Node | None) -> HandPick | None:
    """The hand token ``node`` is, or None for any other node."""
    found = node.tags.get("hand") if node is not None else None
    return HandPick(*found) if isinstance(found, tuple) else None


def drops_of(state: Any, moves: list[Move], kind: str) -> dict[int, list[Move]]:
    """The moves among ``moves`` that drop a ``kind`` from the mover's hand, by the position
    each drops it on (in the moves' order)."""
    found: dict[int, list[Move]] = {}
    for move in moves:
        if len(move[0]) == 1 and state.dropped(move) == kind:
            found.setdefault(move[0][0], []).append(move)
    return found


class HandControls:
    """The selection of a described game's controller: the path clicked (``prefix``), the
    moves left to choose among (``choices``) and the piece picked up from the hand
    (``held``, with the positions it may be dropped on in ``held_drops``). The controller
    provides ``state``, ``design``, ``match``, ``play``, ``_say`` and ``_refresh_marks``."""

    prefix: tuple[int, ...] = ()
    choices: list[tuple[str, Any]]
    held: HandPick | None = None
    held_drops: dict[int, list[Move]]
    _marks_dirty: bool

    if TYPE_CHECKING:
        state: Any
        design: Any
        match: Any

        def play(self, action: Any) -> None: ...
        def _say(self, text: str, tone: Tone = Tone.INFO) -> None: ...
        def _refresh_marks(self) -> None: ...
        def _turn_text(self, prefix: str = "", state: Any = None) -> str: ...

    def pick_from_hand(self, pick: HandPick) -> None:
        """Pick ``pick``'s piece up from the hand (a second click puts it back); with an
        empty square clicked first, drop it there. Raises IllegalActionError saying why
        not: another player's hand, or no square takes it now."""
        state = self.state
        players = self.design.players
        if pick.owner != state.current_player():
            raise IllegalActionError(
                f"That {pick.kind} is in {players[pick.owner]}'s hand: "
                f"{players[state.current_player()]} drops from their own."
            )
        if len(self.prefix) == 1 and self.choices:  # the square first, then the piece
            for _label, move in self.choices:
                if state.dropped(move) == pick.kind:
                    self.play(move)
                    return
        if self.held == pick:
            self.cancel()
            return
        drops = drops_of(state, list(state.legal_actions()), pick.kind)
        if not drops:
            raise IllegalActionError(f"No {self._place()} takes a {pick.kind} from the hand now.")
        self._clear_selection()
        self.held, self.held_drops = pick, drops
        where = f"one of the {len(drops)} gold dots" if len(drops) > 1 else "the gold dot"
        self._say(
            f"{pick.kind} picked up from the hand: click {where} to drop it "
            "(Backspace: put it back).",
            Tone.HINT,
        )
        self._marks_dirty = True
        self._refresh_marks()

    def own_token(self, pick: HandPick | None) -> HandPick | None:
        """``pick`` where it is a token of the hand of a person to move, else None."""
        if pick is None or self.match.over or not self.match.person_to_move():
            return None
        return pick if pick.owner == self.state.current_player() else None

    def click_hand(self, kind: str) -> None:
        """A click on the ``kind`` token in the hand of the player to move (``hand:Pawn``)."""
        self.play(HandPick(self.state.current_player(), kind.strip()))

    def drop_held(self, position: int) -> bool:
        """Drop the piece held on ``position`` (True: done, or a choice offered where
        several moves drop it there); False, with the piece let go, where it cannot go (the
        click is then a click on the board)."""
        if self.held is None:
            return False
        found = self.held_drops.get(position, [])
        self._clear_selection()
        if len(found) == 1:
            self.play(found[0])
        elif found:
            self.prefix, self.choices = (position,), choice_labels(self.state, found)
            options = ", ".join(f"{i}: {label}" for i, (label, _) in enumerate(self.choices, 1))
            self._say(f"Choose the drop: {options} (keys or buttons).", Tone.HINT)
            self._marks_dirty = True
            self._refresh_marks()
        return bool(found)

    def cancel(self) -> None:
        """Drop the piece picked up (and the steps clicked), or put it back in the hand."""
        if self.prefix or self.choices or self.held:
            self._clear_selection()
            self._say(self._turn_text())
            self._marks_dirty = True
            self._refresh_marks()

    def _clear_selection(self) -> None:
        self.prefix = ()
        self.choices = []
        self.held = None

    def _place(self) -> str:
        return {"points": "point", "hex": "cell"}.get(self.design.board.kind, "square")
