"""The window plays a hiding game on a server: Cluedo's and Barrage's stand-ins (the state a
seat's view makes again) agree with the true state in all the seat may know at every ply, and two of
Cluedo's own controllers, headless, each a linked window holding one seat, play a match of
the server's against its computer for several rounds; every frame each window received passes
the checks of the server's hidden-information test, every move a window sent was among the
legal texts the server sent it, and nothing the stand-in made up is shown."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from game.games.clue.faces import BACK
from game.games.clue.table import Ring
from game.hall.remote import RemoteGame, ServerLink, open_match
from game.logic.clue.events import Suggestion
from game.logic.clue.game import ClueGame
from game.logic.contract import CHANCE, sample_chance
from game.registry import get
from game.server.views import legal_texts, to_json
from game.session import Session
from game.settings import Settings
from tests.server_loopback import PATIENCE, loopback
from tests.test_server_hidden import BARRAGE_PLIES, check_frame

#: The match the windows play: two people, the server's computer, a few rounds.
OPTIONS = {"seats": 3, "deck": "quick", "people": 2, "opponent": "random", "round_cap": 3}
#: The table's numbers for a layout without a scene.
NUMBERS = {"radius_x": 1.0, "radius_z": 1.0, "card_step": 0.1, "card_rest": 0.5}


def _plays(state: Any, rng: random.Random) -> Any:
    """A legal action, seldom an accusation (the match then lasts some rounds)."""
    actions = state.legal_actions()
    calm = [a for a in actions if a.kind.value != "accuse"]
    return rng.choice(calm if calm and rng.random() < 0.97 else actions)


def test_cluedos_stand_in_agrees_with_the_true_state_in_all_a_seat_may_know() -> None:
    game = ClueGame({"seats": 3, "deck": "quick", "round_cap": 4})
    rng = random.Random(7)
    state = game.initial_state(rng)
    plies = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
            continue
        for seat in (-1, *range(game.seats)):
            seen = state.observation(seat)
            made = game.stand_in(to_json(seen), seat, random.Random(plies))
            assert made is not None and made.observation(seat) == seen
            if seat == state.current_player():
                assert legal_texts(made) == legal_texts(state)
        state = state.apply(_plays(state, rng))
        plies += 1
    assert plies > 12
    with pytest.raises(ValueError, match="not a view of Cluedo"):
        game.stand_in({"hand": "?"}, 0, rng)
    assert get("reversi").game({}).stand_in({}, 0, rng) is None  # the contract's default


def test_barrages_stand_in_keeps_the_seats_own_pieces_and_draws_the_blanks() -> None:
    from game.games.rules.look import stacks_of

    game = get("barrage").game({})
    rng = random.Random(11)  # a match that ends (a flag taken) after a few dozen plies
    state = game.initial_state(rng)
    drawn: set[int] = set()  # what the blanks of seat 0's view became in its stand-ins
    made: Any = None
    for ply in range(4 * BARRAGE_PLIES):
        for seat in range(game.seats):
            seen = state.observation(seat)
            made = game.stand_in(to_json(seen), seat, random.Random(ply))
            assert made is not None and made.observation(seat) == seen
            if seat == state.current_player():
                assert legal_texts(made) == legal_texts(state)
            if seat == 0:
                drawn |= {v for v, s in zip(made.pos.board, seen[0], strict=True) if s < 0}
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.is_terminal() and len(drawn) > 1  # blanks were dealt types, not all one
    # At the end the board shows every piece, but a stand-in's made-up ones stay blanks.
    assert "?" not in {t for stack in stacks_of(state, 1).values() for _, t in stack}
    blanks = [p for p, v in enumerate(made.observation(1)[0]) if v < 0]
    assert blanks and all(stacks_of(made, 1)[p][0][1] == "?" for p in blanks)
    with pytest.raises(ValueError, match="not a view of Barrage"):
        game.stand_in([[1, 2]], 0, rng)


def _session(entry: Any, options: Any) -> Session:
    return Session(
        entry.id, entry.options, Settings(), None, OPTIONS if options is None else options
    )


def _shown_faces(remote: RemoteGame) -> set[int]:
    """The card faces the window's table shows."""
    places = remote.controller.places(Ring(3, NUMBERS))[1]
    return {p.face for p in places if p.prototype == "card" and p.face != BACK}


def _may_see(remote: RemoteGame) -> set[int]:
    """The cards the window's seat may see face up: its hand, the cards named aloud (the
    suggestions, the accusations, the one being answered) and those shown to it or by it."""
    view = remote.controller.state.observation(remote.link.seat)
    asked = view.course.asking if view.course is not None else None
    named = {c for e in (*view.events, *([asked] if asked else [])) for c in e.cards}
    return (
        set(view.hand)
        | named
        | {e.shown for e in view.events if isinstance(e, Suggestion) and e.shown is not None}
    )


def _recorded(monkeypatch: Any) -> dict[int | None, list[dict[str, Any]]]:
    """Every message each window's link reads from the server, by the seat it holds."""
    received: dict[int | None, list[dict[str, Any]]] = {0: [], 1: []}
    real_event = ServerLink._event

    def recording(self: ServerLink, message: Any) -> Any:
        received[self.seat].append(dict(message))
        return real_event(self, message)

    monkeypatch.setattr(ServerLink, "_event", recording)
    return received


def test_two_windows_play_cluedo_on_a_server(tmp_path: Path, monkeypatch: Any) -> None:
    received = _recorded(monkeypatch)

    async def main() -> None:
        async with loopback(tmp_path) as (host, port):
            address = f"127.0.0.1:{port}"
            ann = await asyncio.to_thread(open_match, get("clue"), _session, address, name="Ann")
            code = ann.link.code
            bob = await asyncio.to_thread(open_match, None, _session, address, code=code)
            windows = {0: ann, 1: bob}
            held = host.matches[code]
            assert [s.kind for s in held.seats] == ["person", "person", "agent"]
            sent: list[tuple[int, str, tuple[str, ...]]] = []
            rng = random.Random(3)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + PATIENCE
            try:
                while not (ann.controller.match.over and bob.controller.match.over):
                    assert loop.time() < deadline, "the match did not reach its end"
                    for seat, window in windows.items():
                        window.controller.update(1 / 60)
                        match = window.controller.match
                        if not match.person_to_move():
                            continue
                        state = match.state
                        assert match.stands_in and tuple(legal_texts(state)) == match.legal
                        action = _plays(state, rng)
                        window.controller.play(action)
                        sent.append((seat, state.action_text(action), match.legal or ()))
                        assert _shown_faces(window) <= _may_see(window)
                    await asyncio.sleep(0.005)  # the server's turn to run, then poll again
                end = held.match.state
                # Several rounds, unless a lucky accusation (a random one's) ended it sooner.
                assert held.over and (end.round > 2 or end.winner is not None)
                for seat, window in windows.items():
                    match = window.controller.match
                    assert match.result_text() == held.match.result_text()
                    assert _shown_faces(window) <= _may_see(window)  # the end reveals nothing
                    assert match.state.observation(seat) == held.match.state.observation(seat)
                    frames = [f for f in received[seat] if f.get("code") == code]
                    assert frames and any(f.get("over") for f in frames)
                    for frame in frames:
                        check_frame(frame, seat, held.match.state_at(frame.get("ply", 0)))
                assert {seat for seat, _, _ in sent} == {0, 1}
                assert all(text in legal for _, text, legal in sent)
                record = iter((s.seat, s.text) for s in held.match.record)
                assert all((seat, text) in record for seat, text, _ in sent)  # all, in order
            finally:
                for window in windows.values():  # its link waits for the server: let it run
                    await asyncio.to_thread(window.controller.match.close)

    asyncio.run(main())


def test_two_windows_play_barrage_on_a_server(tmp_path: Path, monkeypatch: Any) -> None:
    from game.games.rules.look import stacks_of

    received = _recorded(monkeypatch)
    sides = {"first": "human", "second": "human"}

    def session(entry: Any, options: Any) -> Session:
        return Session(entry.id, entry.options, Settings(), None, options or sides)

    async def main() -> None:
        async with loopback(tmp_path) as (host, port):
            address = f"127.0.0.1:{port}"
            red = await asyncio.to_thread(open_match, get("barrage"), session, address)
            code = red.link.code
            blue = await asyncio.to_thread(open_match, None, session, address, code=code)
            windows = {0: red, 1: blue}
            assert (red.controller.watcher(), blue.controller.watcher()) == (0, 1)
            held = host.matches[code]
            rng = random.Random(5)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + PATIENCE
            try:
                while held.ply < BARRAGE_PLIES and not held.over:
                    assert loop.time() < deadline, "the windows stopped playing"
                    for seat, window in windows.items():
                        window.controller.update(1 / 60)
                        match = window.controller.match
                        if match.person_to_move():
                            assert tuple(legal_texts(match.state)) == match.legal
                            match.play(rng.choice(match.state.legal_actions()))
                        seen = match.state.observation(seat)[0]
                        shown = stacks_of(match.state, window.controller.watcher())
                        blanks = {p for p, v in enumerate(seen) if v < 0}
                        assert {p for p, s in shown.items() if s[0][1] == "?"} == blanks
                    await asyncio.sleep(0.005)  # the server's turn to run, then poll again
                for seat in windows:
                    frames = [f for f in received[seat] if f.get("code") == code]
                    assert len(frames) > BARRAGE_PLIES // 2
                    for frame in frames:
                        check_frame(frame, seat, held.match.state_at(frame.get("ply", 0)))
            finally:
                for window in windows.values():
                    await asyncio.to_thread(window.controller.match.close)

    asyncio.run(main())
