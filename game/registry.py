"""The game registry: one entry per game, read by the command line, the menu, the settings
file and the tournament runner, so none of them names a game.

An :class:`Entry` holds the game's id and title, its options schema, how to make its
:class:`~game.logic.contract.Game` and its agents, where its scene controller lives (imported only
when a window needs it), and its command-line hooks (``solve``, ``bench``, ``tournament``).
The entries live with their games in ``game/games/`` and are imported on first use; importing
this module loads no game, no GL and no numba.

A controller is made with a :class:`GameSession`: the checked options, a way to save changed
ones, and a way to count a finished game in the statistics.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol, SupportsIndex, Unpack

from game.hooks import CliHook
from game.logic.options import OptionsSchema
from game.settings import GameTally, Statistics

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from game.logic.contract import Agent, Game
    from game.settings import Statistics

__all__ = [
    "Entry",
    "FollowsScene",
    "GameSession",
    "MemorySession",
    "UnknownAgentError",
    "UnknownGameError",
    "add",
    "all_entries",
    "get",
]

#: The modules that declare an ``ENTRY`` (or a list, ``ENTRIES``), in menu order.
ENTRY_MODULES: Final = (
    "game.games.river.entry",
    "game.games.reversi.entry",
    "game.games.grab.entry",
    "game.games.clue.entry",
    "game.games.rules.entry",
)


#: The value of an option that seats an agent when a person plays that seat.
PERSON: Final = "human"


class UnknownGameError(ValueError):
    """A game id that no registry entry has."""


class UnknownAgentError(ValueError):
    """An agent name that a game does not offer."""


@dataclass(frozen=True)
class _Roster:
    """A game's agents from the module ``module`` (imported on first use, so that the
    registry loads no game): its ``describe()`` lists them (name -> a line about it), its
    ``make_agent(name)`` makes a fresh one and raises ValueError for a name it does not have,
    turned here into :class:`UnknownAgentError` with the same message."""

    module: str

    def agents(self) -> Mapping[str, str]:
        listed: Mapping[str, str] = importlib.import_module(self.module).describe()
        return listed

    def make_agent(self, name: str, options: Mapping[str, Any]) -> Agent[Any]:
        try:
            agent: Agent[Any] = importlib.import_module(self.module).make_agent(name)
        except ValueError as exc:
            raise UnknownAgentError(str(exc)) from None
        return agent


class GameSession(Protocol):
    """What a controller may ask of the program around it."""

    @property
    def options(self) -> dict[str, Any]:
        """The options to start with (checked by the entry's schema)."""
        ...

    def save_options(self, values: Mapping[str, Any]) -> None:
        """Keep changed options for the next game and the next start."""
        ...

    def record(self, key: str, **outcome: Unpack[GameTally]) -> str:
        """Count a finished game under ``key`` in the statistics (``margin``: a score where
        more is better, kept as the best margin); returns a short note for the banner ("Won 3
        of 5."), or "" when no statistics are kept."""
        ...

    def statistics(self) -> Statistics:
        """The statistics counted so far (every game's, keyed as :meth:`record` was given)."""
        ...

    def saved_match(self) -> dict[str, Any] | None:
        """The game in progress kept for this game (None: none); raises ValueError with the
        line for the person when it cannot be used."""
        ...

    def keep_match(self, data: Mapping[str, Any] | None) -> None:
        """Keep ``data`` as this game's game in progress (None: forget the kept one)."""
        ...

    def set_aside_match(self, why: str) -> str:
        """Put aside a kept game that does not resume (``why``); the line for the person."""
        ...

    def follow(self, current: Callable[[], Mapping[str, Any] | None] | None) -> None:
        """While the scene is open, ``current()`` is its game in progress (None: none)."""
        ...

    def unfollow(self, current: Callable[[], Mapping[str, Any] | None]) -> None:
        """The scene that gave ``current`` to :meth:`follow` closed."""
        ...

    def in_progress(self) -> bool:
        """Whether a game of this game is in progress (the open scene's, or a kept one)."""
        ...


@dataclass(frozen=True, kw_only=True)
class Entry:
    """One game; see the module docstring.

    ``make_game(options)`` takes checked options. ``agents()`` lists the agent names the game
    offers with a line each (robots found on disk included); ``make_agent(name, options)``
    makes one and raises :class:`UnknownAgentError` for an unknown name. ``hint_agent`` is the
    agent the hint and the computer's default seat use. ``controller`` is ``module:Class``
    (or ``module:function`` that picks a class from the overrides, as Cluedo's table or
    assistant); it is called with a :class:`GameSession` and the overrides.
    ``play_arguments`` adds the flags ``play`` and ``shot`` take beyond the options
    (``--load``, ``--watch``) and
    ``play_overrides(args)`` turns them into keyword arguments for the controller.
    ``console(args, entry)`` plays in the terminal (``play GAME --console``); ``args.options``
    holds the checked options, as for a ``solve`` hook.
    ``bench_render`` is the controller's keyword arguments for ``gamehall bench render``: the
    scene at its hardest (the biggest map). ``warm_up`` asks the window to make, in the
    background while the menu shows, what the game's first use would make (its scene's modules
    imported, its hint agent's first search run, compiling what it compiles), so that neither
    opening it nor its first hint stalls (see :func:`warm_up`). ``think_in_worker`` says the game's
    agents search in Python and think in a worker process in the window (see
    :meth:`thinker`). ``compiled_search`` (``"module:function"``) names what readies the game's
    compiled search in a worker process, compiling it the first time and saying how far it got
    (:func:`game.logic.workers.pool.prepare`): the window's agents then think in workers it has
    readied, come back with what they remember of their choice, and the window never loads the
    compiled code itself. ``prepare`` (``"module:function"``) readies, in a worker process,
    compiled code the game's scene asks a worker to run for it (MasterGrab's maps): the
    warm-up starts it, so the first game waits for no compile. ``seat_options(agents)`` gives
    the option values that seat one agent per name in ``agents`` (MasterGrab's robots list),
    for games whose seats depend on their options; tournaments use it. ``former_agents`` maps
    names an agent had before to its name now: still accepted (saved settings, command lines,
    tournaments), never offered. ``group`` is the menu's
    group the game stands in: a game of its own leaves it empty and stands in a group of its
    own, named by its title (:attr:`menu_group`); the described games give their family.
    ``ahead`` (``"module:function"``) is work the game's scene would do in the frame it opens
    in that needs no window (numpy, the font): the warm-up thread calls it while the menu
    shows (Cluedo's plain card faces). ``picture`` is the card's picture (a file under the
    assets' folder: the scene without the HUD, made by ``tools/make_cards.py``; "" for none).

    What every game's entry would spell out alike follows from conventions, each of which an
    entry may override: ``id`` and ``title`` are those of ``make_game`` when it is a
    :class:`~game.logic.contract.Game` class (a game whose module loads on first use names
    them). ``roster`` (a module, see :class:`_Roster`) gives ``agents`` and ``make_agent`` for
    a game whose agents are a list known ahead. ``package`` is the game's folder under
    ``game/games/`` (its id unless given): a ``controller`` given as a bare name lives in its
    ``controller`` module, and its ``hooks`` module, where it has one, gives ``hooks`` (the
    commands it marks with :func:`hook`) and ``play_arguments``, ``play_overrides`` and
    ``console`` where it defines functions of those names. ``picture`` is
    ``scenes/cards/<id>.png`` (the ``{id}`` of its default is the entry's id).
    """

    summary: str
    options: OptionsSchema
    make_game: Callable[[Mapping[str, Any]], Game[Any]]
    hint_agent: str
    controller: str
    id: str = ""
    title: str = ""
    # None until the roster gives them (never None once made).
    agents: Callable[[], Mapping[str, str]] = None  # type: ignore[assignment]
    make_agent: Callable[[str, Mapping[str, Any]], Agent[Any]] = None  # type: ignore[assignment]
    roster: str = ""
    package: str = ""
    picture: str = "scenes/cards/{id}.png"
    hooks: Mapping[str, CliHook] = field(default_factory=dict)
    play_arguments: Callable[[argparse.ArgumentParser], None] | None = None
    play_overrides: Callable[[argparse.Namespace], dict[str, Any]] | None = None
    bench_render: Mapping[str, Any] = field(default_factory=dict)
    seat_options: Callable[[Sequence[str]], Mapping[str, Any]] | None = None
    console: Callable[[argparse.Namespace, Entry], int] | None = None
    warm_up: bool = False
    statistics: str = ""
    think_in_worker: bool = False
    compiled_search: str = ""
    prepare: str = ""
    ahead: str = ""
    group: str = ""
    opponents: tuple[str, ...] = ()
    former_agents: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._follow_conventions()
        # Every game offers the agents of game.logic.search.agents besides its own: added
        # here, once, to the agents' list, to the agents it makes and to the choices of the
        # options that seat an agent (``opponents``); a game's own agent of the same name wins.
        if not isinstance(self.agents, _Listed):
            object.__setattr__(self, "agents", _Listed(self.agents))
        if not isinstance(self.make_agent, _Made):
            object.__setattr__(self, "make_agent", _Made(self.make_agent))
        if self.opponents:
            object.__setattr__(self, "options", _offering(self.options, self.opponents))

    def _follow_conventions(self) -> None:
        """Fill in what the conventions of the class docstring give and the entry left out."""

        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        for name in ("id", "title"):
            if not getattr(self, name):
                put(name, getattr(self.make_game, name, ""))
        if not (self.id and self.title):
            raise ValueError(f"an entry needs an id and a title (a game {self.make_game!r})")
        if self.agents is None and self.roster:
            roster = _Roster(self.roster)
            put("agents", roster.agents)
            put("make_agent", roster.make_agent)
        if self.agents is None or self.make_agent is None:
            raise ValueError(f"the entry {self.id!r} needs agents and make_agent, or a roster")
        package = f"game.games.{self.package or self.id}"
        if ":" not in self.controller:
            put("controller", f"{package}.controller:{self.controller}")
        put("picture", self.picture.replace("{id}", self.id))
        found = _module_if_any(f"{package}.hooks")
        if found is None:
            return
        if not self.hooks:
            put("hooks", {k: v for k, v in vars(found).items() if isinstance(v, CliHook)})
        for name in ("play_arguments", "play_overrides", "console"):
            if getattr(self, name) is None:
                put(name, getattr(found, name, None))

    @property
    def menu_group(self) -> str:
        """The name of the menu's group the game stands in (see the class docstring)."""
        return self.group or self.title

    def thinker(self, name: str, options: Mapping[str, Any]) -> Agent[Any]:
        """``make_agent(name, options)`` as the window seats it: an entry whose agents search
        in Python (``think_in_worker``) or run a ``compiled_search`` gets them thinking in a
        worker process (:mod:`game.logic.workers.pool`), so that the drawing thread never
        waits for the interpreter's lock (nor for a compiler)."""
        agent = self.make_agent(name, options)
        if not (self.think_in_worker or self.compiled_search):
            return agent
        from game.logic.workers.pool import WorkerAgent

        if self.compiled_search:
            return WorkerAgent(agent, prepare=self.compiled_search, bring_back=True)
        return WorkerAgent(agent, bring_back=True)  # what it says of its search, for F3

    def seat_choices(self, option: str) -> tuple[str, ...]:
        """What the buttons of an option that seats an agent (one of ``opponents``) go
        through, in order: its choices that are a person (``human``, in every game's options)
        or an agent the game lists; an old name kept so that saved settings still load is
        accepted, not offered."""
        listed = self.agents()
        choices = self.options[option].choices or ()
        return tuple(c for c in choices if c == PERSON or c in listed)

    def statistics_sheet(self, stats: Statistics) -> Any:
        """The game's statistics view of ``stats`` (imports the module that draws it); None
        when the game has none."""
        if not self.statistics:
            return None
        module, _, name = self.statistics.partition(":")
        return getattr(importlib.import_module(module), name)(stats)

    def controller_class(self) -> Any:
        """The scene controller's class (imports the GL side)."""
        module, _, name = self.controller.partition(":")
        return getattr(importlib.import_module(module), name)

    def game(self, options: Mapping[str, Any] | None = None) -> Game[Any]:
        """The game with ``options`` (checked; missing ones default)."""
        return self.make_game(self.options.validate(dict(options or {})))

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        # A registered entry travels to worker processes (tournament games) by its id, and
        # the worker's registry makes it there, with the robots that process finds; one not
        # registered (a test's own game) travels as it is.
        if _ENTRIES is not None and _ENTRIES.get(self.id) is self:
            return (get, (self.id,))
        return super().__reduce_ex__(protocol)


@dataclass(frozen=True)
class _Listed:
    """An entry's ``agents()``: the game's own, then every game's (those it has not)."""

    own: Callable[[], Mapping[str, str]]

    def __call__(self) -> dict[str, str]:
        from game.logic.search.agents import BASELINES

        listed = dict(self.own())
        return listed | {name: about for name, about in BASELINES.items() if name not in listed}


@dataclass(frozen=True)
class _Made:
    """An entry's ``make_agent``: the game's own agent of that name, else every game's."""

    own: Callable[[str, Mapping[str, Any]], Agent[Any]]

    def __call__(self, name: str, options: Mapping[str, Any]) -> Agent[Any]:
        from game.logic.search.agents import BASELINES, make_baseline

        try:
            return self.own(name, options)
        except UnknownAgentError as exc:
            if name not in BASELINES:
                raise UnknownAgentError(
                    f"{exc}; and every game's: {', '.join(BASELINES)}"
                ) from None
        return make_baseline(name)


def _offering(schema: OptionsSchema, names: Sequence[str]) -> OptionsSchema:
    """``schema`` with every game's agents added to the choices of the options ``names``."""
    from game.logic.search.agents import BASELINES

    options = []
    for option in schema.options:
        if option.name in names and option.choices is not None:
            extra = tuple(n for n in BASELINES if n not in option.choices)
            option = dataclasses.replace(option, choices=(*option.choices, *extra))
        options.append(option)
    return dataclasses.replace(schema, options=tuple(options))


def _module_if_any(name: str) -> Any:
    """The module ``name``, imported; None when neither it nor its package is there."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not f"{name}.".startswith(f"{exc.name}."):
            raise  # one of the module's own imports is missing
        return None


_ENTRIES: dict[str, Entry] | None = None


def all_entries() -> list[Entry]:
    """Every registered game, in menu order."""
    global _ENTRIES
    if _ENTRIES is None:
        entries: dict[str, Entry] = {}
        for module in ENTRY_MODULES:
            found = importlib.import_module(module)
            for entry in getattr(found, "ENTRIES", None) or [found.ENTRY]:
                if entry.id in entries:
                    raise ValueError(f"two games have the id {entry.id!r}")
                entries[entry.id] = entry
        _ENTRIES = entries
    return list(_ENTRIES.values())


def warm_up(
    entries: Sequence[Entry], stop: threading.Event | None = None, pause: float = 0.0
) -> list[str]:
    """Ready the games in the background (the window's warm-up thread, while the menu shows),
    so that neither opening one nor its first hint stalls the drawing thread. First what the
    window's own process needs to open each game: every entry's scene controller module is
    imported and its agents looked up (:attr:`Entry.agents`), every ``compiled_search`` and
    ``prepare`` is started in a worker process (:func:`game.logic.workers.pool.prepare`;
    not waited for), every ``ahead`` is called, and each entry that asks for it (``warm_up``)
    makes a game with the default options (a description compiles). Then each of those lets its hint
    agent think for a moment (a first search compiles and loads what later ones reuse; an agent
    that thinks in a worker waits for a worker, which may be busy for minutes with a compiled
    search's first compile: no game waits for that before it is made). An entry with a
    ``compiled_search`` thinks in the worker its preparation readies. Returns the ids of the
    entries readied beyond the import; a failure is logged and skipped, and ``stop`` (when set)
    ends the work between games. ``pause``: seconds to rest after each game (the window's
    warm-up thread leaves the drawing thread the interpreter's lock a while: a description
    compiles in Python). Between its steps it calls :func:`game.logic.pacing.pause`."""
    import random

    from game.logic import pacing
    from game.logic.contract import Limits, Stop

    def stopped() -> bool:
        return stop is not None and stop.is_set()

    def rest() -> None:
        if pause > 0:
            (stop or threading.Event()).wait(pause)

    warmed: list[str] = []
    made: list[tuple[Entry, Any, Any]] = []  # (entry, options, its first state)
    for entry in entries:
        if stopped():
            return warmed
        try:
            pacing.pause()
            entry.controller_class()
            # The agents' list: a game that finds its agents on first use (MasterGrab imports
            # its built-in robots and looks for others) finds them here, not in the frame its
            # scene opens in.
            entry.agents()
            if entry.ahead:
                module, _, name = entry.ahead.partition(":")
                getattr(importlib.import_module(module), name)()
            if entry.prepare or entry.compiled_search:
                from game.logic.workers.pool import prepare

                for task in (entry.compiled_search, entry.prepare):
                    if task:
                        prepare(task)  # in a worker process, compiling there the first time
            if entry.warm_up:
                pacing.pause()
                options = entry.options.validate({})
                state = entry.make_game(options).initial_state(random.Random(0))
                if not entry.compiled_search:
                    made.append((entry, options, state))
            if entry.warm_up or entry.prepare or entry.compiled_search or entry.ahead:
                warmed.append(entry.id)
        except Exception as exc:  # a warm-up is only a head start: the game still works
            log.warning("warming up %s failed: %s", entry.id, exc)
        rest()
    for entry, options, state in made:
        if stopped():
            break
        try:
            pacing.pause()
            agent = entry.thinker(entry.hint_agent, options)
            agent.choose(state, Limits(time=0.02), random.Random(0), Stop())
        except Exception as exc:
            log.warning("warming up %s's computer failed: %s", entry.id, exc)
        rest()
    return warmed


def add(entry: Entry, *, replace: bool = False) -> None:
    """Register one more game for this process (a user's description file opened with
    ``gamehall play FILE``): the menu, the window and the runner then know it like the rest.
    Raises ValueError when a registered game already has its id, unless ``replace`` (the
    same file read again)."""
    all_entries()
    assert _ENTRIES is not None
    if entry.id in _ENTRIES and _ENTRIES[entry.id] is not entry and not replace:
        raise ValueError(f"a game with the id {entry.id!r} is already registered")
    _ENTRIES[entry.id] = entry


def get(game_id: str) -> Entry:
    """The entry for ``game_id``; raises :class:`UnknownGameError` naming the choices."""
    for entry in all_entries():
        if entry.id == game_id:
            return entry
    ids = ", ".join(e.id for e in all_entries())
    raise UnknownGameError(f"no game named {game_id!r}; the games are: {ids}")


class FollowsScene:
    """A session's hold on its open scene: ``follow`` and ``unfollow`` its game in progress
    (``current``), and :meth:`in_progress`, the scene's, else the session's kept game
    (:meth:`has_kept`, which a session with kept games overrides)."""

    current: Callable[[], Mapping[str, Any] | None] | None = None

    def follow(self, current: Callable[[], Mapping[str, Any] | None] | None) -> None:
        """While the game's scene is open: ``current()`` is its game in progress (None: none),
        what :meth:`in_progress` asks."""
        self.current = current

    def unfollow(self, current: Callable[[], Mapping[str, Any] | None]) -> None:
        """The scene that gave ``current`` closed (a scene opened since keeps its own)."""
        if self.current == current:
            self.current = None

    def in_progress(self) -> bool:
        """Whether a game of this game is in progress: the open scene's, else a kept one."""
        if self.current is not None:
            return self.current() is not None
        return self.has_kept()

    def has_kept(self) -> bool:
        """Whether a game is kept for Continue (none: this base keeps nothing)."""
        return False


@dataclass
class MemorySession(FollowsScene):
    """A :class:`GameSession` that keeps everything in memory: for tests, scripts and
    headless runs that must not touch the settings files. ``stats`` counts the records as
    the statistics file would; ``kept`` is the game kept in progress."""

    options: dict[str, Any] = field(default_factory=dict)
    saved: list[dict[str, Any]] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    stats: Statistics = field(default_factory=Statistics)
    kept: dict[str, Any] | None = None
    current: Callable[[], Mapping[str, Any] | None] | None = None

    def saved_match(self) -> dict[str, Any] | None:
        return None if self.kept is None else dict(self.kept)

    def keep_match(self, data: Mapping[str, Any] | None) -> None:
        self.kept = None if data is None else dict(data)

    def set_aside_match(self, why: str) -> str:
        self.kept = None
        return f"The kept game {why}; starting a new game"

    def has_kept(self) -> bool:
        return self.kept is not None

    def save_options(self, values: Mapping[str, Any]) -> None:
        self.options = dict(values)
        self.saved.append(dict(values))

    def record(self, key: str, **outcome: Unpack[GameTally]) -> str:
        record: dict[str, Any] = {"key": key, "drawn": False, "setting": None, "score": None}
        record.update(outcome)
        if record.get("margin") is None:
            record.pop("margin", None)
        self.records.append(record)
        return ""

    def statistics(self) -> Statistics:
        """The games recorded here, counted as the settings file would count them."""
        from game.settings import Statistics

        stats = Statistics()
        for r in self.records:
            stats.record(
                r["key"],
                won=r["won"],
                drawn=r["drawn"],
                setting=r["setting"],
                score=r["score"],
                margin=r.get("margin"),
            )
        return stats
