"""``games``: 390 robots-only MasterGrab games with random options (10 to 200 countries, 2 to 6
seats, every distribution, factors at and between their limits) through the tournament runner,
each replayed from its record; run in worker processes.

Every fourth may run to the game's own step cap, the others stop after 150 rounds.
Misbehaving: an exception, a move that does not replay, a rule broken (negative or non-finite
armies, a country owned by no player of the game, a mountain that changed, a country the move
did not touch that changed other than by growth, growth past the capacity, an end not called or
called wrongly), a game past its step cap or stopped without being counted as capped.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable
from typing import Any

from probing.base import (
    ErrorWatch,
    Probe,
    Tally,
    clip,
    describe,
)  # fmt: skip

GAME_TIMEOUT_S = 300.0
#: The rounds after which most probe games stop (the game's own cap is 1000).
SHORT_ROUNDS = 150


def run(probe: Probe) -> Tally:
    indices = probe.pick(390, 30)
    # The games that may run to the game's own cap go first, so none of them is last.
    indices.sort(key=lambda i: (i % 4 != 0, i))
    return probe.workers("games", indices, [], GAME_TIMEOUT_S)


# --- 6. games ---------------------------------------------------------------------------------


def grab_problem(before: Any, move: Any, after: Any, *, forfeit: bool = False) -> str | None:
    """MasterGrab's rules between two states (the move's ``kind``, ``target``, ``sources``;
    None for a forfeit): see the module docstring."""
    from game.logic.grab.rules import MOUNTAIN
    from game.logic.grab.state import MoveKind

    board = before.board
    players = board.players
    if after.turn != before.turn + 1 or after.to_move != (before.to_move + 1) % players:
        return f"turn {before.turn}->{after.turn}, to move {before.to_move}->{after.to_move}"
    touched: set[int] = set()
    if move is not None and move.kind is not MoveKind.NONE:
        touched = {move.target, *move.sources}
    for c, (owner, army) in enumerate(zip(after.owners, after.armies, strict=True)):
        if c in board.mountains:
            if owner != MOUNTAIN or army != 0:
                return f"mountain {c} now has owner {owner} and {army} armies"
            continue
        if not 0 <= owner < players:
            return f"country {c} is owned by {owner}, not a player of {players}"
        if not math.isfinite(army) or army < -1e-9:
            return f"country {c} has {army} armies"
        if c == getattr(move, "target", None) and move.kind is MoveKind.ATTACK:
            continue
        if owner != before.owners[c]:
            return f"country {c} changed owner though the move did not attack it"
        if c in touched:
            continue
        old, cap = before.armies[c], board.capacity[c]
        grown = old if forfeit or old >= cap else min(old + board.growth[c], float(cap))
        if abs(army - grown) > 1e-9 * max(1.0, cap):
            return f"country {c} went from {old} to {army} armies; growth gives {grown}"
    if not forfeit and before.to_move == players - 1:
        land = {o for o in after.owners if o != MOUNTAIN}
        should = len(land) == 1 or (board.human_playing and 0 not in after.owners)
        if after.finished != should:
            return f"finished={after.finished} with land owners {sorted(land)[:8]}"
        if after.finished and len(land) == 1 and after.winner != next(iter(land)):
            return f"winner {after.winner}, but {next(iter(land))} owns all the land"
    elif after.finished != before.finished:
        return "the game ended outside the end of a round"
    return None


def worker(args: argparse.Namespace) -> Callable[[int], list[str]]:
    from game.registry import all_entries

    entry = {e.id: e for e in all_entries()}["grab"]
    watch = ErrorWatch()

    def run(index: int) -> list[str]:
        rng = random.Random(f"{args.seed}:games:{index}")
        seats, options = _game_options(rng)
        seed = rng.randrange(2**31)
        # Every fourth game may run to the game's own step cap; the others stop sooner.
        cap = None if index % 4 == 0 else SHORT_ROUNDS * len(seats)
        what = f"grab {','.join(seats)} seed {seed} cap {cap} {_options_text(options)}"
        try:
            problems = grab_game(entry, seats, options, seed, cap)
        except Exception as exc:
            problems = [f"raised {describe(exc)}"]
        problems += [p for p in (watch.take(),) if p]
        return [f"{what}: {p}" for p in problems]

    return run


def _game_options(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    seats = rng.randint(2, 6)
    agents = [rng.choice(("basic", "basic", "simple")) for _ in range(seats)]
    if rng.random() < 0.4:  # the strategic robot thinks longest: one at most
        agents[rng.randrange(seats)] = "strategic"
    low = 5 * seats
    countries = round(math.exp(rng.uniform(math.log(max(10, low)), math.log(200))))

    def pick(lo: float, hi: float, whole: bool = False) -> float:
        r = rng.random()
        value = lo if r < 0.15 else hi if r < 0.3 else rng.uniform(lo, hi)
        return round(value) if whole else value

    options = {
        "countries": max(low, countries),
        "distribution": rng.choice(("random", "compact", "diagonal", "vertical", "horizontal")),
        "mountains_percent": pick(0, 50, True),
        "armies_in_biggest": pick(10.0, 200.0),
        "growth_factor": pick(0.01, 1.0),
        "protection_factor": pick(0.0, 10.0),
        "attack_factor": max(pick(0.0, 1.0), 0.001),
        "attack_benefit_factor": pick(0.1, 10.0),
    }
    return agents, options


def _options_text(options: dict[str, Any]) -> str:
    return " ".join(
        f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in options.items()
    )


def grab_game(
    entry: Any, seats: list[str], options: dict[str, Any], seed: int, cap: int | None
) -> list[str]:
    """Play one robots-only game through the tournament runner, then replay its record."""
    from game.logic.tournament import play_unit, work_units

    try:
        unit = work_units(entry, seats, 1, options=options, seed=seed, max_steps=cap)[0]
    except ValueError as exc:  # refused with a reason: not a misbehaviour
        if type(exc).__name__ in ("TournamentError", "GrabOptionsError", "OptionError"):
            return []
        raise
    record = play_unit(unit)
    game = entry.game(unit.options)
    state = game.tournament_start(random.Random(unit.seed))
    problems = []
    if record.steps != len(record.actions):
        problems.append(f"{record.steps} steps but {len(record.actions)} actions recorded")
    moves = 0  # agent moves; the cap counts these, not forced ones
    for i, text in enumerate(record.actions):
        if state.is_terminal():
            problems.append(f"step {i + 1}: a step after the end of the game")
            break
        forced = game.forced_action(state)
        moves += forced is None
        if text == "-":
            after, move = game.forfeit(state, None, "lost"), None
        else:
            try:
                move = state.parse_action(text)
                after = state.apply(move)
            except ValueError as exc:
                problems.append(f"step {i + 1} ({text}) does not replay: {describe(exc)}")
                break
        problem = grab_problem(state, move, after, forfeit=move is None)
        if forced is not None and move != forced:
            problem = f"{text} played where {forced} was forced"
        if problem:
            problems.append(f"step {i + 1} ({clip(text, 30)}): {problem}")
            break
        state = after
    else:
        if moves > unit.max_steps:
            problems.append(f"{moves} agent moves, past the cap of {unit.max_steps}")
        if record.capped == state.is_terminal():
            over = state.is_terminal()
            problems.append(f"capped={record.capped} but the replayed game over={over}")
        if record.capped and moves != unit.max_steps:
            problems.append(f"counted as capped after {moves} of {unit.max_steps} agent moves")
        if not record.capped and tuple(record.returns) != tuple(state.returns()):
            problems.append(f"returns {record.returns}, the replay gives {state.returns()}")
    return problems
