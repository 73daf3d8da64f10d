"""A game in progress is kept while the person is away and comes back where it was: after a
restart (a new window), Continue finds the same record and position in every game written by
hand and in described games of each kind (every described game goes through the same
controller and session; tests/test_saved.py replays every game's kept record);
quitting asks first while a game is in progress; a damaged kept game is reported and set
aside, and a new game starts."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.cli.play import make_sessions, register_games
from game.engine.director import Director
from game.logic.rules.catalogue import shipped
from game.registry import all_entries
from game.settings import Settings, Store
from tests.warm_kernels import wait_until_warm

pytestmark = pytest.mark.gl

ROOT = Path(__file__).resolve().parent.parent
#: Described games of each kind: captures on a board, chained jumps, sowing, placing stones.
DESCRIBED = ("chess", "english-draughts", "kalah", "hex")


def _restarted_games() -> list[str]:
    return [e.id for e in all_entries() if e.id not in shipped() or e.id in DESCRIBED]


def test_the_restarted_games_hold_every_kind_of_game() -> None:
    games = _restarted_games()
    assert len(games) >= 8 and set(DESCRIBED) <= set(games)


def test_games_of_every_kind_continue_where_they_were_after_a_restart(tmp_path: Path) -> None:
    """tests/restart_games.py: each game played a little, left, the window closed; a new
    window's Continue (in a process of its own: one window a process). All the games in one
    program, which starts, imports and opens its two windows once: five of its dozen CPU
    seconds, that a program for each part of the games would pay again."""
    games = _restarted_games()
    out = tmp_path / "out.json"
    wait_until_warm()  # the program loads the kernels the run's warm-up compiles
    done = subprocess.run(
        [sys.executable, "-m", "tests.restart_games", str(tmp_path / "home"), str(out), *games],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(out.read_text(encoding="utf-8"))
    assert list(result["left"]) == games
    for game, left in result["left"].items():
        assert left["cursor"] > 0 and not left["over"], game  # a game in progress was left
        assert result["found"][game] == left, game  # its record, point and position
    assert result["asked"].startswith("Quit Gamehall?") and "kept for Continue" in result["asked"]
    assert not result["quit_at_once"] and result["quit_after"]


@pytest.fixture
def kept_director(director: Director, home: Path) -> Iterator[Director]:
    """The shared Director with sessions that keep their games in ``home`` (as ``gamehall
    play`` has), put back to its own afterwards."""
    settings, _ = Store(home).load_settings()
    register_games(director, make_sessions(settings, Store(home)))
    if director.overlay.visible:
        director.overlay.toggle()
    try:
        yield director
    finally:
        director.tweens.cancel_all()
        director.switch("menu")
        register_games(director, make_sessions(Settings(), None))
        director.quitting = False


def _play_a_move(director: Director) -> None:
    controller = director.controller
    assert director.play(controller.match.state.legal_actions()[0]), director.toast
    assert director.settle()


def test_closing_the_window_during_a_game_asks_first(kept_director: Director) -> None:
    director = kept_director
    director.switch("tic-tac-toe")
    director.on_close()  # nothing played yet: nothing to lose
    assert director.quitting
    director.quitting = False
    director.switch("tic-tac-toe")
    _play_a_move(director)
    director.on_close()
    assert not director.quitting and "Your Tic-tac-toe game is kept" in director.toast
    director.on_close()
    assert director.quitting


def test_a_damaged_kept_game_is_reported_and_set_aside(kept_director: Director, home: Path):
    director = kept_director
    folder = Store(home).kept_directory
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "chess.toml").write_bytes(b"game = 'chess'\n[record\n")
    director.switch("chess")  # no crash: a new game, and the reason in the banner
    banner = director.controller.status().banner
    assert "chess.toml is not valid TOML" in banner and "kept as chess.toml.bad-" in banner
    assert director.controller.match.cursor == 0
    assert [p.name[:15] for p in folder.iterdir()] == ["chess.toml.bad-"]
    # A kept game whose moves do not replay: the step is named, the file set aside.
    _play_a_move(director)
    director.switch("menu")
    kept = folder / "chess.toml"
    kept.write_text(kept.read_text(encoding="utf-8").replace('text = "', 'text = "Q'))
    director.switch("chess")
    banner = director.controller.status().banner
    assert "does not replay: step 1" in banner and director.controller.match.cursor == 0
    assert not kept.exists() and len(list(folder.iterdir())) == 2


def test_typed_options_and_flags_ask_for_a_new_game_once(home: Path) -> None:
    """``gamehall play chess --first uct`` (typed options) and ``--seed 3`` (a flag) start a
    game of their own; the game opened again later (Continue) resumes the kept one."""
    from game.cli.play import _factory
    from game.registry import get
    from game.session import Session

    entry = get("chess")
    session = Session("chess", entry.options, Settings(), Store(home), {"first": "human"})
    session.keep_match({"game": "chess", "options": {}, "record": {}, "extra": {}})
    assert session.saved_match() is None
    kept = session.saved_match()
    assert kept is not None and kept["game"] == "chess"

    made: list[dict[str, object]] = []

    class Entry:
        @staticmethod
        def controller_class() -> object:
            return lambda session, **given: made.append(given)

    make = _factory(Entry(), session, {"seed": 3})  # type: ignore[arg-type]
    make()
    make()
    assert made == [{"seed": 3}, {}]
