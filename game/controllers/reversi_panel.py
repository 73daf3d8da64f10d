"""The Reversi panel of the F3 overlay: the position, the last search's figures and the
evaluation's terms (imgui calls; only run while the overlay is shown)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from game.logic.reversi.board import square_name

if TYPE_CHECKING:
    from game.controllers.reversi import ReversiController

__all__ = ["draw_panel"]


def draw_panel(controller: ReversiController) -> None:
    """Fill the overlay's game panel for ``controller``."""
    from imgui_bundle import imgui

    pos = controller.position
    match = controller.match
    imgui.text(f"board {pos.text()}")
    imgui.text(f"to move {pos.to_move.name.lower()}   move {match.cursor}/{len(match.full_record)}")
    agent = controller.last_choice
    choice = agent.last if agent is not None else None
    if agent is not None and choice is not None:
        info = choice.info
        imgui.separator()
        exact = " (exact)" if info.get("exact") else ""
        imgui.text(f"{agent.name}: depth {info.get('depth')}{exact}   score {choice.score:+.2f}")
        imgui.text(agent.explain())
        imgui.text(
            f"nodes {info.get('nodes', 0):,}   {info.get('nps', 0.0) / 1e6:.2f} M nodes/s   "
            f"{info.get('seconds', 0.0):.2f} s"
        )
        imgui.text(f"TT hits {info.get('tt_hits', 0):,}")
        imgui.text_wrapped("PV " + " ".join(square_name(m) for m in info.get("pv", [])))
    if controller.thinking_since is not None:
        seconds = time.perf_counter() - controller.thinking_since
        imgui.text(f"thinking for {seconds:.1f} s")
    terms = controller.evaluation_terms()  # from the engine's process, when it answers
    if isinstance(terms, str):
        imgui.text(terms)
        return
    imgui.separator()
    imgui.text("evaluation terms (side to move)")
    for name, value in terms.items():
        imgui.text(f"  {name:<18} {value:+8.2f}")
