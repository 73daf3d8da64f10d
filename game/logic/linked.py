"""A match played on a server: :class:`LinkedMatch`, a :class:`~game.logic.match.Match` whose
every step comes from the server, and the link it talks through (:class:`MatchLink`).

The linked match is a replica. A person's :meth:`~LinkedMatch.play` checks the action
against the rules (a refusal comes at once, in the rules' words), then sends its text and
changes nothing: the step is applied when the server sends it back, as every other seat's
step, chance outcome and forced action is. Undo asks the server (the other seats agree or
not), and the hint is the server's. Redo, jumps and a new game are refused: the server's
record is the match. The controller goes on calling :meth:`~LinkedMatch.poll` once a frame,
and the steps that came are played in its scene one at a time, as a computer's are; a
snapshot that changes the past (an undo all agreed to, a reconnect after a gap) rebuilds the
record and counts in :attr:`LinkedMatch.resets`, news for the person (a refusal, a question,
the connection) waits in :attr:`LinkedMatch.notices`.

A match that hides something from each seat (Cluedo's cards, concealed pieces) sends no
start and no other seat's step text: each step comes with what the seat is told (:class:`Told`:
its observation, the legal actions on its turn, the result at the end). The linked match then
holds a *stand-in* (:meth:`~game.logic.contract.Game.stand_in`): a state made again from each
view, the same as the true one in all the seat may know, the rest drawn at random. Its own
moves are checked against the stand-in's rules and the server's legal actions, and sent as
text; nothing the stand-in invents leaves it, and a scene must not show it.

The link is whatever carries the messages (a network connection on a thread of its own, a
test's fake): it never blocks the caller, and hands over what came with :meth:`MatchLink.events`.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections import deque
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from game.logic.contract import CHANCE, Game, IllegalActionError, Limits, State
from game.logic.match import Match, MatchError, Step
from game.logic.match_steps import Hint
from game.logic.thinking import text_of

__all__ = [
    "Began",
    "Hinted",
    "LinkedMatch",
    "MatchLink",
    "Noticed",
    "Rejected",
    "RemoteSeat",
    "Stepped",
    "Told",
    "UndoAsked",
]

LOG = logging.getLogger(__name__)

#: The seat whose observation a spectator is told: the public one.
PUBLIC = -1


@dataclass(frozen=True)
class Told:
    """What a seat of a hiding match is told of the position after a step: ``view``, its
    observation as JSON values; ``legal``, the texts of its legal actions on its turn (None
    when it is not its turn); ``result``, the result's sentence once the match is over."""

    view: Any
    legal: tuple[str, ...] | None = None
    result: str | None = None


@dataclass(frozen=True)
class Began:
    """The match as the server holds it: the start (``initial_state(Random(start_seed))``)
    and the record as (seat, action text) pairs; ``you``: the seat held here (None: watching).
    A hiding match: ``start_seed`` None, the others' texts None, and ``told`` what this seat
    may know of the position now."""

    start_seed: int | None
    record: tuple[tuple[int, str | None], ...]
    you: int | None
    told: Told | None = None


@dataclass(frozen=True)
class Stepped:
    """One step the server accepted or played; ``ply``: the record's length after it. A
    hiding match: ``text`` None for another seat's step, ``told`` what this seat may know
    of the position after it."""

    ply: int
    seat: int
    text: str | None
    told: Told | None = None


@dataclass(frozen=True)
class Rejected:
    """The server refused what was sent (``what``: "act", "hint", "undo" or "")."""

    what: str
    message: str


@dataclass(frozen=True)
class Hinted:
    """The server's hint for the point after ``ply`` steps."""

    ply: int
    text: str


@dataclass(frozen=True)
class UndoAsked:
    """Another seat asks to take the last move back."""

    who: str


@dataclass(frozen=True)
class Noticed:
    """Something to tell the person (the connection lost, back again)."""

    text: str


LinkEvent = Began | Stepped | Rejected | Hinted | UndoAsked | Noticed


class MatchLink(Protocol):
    """What a linked match asks of the connection to its server; no call waits."""

    def events(self) -> list[LinkEvent]:
        """What came since the last call, oldest first."""
        ...

    def act(self, ply: int, text: str) -> None:
        """Send the action ``text`` for the point after ``ply`` steps."""
        ...

    def hint(self) -> None: ...

    def undo(self) -> None:
        """Ask the other seats to take the last move back."""
        ...

    def answer_undo(self, accept: bool) -> None: ...

    def resync(self) -> None:
        """Ask the server for the whole match again (a :class:`Began` follows)."""
        ...

    def close(self) -> None: ...


class RemoteSeat:
    """The agent a linked match seats for a seat played elsewhere: it has a name and never
    chooses (its steps come from the server)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.description = f"{name}, playing on the server"

    def choose(self, state: Any, limits: Limits, rng: Any, stop: Any) -> Any:
        raise MatchError(f"{self.name} plays on the server")


class LinkedMatch(Match[Any]):
    """A match replayed from a server's messages; see the module docstring.

    ``you``: the seat played here (None: watching); ``names``: what to call each seat
    (``names[you]`` unused); ``start_seed`` None: a hiding match, played on a stand-in.
    """

    def __init__(
        self,
        game: Game[Any],
        link: MatchLink,
        you: int | None,
        names: Sequence[str],
        *,
        start_seed: int | None = 0,
    ) -> None:
        self.link = link
        self.you = you
        seats = [None if s == you else RemoteSeat(names[s]) for s in range(game.seats)]
        self.sent: str | None = None  # the action sent and not yet accepted
        self.undo_question = ""  # who asks to take back a move, until it is answered
        self.undo_sent = False  # an undo asked or agreed to, until the server settles it
        self.resets = 0  # how many times the record was rebuilt from a snapshot
        self.notices: deque[str] = deque()
        self._hint_asked: int | None = None
        #: Whether the state is a stand-in (a hiding match): what it invents is never shown.
        self.stands_in = start_seed is None
        #: A hiding match: the texts of the legal actions the server sent for this seat's
        #: turn (None: not its turn), and the result it sent at the end.
        self.legal: tuple[str, ...] | None = None
        self._result: str | None = None
        self._draws = 0  # stand-ins drawn: each draws with a generator of its own number
        super().__init__(game, seats, seed=0 if start_seed is None else start_seed)
        self.hint_agent = None  # the server's hint

    # -- what differs from a local match ------------------------------------------------------

    def play(self, action: Any, *, detail: str = "") -> Step:
        """Send ``action`` for the seat played here; nothing changes until the server sends
        it back. Raises :class:`IllegalActionError` (the rules' reason) at once when it is
        not legal, :class:`MatchError` when it is not this seat's turn or a move is on its
        way."""
        seat = self.to_move()
        if self.you is None:
            raise MatchError("You are watching this match.")
        if self.over:
            raise MatchError("the game is over")
        if seat != self.you:
            raise MatchError(f"it is {self.game.seat_name(seat)}'s turn, not yours")
        if self.sent is not None:
            raise MatchError("Your move is on its way to the server.")
        state = self.state
        try:
            state.apply(action)
        except ValueError as exc:
            text = text_of(state, action)
            raise IllegalActionError(str(exc), action=text, reason=str(exc)) from exc
        except (TypeError, KeyError, AttributeError):
            text = text_of(state, action)
            raise IllegalActionError(f"{text} is not legal now", action=text) from None
        text = state.action_text(action)
        if self.stands_in and text not in (self.legal or ()):
            # The stand-in's rules agree with the server's; its list is the truth.
            raise IllegalActionError(f"{text} is not legal now", action=text)
        self.sent = text
        self.link.act(len(self._steps), text)
        return Step(seat, action, text, detail=detail)

    def play_any(self, action: Any) -> Step:
        return self.play(action)

    def poll(self, *, apply: bool = True, limit: int | None = None) -> list[Step]:
        """Take what the server sent: its steps (all of them; ``limit`` is not needed, as
        nothing thinks here), the hint, refusals and questions. With ``apply`` False (the
        scene still shows earlier steps) new steps wait in the link."""
        played: list[Step] = []
        if not apply:
            return played
        for event in self.link.events():
            if isinstance(event, Stepped):
                step = self._take(event)
                if step is not None:
                    played.append(step)
            elif isinstance(event, Began):
                played.extend(self._adopt(event))
            else:
                self._news(event)
        return played

    def thinking(self) -> bool:
        """Whether the match waits for another seat or for the server."""
        return self.sent is not None or (not self.over and not self.person_to_move())

    def agent_to_move(self) -> Any:
        """None: no agent thinks here (the window is idle while the server is awaited)."""
        return None

    def person_to_move(self) -> bool:
        return self.sent is None and self.you is not None and self.to_move() == self.you

    def hint(self) -> None:
        """Ask the server for the hint (the match's rules may forbid it)."""
        if self.over:
            raise MatchError("the game is over")
        if self.to_move() != self.you:
            raise MatchError("The hint is for your turn.")
        if self.current_hint() is not None or self._hint_asked == self.cursor:
            return
        self._hint_asked = self.cursor
        self.link.hint()

    def hinting(self) -> bool:
        return self._hint_asked is not None

    def can_undo(self) -> bool:
        """Whether U does something now: agree to a question, or ask (once at a time)."""
        if self.you is None:
            return False
        return bool(self.undo_question) or (self.cursor > 0 and not self.undo_sent)

    def can_redo(self) -> bool:
        return False

    def undo(self, *, to_person: bool = True) -> None:
        """Agree to the question another seat asked, or ask the others to take back the
        last move; the record changes when the server's snapshot comes."""
        if self.you is None:
            raise MatchError("You are watching this match.")
        if self.undo_question:
            self.undo_question = ""
            self.undo_sent = True
            self.link.answer_undo(True)
            self.notices.append("You agreed to take the move back.")
            return
        if self.cursor == 0:
            raise MatchError("nothing to undo")
        if self.undo_sent:
            raise MatchError("The other players have not answered yet.")
        self.undo_sent = True
        self.link.undo()
        self.notices.append("Asked the other players to take the last move back.")

    def redo(self, *, to_person: bool = True) -> None:
        raise MatchError("A match on a server goes back only by undo, and never forward.")

    def jump(self, index: int) -> None:
        raise MatchError("A match on a server goes back only by undo, which all players agree to.")

    def restart(self, seed: int | None = None, *, start: State[Any] | None = None) -> None:
        """Nothing at the start (a scene that opens with a new game); refused later."""
        if self.cursor > 0 or seed is not None or start is not None:
            raise MatchError("A match on a server cannot start again: open a new one.")

    def set_seat(self, seat: int, agent: Any) -> None:
        raise MatchError("The server seats the players of this match.")

    def result_text(self) -> str:
        """The result's sentence: a hiding match's comes from the server (the stand-in's
        hidden cards are not the true ones)."""
        if self.stands_in:
            return (self._result or "") if self.over else ""
        return super().result_text()

    def close(self) -> None:
        super().close()
        self.link.close()

    # -- the inside -------------------------------------------------------------------------------

    def _play_forced(self) -> None:
        """Nothing: the server plays forced actions and sends them as steps."""

    def _take(self, event: Stepped) -> Step | None:
        """Apply a step the server sent; one already here is skipped, a gap or a text that
        does not fit asks for the whole match again."""
        if event.ply <= len(self._steps):
            return None
        if event.ply != len(self._steps) + 1:
            self.link.resync()
            return None
        try:
            if self.stands_in:
                step = self._told_step(event)
            else:
                step = self._apply_text(event.seat, str(event.text))
        except (ValueError, TypeError, KeyError, MatchError) as exc:
            self.notices.append(f"The server's step {event.text!r} does not fit here ({exc}).")
            self.link.resync()
            return None
        if event.seat == self.you:
            self.sent = None
        self._hint_asked = None
        _log_step(event.ply, event.seat, event.text)
        return step

    def _apply_text(self, seat: int, text: str) -> Step:
        state = self.state
        if state.is_terminal():
            raise MatchError("the game is over here")
        if seat != state.current_player():
            raise MatchError(f"it is not seat {seat}'s turn here")
        action = state.parse_action(text)
        forced = seat == CHANCE or self.game.forced_action(state) == action
        self._cursor = len(self._steps)
        return self._push(seat, action, forced=forced)

    def _stand_in(self, told: Told | None) -> State[Any]:
        """A new stand-in from what the server told; raises ValueError where nothing was
        told or the game cannot read it."""
        if told is None:
            raise ValueError("the server told nothing of the position")
        seat = PUBLIC if self.you is None else self.you
        self._draws += 1
        state = self.game.stand_in(told.view, seat, random.Random(self._draws))
        if state is None:
            raise ValueError(f"{self.game.title} cannot be played from what one seat sees")
        self.legal = told.legal
        self._result = told.result
        return state

    def _told_step(self, event: Stepped) -> Step:
        """A hiding match's step: the stand-in made again from what the seat was told (it
        cannot be replayed: the others' texts never come); the seat's own step is read."""
        before = self.state
        after = self._stand_in(event.told)
        action = None
        if event.text is not None:
            with contextlib.suppress(ValueError, TypeError, KeyError):
                action = before.parse_action(event.text)
        forced = event.seat == CHANCE or (
            action is not None and self.game.forced_action(before) == action
        )
        step = Step(event.seat, action, event.text or "", forced)
        self._cursor = len(self._steps)
        self._append(step, after)
        return step

    def _adopt_told(self, event: Began) -> list[Step]:
        """A hiding match's whole record: the stand-in of the position now, standing for
        every point before it too (what the seat saw then was not sent again)."""
        now = self._stand_in(event.told)
        mine = [(s.seat, s.text or None) for s in self._steps]
        theirs = list(event.record)
        hook, self.on_step = self.on_step, None
        try:
            Match.restart(self, 0, start=now)
            for seat, text in theirs:
                self._append(Step(seat, None, text or "", seat == CHANCE), now)
        finally:
            self.on_step = hook
        if theirs[: len(mine)] != mine:
            self.resets += 1
        return []

    def _adopt(self, event: Began) -> list[Step]:
        """The server's whole match: the steps this replica lacks are played on (shown as
        any step); a record that differs from this one is rebuilt at once (:attr:`resets`)."""
        self.you = event.you if event.you is not None else self.you
        self.sent = None
        self.undo_sent = False
        self._hint_asked = None
        if self.stands_in:
            try:
                return self._adopt_told(event)
            except ValueError as exc:
                self.notices.append(f"The server's match does not fit this game: {exc}")
                return []
        mine = [(s.seat, s.text) for s in self._steps]
        theirs = list(event.record)
        if event.start_seed == self.seed and theirs[: len(mine)] == mine:
            played = []
            for seat, text in theirs[len(mine) :]:
                played.append(self._apply_text(seat, str(text)))
                _log_step(len(self._steps), seat, text)
            return played
        hook, self.on_step = self.on_step, None
        try:
            Match.restart(self, event.start_seed)
            for seat, text in theirs:
                self._apply_text(seat, str(text))
        except (ValueError, TypeError, KeyError) as exc:  # MatchError is a ValueError
            self.notices.append(f"The server's match does not fit this game: {exc}")
        finally:
            self.on_step = hook
        self.resets += 1
        LOG.info("rebuilt the match from the server's record: %d steps", len(self._steps))
        return []

    def _news(self, event: LinkEvent) -> None:
        if isinstance(event, Rejected):
            if event.what in ("act", ""):
                self.sent = None
            if event.what in ("hint", ""):
                self._hint_asked = None
            if event.what in ("undo", ""):
                self.undo_sent = False
            self.notices.append(event.message)
        elif isinstance(event, Hinted):
            self._hint_asked = None
            if event.ply == len(self._steps) and not self.over:
                state = self.state
                try:
                    action = state.parse_action(event.text)
                except (ValueError, TypeError, KeyError):
                    return
                key: Hashable = state.key()
                self.hint_result = Hint(key, action, event.text)
        elif isinstance(event, UndoAsked):
            self.undo_question = event.who
            self.notices.append(f"{event.who} asks to take the last move back: U agrees.")
        elif isinstance(event, Noticed):
            self.notices.append(event.text)


def _log_step(ply: int, seat: int, text: str | None) -> None:
    """One line for each step taken in from the server (``gamehall -v`` shows them), as the
    server sent it: what a window saw, in order, comparable with the server's record."""
    LOG.info("step %d, seat %d: %s", ply, seat, "(hidden)" if text is None else text)
