"""The window as a server's client, without a server: the game's own controller plays a
linked match over a fake link (a move is sent and shown only once it comes back, the HUD
shows the code, F3 the connection), the command line refuses flags that do not go together,
and a server that does not answer is one line."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from game.hall.remote import OPEN, RemoteError, follow, open_match, seat_name, seats_of
from game.logic.linked import Stepped, UndoAsked
from game.registry import MemorySession
from game.server.address import parse_join
from tests.test_cli import gamehall
from tests.test_linked_match import FakeLink


class NamedLink(FakeLink):
    """A fake link with what the window shows of a connection."""

    def __init__(self) -> None:
        super().__init__()
        self.names = ["you", "Bob"]

    def note(self) -> str:
        return "code K7MXQ2 (share it to play)"

    def lines(self) -> list[str]:
        return ["Server ws://127.0.0.1:8765", "Latency 3 ms", "Reconnects 0"]


@pytest.fixture
def linked_reversi(director) -> Any:
    from game.games.reversi.controller import ReversiController

    session = MemorySession({"black": "human", "white": "human", "time_per_move": 0.05})
    controller = ReversiController(session, seed=1)
    link = NamedLink()
    follow(controller, link, 0, 1)
    director.register("reversi", lambda: controller)
    if director.overlay.visible:
        director.overlay.toggle()
    director.switch("reversi")
    director.server_note = link
    assert director.settle()
    try:
        yield controller, link
    finally:
        director.server_note = None
        director.tweens.cancel_all()


@pytest.mark.gl
def test_a_move_is_shown_only_when_the_server_sends_it_back(director, linked_reversi):
    controller, link = linked_reversi
    assert director.perform("d3")
    assert director.settle()
    assert link.sent == [("act", 0, "d3")] and controller.match.cursor == 0
    assert not director.perform("c4")  # refused: the move is on its way
    link.queued = [Stepped(1, 0, "d3"), Stepped(2, 1, "c5")]
    take(director)
    assert controller.match.transcript() == "d3 c5"
    director._sync_hud()
    assert "code K7MXQ2" in director.hud.title.text  # the HUD's title line
    assert director._frame_stats().connection == link.lines()  # F3's


@pytest.mark.gl
def test_undo_asks_the_server_and_new_game_is_refused(director, linked_reversi):
    controller, link = linked_reversi
    link.queued = [Stepped(1, 0, "d3"), UndoAsked("Bob")]
    take(director)
    assert "asks to take the last move back" in director.toast
    assert director.perform("undo"), director.toast
    assert link.sent[-1] == ("answer", True)
    director.perform("undo-all")  # disabled while the answer is out: no new ask, no loop
    assert link.sent[-1] == ("answer", True)
    director.perform("new")
    director.perform("new")
    assert controller.match.transcript() == "d3"


def take(director: Any) -> None:
    """A frame takes what the link has; the steps play to their end."""
    director.update(1 / 60)
    assert director.settle()


def test_seats_of_a_local_match_are_the_servers_create():
    from game.logic.linked import RemoteSeat

    class Seated:
        def __init__(self) -> None:
            self.seats = [None, RemoteSeat("master"), None]

    assert seats_of(Seated()) == (["person", {"agent": "master"}, "open"], 0)
    assert parse_join("k7mxq2@example.org:8765") == ("K7MXQ2", "example.org:8765")
    with pytest.raises(ValueError):
        parse_join("example.org:8765")


@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (["play", "--host", "127.0.0.1:8765"], "--host needs a game"),
        (["play", "reversi", "--join", "K7MXQ2@127.0.0.1:8765"], "--join takes no game"),
        (["play", "--watch"], "--watch goes with --join"),
        (["play", "clue", "--console", "--host", "127.0.0.1:8765"], "--console plays at"),
        (["play", "--join", "127.0.0.1:8765"], "CODE@HOST:PORT"),
        (["play", "--serve"], "--serve needs a game"),
        (["play", "--serve", "0"], "--serve needs a game"),  # 0 (any free port) is a port
        (["play", "reversi", "--serve", "--host", "127.0.0.1:8765"], "--serve hosts the match"),
    ],
)
def test_flags_that_do_not_go_together_are_one_line_and_exit_2(tmp_path, flags, needle):
    r = gamehall(*flags, cwd=tmp_path)
    assert r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_server_that_does_not_answer_is_one_line():
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(RemoteError, match="no gamehall server answers"):
        open_match(None, None, f"127.0.0.1:{port}", code="K7MXQ2")


def test_an_open_seat_is_open_whatever_side_the_server_names_it() -> None:
    assert seat_name({"seat": 1, "kind": "open", "name": "White"}) == OPEN
    assert seat_name({"seat": 1, "kind": "person", "name": "Ann"}) == "Ann"
    assert seat_name({"seat": 1, "kind": "agent", "agent": "master"}) == "computer (master)"
