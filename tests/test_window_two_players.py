"""Two people play a whole game of Reversi on a server from two real windows, and a third
window watches: the acceptance test of the window as a client of public games.

On one Xvfb display: window A creates the match (``gamehall play reversi --white human``,
with ``--host`` on a ``gamehall serve`` of its own, or hosting it itself with ``--serve``),
window B joins it by the printed line, window C watches. The test follows the match as a
spectator of the server (a client on a thread), picks each move from the server's position
and types it into the window whose turn it is (xdotool: a letter and a digit, as a person
types a move), until the game ends. Then the server holds the end with both seats' returns,
every window logged every step of the server's record in order (``-v``), each window's F12
screenshot of the end differs from the one of its first frame, and Esc (the menu) and Esc
again close each window with status 0 and no traceback.

A whole game of three windows costs a minute or two of a processor: the test runs with the
deep checks (``GAMEHALL_DEEP_CHECKS=1``, ``benchmarks/slow_checks.py``), not in every CI run.
"""

from __future__ import annotations

import queue
import random
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.deep import DEEP
from tests.waiting import HANG_S, looked_until
from tests.xwindows import (
    Lines,
    gamehall,
    start_xvfb,
    visible_windows,
    wait_until,
    window_env,
    xdotool,
)

pytestmark = [
    pytest.mark.window,
    pytest.mark.gl,
    pytest.mark.deep,
]

#: Small windows without shadows: three of them draw on one software renderer.
WINDOW = ("--size", "640x400", "--no-shadows")
#: The line a window logs for each step the server sent (game/logic/linked.py).
STEP = re.compile(r"game\.logic\.linked: step (\d+), seat (-?\d+): (\S+)")
SAID = "game.engine.director:"  # the logger of the HUD's messages (refusals among them)


@dataclass
class Window:
    """One ``gamehall -v play`` on the display: its process, its output, its X window."""

    name: str
    process: subprocess.Popen[str]
    output: Lines
    wid: str = ""

    def steps(self) -> list[tuple[int, str]]:
        """The (seat, text) of every step the window took from the server, in order."""
        found = [STEP.search(line) for line in self.output.all]
        return [(int(m[2]), m[3]) for m in found if m is not None]

    def said(self) -> int:
        """How many messages the window's HUD has shown."""
        return sum(SAID in line for line in self.output.all)

    def screenshots(self) -> list[Path]:
        return [
            Path(line.split("Screenshot saved to ", 1)[1].strip())
            for line in self.output.all
            if "Screenshot saved to " in line
        ]


class Table:
    """The display, the windows on it and the test's own view of the match: a spectator's
    connection to the server whose every message, and every window's every line, comes on
    :attr:`news`."""

    def __init__(self, display: str, tmp: Path) -> None:
        self.display, self.tmp = display, tmp
        self.news: queue.Queue[object] = queue.Queue()
        self.windows: list[Window] = []
        self.watcher: Any = None
        self.code = ""

    def open(self, name: str, *args: str) -> Window:
        """Start ``gamehall -v play ARGS`` with a home of its own; returns once its scene of
        Reversi is shown, with its X window found."""
        home = self.tmp / f"home-{name}"
        before = visible_windows(self.display)
        process = subprocess.Popen(
            gamehall("-v", "play", *args, *WINDOW),
            cwd=self.tmp,
            env=window_env(self.display, GAMEHALL_HOME=str(home)),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert process.stdout is not None
        window = Window(name, process, Lines(process.stdout, self.news, name))
        self.windows.append(window)
        window.output.wait_for("entered scene reversi")
        known = before | {w.wid for w in self.windows}
        new = looked_until(lambda: visible_windows(self.display, "Reversi") - known)
        assert new is not None and len(new) == 1, (new, known)
        window.wid = new.pop()
        return window

    def keys(self, window: Window, *keys: str) -> None:
        xdotool(self.display, "windowfocus", "--sync", window.wid)
        done = xdotool(self.display, "key", "--window", window.wid, *keys)
        assert done.returncode == 0, done.stderr

    def watch(self, address: str, code: str) -> None:
        """Follow the match ``code`` as a spectator; every message it gets comes on news."""
        from game.server.address import parse_address
        from game.server.client import RemoteLink

        host, port = parse_address(address)
        self.watcher = RemoteLink(host, port, name="the test")
        self.watcher.client.on_message = lambda message: self.news.put(("server", message))
        self.watcher.start().result(timeout=HANG_S)
        self.code = code
        self.watcher.request("watch", code=code).result(timeout=HANG_S)
        wait_until(self.news, lambda: self.match().ply >= 0, "the watcher's snapshot")

    def match(self) -> Any:
        """What the server sent of the match (with its replica), as far as it came."""
        return self.watcher.client.match(self.code)

    def play(self, window: Window, text: str) -> None:
        """Type the move ``text`` in ``window`` until the server takes it: a window still
        showing the last move, or not yet told of it, refuses it (a message in the HUD),
        and the move is typed again."""
        ply = self.match().ply
        while self.match().ply == ply:
            said = window.said()
            self.keys(window, *text)
            wait_until(
                self.news,
                lambda said=said: self.match().ply > ply or window.said() > said,
                f"{window.name}'s move {text} at ply {ply}",
            )

    def screenshot(self, window: Window) -> Path:
        """F12 in ``window``: the path of the picture it saved."""
        count = len(window.screenshots())
        self.keys(window, "F12")
        wait_until(self.news, lambda: len(window.screenshots()) > count, f"{window.name}'s F12")
        return window.screenshots()[-1]

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.close()
        for window in self.windows:
            if window.process.poll() is None:
                window.process.kill()
                window.process.wait(timeout=HANG_S)


@pytest.fixture
def table(tmp_path) -> Iterator[Table]:
    if not (shutil.which("Xvfb") and shutil.which("xdotool")):
        pytest.fail("this test needs Xvfb and xdotool (.ci/run installs them with apt-get)")
    xvfb, display = start_xvfb()
    table = Table(display, tmp_path)
    try:
        yield table
    finally:
        table.close()
        xvfb.terminate()
        xvfb.wait(timeout=HANG_S)


def printed(window: Window, text: str) -> str:
    """The line with ``text`` that ``window`` printed before its scene opened."""
    return next(line for line in window.output.all if text in line)


def invitation(window: Window) -> tuple[str, str]:
    """The code and the address of the line ``play`` prints for a friend."""
    line = printed(window, "join with gamehall play --join ")
    code, _, address = line.rsplit("--join ", 1)[1].strip().partition("@")
    return code, address


def kept_over(database: Path, code: str) -> bool:
    """Whether the server's database keeps the match ``code`` as finished (a stopped
    server's: the one of ``--serve`` stops with its window)."""
    from game.server.store import open_store

    store = open_store(None, str(database))
    try:
        return store.has(code) and code not in {kept.code for kept in store.unfinished()}
    finally:
        store.close()


def play_the_game(table: Table, host: Window, address: str) -> None:
    """B joins the match ``host`` created, C watches it, the test plays it to its end by
    typing each move in the window of the seat to move, and checks everything it saw."""
    code, _ = invitation(host)
    table.watch(address, code)
    guest = table.open("B", "--join", f"{code}@{address}")
    spectator = table.open("C", "--join", f"{code}@{address}", "--watch")
    by_seat = {0: host, 1: guest}
    windows = [host, guest, spectator]
    first = {w.name: table.screenshot(w) for w in windows}
    chooser = random.Random(30)
    while not table.match().over:
        match = table.match()
        state, ply = match.replica.state, match.ply
        if match.replica.game.forced_action(state) is not None:  # a pass: the server plays it
            past = lambda ply=ply: table.match().ply > ply  # noqa: E731
            wait_until(table.news, past, f"the pass after ply {ply}")
            continue
        texts = sorted(state.action_text(a) for a in state.legal_actions())
        table.play(by_seat[match.to_move], chooser.choice(texts))
    match = table.match()
    record = [(int(s["seat"]), str(s["text"])) for s in match.record]
    assert match.replica.state.is_terminal() and len(record) >= 40
    assert match.result and match.returns is not None and len(match.returns) == 2
    assert sorted(match.returns) in ([-1.0, 1.0], [0.0, 0.0]), match.returns
    for window in windows:
        wait_until(
            table.news,
            lambda window=window: len(window.steps()) >= len(record),
            f"{window.name} to show every step",
        )
        assert window.steps() == record, window.name
    for window in windows:
        last = table.screenshot(window)
        assert last != first[window.name]
        assert last.read_bytes() != first[window.name].read_bytes(), window.name
    for window in (spectator, guest, host):  # the host last: with --serve it is the server
        table.keys(window, "Escape")
        window.output.wait_for("entered scene menu")
        table.keys(window, "Escape")
        assert window.process.wait(timeout=HANG_S) == 0, window.output.rest()
        assert "Traceback" not in "".join(window.output.all), window.name


# A whole game in three windows costs some 100 CPU seconds: GAMEHALL_DEEP_CHECKS=1 runs it
# (defined only then: CI has none of them to skip).
if DEEP:

    def test_two_windows_play_reversi_on_a_server_and_a_third_watches(table, tmp_path):
        server = subprocess.Popen(
            gamehall("serve", "--port", "0", "--data", str(tmp_path / "server")),
            env=window_env(table.display),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            assert server.stdout is not None
            said = Lines(server.stdout)
            address = said.wait_for("serving on ws://").split("ws://", 1)[1].strip()
            host = table.open("A", "reversi", "--white", "human", "--host", address)
            play_the_game(table, host, address)
            table.watcher.close()
            table.watcher = None
            server.send_signal(signal.SIGINT)
            assert server.wait(timeout=HANG_S) == 0, said.rest()
            assert kept_over(tmp_path / "server" / "gamehall-server.sqlite3", table.code)
        finally:
            if server.poll() is None:
                server.kill()
                server.wait(timeout=HANG_S)

    def test_a_window_serves_its_match_and_two_more_join_it(table):
        host = table.open("A", "reversi", "--white", "human", "--serve", "0")
        line = printed(host, "serving on ws://")
        port = line.split("ws://", 1)[1].split(",", 1)[0].rpartition(":")[2]
        play_the_game(table, host, f"127.0.0.1:{port}")
        assert kept_over(Path(line.rpartition("database: ")[2].strip()), table.code)
