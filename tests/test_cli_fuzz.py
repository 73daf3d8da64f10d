"""Hostile command lines: every command, every game (and names that are none), flags taken
from the real parsers, values from pools of numbers, text and paths that have broken
programs before. Each runs in-process through ``game.cli.main``.

Whatever the line, ``main`` returns 0 or 2 with at most one line of its own on stderr, never a
traceback, and writes nothing outside the test's folders. The work after the checks (a window,
a search, a benchmark, a tournament) is replaced by recorders at the seams where it starts;
each recorder asserts that what it was handed is checked, finite and in range, then stops the
command with :class:`Reached`. A smaller part at the end runs cheap commands for real.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game import cli
from game.logic.contract import Limits
from game.logic.reversi.ffo import FFO
from game.logic.rules.agents import make_agent
from game.registry import all_entries
from tests.deep import sized
from tests.endgames import FFO40_AFTER_8, FFO40_AFTER_8_BEST, FFO40_AFTER_8_SCORE

#: Command lines tried: 400 in CI (4 CPU s; each seam is reached by an explicit example as
#: well), 2,000 under benchmarks/slow_checks.py (22 CPU s).
EXAMPLES = sized(400, 2000)
COMMANDS = list(cli.COMMANDS)
GAMES = [e.id for e in all_entries()]
#: What may come where a game's id goes: the games, the menu, render, and names of nothing.
GAME_WORDS = [*GAMES, cli.MENU, cli.RENDER, "go", "", "-", "RIVER", "rïver", "river ", "--x"]
START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"

#: Values that have crashed or hung programs: zeroes, signs, overflows, non-numbers,
#: empty and blank text, huge and non-ASCII text, separators.
NASTY = [
    "0", "-0", "-1", "1", "2", "0.5", "1e309", "-1e309", "1e300", "nan", "-nan", "inf",
    "-inf", "", " ", "1e3", "0x10", "1_000", str(2**63), str(2**64 + 1), "9" * 40, "-" + "9" * 40,
    "١٢", "ünïcødé", "\u202e", "x" * 300, "-", "--", ",", ",,", "a,b", "0x0", "-5x5",
    "99999x99999", "abc", "64x64", "8193x64", "\x00", "null", "true", "None",
]  # fmt: skip

#: Good and nearly good values of the flags that have a vocabulary of their own.
VALID = {
    "--size": ["64x64", "320x200", "1280X720", "8192x64"],
    "--time": ["0.01", "0.05", "3"],
    "--time-per-move": ["0.01", "0.5"],
    "--games": ["1", "3", "100000", "100001"],
    "--jobs": ["1", "2", "256", "257"],
    "--seed": ["0", "5", str(2**63 - 1)],
    "--max-steps": ["1", "50"],
    "--frames": ["1", "5", "10000", "10001"],
    "--perft-depth": ["1", "5", "15", "16"],
    "--scene": ["menu", *GAMES, "nosuch"],
    "--agents": ["beginner,beginner", "basic,basic", "strategic,basic,basic,basic", "x,", ","],
    "--robots": ["basic,basic", "strategic,basic", "nobody"],
    "--a": ["beginner"],
    "--b": ["expert"],
    "--black": ["human", "beginner", "master"],
    "--white": ["human", "expert"],
    "--do": [
        "hint",
        "d3,hint",
        "move:boat",
        "move:attack 3,5>12",
        "a1",
        "f5,f5",
        "country:99999",
        "click:nosuch",
        "wait,overlay",
        "save-to:x.txt",
        "load-from:/nonexistent",
    ],
    "--countries": ["30", "1000", "1001"],
    "--priests": ["3", "200", "201"],
    "--devils": ["3", "4"],
    "--capacity": ["2", "12", "13"],
    "--distribution": ["compact", "nosuch"],
    "--scheduler": ["tcp://127.0.0.1:1", "host:0", "a b", "inproc://x/1/2"],
    "position": [
        START,
        FFO[40].text,
        FFO[41].text,
        FFO[40].text[:-1] + "O",
        "X" * 64 + " X",
        "XO",
        "-" * 64 + " X",
    ],
}


#: The games each command takes (the others are refused at once).
TAKES = {
    "solve": ["river", "reversi"],
    "bench": ["reversi", "grab", cli.RENDER],
    "shot": [*GAMES, cli.MENU],
    "play": [*GAMES, cli.MENU],
}
#: Agents that fill every seat of each game.
AGENTS = {
    "river": ["solver"],
    "reversi": ["beginner,expert", "classic-beginner,master"],
    "grab": ["basic,basic", "strategic,basic,basic,basic"],
}


class Reached(BaseException):
    """A recorder saw checked values: the command got past its checks (not an error)."""


@pytest.fixture
def pools(tmp_path: Path) -> dict[str, str]:
    """Paths that a file flag may be given: missing, a folder, a pipe, garbage, big, good."""
    files = tmp_path / "files"
    files.mkdir()
    (files / "garbage.bin").write_bytes(bytes(range(256)) * 4)
    (files / "empty.txt").write_bytes(b"")
    (files / "big.txt").write_bytes(b"f5" * (1 << 20))
    (files / "game.txt").write_text("f5d6c3d3c4\n")
    (files / "bad.txt").write_text("f5d6z9\n")
    (files / "folder").mkdir()
    os.mkfifo(files / "fifo")
    names = ["garbage.bin", "empty.txt", "big.txt", "game.txt", "bad.txt", "folder", "fifo"]
    paths = {name: str(files / name) for name in names}
    paths["missing"] = str(files / "missing" / "x.png")
    paths["out"] = str(files / "out.png")
    return paths


@functools.cache
def flags_of(command: str, game: str) -> list[tuple[str, bool]]:
    """The flags of ``command`` for ``game`` (its entry's too, when it is one), each with
    whether it takes a value, read from the real parser the first time they are asked for
    (every command's parser for every game, made when the module loaded, cost half a CPU
    second in each process that collects the tests)."""
    try:
        entry = cli._entry(command, game)
    except cli.CommandLineError:
        entry = None
    parser = cli._parser(command, entry)
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = []
    for action in commands.choices[command]._actions:
        if not action.option_strings or "-h" in action.option_strings:
            continue
        flag = max(action.option_strings, key=len)
        out.append((flag, action.nargs != 0))
    return out


#: The words in a game's place that have flags of their own; any other word has those of a
#: name of nothing, "x".
FLAGGED = {*GAMES, cli.MENU, cli.RENDER}


def flags_for(command: str, game: str) -> list[tuple[str, bool]]:
    """The flags a command line of ``command`` and ``game`` draws from (none for a command
    that is not one)."""
    if command not in COMMANDS:
        return []
    return (game in FLAGGED and flags_of(command, game)) or flags_of(command, "x")


@st.composite
def command_lines(draw: st.DrawFn, paths: list[str]) -> list[str]:
    # Mostly real commands and games: a wrong name is refused before anything else is read.
    # solve twice as often: its seams (an exact solve, a search) lie behind the most checks.
    command = draw(st.sampled_from([*COMMANDS * 8, *["solve"] * 8, "nosuch", ""]))
    # A game the command takes 8 times in 9, whatever the number of games in the registry (a
    # new game must not make the seams behind one game's checks rarer).
    if draw(st.integers(0, 8)) > 0:
        game = draw(st.sampled_from(TAKES.get(command, GAMES)))
    else:
        game = draw(st.sampled_from(GAME_WORDS))
    flags = flags_for(command, game)
    argv = [command] if command else []
    if draw(st.integers(0, 9)) > 0:
        argv.append(game)
    # What a command needs to get anywhere (a position, --out, --agents) comes most times.
    if command == "solve" and draw(st.integers(0, 4)) > 0:
        argv.append(draw(st.sampled_from(VALID["position"] * 2 + NASTY[:8])))
    if command == "shot" and draw(st.integers(0, 4)) > 0:
        argv += ["--out", draw(st.sampled_from(["x.png", *paths]))]
    if command == "tournament" and draw(st.integers(0, 4)) > 0:
        argv += ["--agents", draw(st.sampled_from(AGENTS.get(game, ["x,y"])))]
    # Most lines carry one hostile value among good ones, so that both the refusals and the
    # work behind the checks are reached.
    for _ in range(draw(st.integers(0, 4))):
        if not flags:
            break
        flag, takes_value = draw(st.sampled_from(flags))
        argv.append(flag)
        if takes_value:
            good = VALID.get(flag)
            hostile = draw(st.integers(0, 4)) == 0 or not good
            argv.append(draw(st.sampled_from(NASTY + paths if hostile else good)))
    if draw(st.integers(0, 49)) == 0:
        argv.append(draw(st.sampled_from(["-h", "-v", "--nosuch", "extra"])))
    return argv


@pytest.fixture
def recorders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every seam where a command's work starts, replaced by a recorder that checks what it
    is handed and raises :class:`Reached`; the list collects which seams were reached."""
    from game.cli import play as cli_play
    from game.cli import tournament as tournament_cli
    from game.engine import window
    from game.games.clue import hooks as clue
    from game.games.grab import hooks as grab
    from game.games.reversi import hooks as reversi
    from game.games.rules import hooks as rules
    from game.logic.clue import bench as clue_bench_module
    from game.logic.reversi.board import Position
    from game.logic.rules import agents as rules_agents
    from game.logic.rules import bench as rules_bench_module

    reached: list[str] = []

    def finite(value: Any, low: float, high: float) -> bool:
        return isinstance(value, int | float) and math.isfinite(value) and low <= value <= high

    def build_director(**kw: Any) -> Any:
        w, h = kw["size"]
        assert isinstance(w, int) and isinstance(h, int) and 64 <= w <= 8192 and 64 <= h <= 8192
        assert isinstance(kw.get("shadows", True), bool)
        for entry in all_entries():
            session = (kw.get("sessions") or {}).get(entry.id)
            if session is not None:  # checked by the schema: validating again changes nothing
                assert entry.options.validate(session.options) == session.options
        reached.append("window")
        raise Reached

    def solve_exact(position: Any, *, all_moves: bool, time_limit: float | None) -> Any:
        assert isinstance(position, Position) and isinstance(all_moves, bool)
        assert time_limit is None or finite(time_limit, 1e-9, 1e300)
        reached.append("solve")
        raise Reached

    def search_position(position: Any, seconds: float) -> Any:
        assert isinstance(position, Position) and finite(seconds, 1e-9, 1e300)
        reached.append("search")
        raise Reached

    def reversi_bench(depth: int) -> int:
        assert isinstance(depth, int) and 1 <= depth <= reversi.MAX_PERFT_DEPTH
        reached.append("perft")
        raise Reached

    def grab_bench(entry: Any, *, strength: bool, games: int, jobs: int, quick: bool) -> int:
        assert 1 <= games <= grab.MAX_GAMES and 1 <= jobs <= grab.MAX_JOBS
        reached.append("grab bench")
        raise Reached

    def run_tournament(entry: Any, agents: Any, games: int, **kw: Any) -> Any:
        assert 1 <= games <= 100_000 and 1 <= kw["jobs"] <= 256
        assert all(name in entry.agents() for name in agents)
        assert isinstance(kw["limits"], Limits)
        assert entry.options.validate(kw["options"]) == kw["options"]
        reached.append("tournament")
        raise Reached

    def rules_bench(engine: Any, games: int, rng: Any) -> str:
        assert isinstance(games, int) and 1 <= games <= rules.MAX_PLAYOUTS
        reached.append("rules bench")
        raise Reached

    def rules_agent(name: str) -> Any:
        make_agent(name)  # a name the agents know (a level, or a plain search)
        reached.append("rules solve")
        raise Reached

    def clue_bench(*, games: int, solo: int) -> Any:
        assert 1 <= games <= clue.MAX_GAMES and 1 <= solo <= clue.MAX_GAMES
        reached.append("clue bench")
        raise Reached

    @contextlib.contextmanager
    def executor(address: str | None) -> Iterator[None]:
        yield None  # no cluster is contacted

    def open_remote(args: Any, entry: Any, settings: Any, typed: Any) -> Any:
        assert bool(args.join) != bool(args.host or args.serve)  # refused before, if both
        reached.append("play on a server")
        raise Reached

    def start_server(self: Any) -> int:
        assert 0 <= self.bind[1] <= 65535
        reached.append("play --serve")
        raise Reached

    def open_store(data: Path | None = None, database: str | None = None) -> Any:
        reached.append("serve")  # before it makes its database: nothing written
        raise Reached

    def run_bot(plan: Any) -> int:
        assert plan.host and 0 <= plan.port <= 65535 and (plan.code or plan.game)
        reached.append("bot")
        raise Reached

    async def fetch_status(host: str, port: int, timeout: float = 10.0) -> Any:
        assert host and 0 <= port <= 65535
        reached.append("status")
        raise Reached

    from game.server import background, store
    from game.server import bot as server_bot
    from game.server import status as server_status

    monkeypatch.setattr(cli_play, "open_remote", open_remote)
    monkeypatch.setattr(background.BackgroundServer, "start", start_server)
    monkeypatch.setattr(store, "open_store", open_store)
    monkeypatch.setattr(server_bot, "run_bot", run_bot)
    monkeypatch.setattr(server_status, "fetch_status", fetch_status)
    monkeypatch.setattr(window, "has_display", lambda: True)
    monkeypatch.setattr(cli_play, "build_director", build_director)
    monkeypatch.setattr(reversi, "solve_exact", solve_exact)
    monkeypatch.setattr(reversi, "search_position", search_position)
    monkeypatch.setattr(reversi, "run_bench", reversi_bench)
    monkeypatch.setattr(grab, "run_bench", grab_bench)
    monkeypatch.setattr(tournament_cli, "run_tournament", run_tournament)
    monkeypatch.setattr(tournament_cli, "_executor", executor)
    # The described games' and Cluedo's commands import these when they run.
    monkeypatch.setattr(rules_bench_module, "playouts", rules_bench)
    monkeypatch.setattr(rules_agents, "make_agent", rules_agent)
    monkeypatch.setattr(clue_bench_module, "bench_lines", clue_bench)
    return reached


def run_main(argv: list[str]) -> tuple[int | None, str, str]:
    """``main(argv)`` with stdout and stderr captured; status None when a seam was reached."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status: int | None = cli.main(argv)
        except Reached:
            status = None
    return status, out.getvalue(), err.getvalue()


def listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


#: What the tools make in the checkout whenever they like (other tests running at the same
#: time, in other processes, included): hypothesis's and pytest's folders, the linters'.
TOOL_FOLDERS = {".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache"}


def top_level(repo: Path) -> set[str]:
    """The checkout's top level, the tools' own folders left out."""
    return set(os.listdir(repo)) - TOOL_FOLDERS


@pytest.mark.deep
def test_hostile_command_lines_never_crash_hang_or_write(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pools: dict[str, str],
    recorders: list[str],
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # relative paths (--out x.png) land here, if anywhere
    repo = Path(__file__).resolve().parents[1]
    before = listing(tmp_path / "files"), listing(work), top_level(repo)
    statuses: dict[int | None, int] = {}

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(command_lines([*pools.values(), "x.png", "missing.txt"]))
    # Each seam once for certain: the random lines reach them too, but which ones a fixed
    # sample reaches shifts whenever a command gains or loses a flag.
    @example(["solve", "reversi", START])
    @example(["solve", "reversi", FFO[40].text])
    @example(["bench", "grab"])
    @example(["tournament", "grab", "--agents", "basic,basic"])
    @example(["bench", "chess"])
    @example(["solve", "chess"])
    @example(["bench", "clue"])
    def one(argv: list[str]) -> None:
        status, out, err = run_main(argv)
        statuses[status] = statuses.get(status, 0) + 1
        assert "Traceback" not in err and "Traceback" not in out, (argv, err)
        assert status in (0, 2, None), (argv, status, err)
        if status == 2:
            assert err.strip(), argv  # a refusal says why
            assert len(err.strip().splitlines()) <= 3, (argv, err)  # its line, settings notes

    one()
    assert (listing(tmp_path / "files"), listing(work), top_level(repo)) == before
    # The pools reach both sides: refusals, and every kind of work with checked values.
    assert statuses.get(2, 0) > EXAMPLES // 10 and statuses.get(None, 0) > EXAMPLES // 20, statuses
    seams = {seam: recorders.count(seam) for seam in set(recorders)}
    assert {"window", "solve", "search", "perft", "grab bench", "tournament", "rules bench",
            "rules solve", "clue bench"} <= set(seams), seams  # fmt: skip


# -- the real part: cheap commands, nothing replaced ------------------------------------------


#: FFO #40 a few best moves on: its exact score is FFO's, and both best moves are listed.
SCORE, BEST = f"score=+{FFO40_AFTER_8_SCORE}", FFO40_AFTER_8_BEST

REAL = [
    (["solve", "river"], 0, "crossings=11"),
    (["solve", "river", "--priests", "2", "--devils", "2"], 0, "crossings="),
    (["solve", "river", "--priests", "0", "--devils", "5", "--capacity", "2"], 0, "crossings="),
    (["solve", "river", "--priests", "200", "--devils", "199", "--capacity", "12"], 0, ""),
    (["solve", "river", "--priests", "4", "--devils", "4"], 2, "cannot cross"),
    (["solve", "river", "--capacity", "nan"], 2, "capacity must be"),
    (["solve", "river", "--capacity", "13"], 2, "at most"),
    (["solve", "river", "--priests", "1e309"], 2, "priests must be"),
    (["solve", "river", "extra"], 2, "unrecognized"),
    (["solve", "reversi", FFO40_AFTER_8], 0, f"{SCORE} best="),
    (["solve", "reversi", FFO40_AFTER_8, "--all"], 0, f"{SCORE} best={','.join(BEST)}"),
    (["solve", "reversi", FFO40_AFTER_8, "--exact", "--time", "30"], 0, f"{SCORE} best="),
    (["solve", "reversi", "X" * 64 + " X"], 0, "best=none"),
    (["solve", "reversi", START, "--time", "0.05"], 0, "best="),
    (["solve", "reversi", START, "--exact", "--time", "0.05"], 2, "no exact result"),
    (["solve", "reversi", "XO"], 2, ""),
    (["solve", "reversi"], 2, "give a position"),
    (["solve", "grab"], 2, "no solve command"),
    (["solve", "reversi", START, "--time", "-0"], 2, "--time"),
    (["tournament", "reversi", "--agents", "beginner,beginner", "--games", "1"], 0, "winrates="),
    (["tournament", "reversi", "--agents", "beginner"], 2, "2 seats"),
    (["tournament", "river", "--agents", "solver"], 0, "winrates="),
    (["bench", "render", "--scene", "nosuch"], 2, "unknown scene"),
    (["bench", "render", "--frames", "-1"], 2, "--frames"),
    (["bench", "reversi", "--perft-depth", "16"], 2, "--perft-depth"),
    (["bench", "grab", "--jobs", "0"], 2, "--jobs"),
    (["shot", "river", "--out", "missing/x.png"], 2, "no folder"),
    (["shot", "reversi", "--out", "x.png", "--load", "."], 2, "is a folder"),
    (["play", "river", "--size", "63x64"], 2, "--size"),
    (["play", "reversi", "--black", "nosuch"], 2, "black must be one of"),
    (["tournament", "grab", "--agents", "basic,basic", "--seed", "-1"], 2, "--seed"),
    (["nosuch"], 2, "invalid choice"),
    ([], 2, ""),
]


@pytest.mark.parametrize(("argv", "status", "needle"), REAL, ids=lambda v: str(v)[:40])
def test_cheap_commands_really_run(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    status: int,
    needle: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    got, out, err = run_main(argv)
    assert got == status, (argv, out, err)
    assert "Traceback" not in err
    assert needle in (out if status == 0 else err), (out, err)
    if status == 2:
        assert out == "" and err.strip()
    assert set(os.listdir(tmp_path)) <= {"gamehall-home"}  # nothing written here
