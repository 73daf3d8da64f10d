"""MasterGrab tournaments on the generic runner: robots seated by name, seats rotated over
shared maps, capped games decided by the ranking, worker processes that find the user's
robots, and the strength figure."""

from __future__ import annotations

import dataclasses
import random
import re
import textwrap
from pathlib import Path

import pytest

from game import registry
from game.games.grab import entry as grab_entry
from game.logic.grab.game import GrabGame
from game.logic.grab.state import player_statistics
from game.logic.tournament import TournamentError, TournamentResult, run_tournament, work_units

ROBOTS = ("strategic", "basic", "basic", "basic")
SMALL = {"countries": 30}


@pytest.fixture(scope="module")
def entry() -> registry.Entry:
    return registry.get("grab")


@pytest.fixture(scope="module")
def tiny(entry: registry.Entry) -> TournamentResult:
    return run_tournament(entry, ROBOTS, 4, options=SMALL, seed=7, max_steps=1200)


def test_counts_and_seat_rotation(tiny: TournamentResult) -> None:
    assert [g.index for g in tiny.games] == [0, 1, 2, 3]
    # Game i seats the list turned left by i: strategic sits in every seat once ...
    assert [g.seats.index("strategic") for g in tiny.games] == [0, 3, 2, 1]
    assert tiny.games[1].seats == ("basic", "basic", "basic", "strategic")
    # ... and the four rotations share one map.
    assert len({g.seed for g in tiny.games}) == 1
    strategic, basic = tiny.standings
    assert (strategic.name, strategic.seats, basic.name, basic.seats) == (
        "strategic",
        4,
        "basic",
        12,
    )
    assert strategic.wins + basic.wins == 4  # one winner a game, capped or not
    for game in tiny.games:
        assert sorted(game.returns) == [0.0, 0.0, 0.0, 1.0]


def test_the_lines_end_with_the_winrates(tiny: TournamentResult) -> None:
    lines = tiny.lines()
    assert re.fullmatch(r"winrates=strategic:\d\.\d\d,basic:\d\.\d\d", lines[-1])
    assert lines[0].startswith("agent=strategic seats=4 wins=")
    assert lines[1].startswith("agent=basic seats=12 wins=")
    assert "ci95=" in lines[0]
    assert lines[2].startswith("game=grab games=4 capped=")


def test_a_capped_game_goes_to_the_leader_of_the_ranking(entry: registry.Entry) -> None:
    capped = run_tournament(entry, ("basic", "basic"), 1, options=SMALL, max_steps=2)
    record = capped.games[0]
    assert record.capped and capped.capped == 1
    assert sorted(record.returns) == [0.0, 1.0]
    # The leader by land: replay the two moves from the start of that seed and rank.
    game = GrabGame({**SMALL, "human_playing": False, "robots": "basic,basic"})
    state = game.tournament_start(random.Random(record.seed))
    for text in record.actions:
        state = state.apply(state.parse_action(text))
    leader = player_statistics(state)[0].player
    assert record.returns[leader] == 1.0


def test_a_game_stops_after_a_thousand_rounds_by_default(entry: registry.Entry) -> None:
    assert [u.max_steps for u in work_units(entry, ROBOTS, 1)] == [4000]
    assert work_units(entry, ROBOTS[:2], 1, max_steps=9)[0].max_steps == 9


def test_jobs_do_not_change_the_games(entry: registry.Entry, tiny: TournamentResult) -> None:
    seen: list[int] = []
    pooled = run_tournament(
        entry,
        ROBOTS,
        4,
        options=SMALL,
        seed=7,
        max_steps=1200,
        jobs=2,
        progress=lambda d, t, r: seen.append(d),
    )
    assert seen == [1, 2, 3, 4]

    def strip(result: TournamentResult) -> list[object]:
        return [dataclasses.replace(g, thinking=()) for g in result.games]

    assert strip(pooled) == strip(tiny)


def test_a_users_robot_plays_in_worker_processes(
    entry: registry.Entry, _private_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    robots = _private_home / "robots"
    robots.mkdir(parents=True)
    (robots / "idle.py").write_text(
        textwrap.dedent(
            """
            from game.logic.grab.robot import Robot
            from game.logic.grab.state import NO_MOVE

            class Idle(Robot):
                name = "Idle"
                description = "never moves"

                def plan(self, game):
                    return NO_MOVE
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.setattr(grab_entry, "_REGISTRY", None)  # find the robots of this home
    assert "idle" in entry.agents()
    result = run_tournament(entry, ("idle", "basic"), 2, options=SMALL, jobs=2, max_steps=600)
    idle, basic = result.standings
    assert (idle.name, idle.seats, basic.seats) == ("idle", 2, 2)
    assert (idle.wins, basic.wins) == (0, 2)


def test_the_strength_tournament_is_strategic_against_three_basic(
    entry: registry.Entry,
) -> None:
    from game.logic.grab.tournament import STRENGTH_ROBOTS, strength_tournament

    result = strength_tournament(entry, 1, options=SMALL)
    assert result.agents == STRENGTH_ROBOTS == ROBOTS
    assert result.lines()[-1].startswith("winrates=strategic:")


def test_bad_tournaments_are_refused(entry: registry.Entry) -> None:
    with pytest.raises(TournamentError, match="no agent 'nobody'"):
        run_tournament(entry, ("basic", "nobody"), 1)
    with pytest.raises(ValueError, match="robot"):
        run_tournament(entry, ("basic",), 1)
    with pytest.raises(TournamentError, match="one game"):
        run_tournament(entry, ROBOTS, 0)
