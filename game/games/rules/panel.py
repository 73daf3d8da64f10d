"""The described game's panel of the F3 overlay: the back end the rules play on (compiled, or
Python and why), the position in the game's notation, the legal moves, the click in progress,
what the computer said and how far it looked (depth, positions, the line it expects; imgui
calls; only run while the overlay is shown)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.games.rules.controller import BoardController

__all__ = ["draw_panel"]


def draw_panel(controller: BoardController) -> None:
    """Fill the overlay's game panel for ``controller``."""
    from imgui_bundle import imgui

    from game.logic.rules.compiled.build import reason

    state = controller.state
    match = controller.match
    design = controller.design
    imgui.text(f"{design.title} ({design.id})  {design.board.kind} board, "
               f"{len(design.board.names)} positions")  # fmt: skip
    if controller.file is not None:
        imgui.text(f"file {controller.file.path}")
    imgui.text_wrapped(f"backend {reason(design)}")
    imgui.text_wrapped(f"position {state.text()}")
    imgui.text(f"move {match.cursor}/{len(match.full_record)}")
    if controller.prefix:
        names = design.board.names
        imgui.text("clicked " + "-".join(names[p] for p in controller.prefix))
    if not match.over:
        texts = state.texts()
        imgui.separator()
        imgui.text(f"{len(texts)} legal moves")
        imgui.text_wrapped(" ".join(texts[:80]) + (" ..." if len(texts) > 80 else ""))
    if match.record and match.record[-1].note:
        imgui.separator()
        imgui.text_wrapped(f"last choice: {match.record[-1].note}")
    if match.record:
        _search_line(imgui, "last choice", match.seats[match.record[-1].seat])
    hint = match.current_hint()
    if hint is not None:
        imgui.text_wrapped(f"hint {hint.text} ({hint.note})")
        _search_line(imgui, "hint", match.hint_agent)
    if controller.thinking_since is not None:
        imgui.text(f"thinking for {time.perf_counter() - controller.thinking_since:.1f} s")


def search_text(agent: object) -> str:
    """How far ``agent``'s last search looked, from its ``details()``: ``depth 5, 12,400
    positions, line e2-e4 e7-e5 g1-f3`` (a tree search: ``3,100 simulated games``); "" when
    it says nothing."""
    inner = getattr(agent, "agent", agent)  # a searcher in a worker process comes back
    method = getattr(inner, "details", None)
    details = method() if callable(method) else {}
    if not details:
        return ""
    if "games" in details:
        return f"{details['games']:,} simulated games"
    text = f"depth {details.get('depth', 0)}, {details.get('nodes', 0):,} positions"
    return f"{text}, line {details['pv']}" if details.get("pv") else text


def _search_line(imgui: object, label: str, agent: object) -> None:
    text = search_text(agent)
    if text:
        imgui.text_wrapped(f"{label}: {text}")  # type: ignore[attr-defined]
