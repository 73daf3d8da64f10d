"""What every game's scene does to keep its game while the person is away, and to resume it:
the same few steps in each controller, written once here.

When a scene opens it asks its session for the kept game (:func:`kept_game`), makes its match
with the kept options, and replays the kept record (:func:`resume_kept`); when it closes (to
the menu, to another game, the window closed) it keeps its match if a game is in progress,
else forgets the kept one (:func:`keep`). Meanwhile the session follows it
(:func:`follow`), so that quitting can ask first. A kept game that cannot be read or does not
replay is set aside by the session with a line for the person, and the scene starts afresh.

The kept data is a table (:mod:`game.kept`): ``game`` (the id), ``options`` (the values the
game was played with), ``record`` (:func:`game.logic.saved.match_record`) and ``extra`` (what
the scene keeps of its own, as Cluedo's dealer).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from game.logic.saved import in_progress, match_record, resume

if TYPE_CHECKING:
    from game.logic.match import Match
    from game.logic.options import OptionsSchema
    from game.registry import GameSession

__all__ = ["Kept", "follow", "keep", "kept_data", "kept_game", "kept_options", "resume_kept"]


@dataclass(frozen=True)
class Kept:
    """A kept game as read: its options, its record and the scene's own extra data."""

    options: dict[str, Any]
    record: dict[str, Any]
    extra: dict[str, Any]


def kept_game(session: GameSession, game: str, *, fresh: bool = False) -> tuple[Kept | None, str]:
    """The game kept for ``game`` to resume (None: start afresh; always when ``fresh``, a start
    the caller asked for), and a line for the person when a kept one could not be used."""
    if fresh:
        return None, ""
    try:
        data = session.saved_match()
    except ValueError as exc:
        return None, str(exc)
    if data is None:
        return None, ""
    parts = [data.get(key) for key in ("options", "record", "extra")]
    tables = [dict(p) for p in parts if isinstance(p, Mapping)]
    if data.get("game") != game or len(tables) != len(parts):
        return None, session.set_aside_match(f"is not a {game} game this program can resume")
    return Kept(*tables), ""


def kept_options(
    session: GameSession, schema: OptionsSchema, kept: Kept | None, overrides: Mapping[str, Any]
) -> tuple[dict[str, Any], Kept | None, str]:
    """The options a scene starts with: ``overrides`` over the kept game's options (values
    read from a file; else the session's), checked once by ``schema``; the kept game again
    (None when the schema refuses its options: it is then set aside and the session's options
    serve) and the line saying so ("" when none). Overrides the schema refuses raise its
    ValueError."""
    if kept is not None:
        try:
            return schema.validate({**kept.options, **overrides}), kept, ""
        except ValueError as exc:
            note = session.set_aside_match(f"has options this game refuses ({exc})")
            return schema.validate({**session.options, **overrides}), None, note
    return schema.validate({**session.options, **overrides}), None, ""


def resume_kept(
    session: GameSession, match: Match[Any], kept: Kept, details: Sequence[str] = ()
) -> str:
    """Bring ``match`` (made with the kept options) to the kept record, each step with its
    ``details`` entry as its :attr:`~game.logic.match.Step.detail`: "" when it did, else the
    line for the person (the kept game set aside, the match at its start)."""
    try:
        resume(match, kept.record, details)
    except ValueError as exc:
        return session.set_aside_match(f"does not replay: {exc}")
    return ""


def kept_data(
    game: str, match: Match[Any], options: Mapping[str, Any], extra: Mapping[str, Any] | None = None
) -> dict[str, Any] | None:
    """What to keep of ``match`` (None when no game is in progress)."""
    if not in_progress(match):
        return None
    return {
        "game": game,
        "options": _toml_ready(options),
        "record": match_record(match),
        "extra": _toml_ready(extra or {}),
    }


def keep(session: GameSession, current: Callable[[], dict[str, Any] | None]) -> None:
    """The scene closes: keep what ``current()`` gives (None: no game in progress, forget the
    kept one), and the session stops following the scene."""
    session.unfollow(current)
    session.keep_match(current())


def follow(session: GameSession, current: Callable[[], dict[str, Any] | None]) -> None:
    """The scene opened: the session asks ``current()`` whether a game is in progress."""
    session.follow(current)


def _toml_ready(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` as a TOML file holds them: paths as text, tuples as lists, None left out."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if value is None:
            continue
        if isinstance(value, PurePath):
            value = str(value)
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Mapping):
            value = _toml_ready(value)
        out[str(key)] = value
    return out
