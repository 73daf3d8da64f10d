"""The window as a client of ``gamehall serve``: a game's own scene playing a match that the
server holds.

:func:`open_match` connects (a :class:`game.server.client.RemoteLink`: the network on a
thread of its own), creates a match with the seats the game's options give (a person: this
window or an open seat; a computer: the server plays it) or joins or watches one by its
code, makes the game's controller as for a local game, and gives it a
:class:`~game.logic.linked.LinkedMatch` in place of its own match: every key, the hint, undo
and the scene work through the controller as ever, and every step comes from the server.
:class:`ServerLink` turns the server's messages into the linked match's events, and says
what the HUD shows (the code to share) and what F3 shows (the server, latency, reconnects).
A game that hides something from each seat plays on a stand-in
(:meth:`~game.logic.contract.Game.stand_in`) where the game can make one. Nothing here names a
game.
"""

from __future__ import annotations

import concurrent.futures
import queue
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from game.logic.linked import (
    Began,
    Hinted,
    LinkedMatch,
    LinkEvent,
    Noticed,
    Rejected,
    Stepped,
    Told,
    UndoAsked,
)
from game.logic.match import Match

if TYPE_CHECKING:
    from game.registry import Entry
    from game.server.client import RemoteLink

__all__ = ["RemoteError", "RemoteGame", "ServerLink", "open_match"]

#: The rules of a match the window creates: undo when every other seat agrees (a computer
#: always does), as at one machine; the server's defaults for the rest (hints allowed).
RULES: Final = {"undo": True}
#: What the window calls a seat nobody holds.
OPEN: Final = "open seat"
#: Seconds to wait for the server's answer while the match is set up (before a window opens).
ANSWER_S: Final = 15.0


class RemoteError(Exception):
    """The match could not be opened on the server; the message says why, in one line."""


class ServerLink:
    """A :class:`~game.logic.linked.MatchLink` over a :class:`RemoteLink` for the match
    ``code``, holding seat ``seat`` with ``token`` (None: watching). ``backlog``: messages
    read before the link was made (the first snapshot)."""

    def __init__(
        self,
        remote: RemoteLink,
        address: str,
        code: str,
        seat: int | None,
        token: str | None,
        names: list[str],
        backlog: list[dict[str, Any]] | None = None,
    ) -> None:
        self.remote, self.address, self.code = remote, address, code
        self.seat, self.token, self.names = seat, token, names
        self._backlog = list(backlog or ())
        self._sending: list[tuple[concurrent.futures.Future[int], str]] = []
        self._asked: dict[int, str] = {}  # the id of each request sent: what it was
        self._online = True
        self._closed = False

    # -- what the window shows ------------------------------------------------------------

    def note(self) -> str:
        """After the HUD's title: the code to share, and whether the connection is lost."""
        if self._closed:
            return ""
        if self.seat is None:
            held = "watching"
        else:
            held = "share it to play" if OPEN in self.names else "share it to watch"
        lost = "" if self._online else "   connection lost: trying again"
        return f"code {self.code} ({held}){lost}"

    def invitation(self) -> str:
        """The line ``gamehall play`` prints: the match, and how another window joins it."""
        held = "watching" if self.seat is None else f"seat {self.seat}"
        return (
            f"match {self.code} ({held}): join with gamehall play --join {self.code}@{self.address}"
        )

    def lines(self) -> list[str]:
        """The F3 overlay's lines about the connection."""
        if self._closed:
            return []
        latency = self.remote.latency_ms
        you = "watching" if self.seat is None else f"seat {self.seat} ({self.names[self.seat]})"
        return [
            f"Server ws://{self.address}",
            f"Match {self.code}, {you}",
            "Connected" if self._online else "Connection lost: trying again",
            f"Latency {latency:.0f} ms" if latency is not None else "Latency: not measured yet",
            f"Reconnects {self.remote.reconnects}",
        ]

    # -- MatchLink -----------------------------------------------------------------------------

    def events(self) -> list[LinkEvent]:
        out: list[LinkEvent] = []
        online = self.remote.client.connected
        if online != self._online:
            self._online = online
            text = "Connected to the server again." if online else "Connection lost: trying again."
            out.append(Noticed(text))
        still = []
        for future, what in self._sending:
            if not future.done():
                still.append((future, what))
            elif future.exception() is not None:
                out.append(Rejected(what, "Not connected to the server: try again in a moment."))
            else:
                self._asked[future.result()] = what
        self._sending = still
        messages, self._backlog = self._backlog, []
        while True:
            try:
                messages.append(self.remote.messages.get_nowait())
            except queue.Empty:
                break
        for message in messages:
            event = self._event(message)
            if event is not None:
                out.append(event)
        return out

    def act(self, ply: int, text: str) -> None:
        self._send("act", ply=ply, action=text)

    def hint(self) -> None:
        self._send("hint")

    def undo(self) -> None:
        self._send("undo")

    def answer_undo(self, accept: bool) -> None:
        self._send("undo-answer", accept=accept)

    def resync(self) -> None:
        if self.token is not None:
            self._send("resume")
        else:
            self._send("watch")

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.remote.close()

    # -- inside --------------------------------------------------------------------------------

    def _send(self, kind: str, **fields: Any) -> None:
        held = {"token": self.token} if self.token is not None else {}
        future = self.remote.send(kind, code=self.code, **held, **fields)
        self._sending.append((future, kind if kind in ("act", "hint", "undo") else ""))

    def _event(self, message: Mapping[str, Any]) -> LinkEvent | None:
        """The event a message of the server means for this match (None: nothing)."""
        kind = message.get("type")
        if message.get("code", self.code) != self.code:
            return None
        try:
            if kind == "snapshot":
                self._name(message.get("seats") or ())
                record = tuple((int(s["seat"]), _text(s["text"])) for s in message["record"])
                you = message.get("you")
                start = message.get("start_seed")
                return Began(
                    None if start is None else int(start),
                    record,
                    None if you is None else int(you),
                    _told(message),
                )
            if kind == "update":
                step = message["step"]
                text = _text(step["text"])
                return Stepped(int(message["ply"]), int(step["seat"]), text, _told(message))
            if kind == "error":
                what = self._asked.pop(message.get("re", -1), "")
                return Rejected(what, str(message.get("message") or message.get("reason")))
            if kind == "hint":
                return Hinted(int(message["ply"]), str(message["action"]))
            if kind == "undo-asked":
                return UndoAsked(self._who(message.get("seat")))
            if kind == "undo-refused":
                return Rejected("undo", f"{self._who(message.get('seat'))} keeps the move.")
            if kind == "seats":
                before = list(self.names)
                self._name(message.get("seats") or ())
                came = [n for b, n in zip(before, self.names, strict=True) if n not in (b, OPEN)]
                if came:
                    return Noticed(f"{', '.join(came)} took a seat.")
        except (KeyError, TypeError, ValueError, IndexError):
            return Noticed(f"The server sent a {kind} this window cannot read.")
        return None

    def _who(self, seat: Any) -> str:
        """The name of ``seat`` (a number the server sent), or "Another player"."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return "Another player"

    def _name(self, seats: Any) -> None:
        for seat in seats:
            index = int(seat["seat"])
            if 0 <= index < len(self.names):
                self.names[index] = seat_name(seat)


def _text(value: Any) -> str | None:
    """A step's text as the server sent it (None: another seat's step in a hiding match)."""
    return None if value is None else str(value)


def _told(message: Mapping[str, Any]) -> Told | None:
    """What a hiding match's message tells this seat of the position (None: a public
    match's, which tells no view with its steps)."""
    if "view" not in message or message.get("start_seed") is not None:
        return None
    legal = message.get("legal")
    result = message.get("result")
    return Told(
        message["view"],
        None if legal is None else tuple(str(t) for t in legal),
        None if result is None else str(result),
    )


def seat_name(seat: Mapping[str, Any]) -> str:
    """What the window calls a seat of the server's ``seats``: its holder's name, the
    computer with its agent, or an open seat."""
    if seat.get("kind") == "open":  # the server names it by the game's side ("White")
        return OPEN
    if seat.get("agent"):
        return f"computer ({str(seat['agent']).replace('-', ' ')})"
    name = seat.get("name")
    return str(name) if name else OPEN


@dataclass
class RemoteGame:
    """A game's controller playing a match on a server, and its link."""

    game: str
    controller: Any
    link: ServerLink


def open_match(
    entry: Entry | None,
    make_session: Any,
    address: str,
    *,
    code: str = "",
    watch: bool = False,
    name: str = "gamehall",
    rules: Mapping[str, Any] | None = RULES,
) -> RemoteGame:
    """Create a match of ``entry``'s game on the server at ``address`` (``code`` empty), or
    join or ``watch`` the match ``code``; returns its controller, playing the server's match.
    ``make_session(entry, options)`` gives the session a controller is made with (None:
    the options the person set). Raises :class:`RemoteError` with one line."""
    from game.registry import UnknownGameError, get
    from game.server.address import parse_address
    from game.server.client import Refused as ServerRefused
    from game.server.client import RemoteLink, Unreachable

    try:
        host, port = parse_address(address)
    except ValueError as exc:
        raise RemoteError(str(exc)) from None
    remote = RemoteLink(host, port, name=name)
    backlog: list[dict[str, Any]] = []
    try:
        try:
            remote.start().result(timeout=ANSWER_S)
            if not code:
                assert entry is not None
                controller = entry.controller_class()(make_session(entry, None))
                _check_plays(entry, controller)
                seats, you = seats_of(controller.match)
                controller.match.close()  # only its seats and options are wanted
                if you is None:
                    raise RemoteError(
                        f"every seat of this {entry.title} is a computer's: give one to a "
                        "person (its option's value human)"
                    )
                fields: dict[str, Any] = {"game": entry.id, "seats": seats}
                # The options the person changed: the server's schema fills in the rest.
                defaults = entry.options.validate({})
                fields["options"] = {
                    k: v for k, v in controller.options.items() if defaults.get(k) != v
                }
                fields["you"] = you
                if rules:
                    fields["rules"] = dict(rules)
                answer = _answer(remote, remote.request("create", **fields), backlog)
            elif watch:
                answer = _answer(remote, remote.request("watch", code=code), backlog)
            else:
                answer = _answer(remote, remote.request("join", code=code), backlog)
        except (ServerRefused, Unreachable) as exc:
            raise RemoteError(_said(exc)) from None
        except (concurrent.futures.TimeoutError, ConnectionError) as exc:
            raise RemoteError(
                f"the server at {address} did not answer: {str(exc) or 'no answer in time'}"
            ) from None
        code = str(answer.get("code") or code)
        token = answer.get("token")
        seat = answer.get("seat")
        if token is not None:  # the client resumes the seat by it after a reconnect
            held = remote.client.match(code)
            held.token, held.seat = token, seat
        snapshot = _first_snapshot(remote, code, backlog)
        try:
            entry = get(str(snapshot["game"]))
        except UnknownGameError:
            raise RemoteError(f"this gamehall has no game {snapshot['game']!r}") from None
        options = dict(snapshot.get("options") or {})
        if snapshot.get("start_seed") is None and not _stands_in(
            entry.game(options), snapshot.get("view"), seat
        ):  # before a controller is made: the window could not show the match
            raise RemoteError(
                f"match {code} hides what each player sees, and the window cannot play "
                f"{entry.title} from one seat's view yet (gamehall bot can)"
            )
        controller = entry.controller_class()(make_session(entry, options))
        _check_plays(entry, controller)
        seats_given = snapshot.get("seats") or ()
        names = [seat_name(s) for s in seats_given] or [OPEN] * entry.game(options).seats
        link = ServerLink(remote, address, code, seat, token, names, backlog)
    except BaseException:
        remote.close()
        raise
    start_seed = snapshot.get("start_seed")
    follow(controller, link, seat, None if start_seed is None else int(start_seed))
    return RemoteGame(entry.id, controller, link)


def follow(controller: Any, link: Any, seat: int | None, start_seed: int | None) -> LinkedMatch:
    """Give ``controller`` a linked match over ``link`` in place of its own (closed): the
    server's match as the first snapshot has it, shown at once, then step by step
    (``start_seed`` None: a hiding match, played on a stand-in)."""
    own = controller.match
    names = getattr(link, "names", None) or ["another player"] * own.game.seats
    linked = LinkedMatch(own.game, link, seat, names, start_seed=start_seed)
    linked.poll()  # the match so far, before the scene shows it
    linked.on_step = own.on_step
    own.on_step = None
    own.close()
    controller.match = linked
    return linked


def seats_of(match: Any) -> tuple[list[Any], int | None]:
    """The seats a local ``match`` has, as the server's ``create`` takes them: its first
    person is this window, the others open; an agent is the server's computer of that
    name. Also the seat this window takes (None: none is a person's)."""
    seats: list[Any] = []
    you: int | None = None
    for index, agent in enumerate(match.seats):
        if agent is not None:
            seats.append({"agent": agent.name})
        elif you is None:
            you = index
            seats.append("person")
        else:
            seats.append("open")
    return seats, you


def _check_plays(entry: Entry, controller: Any) -> None:
    """Refuse, in a RemoteError, a game whose scene makes its match only when it opens or
    shows no step it did not play itself, and one that hides something from a seat unless
    the game makes a stand-in and the scene plays on one (``plays_stand_in``: it shows only
    what its seat may know)."""
    from game.server.views import game_hides, to_json

    match = getattr(controller, "match", None)
    if not isinstance(match, Match) or match.on_step is None:
        # Its match is made when the scene opens, or the scene shows only the steps it plays
        # itself: a step that comes from the server would never be shown.
        raise RemoteError(f"{entry.title} cannot be played on a server from the window yet")
    if game_hides(match.game, [match.state]):
        seats = [s for s, agent in enumerate(match.seats) if agent is None] or [-1]
        view = to_json(match.state.observation(seats[0]))
        if not getattr(controller, "plays_stand_in", False) or not _stands_in(
            match.game, view, seats[0]
        ):
            match.close()
            raise RemoteError(
                f"{entry.title} hides what each player sees, and the window cannot play it "
                "from one seat's view yet (gamehall bot can)"
            )


def _stands_in(game: Any, view: Any, seat: int | None) -> bool:
    """Whether ``game`` makes a stand-in from ``view`` (what ``seat`` sees: None, a
    spectator) that a window can play a hiding match on."""
    import random

    try:
        state = game.stand_in(view, -1 if seat is None else seat, random.Random(0))
    except ValueError:
        return False
    return state is not None


def _answer(
    remote: RemoteLink, future: concurrent.futures.Future[dict[str, Any]], backlog: list[Any]
) -> dict[str, Any]:
    """The answer ``future`` gives, or the ``error`` the server sent for a message it could not
    read (that names no request) as a RemoteError; the other messages that came meanwhile go
    to ``backlog``."""
    until = time.monotonic() + ANSWER_S
    while True:
        try:
            return future.result(timeout=0.05)
        except concurrent.futures.TimeoutError:
            if time.monotonic() > until:
                raise
        while True:
            try:
                message = remote.messages.get_nowait()
            except queue.Empty:
                break
            if message.get("type") == "error" and message.get("re") is None:
                raise RemoteError(f"the server refused it: {message.get('message')}")
            backlog.append(message)


def _first_snapshot(remote: RemoteLink, code: str, backlog: list[dict[str, Any]]) -> dict[str, Any]:
    """Wait for the match's first snapshot (in ``backlog`` already, or to come); every message
    read meanwhile goes to ``backlog``."""
    for message in backlog:
        if message.get("type") == "snapshot" and message.get("code") == code:
            return message
    until = time.monotonic() + ANSWER_S
    while True:
        left = until - time.monotonic()
        if left <= 0:
            raise RemoteError(f"the server sent no snapshot of match {code}")
        try:
            message = remote.messages.get(timeout=left)
        except queue.Empty:
            continue
        backlog.append(message)
        if message.get("type") == "snapshot" and message.get("code") == code:
            return message


def _said(exc: BaseException) -> str:
    """A refusal or a failed connection in one line."""
    message = getattr(exc, "message", "") or str(exc)
    return str(message).splitlines()[0] if message else type(exc).__name__
