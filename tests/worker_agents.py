"""Agents that misbehave, for the tests of thinking in a worker process. They live in a module
of their own so that the worker (a new interpreter) can import them by name."""

from __future__ import annotations

import os
import time
from typing import Any


class Crashing:
    name = "crashing"
    description = "raises while it thinks"

    def choose(self, state: Any, limits: Any, rng: Any, stop: Any) -> Any:
        raise ValueError("the robot tripped over its own feet")


class Hanging:
    name = "hanging"
    description = "sleeps and never looks at its stop flag"

    def choose(self, state: Any, limits: Any, rng: Any, stop: Any) -> Any:
        time.sleep(600)
        return None


class Starved:
    """Thinks as a worker does on a busy machine: a little at a time (two milliseconds of
    processor time, then a wait of fifty), for ``seconds`` on the clock in all, then answers;
    it never thinks its time's worth of processor time."""

    name = "starved"
    description = "thinks slowly, as on a busy machine"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def choose(self, state: Any, limits: Any, rng: Any, stop: Any) -> Any:
        ends = time.monotonic() + self.seconds
        while time.monotonic() < ends:
            burst = time.process_time() + 0.002
            while time.process_time() < burst:
                pass
            time.sleep(0.05)
        return "answered"


class Spinning:
    name = "spinning"
    description = "thinks on and on, never looking at its time or its stop flag"

    def choose(self, state: Any, limits: Any, rng: Any, stop: Any) -> Any:
        while True:
            pass


class Dying:
    name = "dying"
    description = "ends its own process"

    def choose(self, state: Any, limits: Any, rng: Any, stop: Any) -> Any:
        os._exit(3)


class Patient:
    name = "patient"
    description = "waits for its stop flag, then gives the process it thinks in"

    def choose(self, state: Any, limits: Any, rng: Any, stop: Any) -> Any:
        while not stop.is_set():
            time.sleep(0.01)
        stop.check()
        return None


class Announcing:
    """``inner``, which first writes the file ``path``: the test's sign that the worker is
    thinking (a test waits for it before it stops the search, not for a length of time)."""

    def __init__(self, inner: Any, path: str) -> None:
        self.inner = inner
        self.path = path
        self.name = inner.name
        self.description = inner.description

    def choose(self, state: Any, limits: Any, rng: Any, stop: Any) -> Any:
        with open(self.path, "w") as started:
            started.write(str(os.getpid()))
        return self.inner.choose(state, limits, rng, stop)


class WhereAmI:
    name = "where"
    description = "answers with the process it thinks in"

    def choose(self, state: Any, limits: Any, rng: Any, stop: Any) -> Any:
        return os.getpid()

    def explain(self) -> str:
        return "looked at its process"


#: The environment variable that names :func:`gated_prepare`'s gate (a named pipe).
GATE_ENV = "GAMEHALL_TEST_GATE"


def gated_prepare(report: Any) -> None:
    """Reversi's preparation as slow as the test wants: it says a quarter, then half, then
    waits until the test writes to the named pipe ``$GAMEHALL_TEST_GATE``, then readies the
    real engine (loaded from the tests' cache, or compiled) and says all of it."""
    from game.logic.reversi.players import prepare

    report(0.25)
    report(0.5)
    with open(os.environ[GATE_ENV], encoding="utf-8") as gate:
        gate.read()
    prepare()
    report(1.0)


def failing_prepare(report: Any) -> None:
    """A preparation that fails half way."""
    report(0.5)
    raise RuntimeError("the compiler ran out of patience")
