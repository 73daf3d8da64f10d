"""The session a game's controller runs in: its options, and where results and changes go.

:class:`Session` is the :class:`~game.registry.GameSession` of ``gamehall play``: it starts
from the options saved in ``settings.toml`` (read through the game's schema), overridden by
the flags typed on the command line, keeps options the person changes in the window (in the
one :class:`~game.settings.Settings` of the process, written to disk at once: by the window's
file writer, :mod:`game.writer`, on a thread of its own), counts
finished games in ``statistics.toml`` and keeps a game in progress while the person is away
(:mod:`game.kept`: the menu, another game, the program closed). Without a
:class:`~game.settings.Store` (``gamehall shot``, the tests) nothing is written, no
statistics are kept and no game is kept.

>>> from game.logic.options import Option, OptionsSchema
>>> from game.settings import Settings
>>> schema = OptionsSchema((Option("devils", int, 3, minimum=1, maximum=20),))
>>> settings = Settings(games={"river": {"devils": 5}})
>>> session = Session("river", schema, settings, overrides={"devils": "4"})
>>> session.options
{'devils': 4}
>>> session.save_options({"devils": 6}); settings.games["river"]
{'devils': 6}
>>> session.record("river", won=True)
''
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Unpack

from game.kept import KeptGames
from game.logic.options import OptionsSchema
from game.registry import FollowsScene
from game.settings import GameTally, Settings, Statistics, Store

__all__ = ["Session"]

log = logging.getLogger(__name__)


class Session(FollowsScene):
    """One game's session; see the module docstring.

    ``overrides`` are the options typed on the command line (checked here: a bad one raises
    :class:`~game.logic.options.OptionError`, so the command can refuse it before a window
    opens). They hold for this run only and reach the file only when the person changes
    options in the window, which saves the whole set.
    """

    def __init__(
        self,
        game: str,
        schema: OptionsSchema,
        settings: Settings,
        store: Store | None = None,
        overrides: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.schema = schema
        self.settings = settings
        self.store = store
        # One check of the whole set: the saved values (read through the schema when the file
        # was loaded, or set in code) under the typed ones, then the cross-check.
        self._options = schema.validate({**settings.options(game), **dict(overrides or {})})
        self._kept = KeptGames(store.kept_directory, store.writer) if store is not None else None
        # Options typed on the command line ask for a new game: the kept one waits once.
        self._typed = bool(overrides)
        self.current: Callable[[], Mapping[str, Any] | None] | None = None

    @property
    def options(self) -> dict[str, Any]:
        """The options to start the next game with (a copy, checked by the schema)."""
        return dict(self._options)

    def save_options(self, values: Mapping[str, Any]) -> None:
        """Keep ``values`` (checked by the schema; a bad one raises OptionError) for the next
        game and the next start. A file that cannot be written is logged, not raised: the
        game goes on with the new options."""
        self._options = self.schema.validate(values)
        self.settings.games[self.game] = dict(self._options)
        if self.store is None:
            return
        try:
            self.store.save_settings(self.settings)
        except OSError as exc:
            log.warning("could not save the %s options: %s", self.game, exc)

    def record(self, key: str, **outcome: Unpack[GameTally]) -> str:
        """Count a finished game under ``key`` (``river``, ``reversi:master:black``) and
        return the note for the banner: "Won 3 of 5.", a draw count when there were draws,
        and "New best for SETTING!" before it when ``score`` beat the best for ``setting``
        ("New best: +12!" when ``margin`` beat the best margin)."""
        if self.store is None:
            return ""
        stats = self.statistics()  # as saved now: the note counts this game on top of them
        best = stats.record(key, **outcome)
        try:  # one more game over what the file holds when written (another process's kept)
            self.store.record(key, **outcome)
        except OSError as exc:
            log.warning("could not save statistics: %s", exc)
        r = stats.games[key]
        note = f"Won {r.won} of {r.played}."
        if r.drawn:
            note += f" Drawn {r.drawn}."
        margin = outcome.get("margin")
        if best and margin is not None and r.played > 1:
            return f"New best: {margin:+d}! {note}"
        if best and outcome.get("score") is not None:
            return f"New best for {outcome.get('setting')}! {note}"
        return note

    # -- a game kept while the person is away ------------------------------------------------

    def saved_match(self) -> dict[str, Any] | None:
        """The game kept for this game (:mod:`game.kept`), or None (also the first time
        when options were typed on the command line: they ask for a new game); raises
        :class:`~game.kept.KeptGameError` (a ValueError) with the line for the person when
        the kept file cannot be used (it is set aside)."""
        if self._kept is None or self._typed:
            self._typed = False
            return None
        return self._kept.load(self.game)

    def keep_match(self, data: Mapping[str, Any] | None) -> None:
        """Keep ``data`` as this game's game in progress (None: none is, forget it). A file
        that cannot be written is logged: the game is lost, the program goes on."""
        if self._kept is None:
            return
        if data is None:
            self._kept.forget(self.game)
            return
        try:
            self._kept.save(self.game, data)
        except (OSError, ValueError, TypeError) as exc:
            log.warning("could not keep the %s game in progress: %s", self.game, exc)

    def set_aside_match(self, why: str) -> str:
        """The kept game does not resume (``why``): set it aside and return the line for
        the person."""
        if self._kept is None:
            return f"The kept game {why}; starting a new game"
        return self._kept.set_aside(self.game, why)

    def has_kept(self) -> bool:
        """Whether this game's game is kept in the kept folder for Continue."""
        return self._kept is not None and self._kept.exists(self.game)

    def statistics(self) -> Statistics:
        """The statistics as saved (empty without a store, or when the file is unreadable:
        its problems are logged)."""
        if self.store is None:
            return Statistics()
        stats, messages = self.store.load_statistics()
        for message in messages:
            log.warning("%s", message)
        return stats
