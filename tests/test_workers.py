"""One worker process and its pipe (game.logic.workers.process): what it answers comes back,
a process that ends is noticed on its sentinel, a message over the limit ends the worker,
and a stranger's process may send plain data only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from worker_targets import answer

from game.logic.workers.process import (
    MessageTooLong,
    NotPlainData,
    Worker,
    WorkerGone,
    WorkerLost,
)
from tests.waiting import HANG_S


def test_a_worker_answers_and_ends() -> None:
    worker = Worker("gamehall-test", answer, what="the test's process")
    try:
        assert worker.pid != os.getpid()
        worker.send(("say", ("move", 1, "attack 1>2", "")))
        assert worker.wait(HANG_S)
        assert worker.receive() == ("move", 1, "attack 1>2", "")
        assert not worker.wait(0.0)  # nothing more to read: the wait ends at once
    finally:
        worker.end()
    assert not worker.alive
    assert worker.exit_words() == "killed by SIGKILL"


def test_a_worker_that_ends_is_lost_and_gone_for_the_next_message() -> None:
    worker = Worker("gamehall-test", answer, what="the test's process")
    try:
        worker.send(("exit", 7))
        assert worker.wait()  # the pipe's end and the sentinel say so: no time limit needed
        with pytest.raises(WorkerLost, match=r"^the test's process ended \(exit code 7\)$"):
            worker.receive()
        with pytest.raises(WorkerGone, match="had ended"):
            worker.send(("say", 1))
    finally:
        worker.end()


def test_a_message_over_the_limit_ends_the_worker() -> None:
    worker = Worker("gamehall-test", answer, what="its process", limit=1000)
    try:
        worker.send(("say", b"x" * 900))
        assert worker.wait(HANG_S) and worker.receive() == b"x" * 900
        worker.send(("say", b"x" * 5000))
        assert worker.wait(HANG_S)
        with pytest.raises(MessageTooLong, match="more than 1,000 bytes; it was ended"):
            worker.receive()
        assert not worker.alive  # the rest of that message is never read as the next one
    finally:
        worker.end()


def test_a_stranger_sends_plain_data_only(tmp_path: Path) -> None:
    worker = Worker("gamehall-test", answer, plain=True)
    try:
        worker.send(("say", ("move", 1, "attack 1>2", "")))
        assert worker.wait(HANG_S) and worker.receive() == ("move", 1, "attack 1>2", "")
        worker.send(("say", ("move", 1, Path("x"), "")))
        assert worker.wait(HANG_S)
        with pytest.raises(NotPlainData, match="not plain data"):
            worker.receive()
        worker.send(("say", "still here"))  # a refused message leaves the pipe in step
        assert worker.wait(HANG_S) and worker.receive() == "still here"
    finally:
        worker.end()
