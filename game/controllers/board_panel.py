"""The described game's panel of the F3 overlay: the position in the game's notation, the
legal moves, the click in progress, what the computer said (imgui calls; only run while the
overlay is shown)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.controllers.board import BoardController

__all__ = ["draw_panel"]


def draw_panel(controller: BoardController) -> None:
    """Fill the overlay's game panel for ``controller``."""
    from imgui_bundle import imgui

    state = controller.state
    match = controller.match
    design = controller.design
    imgui.text(f"{design.title} ({design.id})  {design.board.kind} board, "
               f"{len(design.board.names)} positions")  # fmt: skip
    if controller.file is not None:
        imgui.text(f"file {controller.file.path}")
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
    hint = match.current_hint()
    if hint is not None:
        imgui.text_wrapped(f"hint {hint.text} ({hint.note})")
    if controller.thinking_since is not None:
        imgui.text(f"thinking for {time.perf_counter() - controller.thinking_since:.1f} s")
