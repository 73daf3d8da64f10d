"""What the tests' worker processes run (tests/test_workers.py). A module of its own, importing
nothing heavy, so that a worker (a new interpreter) starts fast when it imports it by name."""

from __future__ import annotations

import os
from multiprocessing.connection import Connection


def answer(connection: Connection) -> None:  # pragma: no cover - runs in the worker
    """Answer each message: ``("exit", code)`` ends the process, ``("say", value)`` sends
    ``value`` back."""
    while True:
        try:
            kind, value = connection.recv()
        except (EOFError, OSError):
            return
        if kind == "exit":
            os._exit(value)
        connection.send(value)
