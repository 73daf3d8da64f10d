"""The river's panel in the F3 debug overlay: the state, the record, and the state graph with
the current node, the goal and the optimal next nodes ringed. Imports imgui only when drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.logic.river import ashore
from game.logic.river.game import Side

if TYPE_CHECKING:
    from game.games.river.controller import RiverController


def draw_panel(controller: RiverController) -> None:
    """Fill the overlay's game panel (called only while the overlay is shown)."""
    from imgui_bundle import imgui

    from game.engine.overlay import draw_graph

    st = controller.state
    puzzle = controller.puzzle
    match = controller.match
    imgui.text(f"state  left {st.left}  boat {st.boat} at {st.boat_side.value}")
    imgui.text(f"       right {st.right}   crossings {st.crossings}")
    imgui.text(f"node   {st.crossing()}   outcome {st.outcome().value}")
    dist = puzzle.distance(st)
    imgui.text(f"distance to goal  {dist if dist is not None else 'unreachable'}")
    hint = puzzle.hint(st)
    imgui.text("optimal loads  " + (", ".join(str(x) for x in hint.loads) or "-"))
    autoplay = controller.autoplay.value if controller.autoplay is not None else "-"
    redo = len(match.full_record) - match.cursor
    imgui.text(f"autoplay {autoplay}   record {match.cursor} steps, {redo} to redo")
    imgui.separator()
    if not controller.rules.boat_counts:  # the counts decide nothing: no crossing graph
        imgui.text("passengers count for no bank: solved over whole positions,")
        imgui.text(f"{len(ashore.costs(controller.rules))} of them can still win")
        return
    graph = puzzle.graph
    nodes = list(graph.nodes)
    index = {n: i for i, n in enumerate(nodes)}
    r = controller.rules
    pos = []
    for n in nodes:
        half = 0.0 if n.boat is Side.LEFT else 0.52
        x = half + 0.46 * (n.left_devils / max(1, r.devils))
        y = 1.0 - n.left_priests / max(1, r.priests)
        pos.append((x, y))
    edges = [(index[n], index[m]) for n in nodes for _, m in graph.edges(n) if index[n] < index[m]]
    here = st.crossing()
    nexts = [index[nxt] for load in hint.loads if (nxt := here.after(load)) in index]
    # Short labels keep the grid legible: the distance to the goal ("-": no way across).
    labels = [str(d) if (d := graph.distance(n)) is not None else "-" for n in nodes]
    imgui.text("state graph: left half boat left, right half boat right;")
    imgui.text("x = devils on the left bank, y = priests on the left bank;")
    imgui.text("numbers: crossings to the goal; ringed: the optimal next nodes")
    draw_graph(
        pos,
        edges,
        labels=labels,
        current=index.get(here),
        goal=[i for i, n in enumerate(nodes) if graph.is_goal(n)],
        highlight=nexts,
        size=(360, 240),
    )
