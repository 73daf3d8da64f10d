"""The map side of the MasterGrab controller: what is drawn (the playback's state, the move in
flight), the hover and its tooltip, the ranking sheet, and the camera (pan, zoom, and a pan to
the hint when it is out of view; the robots' moves leave the camera where the player put it).

:class:`MapSide` is a base of :class:`~game.games.grab.controller.GrabController`; it reads the
controller's match, view, options and playback and changes only what is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.engine.controller import Sheet
from game.games.grab.anim import Playback
from game.games.grab.hud import ranking_sheet, tooltip_text
from game.games.grab.paint import palette_of
from game.games.grab.view import GrabLayer
from game.logic.grab.record import country_marks, grab_state
from game.logic.grab.state import GrabMoveError, Move
from game.logic.match import Match

if TYPE_CHECKING:
    from game.engine.controller import Host
    from game.engine.scene import Node, Scene
    from game.games.grab.scene import MapView
    from game.logic.grab.game import GrabGame
    from game.logic.grab.options import GrabOptions

__all__ = ["MapSide"]


class MapSide:
    """See the module docstring."""

    host: Host | None
    scene: Scene | None
    view: MapView | None
    match: Match[Move] | None
    options: GrabOptions
    playback: Playback
    hover: int | None
    info: str
    _hover_scripted: bool
    _hint_shown: object

    def _game(self) -> GrabGame:
        raise NotImplementedError

    def _require_match(self) -> Match[Move]:
        raise NotImplementedError

    def your_turn(self) -> bool:
        raise NotImplementedError

    def sheet(self) -> Sheet | None:
        """The ranking with every player's colour (while the left panel shows it)."""
        match = self.match
        if match is None or self.info != "ranking":
            return None
        return ranking_sheet(match, self._palette(), self.options.robots)

    def tooltip(self) -> tuple[str, Any] | None:
        """The hovered country's details, beside the mouse (or, after ``hover:N`` from a
        script, beside the country)."""
        match, country = self.match, self.hover
        if match is None or country is None:
            return None
        text = tooltip_text(
            self._game(), grab_state(match), country, self.options.robots, bool(self.your_turn())
        )
        anchor = self.view.anchor_of(country) if self._hover_scripted and self.view else None
        return text, anchor

    def on_hover(self, node: Node | None) -> None:
        country = self._country_under_mouse()
        self._hover_scripted = False
        if country != self.hover:
            self.hover = country
            self._redraw()

    def hover_country(self, country: int) -> None:
        """``hover:N`` (scripts): show country N as the mouse over it would."""
        match = self._require_match()
        if not 0 <= country < grab_state(match).board.countries:
            raise GrabMoveError(f"there is no country {country}")
        self.hover = country
        self._hover_scripted = True
        self._redraw()

    @property
    def layer(self) -> GrabLayer | None:
        """The map's render layer (None before ``enter``)."""
        return self.view.layer if self.view is not None else None

    def pan(self, dx: int, dz: int) -> None:
        if self.view is not None:
            self.view.pan(dx, dz)

    def zoom(self, factor: float) -> None:
        if self.view is not None:
            self.view.zoom(factor)

    def _draw_map(self, match: Match[Move], view: MapView) -> None:
        """The map as the playback shows it: the newest state, or a robot's move in flight."""
        hint = match.current_hint()
        shown = hint.action if hint is not None and hint is self._hint_shown else None
        index = self.playback.shown
        playing = None
        if view.grab_map is not None and view.layer is not None:
            playing = self.playback.frame(
                match, view.grab_map, self._palette(), view.layer.atlas.advance
            )
        view.redraw(
            grab_state(match, index), country_marks(match, index), self.hover, shown, playing
        )

    def _look_at(self, countries: list[int]) -> None:
        """Pan the camera to ``countries`` unless they are in view already (the hint the
        player asked for; the robots' moves never move the camera)."""
        host, view = self.host, self.view
        if host is None or view is None or self.scene is None or not countries:
            return
        view_proj = host.renderer.view_projection(self.scene, host.area_size())
        view.bring_into_view(countries, view_proj)

    def _palette(self) -> list[tuple[float, float, float]]:
        match = self.match
        assert match is not None
        return palette_of(grab_state(match), self.options.colour)

    def _redraw(self) -> None:
        if self.view is not None:
            self.view.dirty = True

    def _country_under_mouse(self) -> int | None:
        if self.host is None or self.view is None or self.match is None:
            return None
        country = self.view.country_at(self.host.ray)
        return country
