"""The MasterGrab part of the F3 overlay: the game's numbers, the map mesh, each robot's
thinking times, the last results, the turns robots lost, what robots printed and the robot
files that could not be loaded (imgui, only while shown)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.games.grab.text import trace_lines
from game.logic.grab.record import failures, grab_state

if TYPE_CHECKING:
    from game.games.grab.controller import GrabController

__all__ = ["debug_panel", "robot_notes"]


def debug_panel(c: GrabController) -> None:
    """Fill the overlay's game panel for the controller ``c``."""
    from imgui_bundle import imgui

    match, game = c.match, c.game
    if match is None or game is None:
        return
    o = game.grab_options
    grab_map = game.map_of(grab_state(match))
    imgui.text(f"seed {match.seed}   map {grab_map.width}x{grab_map.height}")
    imgui.text(
        f"countries {grab_map.countries}  mountains {len(grab_map.mountains)}  "
        f"players {o.players}  distribution {o.distribution.value}"
    )
    imgui.text(
        f"AF {o.attack_factor:.2f}  PF {o.protection_factor:.2f}  "
        f"ABF {o.attack_benefit_factor:.2f}  AGF {o.growth_factor:.2f}  "
        f"biggest {o.armies_in_biggest:g}"
    )
    imgui.text(f"record {match.cursor} of {len(match.full_record)} moves")
    if c.layer is not None:
        mesh = c.layer.mesh
        imgui.text(
            f"mesh {mesh.triangles} triangles, cells {mesh.cells.shape[1]}x"
            f"{mesh.cells.shape[0]} ({mesh.step} px), copies drawn {c.layer.copies_drawn}"
        )
    imgui.separator()
    imgui.text("robot thinking (median / max ms)")
    for seat, agent in enumerate(match.seats):
        times = sorted(match.seconds[seat].moves)
        if agent is not None and times:
            imgui.text(
                f"  {game.seat_name(seat)} ({agent.name}): "
                f"{times[len(times) // 2] * 1000:.2f} / {times[-1] * 1000:.2f}"
                f"  over {len(times)} moves"
            )
    imgui.separator()
    imgui.text("last results")
    for line in trace_lines(match):
        imgui.text("  " + line)
    warn = imgui.ImVec4(1.0, 0.6, 0.3, 1.0)
    for line in failures(match)[-5:]:
        imgui.text_colored(warn, line)
    for line in robot_notes(c):
        if line.startswith("!"):
            imgui.text_colored(warn, line)
        else:
            imgui.text(line)


def robot_notes(c: GrabController) -> list[str]:
    """What the overlay says of robots beyond their moves: each seat's disabled reason and
    latest printed lines (robots in their own process), and the robot files that could not be
    loaded; lines starting with ``!`` are problems."""
    match = c.match
    out: list[str] = []
    if match is None or c.game is None:
        return out
    for seat, agent in enumerate(match.seats):
        disabled = getattr(agent, "disabled", None)
        printed = getattr(agent, "printed", [])
        name = f"{c.game.seat_name(seat)} ({getattr(agent, 'name', '?')})"
        if disabled:
            out.append(f"! {name}: {disabled}")
        if printed:
            shown = min(len(printed), 6)
            out.append(f"{name} printed (last {shown} line{'s' * (shown > 1)}):")
            out.extend("    " + line for line in printed[-6:])
    registry = c.registry
    if registry is not None:
        out.extend(f"! robot file: {problem}" for problem in registry.problems[-5:])
    return out
