"""MasterGrab tournaments: counts, seat rotation, the winrates line, Wilson, jobs."""

from __future__ import annotations

import re

import pytest

from game.logic.grab.robot import UnknownRobotError
from game.logic.grab.tournament import (
    GameRecord,
    TournamentResult,
    run_tournament,
    wilson_interval,
)

ROBOTS = ("strategic", "basic", "basic", "basic")


@pytest.fixture(scope="module")
def tiny() -> TournamentResult:
    return run_tournament(ROBOTS, 4, countries=30, seed=7, max_rounds=300)


def test_counts_and_seat_rotation(tiny: TournamentResult) -> None:
    assert len(tiny.games) == 4
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
    assert strategic.wins + basic.wins == 4
    assert basic.win_rate == pytest.approx(basic.wins / 12)
    for g in tiny.games:
        assert 0 <= g.winner < 4 and g.rounds <= 300
        assert g.rounds == 300 if g.capped else g.rounds <= 300
    assert tiny.capped == sum(g.capped for g in tiny.games)


def test_winrates_line_and_cli_lines(tiny: TournamentResult) -> None:
    line = tiny.winrates_line()
    assert re.fullmatch(r"winrates=strategic:\d\.\d\d,basic:\d\.\d\d", line)
    lines = tiny.lines()
    assert lines[-1] == line
    assert lines[0].startswith("robot=strategic seats=4 wins=")
    assert lines[1].startswith("robot=basic seats=12 wins=")
    assert "ci95=" in lines[0]


def test_capped_games_are_decided_by_size() -> None:
    game = GameRecord(0, 1, ("basic", "simple"), 1, 5, True, (10, 30), (0.0, 0.0))
    result = TournamentResult(("basic", "simple"), (game,))
    assert result.capped == 1
    assert result.winrates_line() == "winrates=basic:0.00,simple:1.00"
    capped = run_tournament(("basic", "basic"), 1, countries=20, max_rounds=1)
    record = capped.games[0]
    assert record.capped and record.rounds == 1
    assert record.sizes[record.winner] == max(record.sizes)


def test_wilson_interval_on_known_numbers() -> None:
    assert wilson_interval(50, 100) == pytest.approx((0.40383, 0.59617), abs=1e-5)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson_interval(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


def test_jobs_do_not_change_the_result(tiny: TournamentResult) -> None:
    seen: list[int] = []
    parallel = run_tournament(
        ROBOTS,
        4,
        countries=30,
        seed=7,
        max_rounds=300,
        jobs=2,
        progress=lambda d, t, r: seen.append(d),
    )
    assert seen == [1, 2, 3, 4]
    strip = [(g.index, g.seats, g.seed, g.winner, g.rounds, g.sizes) for g in tiny.games]
    assert strip == [
        (g.index, g.seats, g.seed, g.winner, g.rounds, g.sizes) for g in parallel.games
    ]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(UnknownRobotError):
        run_tournament(("basic", "nobody"), 1)
    with pytest.raises(ValueError, match="two robots"):
        run_tournament(("basic",), 1)
    with pytest.raises(ValueError, match="one game"):
        run_tournament(ROBOTS, 0)
