"""A choice being made for a :class:`~game.logic.match.Match`: the :class:`Job` that carries it
(on a worker thread or in place), :func:`choose`, which calls the agent and reports its
failure instead of raising it, how long each seat's agent thought (:class:`SeatSeconds`), and
how a failure (:func:`describe`) and an action from a broken agent (:func:`text_of`) read."""

from __future__ import annotations

import concurrent.futures
import random
import time
from dataclasses import dataclass, field
from typing import Any

from game.logic.contract import Limits, Stop

__all__ = ["Job", "SeatSeconds", "choose", "describe", "text_of"]


@dataclass
class Job:
    """A choice being made for ``state`` (a move or a hint): ``future`` while it runs on a
    worker thread, ``done`` once its answer is in."""

    generation: int
    purpose: str  # "move" or "hint"
    seat: int
    agent: Any
    state: Any
    stop: Stop
    started: float
    future: concurrent.futures.Future[Any] | None = None
    done: tuple[Any, BaseException | None, float] | None = None


@dataclass
class SeatSeconds:
    """How long one seat's agent thought for each of its moves."""

    moves: list[float] = field(default_factory=list)


def choose(
    agent: Any, state: Any, limits: Limits, rng: random.Random, stop: Stop
) -> tuple[Any, BaseException | None, float]:
    """The agent's action for ``state``, the error it raised instead (or None) and the
    seconds it took."""
    started = time.perf_counter()
    try:
        action = agent.choose(state, limits, rng, stop)
    except Exception as exc:  # an agent's failure is reported, never raised into the game
        return None, exc, time.perf_counter() - started
    return action, None, time.perf_counter() - started


def describe(error: BaseException) -> str:
    """An agent's error as its type and message, for the log and the record."""
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def text_of(state: Any, action: Any) -> str:
    """``action`` in the notation of ``state``'s game, or its shortened repr when the game
    cannot write it (junk from a broken agent)."""
    try:
        return str(state.action_text(action))
    except Exception:  # junk from a broken agent
        return repr(action)[:80]
