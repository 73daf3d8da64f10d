"""Temporary registry entries for games whose ``game/games/<id>.py`` is not written yet.

Each wraps the game's code as it stood before the registry (its controller's old keyword
arguments, its solve and bench commands) behind the :class:`~game.registry.Entry` shape, so
the generic command line, menu and settings serve it meanwhile. Delete a game's part here as
soon as its entry exists; :func:`game.cli.entries` prefers the real entry.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.logic.options import Option, OptionsSchema
from game.registry import CliHook, Entry, GameSession


@dataclass(frozen=True)
class _BenchEntry(Entry):
    bench_render: Mapping[str, Any] = field(default_factory=dict)


def legacy_controller(game: str, session: GameSession, overrides: dict[str, Any]) -> Any:
    """The controller of ``game`` made the old way, from the session's options."""
    if game != "grab":
        raise ValueError(f"no stand-in controller for {game!r}")
    return grab_controller(session, **overrides)


def legacy_entry(game: str) -> Entry | None:
    """The stand-in entry for ``game``, or None when there is none."""
    return _grab() if game == "grab" else None


def _no_agents() -> Mapping[str, str]:
    return {}


def _no_agent(name: str, options: Mapping[str, Any]) -> Any:
    raise ValueError("this game's agents are not registered yet")


def _no_game(options: Mapping[str, Any]) -> Any:
    raise ValueError("this game's contract is not registered yet")


# -- grab ----------------------------------------------------------------------------------


def _grab() -> Entry:
    from game.logic.grab import options as go

    def rng(name: str, kind: type, default: Any, limits: tuple[Any, Any], help: str) -> Option:
        return Option(name, kind, default, minimum=limits[0], maximum=limits[1], help=help)

    schema = OptionsSchema(
        (
            rng("countries", int, 140, go.COUNTRIES_RANGE, "countries on the map"),
            Option("robots", str, "basic,basic,basic", help="robot names, e.g. strategic,basic"),
            Option("human_playing", bool, True, help="a person plays"),
            Option("distribution", str, "random", choices=tuple(d.value for d in go.Distribution)),
            rng("mountains_percent", int, 5, go.MOUNTAINS_PERCENT_RANGE, "mountains"),
            rng("armies_in_biggest", float, 20.0, go.ARMIES_IN_BIGGEST_RANGE, "armies"),
            rng("growth_factor", float, 0.1, go.GROWTH_FACTOR_RANGE, "growth"),
            rng("protection_factor", float, 2 / 3, go.PROTECTION_FACTOR_RANGE, "protection"),
            rng("attack_factor", float, 0.5, go.ATTACK_FACTOR_RANGE, "attack"),
            rng("attack_benefit_factor", float, 1.0, go.ATTACK_BENEFIT_FACTOR_RANGE, "benefit"),
            Option("random_options", bool, False, help="random options each game"),
        ),
        cross_check=lambda values: _grab_options(values) and None,
    )
    return _BenchEntry(
        "grab", "MasterGrab", "Conquer a borderless map against robots.",
        schema, _no_game, _no_agents, _no_agent, "", "game.cli_legacy:grab_controller",
        "docs/grab.png",
        {"bench": CliHook("map generation, robots and games", _bench_grab_args, _bench_grab)},
        _grab_play_args, _grab_overrides, {"countries": 1000, "size": (3840, 2160), "seed": 1},
    )  # fmt: skip


def _grab_options(values: Mapping[str, Any]) -> Any:
    from game.logic.grab.options import Distribution, GrabOptions

    robots = tuple(r.strip() for r in values["robots"].split(",") if r.strip())
    return GrabOptions(
        **{**values, "robots": robots, "distribution": Distribution(values["distribution"])}
    )


def grab_controller(session: GameSession, **overrides: Any) -> Any:
    from game.controllers.grab import GrabController
    from game.logic.grab.robot import RobotRegistry
    from game.settings import home_dir

    def on_options(options: Any) -> None:
        values = {name: getattr(options, name) for name in session.options}
        values["robots"] = ",".join(options.robots)
        values["distribution"] = options.distribution.value
        session.save_options(values)

    def on_result(match: Any) -> str:
        if not match.options.human_playing:
            return ""
        return session.record("grab", won=match.winner == 0)

    folder = home_dir() / "robots"
    registry = RobotRegistry(folder if folder.is_dir() else None)
    options = _grab_options(session.options)
    watch = overrides.pop("watch", False)
    if watch:
        from dataclasses import replace

        robots = options.robots if len(options.robots) >= 2 else options.robots * 2
        options = replace(options, human_playing=False, robots=robots)
    return GrabController(
        options=options, registry=registry, on_options=on_options, on_result=on_result, **overrides
    )


def _grab_play_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--watch", action="store_true", help="the robots play alone")
    p.add_argument("--seed", type=int, help="the map and armies (same seed, same game)")


def _grab_overrides(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"watch": args.watch}
    if args.seed is not None:
        out["seed"] = args.seed
    return out


def _bench_grab_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strength", action="store_true", help="also strategic against 3 basic")
    p.add_argument("--games", type=int, default=200, help="--strength: games")
    p.add_argument("--jobs", type=int, default=2, help="--strength: games at once")


def _bench_grab(args: argparse.Namespace, entry: Entry) -> int:
    from game.logic.grab.tournament import bench_lines

    for line in bench_lines(strength=args.strength, games=args.games, jobs=args.jobs):
        print(line, flush=True)
    return 0
