"""The Reversi panel of the F3 overlay: the position, the figures of the last search (the
computer's last move or the hint: its level, score, depth, nodes, hash-table hits and principal
variation) and the terms of the evaluation of the position shown.

:func:`panel_lines` writes the text (plain strings, so it is tested without imgui); every
figure is the search's own, and where a level keeps none (a forced pass, the classic levels'
hash table and line) the line says so instead of showing a zero. :func:`draw_panel` puts the
lines on the overlay (imgui calls; only run while the overlay is shown).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from game.logic.reversi.board import Position, square_name

if TYPE_CHECKING:
    from game.games.reversi.controller import ReversiController
    from game.logic.reversi.players import ReversiLevelAgent

__all__ = ["draw_panel", "evaluation_lines", "panel_lines", "search_lines"]

#: Printed between the panel's parts (a separator in the overlay).
RULE = "---"


def draw_panel(controller: ReversiController) -> None:
    """Fill the overlay's game panel for ``controller``."""
    from imgui_bundle import imgui

    for line in panel_lines(controller):
        if line == RULE:
            imgui.separator()
        elif line.startswith(" ") or line[:1].isdigit():
            imgui.text(line)  # the diagram and the terms keep their columns
        else:
            imgui.text_wrapped(line)


def panel_lines(controller: ReversiController) -> list[str]:
    """The panel's lines for ``controller``: the position, the last search, the thinking
    time (while the computer thinks) and the evaluation of the position shown."""
    pos = controller.position
    match = controller.match
    lines = [
        f"{pos.to_move.name.title()} to move   move {match.cursor} of {len(match.full_record)}"
    ]
    lines += str(pos).splitlines()[:9]  # the diagram, row 1 at the top (X black, O white)
    lines.append(RULE)
    lines += search_lines(controller.last_choice, controller.search_about)
    if controller.thinking_since is not None:
        seconds = time.perf_counter() - controller.thinking_since
        lines.append(f"thinking for {seconds:.1f} s")
    lines.append(RULE)
    terms = controller.evaluation_terms()  # from the engine's process, when it answers
    lines += [terms] if isinstance(terms, str) else evaluation_lines(pos, terms)
    return lines


def search_lines(agent: ReversiLevelAgent | None, about: str = "") -> list[str]:
    """What ``agent``'s last choice found (``about``: which move or hint it was), each
    figure as the search reported it; a line saying so where there was no search yet, or
    where the level keeps no such figure."""
    choice = agent.last if agent is not None else None
    if agent is None or choice is None:
        return ["last search: none yet (the computer's next move or a hint, H, fills this in)"]
    info = choice.info
    heading = f"last search: {about}" if about else "last search"
    lines = [heading, f"{agent.name}: {agent.explain()}"]
    if info.get("forced"):
        lines.append("a forced pass: nothing was searched")
        return lines
    depth = info.get("depth")
    kind = "exact to the end" if info.get("exact") else f"depth {depth}"
    unit = "" if info.get("rank") else " discs"
    lines.append(f"score {choice.score:+.2f}{unit} for the side that moved, {kind}")
    if "nodes" in info:
        figures = f"nodes {int(info['nodes']):,}"
        if "seconds" in info:
            nps = float(info.get("nps", 0.0))
            figures += f"   {nps / 1e6:.2f} M nodes/s   {float(info['seconds']):.2f} s"
        lines.append(figures)
    if info.get("rank"):
        lines.append("the classic minimax keeps no hash table and no principal variation")
        return lines
    lines.append(f"TT hits {int(info.get('tt_hits', 0)):,}")
    pv: list[Any] = list(info.get("pv", []))
    lines.append("PV " + " ".join(square_name(m) for m in pv) if pv else "PV: none reported")
    if info.get("noise"):
        lines.append(f"noise {float(info['noise']):.1f} discs added to each move's score")
    return lines


def evaluation_lines(position: Position, found: dict[str, float]) -> list[str]:
    """The feature evaluation of ``position`` for the side to move (``found``: what
    :func:`game.logic.reversi.evaluation.explain` gave for it): its total, the terms that
    count here (largest first) and the names of those that are zero here."""
    terms = dict(found)
    total = terms.pop("total")
    empties = int(terms.pop("empties"))
    side = position.to_move.name.lower()
    lines = [
        f"evaluation of this position: {total:+.2f} discs for {side}",
        f"(the feature evaluation at {empties} empty squares; grandmaster judges by patterns)",
    ]
    counted = sorted(((v, k) for k, v in terms.items() if v != 0.0), key=lambda t: -abs(t[0]))
    for value, name in counted:
        lines.append(f"  {name:<18} {value:+8.2f}")
    zero = [name for name, value in terms.items() if value == 0.0]
    if zero:
        lines.append("zero here: " + ", ".join(zero))
    return lines
