"""What the MasterGrab HUD shows beside the map: the ranking (a sheet with each player's colour
swatch), the tooltip of the country under the mouse, and the map key.

Every function reads the match (or a state) and returns text or a
:class:`~game.engine.controller.Sheet`; none changes anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine.controller import Cell, Sheet
from game.games.grab.text import preview
from game.logic.grab.game import GrabGame, click_move
from game.logic.grab.record import grab_state
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import GrabState, Move, player_statistics
from game.logic.match import Match

__all__ = ["MAP_KEY", "player_name", "ranking_sheet", "tooltip_text"]

#: What every shape on the map means (the rules panel and the F1 help show it).
MAP_KEY = (
    "The map: each colour is one player (the ranking shows whose); thick dark lines divide "
    "players, thin ones their own countries. The number is a country's armies, bold when it "
    "is nearly full; a country stands taller the more armies it holds. Grey-white peaks are "
    "mountains: nobody owns them, and nobody can attack or cross them. Arrows: the last move "
    "of every player (black edge: a won attack, white: a lost one, grey: armies gathered); "
    "gold: the hint. Rings: taken this round (the old owner's colour), attacked, armies moved "
    "in (small); white rings mark the cheapest targets. Hover a country for its details."
)
NEIGHBOURS_SHOWN = 4


def player_name(game: GrabGame, player: int, robots: Sequence[str]) -> str:
    """ "You", or the robot's seat name and kind: "Robot2 (basic)"."""
    name = game.seat_name(player)
    seat = player - 1 if game.human_playing else player
    return f"{name} ({robots[seat]})" if 0 <= seat < len(robots) and name != "You" else name


def ranking_sheet(
    match: Match[Move], palette: Sequence[tuple[float, float, float]], robots: Sequence[str]
) -> Sheet:
    """Spec 4.5's ranking as a sheet: a swatch of each player's colour, the name, the share of
    the land, countries and armies; a player with no country left is greyed."""
    game = match.game
    assert isinstance(game, GrabGame)
    header = (Cell(""), Cell("Player"), Cell("Land"), Cell("Countries"), Cell("Armies"))
    rows = []
    for s in player_statistics(grab_state(match)):
        r, g, b = (round(v * 255) for v in palette[s.player])
        gone = s.countries == 0
        text = (150, 154, 164, 255) if gone else (232, 236, 244, 255)
        rows.append(
            (
                Cell("    ", fill=(r, g, b, 255)),
                Cell(f"{s.rank}. {player_name(game, s.player, robots)}", color=text,
                     bold=s.player == 0 and game.human_playing),
                Cell(f"{s.size_percent:.0f}%", color=text),
                Cell(str(s.countries), color=text),
                Cell(str(s.armies), color=text),
            )
        )  # fmt: skip
    return Sheet("Ranking", header, tuple(rows))


def tooltip_text(
    game: GrabGame, state: GrabState, country: int, robots: Sequence[str], your_turn: bool
) -> str:
    """The tooltip of ``country``: its name, owner, armies and capacity, neighbours, and what
    a click would do now (the rules' outcome of the attack or the gather)."""
    name = game.country_name(state, country)
    owner = state.owners[country]
    if owner == MOUNTAIN:
        return f"{name}\nA mountain: nobody owns it, and nobody can attack or cross it."
    board = state.board
    armies = state.armies[country]
    capacity = board.capacity[country]
    full = " (nearly full: bold)" if armies > 0.9 * capacity else ""
    lines = [
        name,
        f"Owner: {player_name(game, owner, robots)}",
        f"Armies: {int(armies)} of {capacity}{full}",
    ]
    neighbours = board.neighbours[country]
    names = [game.country_name(state, n) for n in neighbours[:NEIGHBOURS_SHOWN]]
    more = len(neighbours) - len(names)
    listed = ", ".join(names) + (f" and {more} more" if more > 0 else "")
    enemies = sum(1 for n in neighbours if state.owners[n] != owner)
    lines.append(f"Neighbours ({len(neighbours)}, {enemies} of other players): {listed}")
    if not board.human_playing:
        return "\n".join(lines)
    if not your_turn:
        lines.append("Wait for your turn to move.")
        return "\n".join(lines)
    move = click_move(state, country)
    if move is None:
        lines.append("None of your countries borders it: no attack from your side.")
        return "\n".join(lines)
    text, _tone = preview(game, state, move, country)
    if text:
        lines.append(f"A click: {text}")
    return "\n".join(lines)
