"""The window against a real server on loopback, in this process: Reversi's own controller,
headless, creates a match with the server's computer on the other colour, plays its moves
(each shown once the server sends it back), survives a dropped connection and takes a move
back; tic-tac-toe's hint and Next come from the server; a spectator sees the same record;
an unknown code, a game that hides what each seat sees where the scene would show it all, a
scene that shows only its own steps and a match of computers only are refused in one line."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from game.hall.remote import RemoteError, RemoteGame, open_match
from game.registry import get
from game.session import Session
from game.settings import Settings
from tests.waiting import HANG_S, frames_until

pytestmark = pytest.mark.gl
serve = pytest.importorskip("game.server.serve")


@pytest.fixture
def server(tmp_path) -> Iterator[tuple[Any, str]]:
    """A server on a port the system picks, its loop on a thread of its own."""
    from game.server.store import open_store

    store = open_store(tmp_path)
    game_server = serve.GameServer(store, "127.0.0.1", 0)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    host, port = asyncio.run_coroutine_threadsafe(game_server.start(), loop).result(HANG_S)
    try:
        yield game_server, f"{host}:{port}"
    finally:
        asyncio.run_coroutine_threadsafe(game_server.stop(), loop).result(HANG_S)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(HANG_S)
        loop.close()
        store.close()


def session(entry: Any, options: Any) -> Session:
    given = {"black": "human", "white": "random"} if options is None else options
    return Session(entry.id, entry.options, Settings(), None, given)


def until(director: Any, done: Callable[[], bool], what: str) -> None:
    """Frames pass until ``done()`` (the server's answer came), then the scene settles."""
    assert frames_until(director, done), f"never: {what}"
    assert director.settle()


@pytest.fixture
def created(director, server) -> Iterator[RemoteGame]:
    _, address = server
    remote = open_match(get("reversi"), session, address, name="Ann")
    director.register("reversi", lambda: remote.controller)
    if director.overlay.visible:
        director.overlay.toggle()
    director.switch("reversi")
    director.server_note = remote.link
    try:
        yield remote
    finally:
        director.server_note = None
        director.tweens.cancel_all()
        remote.controller.match.close()


def test_the_window_plays_reversi_against_the_servers_computer(director, server, created):
    game_server, _ = server
    match = created.controller.match
    code = created.link.code
    for _ in range(3):
        until(director, match.person_to_move, "the window's turn")
        ply = match.cursor
        assert director.play(match.state.legal_actions()[0]), director.toast
        assert match.cursor == ply  # sent, not applied
        until(director, lambda ply=ply: match.cursor > ply, "the move back from the server")
    created.link.remote.client.drop()  # a network fault: the client connects and resumes
    until(director, lambda: created.link.remote.reconnects == 1, "a reconnect")
    until(director, match.person_to_move, "the window's turn after a reconnect")
    ply = match.cursor
    assert director.play(match.state.legal_actions()[0]), director.toast
    until(director, lambda: match.cursor > ply, "a move after the reconnect")
    until(director, match.person_to_move, "the window's turn again")
    before = match.cursor
    assert director.perform("undo"), director.toast  # the server's computer agrees
    until(director, lambda: match.cursor < before, "the move taken back")
    assert match.resets == 1 and match.person_to_move()
    held = game_server.host.matches[code]
    assert held.match.transcript() == match.transcript()  # what the server holds
    director._sync_hud()
    assert f"code {code}" in director.hud.title.text
    lines = created.link.lines()
    assert any(line.startswith("Latency") for line in lines) and f"Match {code}, seat 0" in lines[1]


def test_a_spectator_sees_the_record_and_refusals_are_one_line(
    director, server, created, monkeypatch
):
    _, address = server
    match = created.controller.match
    until(director, match.person_to_move, "the window's turn")
    assert director.play(match.state.legal_actions()[0])
    until(director, lambda: match.cursor >= 2 and match.person_to_move(), "the computer's move")
    watcher = open_match(None, session, address, code=created.link.code, watch=True)
    try:
        seen = watcher.controller.match
        assert seen.you is None and seen.transcript() == match.transcript()
        assert watcher.link.note().endswith("(watching)")
        code = created.link.code
        assert f"--join {code}@{address}" in watcher.link.invitation()
    finally:
        watcher.controller.match.close()
    with pytest.raises(RemoteError, match="ZZZZZZ"):
        open_match(None, session, address, code="ZZZZZZ")
    plain = lambda e, o: Session(e.id, e.options, Settings())  # noqa: E731
    from game.games.rules.controller import BoardController

    monkeypatch.setattr(BoardController, "plays_stand_in", False)  # a scene showing it all
    with pytest.raises(RemoteError, match="hides what each player sees"):
        open_match(get("barrage"), plain, address)
    computers = lambda e, o: Session(e.id, e.options, Settings(), None, {"black": "random"})  # noqa: E731
    with pytest.raises(RemoteError, match="every seat of this Reversi is a computer's"):
        open_match(get("reversi"), computers, address)
    with pytest.raises(RemoteError, match="cannot be played on a server"):
        open_match(get("river"), plain, address)  # its scene shows only its own steps


def test_the_hint_and_next_come_from_the_server(director, server):
    _, address = server
    given = {"first": "human", "second": "random"}
    remote = open_match(
        get("tic-tac-toe"), lambda e, o: Session(e.id, e.options, Settings(), None, o or given),
        address,
    )  # fmt: skip
    director.register("tic-tac-toe", lambda: remote.controller)
    director.switch("tic-tac-toe")
    match = remote.controller.match
    try:
        assert director.perform("hint"), director.toast
        until(director, lambda: match.current_hint() is not None, "the server's hint")
        hint = match.current_hint()
        assert hint is not None and hint.action in match.state.legal_actions()
        assert director.perform("next"), director.toast  # plays the hinted move
        until(director, lambda: match.cursor >= 1, "the hinted move back from the server")
        assert match.record[0].action == hint.action
    finally:
        match.close()
