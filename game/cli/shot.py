"""``gamehall shot GAME --out FILE [--do ...]``: a picture of a scene after scripted input.

``--do`` is a comma-separated list, run in order, each settled before the next. A comma
followed by a digit stays in its item: no command starts with a digit, and the one notation
with a comma, MasterGrab's ``attack 3,5>12``, has a digit after each of its commas. Items:

- a command of the scene's command table (``hint``, ``undo``, ``play:river``; the same path as
  its key), run strictly, so an unknown one is exit status 2;
- ``move:TEXT``: a move in the game's own notation (``state.parse_action``), played for the
  person as a click would be;
- ``wait``: a second of simulated time (the computer's move, an animation);
- ``overlay``: the F3 debug overlay on or off.

An item the scene refuses (an illegal move, a disabled command) ends the script with its
reason and exit status 2, and no picture is written. The options are the saved ones with the
typed flags over them; nothing is saved. Every argument (options, ``--size``, ``--out``'s
folder, ``--load``) is checked before the scene is built. The last line of stdout is the
scene's status line.
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
    """Check the arguments, build the headless scene, run ``--do``, write the picture."""
    from game.arguments import output_file
    from game.cli.play import build_director, make_sessions, play_overrides, typed
    from game.engine.controller import UnknownCommandError
    from game.registry import all_entries
    from game.settings import Store

    settings, messages = Store().load_settings({e.id: e.options for e in all_entries()})
    for m in messages:
        print(f"gamehall: {m}", file=sys.stderr)
    sessions = make_sessions(settings, None, typed(args, entry))
    overrides = play_overrides(args, entry)
    out = output_file(args.out)
    items = split_items(args.do or "")
    from game.cli.lines import shorten
    from game.logic.quoting import excerpt

    director = build_director(
        headless=True,
        size=args.size,
        shadows=not args.no_shadows,
        sessions=sessions,
        overrides=overrides,
        last_game=settings.last_game,
    )
    try:
        director.set_ui_scale(getattr(args, "scale", 1.0))
        director.switch(entry.id if entry is not None else MENU)
        for number, item in enumerate(items, 1):
            where = f"gamehall shot: --do item {number} {excerpt(item)}"
            try:
                done = _do(director, item)
            except UnknownCommandError as exc:
                said = shorten(f"{exc} (or move:TEXT, wait, overlay)")
                print(f"{where}: {said}", file=sys.stderr)
                return 2
            if not done:
                why = shorten(director.toast or "refused")
                print(f"{where}: {why}; no picture written", file=sys.stderr)
                return 2
            if not director.settle():
                print(f"{where}: the scene did not settle; no picture written", file=sys.stderr)
                return 2
        director.advance(0.5)  # let the water move and the hint arrow bob a little
        written = director.screenshot(out)
        print(f"wrote {written}")
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


def split_items(text: str) -> list[str]:
    """The ``--do`` items: split at commas, except a comma followed by a digit, which is part
    of its item (``move:attack 3,5>12``: no command starts with a digit); blank items are
    dropped.

    >>> split_items("d3, hint,,move:attack 3,5>12,wait")
    ['d3', 'hint', 'move:attack 3,5>12', 'wait']
    """
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
