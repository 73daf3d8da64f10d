"""``gamehall bot``: a seat of a server's match played by one of the game's agents.

The bot joins a match (``--join CODE@HOST:PORT``) or creates one (``--host HOST:PORT --game
GAME``, printing its code so that another bot or a friend can join), then waits for its turn.
In a public match it asks the agent (``entry.make_agent(name, options)``: any agent the game
lists, MasterGrab's robot files included, which run in their sandbox as they do in a window)
to choose on its :class:`~game.server.client.Replica`, the state rebuilt from the steps the
server sent. A match that hides something sends no state to rebuild: the bot then picks among
the ``legal`` texts it is sent, with the ``random`` agent only. It ends at the match's end,
printing the result.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from game.logic.contract import Limits, Stop
from game.server.client import Client, Refused, RemoteMatch, Unreachable

__all__ = ["BotError", "BotPlan", "play", "run_bot"]

log = logging.getLogger(__name__)

#: The one agent a bot plays a hiding match with: it needs nothing but the legal texts.
BLIND_AGENT: Final = "random"
#: Refusals of one ply after which the bot gives up (its replica and the server disagree).
MAX_REFUSALS: Final = 3
#: Seconds the bot waits before sending again an action the server's rate limit refused.
BUSY_PAUSE: Final = 0.2


class BotError(Exception):
    """What stops a bot, in one line (an agent the match cannot use, a refused seat)."""


@dataclass(frozen=True)
class BotPlan:
    """What a bot does: join ``code`` (taking ``seat``, or the first open one), or, with no
    code, create a match of ``game`` with ``seats`` (``"bot"`` marks the seat the bot takes,
    ``"open"`` one for a friend, any other word an agent the server plays)."""

    host: str
    port: int
    code: str | None = None
    seat: int | None = None
    agent: str | None = None
    think: float = 1.0
    game: str | None = None
    seats: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    name: str = "gamehall bot"
    seed: int | None = None


async def play(plan: BotPlan, say: Callable[[str], None] = print) -> str:
    """Play ``plan``'s seat to the match's end; returns the result line. ``say`` gets the
    lines a person reads (the code of a created match, the agent used). Raises
    :class:`BotError`, :class:`~game.server.client.Unreachable` or
    :class:`~game.server.client.Refused`."""
    client = Client(plan.host, plan.port, name=plan.name)
    await client.connect()
    try:
        remote = await _seat(client, plan, say)
        try:
            return await play_seat(client, remote, plan, say)
        except BotError:
            with contextlib.suppress(ConnectionError):
                await client.leave(remote.code)  # no answer comes: it is sent before the close
            raise  # the seat it took is open again for someone who can play it
    finally:
        await client.close()


async def _seat(client: Client, plan: BotPlan, say: Callable[[str], None]) -> RemoteMatch:
    if plan.code is not None:
        return await client.join(plan.code, plan.seat)
    assert plan.game is not None
    _refuse_blind_agent(plan)
    seats: list[Any] = []
    you = None
    for index, word in enumerate(plan.seats):
        if word == "bot":
            you = index
            seats.append("person")
        elif word in ("open", "person"):
            seats.append(word)
        else:
            seats.append({"agent": word})
    remote = await client.create(plan.game, seats, options=dict(plan.options), you=you)
    say(f"match {remote.code}: join with gamehall bot --join {remote.code}@{plan.host}:{plan.port}")
    return remote


async def play_seat(
    client: Client, remote: RemoteMatch, plan: BotPlan, say: Callable[[str], None] = print
) -> str:
    """Play the seat ``remote`` holds until the match ends; returns the result line."""
    choose = _chooser(remote, plan, say)
    rng = random.Random(plan.seed)
    seen, refusals, now = -1, 0, False
    while True:
        if not now:
            remote = await client.changed(remote.code, seen)
        seen, now = remote.version, False
        if remote.over:
            return f"{remote.code}: {remote.result or 'over'}"
        if remote.to_move != remote.seat:
            continue
        try:
            text = await choose(remote, rng)
        except ValueError as exc:  # the replica is not at the match's point: wait for news
            log.info("match %s: no choice now: %s", remote.code, exc)
            continue
        if remote.version != seen:
            now = True  # something changed while the agent thought: look again
            continue
        try:
            await client.act(remote.code, text, remote.ply)
        except Refused as exc:
            if exc.reason == "busy":  # the server's rate limit: the same choice, a little later
                await asyncio.sleep(BUSY_PAUSE)
                now = True
                continue
            log.warning("match %s: %s was refused: %s", remote.code, text, exc)
            refusals += exc.reason != "stale"
            if refusals >= MAX_REFUSALS:
                raise BotError(
                    f"the server refused the bot's actions {refusals} times: {exc}"
                ) from None
            await client.resync(remote)
        except ConnectionError as exc:  # the snapshot after the reconnect tells what was taken
            log.info("match %s: %s", remote.code, exc)
        except TimeoutError as exc:  # no word of it: ask where the match is
            log.info("match %s: %s", remote.code, exc)
            with contextlib.suppress(ConnectionError):
                await client.resync(remote)


def _refuse_blind_agent(plan: BotPlan) -> None:
    """Refuse, before a match is made, an agent that needs the state of a game that hides
    it (the server's own test: a secret deal, or a start some seat sees only in part)."""
    if plan.agent in (None, BLIND_AGENT) or plan.game is None:
        return
    from game.registry import get
    from game.server.views import game_hides

    game = get(plan.game).game(dict(plan.options))
    if game_hides(game, [game.initial_state(random.Random(0))]):
        raise BotError(_blind(plan.agent))


def _blind(agent: str | None) -> str:
    return (
        f"the match hides what the agent {agent!r} needs to see; a bot plays a hiding match "
        f"with --agent {BLIND_AGENT} only"
    )


def _chooser(remote: RemoteMatch, plan: BotPlan, say: Callable[[str], None]) -> Any:
    """How the bot picks its action: the agent on the replica (public match) or a random
    legal text (hiding match); raises BotError for an agent a hiding match cannot use."""
    if remote.hides:
        if plan.agent not in (None, BLIND_AGENT):
            raise BotError(_blind(plan.agent))
        say(f"match {remote.code}: the game hides things, so the bot plays random legal actions")

        async def blind(now: RemoteMatch, rng: random.Random) -> str:
            if not now.legal:
                raise ValueError("no legal actions were sent")
            return rng.choice(now.legal)

        return blind
    if remote.replica is None:
        raise BotError(f"this program cannot rebuild the match's game {remote.snapshot['game']!r}")
    entry = remote.replica.entry
    name = plan.agent or entry.hint_agent
    options = remote.replica.game.options
    try:
        agent = entry.make_agent(name, options)
    except ValueError as exc:
        raise BotError(str(exc)) from None
    say(f"match {remote.code}: seat {remote.seat} played by the agent {name}")
    limits = Limits(time=plan.think)

    async def sighted(now: RemoteMatch, rng: random.Random) -> str:
        replica = now.replica
        if replica is None:
            raise BotError(f"the match {now.code}'s record does not replay here")
        if replica.ply != now.ply:
            raise ValueError("the replica is not at the match's point")
        state = replica.state
        if state.current_player() != now.seat:
            raise ValueError(f"the replica says seat {state.current_player()} is to move")
        action = await asyncio.to_thread(agent.choose, state, limits, rng, Stop())
        return str(state.action_text(action))

    return sighted


def run_bot(plan: BotPlan) -> int:
    """``gamehall bot``: play, print the result line; returns the exit status (0 at the
    match's end, 1 when the server cannot be reached, 2 for a refusal)."""

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        line = asyncio.run(play(plan, say))
    except Unreachable as exc:
        print(f"gamehall bot: {exc}", file=sys.stderr)
        return 1
    except (Refused, BotError) as exc:
        print(f"gamehall bot: {exc}", file=sys.stderr)
        return 2
    print(line, flush=True)
    return 0


def seats_of(text: str) -> tuple[str, ...]:
    """``--seats`` (``bot,open,master``) as its words; raises ValueError with a line."""
    words = tuple(w.strip() for w in text.split(",") if w.strip())
    if not words:
        raise ValueError("name each seat: bot, open or an agent (e.g. bot,open)")
    if words.count("bot") > 1:
        raise ValueError("the bot takes one seat: name 'bot' once")
    return words
