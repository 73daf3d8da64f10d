"""The bot clients of ``benchmarks/server_load.py``: worker processes, each playing many
matches over many connections (asyncio), every seat a connection of its own.

A seat's client takes its seat (``create`` for seat 0, ``join`` for the others) or resumes it
with the token it kept in the run's folder, plays a fast agent after a think pause, and
reconnects after any drop with a capped back-off. What it measures goes to files (the
process may be killed at any moment): each acknowledged action is appended to the match's
acknowledgement file at once, and each finished match's records, latencies and errors are
written whole to its result file.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.safewrite import write_bytes_atomic
from game.server.replica import Replica


@dataclass(frozen=True)
class Plan:
    """One match of the run: which game, with which options, played by which agent."""

    index: int
    game: str
    agent: str
    seed: int


@dataclass
class Settings:
    """What every worker process needs to play its matches."""

    url: str
    folder: str
    think_ms: float
    max_plies: int
    drop_rate: float


# -- one seat's client ----------------------------------------------------------------------


@dataclass
class MatchRun:
    """What the clients of one match share (they live in one worker process)."""

    plan: Plan
    seats: int
    hiding: bool = False
    code: asyncio.Future[str] | None = None
    sent: dict[int, float] = field(default_factory=dict)  # ply after the act -> send time
    got: dict[int, list[float]] = field(default_factory=dict)  # ply -> update times
    records: dict[int, list[list[Any]]] = field(default_factory=dict)  # seat -> final record
    created: float = 0.0  # when the server answered ``created``
    stranded: str = ""  # why the match cannot go on (a seat's token was lost)
    sockets: set[Any] = field(default_factory=set)
    reconnects: int = 0
    errors: dict[str, int] = field(default_factory=dict)


class Seat:
    """One seat's client: connects, takes or resumes its seat, plays its turns, reconnects
    after any drop with a capped back-off, and ends when the match is over."""

    def __init__(self, run: MatchRun, seat: int, settings: Settings, tokens: dict[str, Any]):
        self.run = run
        self.seat = seat
        self.settings = settings
        self.tokens = tokens  # shared by the match's seats, written to the token file
        self.rng = random.Random(run.plan.seed * 31 + seat)
        self.record: list[list[Any]] = []
        self.over = False
        self.to_move: int | None = None
        self.legal: list[str] = []
        self.pending = -1  # the ply an act of ours waits for
        self.replica: Any = None
        self._turn: asyncio.Task[None] | None = None

    async def play(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        pause = 0.05
        while not self.over and not self.run.stranded:
            try:
                async with connect(self.settings.url, max_size=2**24) as ws:
                    pause = 0.05
                    self.run.sockets.add(ws)
                    try:
                        await self._session(ws)
                    finally:
                        self.run.sockets.discard(ws)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as exc:
                # why connections end, counted with the errors (drop:...)
                code = getattr(getattr(exc, "rcvd", None), "code", "")
                why = f"drop:{type(exc).__name__}{code}"
                self.run.errors[why] = self.run.errors.get(why, 0) + 1
            if self._turn is not None:
                self._turn.cancel()
            if not self.over and not self.run.stranded:
                self.run.reconnects += 1
                await asyncio.sleep(pause * (0.5 + self.rng.random()))
                pause = min(pause * 2, 1.0)
        self.run.records[self.seat] = self.record

    async def _session(self, ws: Any) -> None:
        await ws.send(json.dumps({"type": "hello", "version": 1, "name": f"bot {self.seat}"}))
        token = self.tokens.get(str(self.seat))
        if token is not None:
            code = self.tokens["code"]
            await ws.send(json.dumps({"type": "resume", "code": code, "token": token}))
        elif self.seat == 0:
            await ws.send(json.dumps(self._create()))
        else:
            assert self.run.code is not None
            code = await self.run.code
            await ws.send(json.dumps({"type": "join", "code": code, "seat": self.seat}))
        async for text in ws:
            message = json.loads(text)
            await self._receive(ws, message)
            if self.over:
                return

    def _create(self) -> dict[str, Any]:
        return {
            "type": "create",
            "game": self.run.plan.game,
            "options": {},
            "seats": ["person"] * self.run.seats,
            "you": 0,
            "rules": {"hints": False, "undo": False},
        }

    async def _receive(self, ws: Any, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind in ("created", "joined"):
            self.tokens[str(self.seat)] = message["token"]
            self.tokens["code"] = message["code"]
            _keep_tokens(self.settings.folder, self.run.plan.index, self.tokens)
            if kind == "created":
                self.run.created = time.monotonic()
            if kind == "created" and self.run.code is not None and not self.run.code.done():
                self.run.code.set_result(message["code"])
        elif kind == "snapshot":
            self._snapshot(message)
        elif kind == "update":
            self._update(message)
        elif kind == "error":
            reason = str(message.get("reason"))
            self.run.errors[reason] = self.run.errors.get(reason, 0) + 1
            if str(self.seat) not in self.tokens:  # no seat yet: take it again from the start
                ws.transport.abort()
            elif reason in ("stale", "illegal", "not-your-turn", "busy", "over"):
                # our view is behind the server's: ask for the match again
                self.pending = -1
                code, token = self.tokens.get("code"), self.tokens.get(str(self.seat))
                await ws.send(json.dumps({"type": "resume", "code": code, "token": token}))
            elif reason in ("seat-taken", "no-match", "bad-token"):
                # a join the server kept but whose answer was lost in its death: the seat's
                # token is gone, and the match cannot go on
                self.run.stranded = f"seat {self.seat}: {reason}"
                for socket in self.run.sockets:
                    socket.transport.abort()
            else:  # anything else: a session of this seat begun anew says where it is
                ws.transport.abort()
            return
        else:
            return
        self._maybe_act(ws)

    def _snapshot(self, message: dict[str, Any]) -> None:
        self.record = [[step["seat"], step.get("text")] for step in message["record"]]
        self.over = bool(message["over"])
        self.to_move = message.get("to_move")
        self.legal = list(message.get("legal") or [])
        self.run.hiding = "start_seed" not in message or message["start_seed"] is None
        self.pending = -1
        if not self.run.hiding:
            self.replica = Replica.from_snapshot(message)

    def _update(self, message: dict[str, Any]) -> None:
        ply = int(message["ply"])
        if message["step"] is None and ply == len(self.record):
            self.over = bool(message["over"])  # the match ended with no step (a resignation)
            return
        if ply != len(self.record) + 1:
            return  # a snapshot follows a resume; it brings the record whole
        now = time.monotonic()
        step = message["step"]
        self.record.append([step["seat"], step.get("text")])
        self.run.got.setdefault(ply, []).append(now)
        if ply == self.pending and step["seat"] == self.seat:
            _append_ack(self.settings.folder, self.run.plan.index, ply, self.seat, step["text"])
            self.pending = -1
        if self.replica is not None:
            self.replica.apply(step)
        self.over = bool(message["over"])
        self.to_move = message.get("to_move")
        self.legal = list(message.get("legal") or [])

    def _maybe_act(self, ws: Any) -> None:
        if self.over or self.to_move != self.seat or self.pending >= 0:
            return
        if self._turn is not None and not self._turn.done():
            return
        self._turn = asyncio.create_task(self._act(ws))

    async def _act(self, ws: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await self._think_and_act(ws)
        except (ConnectionError, ConnectionClosed):
            pass  # the session ends and comes back
        except Exception:  # a bug of this client: said, and the connection made again
            traceback.print_exc()
            ws.transport.abort()

    async def _think_and_act(self, ws: Any) -> None:
        think = self.settings.think_ms / 1000
        while True:  # think again when the match moved on while this seat thought
            ply = len(self.record)
            await asyncio.sleep(think * (0.5 + self.rng.random()))
            if self.over or self.to_move != self.seat or self.pending >= 0:
                return
            if ply == len(self.record):
                break
        code, token = self.tokens["code"], self.tokens[str(self.seat)]
        cap = _game(self.run.plan.game).step_cap() or self.settings.max_plies
        if ply >= min(cap, self.settings.max_plies):
            await ws.send(json.dumps({"type": "resign", "code": code, "token": token}))
            return
        action = self._choose()
        self.pending = ply + 1
        self.run.sent[ply + 1] = time.monotonic()
        await ws.send(
            json.dumps({"type": "act", "code": code, "token": token, "ply": ply, "action": action})
        )
        if self.rng.random() < self.settings.drop_rate:
            ws.transport.abort()  # the client dies right after it sent: a lost connection

    def _choose(self) -> str:
        if self.replica is None:
            return str(self.rng.choice(self.legal))
        from game.logic.contract import Limits, Stop

        state = self.replica.state
        agent = _agent(self.run.plan.game, self.run.plan.agent)
        action = agent.choose(state, Limits(time=0.05), self.rng, Stop())
        return str(state.action_text(action))


_GAMES: dict[str, Any] = {}
_AGENTS: dict[tuple[str, str], Any] = {}


def _game(game_id: str) -> Any:
    if game_id not in _GAMES:
        from game import registry

        entry = registry.get(game_id)
        _GAMES[game_id] = entry.make_game(entry.options.validate({}))
    return _GAMES[game_id]


def _agent(game_id: str, name: str) -> Any:
    if (game_id, name) not in _AGENTS:
        from game import registry

        entry = registry.get(game_id)
        _AGENTS[game_id, name] = entry.make_agent(name, entry.options.validate({}))
    return _AGENTS[game_id, name]


def _keep_tokens(folder: str, index: int, tokens: dict[str, Any]) -> None:
    write_whole(Path(folder, "tokens", f"{index}.json"), tokens)


def _append_ack(folder: str, index: int, ply: int, seat: int, text: str) -> None:
    line = json.dumps([index, ply, seat, text]) + "\n"
    fd = os.open(Path(folder, "acks", f"{index}.jsonl"), os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


# -- a worker process: many matches, every seat a connection --------------------------------


def worker(plans: Sequence[Plan], settings: Settings) -> None:
    """Play ``plans`` to their ends; write one result file per match (a file, not a queue:
    this process may be killed while it writes)."""
    asyncio.run(_worker(plans, settings))


async def _worker(plans: Sequence[Plan], settings: Settings) -> None:
    async def one(plan: Plan, delay: float) -> None:
        await asyncio.sleep(delay)
        run = MatchRun(plan, seats=_game(plan.game).seats)
        run.code = asyncio.get_running_loop().create_future()
        path = Path(settings.folder, "tokens", f"{plan.index}.json")
        tokens: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
        if "code" in tokens:
            run.code.set_result(tokens["code"])
        await asyncio.gather(*(Seat(run, s, settings, tokens).play() for s in range(run.seats)))
        latencies = [
            [sent, max(run.got[ply]) - sent]
            for ply, sent in run.sent.items()
            if len(run.got.get(ply, ())) == run.seats
        ]
        result = {
            "index": plan.index,
            "code": tokens.get("code"),
            "game": plan.game,
            "hiding": run.hiding,
            "records": run.records,
            "latencies": latencies,
            "created": run.created,
            "stranded": run.stranded,
            "reconnects": run.reconnects,
            "errors": run.errors,
        }
        write_whole(Path(settings.folder, "results", f"{plan.index}.json"), result)

    for plan in plans:  # every game's rules made before the clock starts
        _game(plan.game)
    outcomes = await asyncio.gather(
        *(one(plan, 0.004 * i) for i, plan in enumerate(plans)), return_exceptions=True
    )
    for plan, outcome in zip(plans, outcomes, strict=True):
        if isinstance(outcome, BaseException):  # a bug of this client: the others went on
            traceback.print_exception(outcome)
            print(f"match {plan.index} ({plan.game}) failed in its client", flush=True)


def write_whole(path: Path, data: Any) -> None:
    """Write ``data`` as JSON whole or not at all (the client may be killed at any moment)."""
    write_bytes_atomic(path, json.dumps(data).encode())
