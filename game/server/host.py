"""The host: every match the server plays, in memory and in its store, with no socket.

:meth:`MatchHost.handle` takes one checked message (:func:`game.server.protocol.parse`) from a
client (any hashable object the caller uses for a connection) and answers through the
``send(client, text)`` function the host was made with: the answer to the sender, and each
step to every client of the match as that client may see it (:mod:`game.server.views`). A
refusal is an ``error`` to the sender and changes nothing. Computer seats think in a shared
executor; their choice comes back through ``schedule`` (the event loop's
``call_soon_threadsafe``) and is checked like a person's act: the ply it was found for must
still be the record's length. Made again on the same store, the host resumes every
unfinished match: the same record, the same state, its computer seats thinking again.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import hmac
import logging
import os
import queue
import random
import secrets
import time
from collections.abc import Callable, Hashable
from typing import Any

from game import registry
from game.logic.contract import Limits, Stop
from game.logic.match import MatchError
from game.logic.thinking import choose, describe
from game.server.matches import Seat, ServerMatch, seated_options, welcome_games
from game.server.protocol import CODE_ALPHABET, CODE_LENGTH, VERSION, ProtocolError, encode
from game.server.store import KeptMatch, MatchProgress, MatchStore, StoreError

__all__ = ["MatchHost"]

log = logging.getLogger(__name__)

Client = Hashable
Send = Callable[[Client, str], None]


def _refuse(reason: str, message: str) -> ProtocolError:
    return ProtocolError(reason, message)


class MatchHost:
    """The matches; see the module docstring. ``name`` is the server's, said in ``welcome``."""

    def __init__(
        self,
        store: MatchStore,
        send: Send,
        *,
        executor: concurrent.futures.Executor | None = None,
        schedule: Callable[[Callable[[], None]], None] | None = None,
        name: str = "gamehall",
    ) -> None:
        self.store = store
        self.send = send
        self.name = name
        self._own_executor = executor is None
        self.executor = executor or concurrent.futures.ThreadPoolExecutor(
            max_workers=os.cpu_count() or 2, thread_name_prefix="gamehall-server-think"
        )
        self._pending: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self.schedule = schedule or self._pending.put
        # A host on an event loop (``schedule`` given) builds a new match's start apart (a
        # MasterGrab map takes a good part of a second), so that no connection waits for it;
        # one without (tests) builds it in place, the answer there when ``handle`` returns.
        self._builder = (
            concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="gamehall-server-build")
            if schedule is not None
            else None
        )
        self._reserved: set[str] = set()  # codes of matches being built
        self.matches: dict[str, ServerMatch] = {}
        self.clients: dict[Client, dict[str, int | None]] = {}  # client -> code -> seat
        self.names: dict[Client, str] = {}
        self.damaged: list[str] = []
        self._hints = 0  # hints being found now
        self._resume_all()

    # -- the one way in ---------------------------------------------------------------------

    def handle(self, client: Client, message: dict[str, Any]) -> None:
        """Act on one checked message from ``client``; every answer goes through ``send``."""
        kind = message["type"]
        re = message.get("id")
        try:
            getattr(self, "_on_" + kind.replace("-", "_"))(client, message, re)
        except ProtocolError as exc:
            self.refused(client, kind, exc, re, message.get("code"))
        except Exception:  # our bug: said to the client, logged, the server goes on
            log.exception("%s from %s failed", kind, client)
            self.error(client, "server", "the server failed on this message (logged)", re)

    def error(self, client: Client, reason: str, message: str, re: Any = None, **more: Any) -> None:
        self.send(client, encode("error", re=re, reason=reason, message=message, **more))

    def refused(
        self, client: Client, kind: str, exc: ProtocolError, re: Any = None, code: Any = None
    ) -> None:
        """Tell ``client`` why its ``kind`` message was refused, and log it in a line."""
        log.info("refused %s from %s: %s (%s)", kind, client, exc.reason, exc.message)
        extra = {"code": code} if isinstance(code, str) else {}
        self.error(client, exc.reason, exc.message, re, **extra)

    def drop(self, client: Client) -> None:
        """``client``'s connection closed: it leaves every match it followed (its seats stay
        its own: the token resumes them)."""
        self.names.pop(client, None)
        for code, seat in self.clients.pop(client, {}).items():
            match = self.matches.get(code)
            if match is None:
                continue
            match.clients.pop(client, None)
            if seat is not None:
                self._broadcast_seats(match)
            if match.over and not match.clients:
                self._forget(match)

    def pump(self, timeout: float | None = None) -> bool:
        """Run one thinking result that came back (a host made without ``schedule``: tests);
        False when none came within ``timeout`` seconds."""
        try:
            callback = self._pending.get(timeout=timeout)
        except queue.Empty:
            return False
        callback()
        return True

    def thinking(self) -> int:
        """How many computer choices are being made now."""
        return self._hints + sum(1 for m in self.matches.values() if m.job is not None)

    def close(self) -> None:
        """Stop every computer seat's thinking; the store stays open (its owner closes it)."""
        for match in self.matches.values():
            match.stop_thinking()
        if self._own_executor:
            self.executor.shutdown(wait=False, cancel_futures=True)
        if self._builder is not None:
            self._builder.shutdown(wait=False, cancel_futures=True)

    def status(
        self, latency: Callable[[Client], float | None] | None = None
    ) -> list[dict[str, Any]]:
        """Every match: code, game, ply, over, and each seat with who holds it."""
        found = []
        for match in self.matches.values():
            seats = []
            for number, seat in enumerate(match.seats):
                holders = [c for c, s in match.clients.items() if s == number]
                lag = [latency(c) for c in holders] if latency else []
                known = [x for x in lag if x is not None]
                seats.append(
                    {
                        "seat": number,
                        "kind": seat.kind,
                        "name": seat.name or match.game.seat_name(number),
                        "connected": bool(holders),
                        "latency_ms": round(min(known) * 1000, 1) if known else None,
                    }
                )
            found.append(
                {
                    "code": match.code,
                    "game": match.entry.id,
                    "ply": match.ply,
                    "over": match.over,
                    "seats": seats,
                    "watchers": sum(1 for s in match.clients.values() if s is None),
                }
            )
        return found

    # -- the messages -----------------------------------------------------------------------

    def _on_hello(self, client: Client, message: dict[str, Any], re: Any) -> None:
        if message["version"] != VERSION:
            raise _refuse("version", f"this server speaks version {VERSION}")
        self.names[client] = message.get("name", "")
        self.send(
            client,
            encode("welcome", re=re, version=VERSION, server=self.name, games=welcome_games()),
        )

    def _on_ping(self, client: Client, message: dict[str, Any], re: Any) -> None:
        self.send(client, encode("pong", re=re, t=message["t"], server_time=time.time()))

    def _on_status(self, client: Client, message: dict[str, Any], re: Any) -> None:
        self.send(client, encode("status", re=re, matches=self.status()))

    def _on_create(self, client: Client, message: dict[str, Any], re: Any) -> None:
        try:
            entry = registry.get(message["game"])
        except registry.UnknownGameError as exc:
            raise _refuse("bad-message", str(exc)) from None
        try:
            options = entry.options.validate(dict(message.get("options", {})))
            game = entry.make_game(options)
        except ValueError as exc:
            raise _refuse("bad-message", f"options: {exc}") from None
        asked = message.get("seats") or ["person"] + ["open"] * (game.seats - 1)
        if len(asked) != game.seats:
            raise _refuse("bad-message", f"{entry.id} with these options has {game.seats} seats")
        seats = [Seat.asked(item) for item in asked]
        listed = entry.agents()
        for seat in seats:
            if seat.kind == "agent" and seat.agent not in listed:
                raise _refuse(
                    "bad-message", f"{entry.id} has no agent {seat.agent!r}: {', '.join(listed)}"
                )
        options = seated_options(entry, options, seats)
        you = message.get("you")
        if you is None:
            you = next((n for n, s in enumerate(seats) if s.kind == "open"), None)
        elif you >= len(seats) or seats[you].kind != "open":
            raise _refuse("bad-message", f"seat {you} is not a person's seat")
        rules = {"hints": True, "undo": False, "spectators": "public", "think": 1.0}
        rules |= message.get("rules", {})
        kept = KeptMatch(
            self._new_code(),
            entry.id,
            options,
            rules,
            random.randrange(2**31),
            secrets.randbits(62),
            [s.kept() for s in seats],
        )
        if self._builder is None:
            self._made(client, re, kept, seats, you, ServerMatch.made(kept, entry, game))
            return
        self._reserved.add(kept.code)
        future = self._builder.submit(ServerMatch.made, kept, entry, game)

        def made(done: concurrent.futures.Future[ServerMatch]) -> None:
            self._reserved.discard(kept.code)
            try:  # as handle() would have answered, had it been built there
                self._made(client, re, kept, seats, you, done.result())
            except ProtocolError as exc:
                self.refused(client, "create", exc, re)
            except Exception:  # our bug, or the game's: said, logged, nothing kept
                log.exception("building match %s of %s failed", kept.code, entry.id)
                self.error(client, "server", "the server failed to start this match (logged)", re)

        future.add_done_callback(lambda done: self.schedule(lambda: made(done)))

    def _made(
        self,
        client: Client,
        re: Any,
        kept: KeptMatch,
        seats: list[Seat],
        you: int | None,
        match: ServerMatch,
    ) -> None:
        """A created match is built: keep it, answer its creator, start its computer seats."""
        token = None
        if you is not None:
            token = seats[you].take(self.names.get(client, ""))
            kept.seats[you] = seats[you].kept()
            match.seats[you] = Seat.from_kept(kept.seats[you])
        kept.steps = match.steps_from(0)
        kept.key_digest = match.key_digest()
        kept.status = "over" if match.over else "live"
        self.store.create(kept)
        self.matches[kept.code] = match
        if you is not None:
            self.send(client, encode("created", re=re, code=match.code, seat=you, token=token))
        else:
            self.send(client, encode("created", re=re, code=match.code, seat=None, token=None))
        self._follow(client, match, you)
        self._think(match)

    def _on_join(self, client: Client, message: dict[str, Any], re: Any) -> None:
        match = self._match(message)
        number = message.get("seat")
        if number is None:
            number = next((n for n, s in enumerate(match.seats) if s.kind == "open"), None)
            if number is None:
                raise _refuse("seat-taken", "every seat of this match is taken")
        elif number >= len(match.seats):
            raise _refuse("bad-message", f"the match has {len(match.seats)} seats")
        elif match.seats[number].kind != "open":
            raise _refuse("seat-taken", f"seat {number} is taken")
        token = match.seats[number].take(self.names.get(client, ""))
        self.store.seats(match.code, [s.kept() for s in match.seats])
        self.send(client, encode("joined", re=re, code=match.code, seat=number, token=token))
        self._follow(client, match, number)
        self._broadcast_seats(match)

    def _on_watch(self, client: Client, message: dict[str, Any], re: Any) -> None:
        match = self._match(message)
        if match.rules["spectators"] == "none":
            raise _refuse("not-allowed", "this match has no spectators")
        self._follow(client, match, None, re)

    def _on_resume(self, client: Client, message: dict[str, Any], re: Any) -> None:
        match, seat = self._seat_of(message)
        self._follow(client, match, seat, re)
        self._broadcast_seats(match)

    def _on_act(self, client: Client, message: dict[str, Any], re: Any) -> None:
        match, seat = self._seat_of(message)
        self._playing(match)
        if message["ply"] != match.ply:
            raise _refuse("stale", f"the match is at ply {match.ply}, not {message['ply']}")
        if match.state.current_player() != seat:
            raise _refuse("not-your-turn", f"it is not {match.game.seat_name(seat)}'s turn")
        before = match.ply
        try:
            action = match.state.parse_action(message["action"])
            match.match.play_any(action)
        except (ValueError, TypeError, KeyError, MatchError) as exc:
            match.cut(before)
            raise _refuse("illegal", str(exc) or "not a legal action here") from None
        self._accepted(match, before)

    def _on_hint(self, client: Client, message: dict[str, Any], re: Any) -> None:
        match, seat = self._seat_of(message)
        self._playing(match)
        if not match.rules["hints"]:
            raise _refuse("not-allowed", "this match gives no hints")
        if match.state.current_player() != seat:
            raise _refuse("not-your-turn", "a hint is for the seat to move")
        ply, state = match.ply, match.state
        agent = match.entry.make_agent(match.entry.hint_agent, match.game.options)
        limits = Limits(time=match.rules["think"])
        rng = random.Random(secrets.randbits(64))
        future = self.executor.submit(choose, agent, state, limits, rng, Stop())

        self._hints += 1

        def answer() -> None:
            self._hints -= 1
            action, error, _ = future.result()
            if error is not None:
                self.error(client, "server", f"the hint failed: {describe(error)}", re)
                return
            text = state.action_text(action)
            note = getattr(agent, "explain", lambda: "")()
            self.send(
                client, encode("hint", re=re, code=match.code, ply=ply, action=text, text=str(note))
            )

        future.add_done_callback(lambda _: self.schedule(answer))

    def _on_undo(self, client: Client, message: dict[str, Any], re: Any) -> None:
        match, seat = self._seat_of(message)
        self._playing(match)
        if not match.rules["undo"]:
            raise _refuse("not-allowed", "this match allows no undo")
        target = match.undo_target(seat)
        if target is None:
            raise _refuse("not-allowed", "there is no move of yours to take back")
        match.undo = {"seat": seat, "ply": match.ply, "to": target, "yes": {seat}}
        for other, holder in match.clients.items():
            if holder is not None and holder != seat:
                self.send(other, encode("undo-asked", code=match.code, seat=seat, ply=match.ply))
        self._settle_undo(match)

    def _on_undo_answer(self, client: Client, message: dict[str, Any], re: Any) -> None:
        match, seat = self._seat_of(message)
        asked = match.undo
        if asked is None or asked["ply"] != match.ply:
            raise _refuse("stale", "no undo is asked now")
        if not message["accept"]:
            match.undo = None
            for other in match.clients:
                self.send(other, encode("undo-refused", code=match.code, seat=seat))
            return
        asked["yes"].add(seat)
        self._settle_undo(match)

    def _on_resign(self, client: Client, message: dict[str, Any], re: Any) -> None:
        match, seat = self._seat_of(message)
        self._playing(match)
        before = match.ply
        match.ended_by = f"{match.game.seat_name(seat)} resigned"
        match.stop_thinking()
        self._accepted(match, before)

    def _on_leave(self, client: Client, message: dict[str, Any], re: Any) -> None:
        match, seat = self._seat_of(message)
        match.seats[seat] = Seat("open")
        self.store.seats(match.code, [s.kept() for s in match.seats])
        for other, holder in list(match.clients.items()):
            if holder == seat:
                match.clients[other] = None
                self.clients.get(other, {})[match.code] = None
        self._broadcast_seats(match)

    # -- steps ------------------------------------------------------------------------------

    def _accepted(self, match: ServerMatch, before: int) -> None:
        """The match moved on from ply ``before`` (an act, a computer's choice, a resignation):
        play its chance steps, keep it in one transaction, tell every client, think on."""
        match.play_chance()
        try:
            self.store.record(
                match.code,
                before,
                match.steps_from(before),
                MatchProgress(match.key_digest(), "over" if match.over else "live", match.ended_by),
            )
        except StoreError as exc:  # not kept, not played: the match stays as it was
            log.error("match %s: the step is not kept: %s", match.code, exc)
            match.cut(before)
            match.ended_by = None
            raise _refuse("server", "the server could not keep the step; try again") from None
        match.undo = None
        for client, seat in match.clients.items():
            for ply in range(before + 1, match.ply + 1):
                self.send(client, match.update(ply, seat))
            if match.ended_by is not None and match.ply == before:
                self.send(client, match.update(before, seat, stepped=False))
        if match.over and not match.clients:  # kept in the store; nobody to tell any more
            self._forget(match)
        self._think(match)

    def _think(self, match: ServerMatch) -> None:
        """Start the computer seat to move thinking, if it is one's turn."""
        if match.over or match.job is not None:
            return
        seat = match.state.current_player()
        if not 0 <= seat < len(match.seats) or match.seats[seat].kind != "agent":
            return
        ply, state, stop = match.ply, match.state, Stop()
        agent = match.agent(seat)
        limits = Limits(time=match.rules["think"])
        rng = random.Random(secrets.randbits(64))
        future = self.executor.submit(choose, agent, state, limits, rng, stop)
        match.job = (ply, stop)
        future.add_done_callback(
            lambda done: self.schedule(lambda: self._thought(match, stop, done))
        )

    def _thought(
        self, match: ServerMatch, stop: Stop, future: concurrent.futures.Future[Any]
    ) -> None:
        """A computer seat's choice came back: played if it is still the match's own job (no
        undo, no resignation since) and the record is still as long as when it started."""
        if match.job is None or match.job[1] is not stop or future.cancelled():
            return
        ply = match.job[0]
        match.job = None
        if self.matches.get(match.code) is not match or match.over or match.ply != ply:
            return
        try:
            self._play_thought(match, ply, future)
        except ProtocolError:
            pass  # said in the log; the seat thinks again at the next step or start
        except Exception:
            log.exception("match %s: the computer's step failed", match.code)

    def _play_thought(
        self, match: ServerMatch, ply: int, future: concurrent.futures.Future[Any]
    ) -> None:
        action, error, _ = future.result()
        seat = match.state.current_player()
        try:
            if error is not None:
                raise MatchError(describe(error))
            match.match.play_any(action)
        except (ValueError, TypeError, KeyError, MatchError) as exc:
            # The seat waits (a person's undo or resignation moves the match on; a restart
            # of the server lets it think again): a broken agent never ends a match by itself.
            match.cut(ply)
            who = match.game.seat_name(seat)
            log.warning(
                "match %s: %s (%s) failed: %s", match.code, who, match.seats[seat].agent, exc
            )
            return
        self._accepted(match, ply)

    def _settle_undo(self, match: ServerMatch) -> None:
        asked = match.undo
        if asked is None:
            return
        persons = {n for n, s in enumerate(match.seats) if s.kind == "person"}
        if not persons <= asked["yes"]:
            return
        match.undo = None
        match.stop_thinking()
        match.match.jump(asked["to"])
        match.cut(asked["to"])
        self.store.record(match.code, asked["to"], [], MatchProgress(match.key_digest()))
        for client, seat in match.clients.items():
            self.send(client, encode("snapshot", **match.snapshot(seat)))
        self._think(match)

    # -- the inside -------------------------------------------------------------------------

    def _follow(self, client: Client, match: ServerMatch, seat: int | None, re: Any = None) -> None:
        match.clients[client] = seat
        self.clients.setdefault(client, {})[match.code] = seat
        self.send(client, encode("snapshot", re=re, **match.snapshot(seat)))

    def _broadcast_seats(self, match: ServerMatch) -> None:
        text = encode("seats", code=match.code, seats=match.public_seats())
        for client in match.clients:
            self.send(client, text)

    def _match(self, message: dict[str, Any]) -> ServerMatch:
        code = message["code"]
        match = self.matches.get(code)
        if match is None:  # a finished match let go from memory: its record is in the store
            kept = self.store.finished(code)
            try:
                match = ServerMatch.resumed(kept) if kept is not None else None
            except Exception as exc:  # a game gone since: as good as no match
                log.error("finished match %s does not rebuild: %s", code, exc)
            if match is None:
                raise _refuse("no-match", f"no match has the code {code}")
            self.matches[code] = match
        return match

    def _seat_of(self, message: dict[str, Any]) -> tuple[ServerMatch, int]:
        match = self._match(message)
        digest = hashlib.sha256(message["token"].encode()).hexdigest()
        for number, seat in enumerate(match.seats):
            if seat.token and hmac.compare_digest(seat.token, digest):
                return match, number
        raise _refuse("bad-token", "this token holds no seat of the match")

    def _playing(self, match: ServerMatch) -> None:
        if match.over:
            raise _refuse("over", "the match is over")

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.matches and code not in self._reserved and not self.store.has(code):
                return code

    def _forget(self, match: ServerMatch) -> None:
        match.stop_thinking()
        self.matches.pop(match.code, None)

    def _resume_all(self) -> None:
        """Rebuild every unfinished match of the store; one that does not rebuild is logged
        and marked damaged, and the rest go on."""
        for kept in self.store.unfinished():
            try:
                match = ServerMatch.resumed(kept)
            except Exception as exc:  # a game gone, an action no longer legal: kept aside
                why = f"{type(exc).__name__}: {exc}"
                log.error(
                    "match %s (%s) does not resume: %s; marked damaged", kept.code, kept.game, why
                )
                self.store.damaged(kept.code, why)
                self.damaged.append(kept.code)
                continue
            self.matches[kept.code] = match
            self._think(match)
