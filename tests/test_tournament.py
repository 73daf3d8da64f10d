"""The tournament runner: seat rotation over shared seeds, standings and Wilson intervals, the
step cap, and the same results in process, in a process pool and on a Dask cluster.

The runner is tested with a tiny game defined here ("highest": each seat picks a number, the
highest pick plus the seat's luck of the deal wins); the real games follow at the end.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import dataclasses
import logging
import os
import pickle
import random
import socket
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from game import registry
from game.cli import tournament as tournament_cli
from game.logic import tournament_pool
from game.logic.contract import TERMINAL, Game, Limits
from game.logic.options import Option, OptionError, OptionsSchema
from game.logic.tournament import (
    DEFAULT_MAX_STEPS,
    GameFailedError,
    PlayedGame,
    TournamentError,
    TournamentResult,
    run_tournament,
    wilson_interval,
    work_units,
)

WAIT = 4  # the action that passes without picking


@dataclass(frozen=True)
class Highest:
    """Luck per seat (dealt from the seed), each seat's pick (None: not yet), whose turn."""

    luck: tuple[int, ...]
    picks: tuple[int | None, ...]
    turn: int

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.turn

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [0, 1, 2, 3, WAIT]

    def apply(self, action: int) -> Highest:
        picks = list(self.picks)
        if action != WAIT:
            picks[self.turn] = action
        n = len(picks)
        turn = next(
            ((self.turn + k) % n for k in range(1, n + 1) if picks[(self.turn + k) % n] is None),
            self.turn,
        )
        return Highest(self.luck, tuple(picks), turn)

    def is_terminal(self) -> bool:
        return None not in self.picks

    def totals(self) -> list[int]:
        return [
            luck + (pick if pick is not None else -9)
            for luck, pick in zip(self.luck, self.picks, strict=True)
        ]

    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal():
            return (0.0,) * len(self.picks)
        return _ranked(self.totals())

    def key(self) -> tuple[Any, ...]:
        return (self.luck, self.picks, self.turn)

    def action_text(self, action: int) -> str:
        return "wait" if action == WAIT else str(action)

    def parse_action(self, text: str) -> int:
        return WAIT if text == "wait" else int(text)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def observation(self, seat: int) -> tuple[Any, ...]:
        return self.key()


class HighestGame(Game[int]):
    id, title = "highest", "Highest"

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.seats = int(options["seats"])

    def initial_state(self, rng: random.Random) -> Highest:
        return Highest((0,) * self.seats, (None,) * self.seats, 0)

    def tournament_start(self, rng: random.Random) -> Highest:
        return Highest(tuple(rng.randrange(3) for _ in range(self.seats)), (None,) * self.seats, 0)

    def unfinished_returns(self, state: Any) -> tuple[float, ...] | None:
        return _ranked(state.totals()) if self.options["rule_at_cap"] else None


def _ranked(totals: list[int]) -> tuple[float, ...]:
    best = max(totals)
    return tuple(1.0 if t == best else -1.0 for t in totals)


@dataclass
class Picker:
    """Picks ``pick`` (None: a number drawn from the rng; WAIT: never picks; -1: raises)."""

    name: str
    pick: int | None
    description: str = ""

    def choose(self, state: Any, limits: Limits, rng: random.Random, stop: Any) -> int:
        if self.pick == -1:
            raise RuntimeError("broken on purpose")
        return rng.randrange(4) if self.pick is None else self.pick


AGENTS = {"high": 3, "low": 0, "coin": None, "stall": WAIT, "broken": -1}
#: The environment variable naming the marker file of the agent "once" (a worker process
#: started by the test sees the test's environment).
MARKER = "GAMEHALL_TEST_MARKER"


class Ending(Picker):
    """Picks 3, but first ends the process it plays in (``os._exit(3)``, as a crash or a
    ``kill -9`` would): "once" the first time any process plays it (it makes the marker file
    named by :data:`MARKER` then), "doomed" whenever it sits in seat 0."""

    def choose(self, state: Any, limits: Limits, rng: random.Random, stop: Any) -> int:
        if self.name == "doomed" and state.turn == 0:
            os._exit(3)
        if self.name == "once":
            try:
                open(os.environ[MARKER], "x").close()
            except FileExistsError:
                return 3
            os._exit(3)
        return 3


def make_game(options: Mapping[str, Any]) -> HighestGame:
    return HighestGame(options)


def agents() -> dict[str, str]:
    return {
        **{name: f"picks {pick}" for name, pick in AGENTS.items()},
        "once": "ends its process the first time",
        "doomed": "ends its process in seat 0",
    }


def make_agent(name: str, options: Mapping[str, Any]) -> Picker:
    if name in ("once", "doomed"):
        return Ending(name, 3)
    if name not in AGENTS:
        raise registry.UnknownAgentError(name)
    return Picker(name, AGENTS[name])


ENTRY = registry.Entry(
    id="highest",
    title="Highest",
    summary="the highest pick wins",
    options=OptionsSchema(
        (
            Option("seats", int, 3, minimum=1, maximum=4, help="players"),
            Option("rule_at_cap", bool, False, help="rank a capped game"),
        )
    ),
    make_game=make_game,
    agents=agents,
    make_agent=make_agent,
    hint_agent="high",
    controller="tests.test_tournament:NoController",
)


def strip(result: TournamentResult) -> list[PlayedGame]:
    """The records without the thinking times (wall clock)."""
    return [dataclasses.replace(g, thinking=()) for g in result.games]


@pytest.fixture(scope="module")
def six() -> TournamentResult:
    return run_tournament(ENTRY, ["high", "low", "coin"], 6, seed=4)


# --------------------------------------------------------------------------- rotation, seeds


def test_every_agent_sits_in_every_seat(six: TournamentResult) -> None:
    assert [g.index for g in six.games] == list(range(6))
    assert [g.seats for g in six.games[:3]] == [
        ("high", "low", "coin"),
        ("low", "coin", "high"),
        ("coin", "high", "low"),
    ]
    assert [g.seats for g in six.games[3:]] == [g.seats for g in six.games[:3]]
    for name in ("high", "low", "coin"):
        assert sorted(g.seats.index(name) for g in six.games) == [0, 0, 1, 1, 2, 2]
    assert [(s.name, s.seats) for s in six.standings] == [("high", 6), ("low", 6), ("coin", 6)]


def test_a_group_of_games_shares_one_seed(six: TournamentResult) -> None:
    assert [g.seed for g in six.games] == [4_000_012] * 3 + [4_000_013] * 3
    game = ENTRY.game({})
    starts = [game.tournament_start(random.Random(g.seed)) for g in six.games]
    assert starts[0] == starts[1] == starts[2] and starts[3] == starts[4] == starts[5]
    units = work_units(ENTRY, ["high", "low"], 5, options={"seats": 2}, seed=0)
    assert [(u.seed, u.seats) for u in units] == [
        (0, ("high", "low")),
        (0, ("low", "high")),
        (1, ("high", "low")),
        (1, ("low", "high")),
        (2, ("high", "low")),
    ]


def test_the_standings_count_every_seat(six: TournamentResult) -> None:
    for standing in six.standings:
        assert standing.wins + standing.draws + standing.losses == standing.seats
        assert sum(standing.seat_wins) == standing.wins
    # "low" picks 0 and "high" 3: with a luck of 0 to 2, "low" never wins, "high" sometimes.
    high, low, _ = six.standings
    assert low.wins == 0 and high.wins > 0


# --------------------------------------------------------------------------- the figures


def test_wilson_interval_on_hand_computed_numbers() -> None:
    # 3 of 10, z = 1.96: centre (0.3 + 3.8416/20) / 1.38416 = 0.35551,
    # half 1.96 * sqrt(0.021 + 3.8416/400) / 1.38416 = 0.24772.
    assert wilson_interval(3, 10) == pytest.approx((0.10779, 0.60323), abs=1e-4)
    assert wilson_interval(50, 100) == pytest.approx((0.40383, 0.59617), abs=1e-5)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson_interval(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


def test_lines_end_with_the_winrates() -> None:
    def record(index: int, seats: tuple[str, ...], returns: tuple[float, ...]) -> PlayedGame:
        return PlayedGame(index, 0, seats, returns, 10 + index, False, (0.0, 0.0))

    games = [record(i, ("a", "b"), (1.0, -1.0)) for i in range(3)]
    games += [record(3, ("b", "a"), (0.0, 0.0))]
    games += [record(4 + i, ("a", "b"), (-1.0, 1.0)) for i in range(6)]
    result = TournamentResult("highest", ("a", "b"), tuple(games), seed=2)
    a, _ = result.standings
    assert (a.seats, a.wins, a.draws, a.losses, a.seat_wins) == (10, 3, 1, 6, (3, 0))
    assert a.score == pytest.approx(0.35)
    lines = result.lines()
    assert lines[0] == (
        "agent=a seats=10 wins=3 draws=1 losses=6 win_rate=0.300 ci95=0.108-0.603 "
        "score=0.350 seat_wins=3,0"
    )
    assert lines[2] == "game=highest games=10 capped=0 median_steps=14.5 seed=2"
    assert lines[-1] == result.winrates_line() == "winrates=a:0.30,b:0.60"


# --------------------------------------------------------------------------- where games run


def test_one_job_is_deterministic(six: TournamentResult) -> None:
    seen: list[int] = []
    again = run_tournament(
        ENTRY, ["high", "low", "coin"], 6, seed=4, progress=lambda d, t, r: seen.append(d)
    )
    assert strip(again) == strip(six)
    assert seen == [1, 2, 3, 4, 5, 6]


def test_a_process_pool_gives_the_same_games(six: TournamentResult) -> None:
    seen: list[tuple[int, int]] = []
    pooled = run_tournament(
        ENTRY,
        ["high", "low", "coin"],
        6,
        seed=4,
        jobs=2,
        progress=lambda d, t, r: seen.append((d, t)),
    )
    assert strip(pooled) == strip(six)
    assert seen == [(d, 6) for d in range(1, 7)]


def test_a_dask_cluster_gives_the_same_games(six: TournamentResult) -> None:
    from dask.distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        on_dask = run_tournament(
            ENTRY, ["high", "low", "coin"], 6, seed=4, executor=client.get_executor()
        )
    assert strip(on_dask) == strip(six)


# --------------------------------------------------------------------------- lost workers


def test_a_lost_worker_is_replaced_and_its_game_played_again(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ended"
    monkeypatch.setenv(MARKER, str(marker))
    two = {"seats": 2}
    lost = run_tournament(ENTRY, ["once", "low"], 4, options=two, seed=4, jobs=2)
    assert marker.exists()  # a worker process did end, with a game in hand
    # The marker is there now: nothing ends, and the games are the same.
    again = run_tournament(ENTRY, ["once", "low"], 4, options=two, seed=4)
    assert strip(lost) == strip(again) and len(lost.games) == 4
    assert lost.failed == () and lost.stopped == "" and lost.unplayed == 0


def test_a_game_that_always_loses_its_worker_fails_alone() -> None:
    result = run_tournament(ENTRY, ["doomed", "low"], 2, options={"seats": 2}, jobs=2, tries=2)
    assert [g.index for g in result.games] == [1]  # "doomed" sat in seat 1 there
    assert result.failed == (
        "highest game 0 (seed 0, seats doomed,low) failed: its worker process ended 2 times "
        "(exit code 3 the last time)",
    )
    assert result.lines()[-2].endswith(" failed=1")
    assert result.statistics()["failed"] == list(result.failed)


class Cancelling(concurrent.futures.Executor):
    """Plays games 0 and 1 here; game 2 fails where it ran (as Dask's ``KilledWorker``);
    the rest come back cancelled, as a Dask client's futures do when its scheduler is lost."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        index = args[0].index
        if index < 2:
            future.set_result(fn(*args))
        elif index == 2:
            future.set_exception(RuntimeError("the task's worker died\n4 times"))
        else:
            future.cancel()
            future.set_running_or_notify_cancel()
        return future


def test_a_lost_executor_keeps_the_finished_games() -> None:
    result = run_tournament(
        ENTRY, ["high", "low"], 6, options={"seats": 2}, executor=Cancelling(),
        watch=lambda: "the connection to the Dask scheduler at tcp://x:1 was lost",
    )  # fmt: skip
    assert [g.index for g in result.games] == [0, 1]
    assert result.failed == (
        "highest game 2 (seed 1, seats high,low) failed: where it ran: RuntimeError: the "
        "task's worker died 4 times",
    )
    assert result.stopped == "the connection to the Dask scheduler at tcp://x:1 was lost"
    assert result.unplayed == 3
    assert result.lines()[-2].endswith(" failed=1 unplayed=3")


def test_an_executor_that_stops_answering_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament_pool, "WATCH_SECONDS", 0.01)
    never = concurrent.futures.Future()  # type: ignore[var-annotated]
    asked: list[int] = []

    class Silent(concurrent.futures.Executor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            return never

    def watch() -> str | None:
        asked.append(1)
        return "no worker" if len(asked) == 3 else None

    result = run_tournament(ENTRY, ["high", "low"], 2, options={"seats": 2}, executor=Silent(),
                            watch=watch)  # fmt: skip
    assert (result.games, result.stopped, result.unplayed, len(asked)) == ((), "no worker", 2, 3)


def test_a_registered_entry_travels_by_its_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_ENTRIES", {"highest": ENTRY})
    data = pickle.dumps(ENTRY)
    assert b"highest" in data and b"make_game" not in data
    assert pickle.loads(data) is ENTRY
    monkeypatch.setattr(registry, "_ENTRIES", {})
    assert pickle.loads(pickle.dumps(ENTRY)) == ENTRY  # not registered: it travels whole


# --------------------------------------------------------------------------- the step cap


@pytest.mark.parametrize("rule", [False, True])
def test_a_game_at_the_step_cap_is_decided_by_the_games_rule(rule: bool) -> None:
    result = run_tournament(
        ENTRY, ["high", "stall"], 2, options={"seats": 2, "rule_at_cap": rule}, max_steps=7
    )
    assert result.capped == 2
    for game in result.games:
        assert game.capped and game.steps == 7
        assert game.result == "stopped at the step cap"
    high, stall = result.standings
    if rule:  # the picks so far decide: "high" picked, "stall" never did
        assert (high.wins, stall.losses) == (2, 2)
    else:
        assert (high.draws, stall.draws) == (2, 2)
    assert "capped=2" in result.lines()[-2]


def test_the_default_cap_is_generous() -> None:
    assert work_units(ENTRY, ["high"] * 3, 1)[0].max_steps == DEFAULT_MAX_STEPS


# --------------------------------------------------------------------------- refusals


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(TournamentError, match=r"no agent 'nobody'.*high, low"):
        run_tournament(ENTRY, ["high", "nobody", "low"], 1)
    with pytest.raises(TournamentError, match="3 seats: name one agent per seat, not 2"):
        run_tournament(ENTRY, ["high", "low"], 1)
    with pytest.raises(TournamentError, match="at least one game"):
        run_tournament(ENTRY, ["high"] * 3, 0)
    with pytest.raises(TournamentError, match="jobs"):
        run_tournament(ENTRY, ["high"] * 3, 1, jobs=0)
    with pytest.raises(OptionError, match="seats must be at most 4"):
        run_tournament(ENTRY, ["high"] * 5, 1, options={"seats": 5})
    with pytest.raises(TypeError, match=r"unexpected keyword arguments: max_step$"):
        run_tournament(ENTRY, ["high"] * 3, 1, max_step=5)  # type: ignore[call-arg]


def test_a_failing_game_names_its_seed_and_seats() -> None:
    with pytest.raises(
        GameFailedError,
        match=r"^highest game 0 \(seed 9000027, seats high,broken\) failed: MatchError: broken:",
    ):
        run_tournament(ENTRY, ["high", "broken"], 2, options={"seats": 2}, seed=9)


# --------------------------------------------------------------------------- the command line


def cli(monkeypatch: pytest.MonkeyPatch, *argv: str) -> argparse.Namespace:
    monkeypatch.setattr(registry, "_ENTRIES", {"highest": ENTRY})
    parser = argparse.ArgumentParser(prog="gamehall tournament highest")
    tournament_cli.add_arguments(parser, ENTRY)
    return parser.parse_args(argv)


def test_the_command_prints_the_winrates_last(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = cli(monkeypatch, "--agents", "high,low", "--seats", "2", "--games", "4", "--seed", "3")
    assert tournament_cli.run(args, ENTRY) == 0
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    assert lines[0].startswith("agent=high seats=4 wins=")
    assert lines[-1] == "winrates=high:1.00,low:0.00"
    assert err == ""  # no progress bar: stderr is not a terminal


def test_the_old_spellings_still_work(monkeypatch: pytest.MonkeyPatch) -> None:
    args = cli(monkeypatch, "--a", "high", "--b", "low", "--time-per-move", "0.5")
    assert tournament_cli.agent_names(args) == ["high", "low"]
    assert tournament_cli.limits(args) == Limits(time=0.5)
    args = cli(monkeypatch, "--robots", "high,low,low")
    assert tournament_cli.agent_names(args) == ["high", "low", "low"]


def test_the_command_runs_on_a_dask_scheduler(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        argv = ["--agents", "high,low", "--seats", "2", "--games", "4", "--seed", "3"]
        args = cli(monkeypatch, *argv, "--scheduler", cluster.scheduler_address)
        assert tournament_cli.run(args, ENTRY) == 0
    on_dask = capsys.readouterr().out
    assert tournament_cli.run(cli(monkeypatch, *argv), ENTRY) == 0
    assert capsys.readouterr().out == on_dask


def test_without_dask_the_scheduler_flag_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails
    args = cli(monkeypatch, "--agents", "high,low", "--seats", "2", "--scheduler", "tcp://x:1")
    assert tournament_cli.run(args, ENTRY) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "gamehall tournament highest: --scheduler needs dask.distributed: "
        "pip install 'gamehall[cluster]'"
    )


def test_a_scheduler_that_cannot_be_reached_is_a_refused_argument(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import contextlib

    @contextlib.contextmanager
    def unreachable(address: str | None):  # type: ignore[no-untyped-def]
        raise OSError(f"cannot reach the Dask scheduler at {address}")
        yield

    monkeypatch.setattr(tournament_cli, "_executor", unreachable)
    args = cli(monkeypatch, "--agents", "high,low", "--seats", "2", "--scheduler", "tcp://x:1")
    assert tournament_cli.run(args, ENTRY) == 2
    assert "cannot reach the Dask scheduler at tcp://x:1" in capsys.readouterr().err


def test_the_command_prints_the_finished_games_and_a_line_per_game_not_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    played = run_tournament(ENTRY, ["high", "low"], 2, options={"seats": 2}, seed=3)
    lines = [
        "highest game 2 (seed 3000004, seats high,low) failed: its worker process ended 3 "
        "times (killed by SIGKILL the last time)"
    ]
    lost = dataclasses.replace(played, failed=tuple(lines), stopped="no worker", unplayed=1)
    monkeypatch.setattr(tournament_cli, "run_tournament", lambda *a, **k: lost)
    args = cli(monkeypatch, "--agents", "high,low", "--seats", "2", "--games", "4", "--seed", "3")
    assert tournament_cli.run(args, ENTRY) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == lost.lines() and "failed=1 unplayed=1" in out
    assert err.splitlines() == [
        f"gamehall tournament highest: {lines[0]}",
        "gamehall tournament highest: stopped after 2 of 4 games: no worker",
    ]


def test_a_game_that_fails_keeps_the_games_finished_before_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = run_tournament(ENTRY, ["high", "low"], 1, options={"seats": 2})

    def failing(*args: Any, **kwargs: Any) -> TournamentResult:
        error = GameFailedError("highest game 1 (seed 0, seats low,high) failed: ValueError: x")
        error.result = first
        raise error

    monkeypatch.setattr(tournament_cli, "run_tournament", failing)
    args = cli(monkeypatch, "--agents", "high,low", "--seats", "2", "--games", "2")
    assert tournament_cli.run(args, ENTRY) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == first.lines()
    assert (
        err == "gamehall tournament highest: highest game 1 (seed 0, seats low,high) failed: "
        "ValueError: x\n"
    )


# --------------------------------------------------------------------------- a Dask scheduler


@pytest.fixture
def server() -> Any:
    """``server(answer)``: the address of a local TCP server that takes every connection and
    then, given ``answer`` bytes, sends them once something arrives (an HTTP server's reply
    to a request it cannot read), or, given None, never says anything."""
    listeners: list[socket.socket] = []
    held: list[socket.socket] = []

    def serve(listener: socket.socket, answer: bytes | None) -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                held.append(conn)
                if answer is not None:
                    conn.recv(1024)
                    conn.sendall(answer)

    def start(answer: bytes | None) -> str:
        listener = socket.create_server(("127.0.0.1", 0))
        listeners.append(listener)
        threading.Thread(target=serve, args=(listener, answer), daemon=True).start()
        return f"tcp://127.0.0.1:{listener.getsockname()[1]}"

    yield start
    for sock in listeners + held:
        sock.close()


def dask_executor(address: str, wait: float) -> Any:
    return tournament_cli._executor(tournament_cli._Scheduler(address, wait))


def test_a_port_that_never_answers_is_given_up(server: Any) -> None:
    address = server(None)
    message = f"^no answer from {address} within 0.2 s: is it a Dask scheduler\\?$"
    with pytest.raises(OSError, match=message), dask_executor(address, 0.2):
        pass


def test_an_http_server_is_not_taken_for_a_scheduler(server: Any) -> None:
    address = server(b"HTTP/1.0 400 Bad request\r\nContent-Length: 0\r\n\r\n")
    message = f"^what answers at {address} is not a Dask scheduler \\(MemoryError reading"
    with pytest.raises(OSError, match=message), dask_executor(address, 5):
        pass


def test_a_dask_worker_is_not_taken_for_a_scheduler() -> None:
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        worker = next(iter(cluster.scheduler_info["workers"]))
        message = "is not a Dask scheduler \\(a Dask Worker\\)$"
        with pytest.raises(OSError, match=message), dask_executor(worker, 5):
            pass


def test_the_vigil_says_when_to_stop_waiting_for_a_cluster() -> None:
    now = [100.0]
    vigil = tournament_cli._Vigil("tcp://x:1", 30, clock=lambda: now[0])
    assert vigil.problem(True, -1, 100.0) is None  # not heard yet
    now[0] = 129.0
    assert vigil.problem(True, 0, 129.0) is None  # no worker, for 29 s
    now[0] = 130.0
    no_worker = "the Dask scheduler at tcp://x:1 has had no worker for 30 s"
    assert vigil.problem(True, 0, 130.0) == no_worker
    assert vigil.problem(True, 2, 130.0) is None  # a worker again
    now[0] = 159.0
    assert vigil.problem(True, 0, 159.0) is None
    silent = "the Dask scheduler at tcp://x:1 has not answered for 30 s"
    assert vigil.problem(True, 2, 129.0) == silent
    lost = "the connection to the Dask scheduler at tcp://x:1 was lost"
    assert vigil.problem(False, 2, 159.0) == lost


def test_a_cluster_without_workers_ends_the_tournament(monkeypatch: pytest.MonkeyPatch) -> None:
    from dask.distributed import LocalCluster

    monkeypatch.setattr(tournament_pool, "WATCH_SECONDS", 0.02)
    monkeypatch.setattr(tournament_cli._Cluster, "LISTEN_SECONDS", 0.02)
    # The scheduler runs in this process: on a busy machine its answers can come later than
    # the 0.2 s the test gives the missing worker, so its silence is given a minute.
    monkeypatch.setattr(tournament_cli._Cluster, "SILENCE_SECONDS", 60.0)
    with (
        LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster,
        dask_executor(cluster.scheduler_address, 0.2) as executor,
    ):
        result = run_tournament(
            ENTRY, ["high", "low"], 2, options={"seats": 2}, executor=executor,
            watch=getattr(executor, "problem", None),
        )  # fmt: skip
    address = cluster.scheduler_address
    assert result.stopped == f"the Dask scheduler at {address} has had no worker for 0.2 s"
    assert (result.games, result.unplayed) == ((), 2)


def test_distributeds_log_goes_to_ours_not_to_stderr(
    caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    distributed = logging.getLogger("distributed")
    before = (distributed.handlers[:], distributed.propagate)
    with caplog.at_level(logging.INFO), tournament_cli._distributed_log_to_ours():
        logging.getLogger("distributed.client").error("Failed to reconnect to scheduler")
    assert capsys.readouterr().err == ""
    [record] = [r for r in caplog.records if "reconnect" in r.getMessage()]
    assert (record.name, record.levelno) == ("game.cli.tournament", logging.INFO)
    assert record.getMessage() == "distributed.client: Failed to reconnect to scheduler"
    assert (distributed.handlers, distributed.propagate) == before


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--agents", "high,nobody", "--seats", "2"), "no agent 'nobody'"),
        (("--agents", "high,low", "--seats", "9"), "seats must be at most 4"),
        (("--agents", "high,low"), "3 seats"),
        (("--seats", "2"), "--agents"),
        (
            ("--agents", "high,low", "--seats", "2", "--time-per-move", "-1"),
            "--time-per-move must be a finite number of seconds above 0 and at most 3600",
        ),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: tuple[str, ...],
    message: str,
) -> None:
    assert tournament_cli.run(cli(monkeypatch, *argv), ENTRY) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and message in err
    assert err.startswith("gamehall tournament highest: ")


# --------------------------------------------------------------------------- the real games


def test_a_short_reversi_tournament() -> None:
    entry = registry.get("reversi")
    levels = ["classic-intermediate", "classic-beginner"]
    fast = Limits(time=0.01)
    one = run_tournament(entry, levels, 4, seed=5, limits=fast)
    two = run_tournament(entry, levels, 4, seed=5, limits=fast, jobs=2)
    assert strip(two) == strip(one)  # the classic levels play by the seed alone
    # Each opening twice, each level taking Black (seat 0) once.
    assert [g.seats[0] for g in one.games] == levels * 2
    game = entry.game()
    starts = [game.tournament_start(random.Random(g.seed)) for g in one.games]
    assert starts[0].key() == starts[1].key() != starts[2].key() == starts[3].key()
    for start, record in zip(starts, one.games, strict=True):
        assert 2 <= sum(start.disc_count()) - 4 <= 6  # 2 to 6 random opening plies
        state = start
        for text in record.actions:
            state = state.apply(state.parse_action(text))
        assert state.is_terminal() and state.returns() == record.returns
        assert not record.capped and record.result.endswith(".")
    assert sum(s.wins + s.draws + s.losses for s in one.standings) == 8
    assert one.lines()[-1].startswith("winrates=classic-intermediate:")


def test_gamehall_tournament_grab_takes_the_old_spelling(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from game.cli import main

    argv = ["tournament", "grab", "--robots", "strategic,basic", "--games", "2"]
    assert main([*argv, "--countries", "30", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("agent=strategic seats=2 ")
    assert lines[-2].startswith("game=grab games=2 ")
    assert lines[-1].startswith("winrates=strategic:")
    assert main(["tournament", "grab", "--agents", "basic,nobody"]) == 2
    assert "no agent 'nobody'" in capsys.readouterr().err
