"""``gamehall shot GAME --out FILE [--do ...]``: a picture of a scene after scripted input.

``--do`` is a comma-separated list (a comma before a digit belongs to a move), run in order,
each settled before the next:

- a command of the scene's command table (``hint``, ``undo``, ``play:river``; the same path as
  its key), run strictly, so an unknown one is exit status 2;
- ``move:TEXT``: a move in the game's own notation (``state.parse_action``), played for the
  person as a click would be;
- ``wait``: a second of simulated time (the computer's move, an animation);
- ``overlay``: the F3 debug overlay on or off.

The options are the saved ones with the typed flags over them; nothing is saved. The last
line of stdout is the scene's status line.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.engine.director import Director
    from game.registry import Entry

MENU = "menu"


def run_shot(args: argparse.Namespace, entry: Entry | None) -> int:
    from game.cli_play import build_director, make_sessions, parse_size, play_overrides, typed
    from game.engine.controller import UnknownCommandError
    from game.registry import all_entries
    from game.settings import Store

    settings, messages = Store().load_settings({e.id: e.options for e in all_entries()})
    for m in messages:
        print(f"gamehall: {m}", file=sys.stderr)
    sessions = make_sessions(settings, None, typed(args, entry))
    overrides = play_overrides(args, entry)
    size = parse_size(args.size)
    if not args.out.parent.is_dir():
        print(f"gamehall shot: no folder {args.out.parent} for {args.out.name}", file=sys.stderr)
        return 2
    director = build_director(
        headless=True,
        size=size,
        shadows=not args.no_shadows,
        sessions=sessions,
        overrides=overrides,
        last_game=settings.last_game,
    )
    try:
        director.switch(entry.id if entry is not None else MENU)
        for item in _items(args.do or ""):
            try:
                done = _do(director, item)
            except UnknownCommandError as exc:
                print(f"gamehall shot: {exc} (or move:TEXT, wait, overlay)", file=sys.stderr)
                return 2
            if not done:
                print(f"gamehall shot: {item}: {director.toast}", file=sys.stderr)
            if not director.settle():
                print("gamehall shot: the animation did not settle", file=sys.stderr)
        director.advance(0.5)  # let the water move and the hint arrow bob a little
        out = director.screenshot(args.out)
        print(f"wrote {out}")
        assert director.controller is not None
        print(director.controller.status_line())
    finally:
        director.close()
    return 0


def _do(director: Director, item: str) -> bool:
    """Run one ``--do`` item; False (with the reason in ``director.toast``) when refused."""
    if item == "overlay":
        director.overlay.toggle()
        return True
    if item == "wait":
        director.advance(1.0)
        return True
    if item.startswith("move:"):
        return _move(director, item[len("move:") :])
    return director.perform(item, strict=True)


def _items(text: str) -> list[str]:
    """The ``--do`` items: split at commas, except a comma before a digit, which is part of a
    move (``move:attack 3,5>12``: no command starts with a digit)."""
    return [item.strip() for item in re.split(r",(?!\s*\d)", text) if item.strip()]


def _move(director: Director, text: str) -> bool:
    """Play a move given in the game's notation, as a click on it would."""
    from game.engine.controller import Tone

    match = getattr(director.controller, "match", None)
    if match is None:
        director.say("this scene takes no moves", Tone.WARN)
        return False
    try:
        action = match.state.parse_action(text.strip())
    except ValueError as exc:
        director.say(str(exc), Tone.WARN)
        return False
    return director.play(action)
