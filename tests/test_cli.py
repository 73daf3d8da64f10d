"""The command line, as a person runs it: ``gamehall.main`` in this process with its own
working folder, environment and captured output (a fresh interpreter for each command cost
half a CPU second before it did anything); a few smoke tests run the installed command in a
process of its own (:func:`gamehall_apart`)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import HANG_S
from tests.warm_kernels import wait_until_warm


def gamehall(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``gamehall ARGS`` run by :func:`game.cli.main` here, in ``cwd`` with ``env`` added to
    the environment (both put back afterwards): its status and what it wrote, as a finished
    process's. The tests' shared Director (one a process) steps aside while the command
    opens and closes its own (``gamehall shot``), and is current again afterwards."""
    from game import cli
    from game.engine.director import Director

    out, err = io.StringIO(), io.StringIO()
    saved_env = {name: os.environ.get(name) for name in env or {}}
    here = os.getcwd()
    shared, Director.current = Director.current, None
    wait_until_warm()  # the command loads the kernels the run's warm-up compiles
    try:
        os.environ.update(env or {})
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(list(args))
    finally:
        assert Director.current is None, "the command left its Director open"
        Director.current = shared
        if shared is not None:
            shared.window.switch_to()
        os.chdir(here)
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return subprocess.CompletedProcess(["gamehall", *args], status, out.getvalue(), err.getvalue())


def gamehall_apart(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = HANG_S
) -> subprocess.CompletedProcess[str]:
    """Run the installed ``gamehall`` when .ci/run made one, else ``python -m game``, in a
    process of its own."""
    venv_bin = os.environ.get("GAMEHALL_VENV_BIN")
    exe = shutil.which("gamehall", path=venv_bin) if venv_bin else None
    cmd = [exe, *args] if exe else [sys.executable, "-m", "game", *args]
    full_env = {**os.environ, **(env or {})}
    if not exe:
        full_env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    wait_until_warm()  # the program loads the kernels the run's warm-up compiles
    return subprocess.run(
        cmd, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=timeout, check=False
    )


def test_solve_river_prints_the_plan(tmp_path):
    r = gamehall_apart("solve", "river", cwd=tmp_path)  # the installed command, smoke test
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "crossings=11"
    assert len(lines) == 12


def test_solve_river_unsolvable_says_why(tmp_path):
    r = gamehall(
        "solve", "river", "--priests", "4", "--devils", "4", "--capacity", "2", cwd=tmp_path
    )
    assert r.returncode == 2
    assert "4 priests and 4 devils cannot cross in a boat for 2" in r.stderr
    assert "Traceback" not in r.stderr


def test_solve_river_big(tmp_path):
    r = gamehall(
        "solve", "river", "--priests", "100", "--devils", "100", "--capacity", "4", cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "crossings=197"


@pytest.mark.gl
def test_shot_solve_writes_a_png_and_reports_a_win(tmp_path):
    out = tmp_path / "river.png"
    r = gamehall_apart(  # the installed command draws in a process of its own
        "shot", "river", "--do", "solve", "--out", str(out), "--size", "480x300", cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "status=won crossings=11 optimal=11"
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 5000


@pytest.mark.gl
def test_shot_unknown_action_is_refused(tmp_path):
    r = gamehall(
        "shot",
        "river",
        "--do",
        "fly",
        "--out",
        str(tmp_path / "x.png"),
        "--size",
        "320x200",
        cwd=tmp_path,
    )
    assert r.returncode == 2
    assert "unknown command 'fly'" in r.stderr
    assert "Traceback" not in r.stderr


def test_play_without_a_display_says_what_to_do(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    venv_bin = os.environ.get("GAMEHALL_VENV_BIN")
    exe = shutil.which("gamehall", path=venv_bin) if venv_bin else None
    cmd = [exe, "play"] if exe else [sys.executable, "-m", "game", "play"]
    if not exe:
        env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    r = subprocess.run(
        cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=HANG_S, check=False
    )
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "xvfb-run" in lines[0] and "gamehall shot" in lines[0]


def test_solve_river_illegal_setting_says_why(tmp_path):
    r = gamehall("solve", "river", "--priests", "1", "--devils", "3", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip() and "Traceback" not in r.stderr


def shot_with_settings(home: Path, text: str, out: Path) -> subprocess.CompletedProcess[str]:
    """``gamehall shot river`` with ``text`` as the saved settings file."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.toml").write_text(text)
    return gamehall("shot", "river", "--out", str(out), "--size", "320x200", cwd=out.parent)


@pytest.mark.gl
def test_shot_with_unusable_saved_options_starts_with_defaults(tmp_path, _private_home):
    text = "[river]\npriests = 4\ndevils = 4\ncapacity = 2\n"
    r = shot_with_settings(_private_home, text, tmp_path / "x.png")
    assert r.returncode == 0, r.stderr
    assert "[river]: 4 priests and 4 devils cannot cross" in r.stderr
    assert "using the defaults" in r.stderr
    assert r.stdout.strip().endswith("optimal=11")


@pytest.mark.gl
def test_shot_with_a_corrupt_settings_file_keeps_it_aside(tmp_path, _private_home):
    r = shot_with_settings(_private_home, "this is [ not toml", tmp_path / "x.png")
    assert r.returncode == 0, r.stderr
    assert "not valid TOML" in r.stderr
    assert list(_private_home.glob("settings.toml.bad-*"))


def test_a_finished_game_updates_statistics_once_and_options_persist(director, _private_home):
    """Through the shared Director with the games registered as `gamehall play` does, over
    the settings and statistics on disk (then registered back as the other tests expect)."""
    from game.cli.play import make_sessions, register_games
    from game.logic.river.game import RiverRules
    from game.registry import all_entries
    from game.settings import Store

    store = Store()
    settings, _ = store.load_settings({e.id: e.options for e in all_entries()})
    register_games(director, make_sessions(settings, store))
    d = director
    try:
        d.switch("river")
        for action in ("board:devil", "board:devil", "boat", "unboard:devil"):
            assert d.perform(action), d.toast  # a few moves by hand, then the solver
            d.settle()
        d.perform("solve")
        d.settle()
        assert "no best score" in d.controller.status().banner
        d.perform("undo")  # take back the winning step and win again: still one game
        d.settle()
        d.perform("solve")
        d.settle()
        assert d.controller.state.outcome().value == "won"
        # Changed options go into the one settings object, survive the menu, and are saved.
        d.perform("new")
        d.perform("priests+")
        d.switch("menu")
        assert "continue=river" in d.controller.status_line().split()  # one field of several
        d.switch("river")
        assert d.controller.rules == RiverRules(4, 3, 2)
    finally:
        register_games(director)
        d.switch("menu")
    stats, messages = store.load_statistics()
    assert messages == []
    record = stats.games["river:3/3/2"]  # one record per setting
    assert (record.played, record.won, record.lost) == (1, 1, 0)
    assert record.best == {}
    saved, _ = store.load_settings({e.id: e.options for e in all_entries()})
    assert saved.games["river"] == {
        "priests": 4,
        "devils": 3,
        "capacity": 2,
        "boat_counts": True,
        "rowers": "anyone",
        "goal": "everyone",
    }
    assert settings.games["river"]["priests"] == 4


# -- the generic front: one registry, one error shape --------------------------------------


def test_a_game_without_the_command_is_one_line_and_exit_2(tmp_path):
    r = gamehall("solve", "grab", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stdout == ""  # it printed the river solution and exited 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "no solve command" in lines[0] and "river" in lines[0] and "reversi" in lines[0]


@pytest.mark.parametrize("command", ["solve", "shot", "bench", "tournament", "play"])
def test_an_unknown_game_is_one_line_naming_the_games(tmp_path, command):
    r = gamehall(command, "parcheesi-deluxe", "--out", str(tmp_path / "x.png"), cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert "'parcheesi-deluxe'" in lines[0] and all(
        g in lines[0] for g in ("river", "reversi", "grab")
    )


@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (["--devils", "nan"], "devils must be a number"),
        (["--devils", "0", "--priests", "0"], "at least one priest or devil"),
        (["--capacity", "99"], "capacity must be at most"),
    ],
)
def test_a_refused_option_is_exit_2_and_never_saved(tmp_path, _private_home, flags, needle):
    """The same schema refuses the flags of play (before any window), shot and solve."""
    for command in (["play", "river"], ["shot", "river", "--out", str(tmp_path / "x.png")]):
        r = gamehall(*command, *flags, cwd=tmp_path)
        assert r.returncode == 2, (command, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert needle in r.stderr, r.stderr
    r = gamehall("solve", "river", *flags, cwd=tmp_path)
    assert r.returncode == 2 and needle in r.stderr
    assert not (_private_home / "settings.toml").exists()
    assert not (tmp_path / "x.png").exists()


def test_a_float_option_refuses_nan_and_infinity(tmp_path):
    for value in ("nan", "inf", "-1"):
        r = gamehall("solve", "reversi", "--time-per-move", value, cwd=tmp_path)
        assert r.returncode == 2, r.stderr
        assert "time_per_move must be" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.gl
def test_shot_menu_lists_every_game_and_continues_with_the_last(tmp_path, _private_home):
    from game.registry import all_entries

    ids = ",".join(e.id for e in all_entries())
    out = tmp_path / "menu.png"
    r = gamehall("shot", "menu", "--out", str(out), "--size", "480x300", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith(f"status=menu games={ids} continue=none ")
    _private_home.mkdir(parents=True, exist_ok=True)
    (_private_home / "settings.toml").write_text('last_game = "reversi"\n')
    r = gamehall(
        "shot", "menu", "--do", "continue", "--out", str(out), "--size", "480x300", cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("status=playing black=2 white=2 ")


@pytest.mark.gl
def test_shot_plays_moves_in_the_games_notation(tmp_path):
    out = tmp_path / "x.png"
    r = gamehall(
        "shot", "river", "--do", "move:board:devil,move:board:devil,move:boat",
        "--out", str(out), "--size", "320x200", cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("status=playing crossings=1 ")
    out.unlink()
    # A move the game refuses ends the script: exit status 2, the item named, no picture.
    r = gamehall(
        "shot", "river", "--do", "move:board:devil,move:fly,hint",
        "--out", str(out), "--size", "320x200", cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 2
    assert "--do item 2 'move:fly'" in r.stderr and "unknown action 'fly'" in r.stderr
    assert "Traceback" not in r.stderr and not out.exists()


# -- every argument is checked before any work starts ----------------------------------------

START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"
#: Where each command's work starts: reaching one of these before a refusal is a failure.
WORK = (
    "game.cli.play.build_director",
    "game.games.reversi.hooks.solve_exact",
    "game.games.reversi.hooks.search_position",
    "game.games.reversi.hooks.run_bench",
    "game.games.grab.hooks.run_bench",
    "game.cli.tournament.run_tournament",
    "game.logic.grab.bench.speed_lines",
)


@pytest.fixture
def no_work(monkeypatch):
    """Every place where a command's work starts fails the test if it is reached."""

    def started(*args, **kwargs):
        raise AssertionError("the work started before the arguments were checked")

    for target in WORK:
        monkeypatch.setattr(target, started)


def run_main(argv, capsys):
    """``main(argv)`` in this process: (status, stdout, stderr)."""
    from game.cli import main

    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


REFUSED = [
    *[(["solve", "reversi", START, "--time", v], "argument --time: must be a finite number")
      for v in ("inf", "nan", "0", "-1", "1e309", "-0")],
    (["solve", "reversi", START, "--exact", "--time", "inf"], "argument --time"),
    (["bench", "reversi", "--perft-depth", "0"], "--perft-depth: must be a whole number from 1"),
    (["bench", "reversi", "--perft-depth", "1000"], "from 1 to 15, not '1000'"),
    (["bench", "render", "--frames", "0"], "--frames: must be a whole number from 1"),
    *[(["bench", "render", "--size", v], "argument --size")
      for v in ("0x0", "-5x5", "99999x99999", "abc", "", "1280x", "64x8193")],
    (["play", "--size", "10x10"], "argument --size"),
    (["shot", "river", "--out", "x.png", "--size", "1e3x64"], "argument --size"),
    (["bench", "grab", "--strength", "--games", "0"], "argument --games"),
    (["bench", "grab", "--strength", "--jobs", "-1"], "argument --jobs"),
    (["shot", "grab", "--out", "x.png", "--seed", "-1"], "argument --seed"),
    (["shot", "grab", "--out", "x.png", "--seed", str(2**63)], "argument --seed"),
    *[(["tournament", "reversi", "--agents", "beginner,expert", *flags], needle)
      for flags, needle in (
          (["--games", "0"], "--games: must be a whole number from 1 to 100000"),
          (["--jobs", "0"], "--jobs: must be a whole number from 1 to 256"),
          (["--max-steps", "0"], "--max-steps: must be"),
          (["--seed", "-1"], "--seed: must be"),
          (["--time", "inf"], "--time: must be a finite number"),
          (["--scheduler", "no where"], "--scheduler should look like"),
      )],
    (["tournament", "reversi", "--agents", "beginner,nobody"], "no agent 'nobody'"),
    *[([cmd, "reversi", *out, "--time", v], "time_per_move must be")
      for cmd, out in (("play", []), ("shot", ["--out", "x.png"]))
      for v in ("0", "-1", "nan", "inf")],
    (["solve", "reversi", START, "--black", "nosuch"], "black must be one of"),
    (["shot", "river", "--out", "x.png", "--priests", "nan"], "priests must be"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "needle"), REFUSED, ids=lambda v: " ".join(v)[:50])
def test_a_refused_argument_is_one_line_before_any_work(
    no_work, capsys, tmp_path, monkeypatch, _private_home, argv, needle
):
    monkeypatch.chdir(tmp_path)
    status, out, err = run_main(argv, capsys)
    assert status == 2, err
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert needle in err and "Traceback" not in err
    assert not (_private_home / "settings.toml").exists()  # nothing saved
    assert not (tmp_path / "x.png").exists()


def test_help_and_malformed_lines_return_instead_of_exiting(capsys):
    status, out, _ = run_main(["--help"], capsys)
    assert status == 0 and "tournament" in out
    status, out, _ = run_main(["shot", "river", "--help"], capsys)
    assert status == 0 and "A comma followed by a digit stays in its item" in " ".join(out.split())
    status, _, err = run_main(["solve", "river", "--priests"], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "argument --priests: expected one argument" in err
    status, _, err = run_main([], capsys)
    assert status == 2 and err.startswith("gamehall: name a command: play, shot")


def test_a_bug_is_one_line_with_status_1(monkeypatch, capsys):
    from game.logic.river.game import RiverPuzzle

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(RiverPuzzle, "solution", broken)
    status, _, err = run_main(["solve", "river"], capsys)
    assert status == 1
    assert err == "gamehall solve: internal error: RuntimeError: a bug (-v shows where)\n"


def test_ctrl_c_is_status_130_with_one_line(monkeypatch, capsys):
    from game.games.reversi import hooks as reversi

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(reversi, "search_position", interrupted)
    status, out, err = run_main(["solve", "reversi", START], capsys)
    assert status == 130 and out == ""
    assert err.strip() == "gamehall solve: stopped"


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("garbage.bin", b"f\x88\xff", "not a Reversi transcript: not UTF-8 text (byte 2)"),
        ("bad.txt", b"f5d6z9", "not a Reversi transcript: transcript character 5"),
        ("big.txt", b"f5" * (1 << 20), "is 2097152 bytes, more than the 1048576 such a file"),
        ("folder", None, "is a folder, not a regular file"),
        ("fifo", "fifo", "is a named pipe, not a regular file"),
        ("missing.txt", "missing", "no such file"),
    ],
)  # fmt: skip
def test_a_file_named_on_the_command_line_is_named_with_the_reason(
    no_work, capsys, tmp_path, name, content, reason
):
    path = tmp_path / name
    if content is None:
        path.mkdir()
    elif content == "fifo":
        os.mkfifo(path)  # opening it to read would wait for a writer for ever
    elif isinstance(content, bytes):
        path.write_bytes(content)
    out = tmp_path / "x.png"
    status, _, err = run_main(["shot", "reversi", "--out", str(out), "--load", str(path)], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith(f"gamehall shot: {path}: {reason}"), err


@pytest.mark.parametrize("kind", ["folder", "fifo", "no folder", "nul"])
def test_an_out_file_that_cannot_be_written_is_refused_first(no_work, capsys, tmp_path, kind):
    out = tmp_path / "x.png"
    if kind == "folder":
        out.mkdir()
    elif kind == "fifo":
        os.mkfifo(out)  # writing to it would wait for a reader for ever
    elif kind == "no folder":
        out = tmp_path / "nowhere" / "x.png"
    else:
        out = tmp_path / "x\x00.png"
    status, _, err = run_main(["shot", "river", "--out", str(out)], capsys)
    assert status == 2 and "--out" in err and len(err.strip().splitlines()) == 1, err


def test_bench_render_prints_a_baseline_then_each_scene_with_its_passes(tmp_path):
    r = gamehall(
        "bench", "render", "--scene", "tic-tac-toe", "--frames", "3", "--size", "320x200",
        cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith("scene=baseline median_ms=") and len(lines) == 2
    fields = dict(part.split("=", 1) for part in lines[1].split())
    assert fields["scene"] == "tic-tac-toe"
    timed = ("median_ms", "overlay_median_ms", "pass_scene_ms", "pass_hud_ms", "pass_overlay_ms")
    for key in timed:
        assert float(fields[key]) > 0.0, key
    assert float(fields["p95_ms"]) >= float(fields["median_ms"])
