"""Run as ``python -m tests.restart_games HOME OUT [GAME ...]``: the games named (every
registered game when none is) played a little in one window, left for the menu, the window
closed; then a new window (as after a restart) continues each game and writes what it finds,
with what was left, as JSON to OUT.

It runs in a process of its own because a process has one Director at a time, and the
tests' shared one stays open. GAMEHALL_HOME is HOME, so the games are kept there.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

from tests.waiting import HANG_S

#: The person's turns played in each game before leaving it.
TURNS = 2
#: MasterGrab's countries here: enough for its four players (five each), and a game of a
#: few rounds is far from its end.
SMALL_MAP = 40


def main(home: str, out: str, games: list[str]) -> int:
    os.environ["GAMEHALL_HOME"] = home
    # The games draw their seeds (Cluedo's deal, the computer's choices) from here: the same
    # games each run. Unseeded, a computer detective solved Cluedo in the first two rounds in
    # about one run of four, and no game was left in progress.
    random.seed(20240)
    from game.engine.window import configure_pyglet

    configure_pyglet(headless=True)
    from game.cli.play import build_director, make_sessions
    from game.registry import all_entries
    from game.settings import Store

    entries = [e for e in all_entries() if not games or e.id in games]
    store = Store()
    settings, _ = store.load_settings()
    sessions = make_sessions(settings, store)
    for entry in entries:  # the computer answers quickly, on a small map
        session = sessions[entry.id]
        if "time_per_move" in entry.options:
            fastest = entry.options["time_per_move"].minimum
            session.save_options({**session.options, "time_per_move": fastest})
        if "countries" in entry.options:  # its map is made twice: 140 cost 1.5 CPU s more
            session.save_options({**session.options, "countries": SMALL_MAP})
    left: dict[str, Any] = {}
    director = build_director(headless=True, size=(640, 400), sessions=sessions)
    try:
        for entry in entries:
            director.switch(entry.id)
            controller = director.controller
            rng = random.Random(entry.id)
            for _ in range(TURNS):
                _settle(director)
                match = controller.match
                if match.over or not match.person_to_move():
                    break
                director.play(_a_move(match, rng))
            _settle(director)
            left[entry.id] = _seen(controller.match)
            assert director.perform("menu")  # Esc: back to the menu, the game kept
            assert director.controller.name == "menu"
    finally:
        director.close()
    # As after a restart: new sessions read from the files, a new window.
    settings, _ = Store().load_settings()
    sessions = make_sessions(settings, Store())
    director = build_director(headless=True, size=(640, 400), sessions=sessions)
    found: dict[str, Any] = {}
    try:
        for entry in entries:
            director.switch("menu")
            director.last_game = entry.id  # the settings' last game, after a restart
            assert director.perform("continue"), director.toast
            found[entry.id] = _seen(director.controller.match)
        # Esc leaves the game for the menu; Esc in the menu asks first, then quits.
        director.perform("menu")
        director.perform("menu")
        asked, quit_at_once = director.toast, director.quitting
        director.perform("menu")
        quit_after = director.quitting
    finally:
        director.close()
    result = {"left": left, "found": found, "asked": asked, "quit_at_once": quit_at_once,
              "quit_after": quit_after}  # fmt: skip
    Path(out).write_text(json.dumps(result), encoding="utf-8")
    return 0


def _a_move(match: Any, rng: random.Random) -> Any:
    """A legal move that does not end the game, where there is one (a river crossing that
    would lose, a Cluedo accusation)."""
    moves = list(match.state.legal_actions())
    going = [m for m in moves if not match.state.apply(m).is_terminal()]
    careful = [m for m in going if "accuse" not in match.state.action_text(m)]
    return rng.choice(careful or going or moves)


def _seen(match: Any) -> dict[str, Any]:
    return {
        "cursor": match.cursor,
        "record": [[s.seat, s.text] for s in match.full_record],
        "key": repr(match.state.key()),
        "over": match.over,
    }


def _settle(director: Any) -> None:
    for _ in range(200):
        match = getattr(director.controller, "match", None)
        if match is not None:
            assert match.wait(timeout=HANG_S)
        director.settle()
        if not director.busy():
            return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
