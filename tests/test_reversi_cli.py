"""Reversi on the command line: solve, tournament, shot."""

from __future__ import annotations

import pytest

from game.logic.reversi.ffo import FFO
from tests.endgames import FFO40_AFTER_8, FFO40_AFTER_8_BEST, FFO40_AFTER_8_SCORE
from tests.test_cli import gamehall


@pytest.fixture
def sigint_ignored():
    """SIGINT ignored in this process while the test runs, as in a command started in the
    background by a shell without job control (``.ci/run &``): what the test starts inherits
    that. A Ctrl-C test must set Python's own handler for what it starts; under this fixture
    it fails (no KeyboardInterrupt, a solve that never stops) if it does not, and it passes at
    a terminal too, where the handler it sets is the one already there."""
    import signal

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def test_solve_an_endgame_exactly(tmp_path):
    ffo = FFO[40]
    r = gamehall("solve", "reversi", ffo.text, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "score=+38 best=A2"


def test_solve_all_best_moves(tmp_path):
    # A small endgame down FFO #40's best line, with two best moves: both are listed.
    r = gamehall("solve", "reversi", FFO40_AFTER_8, "--all", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    names = ",".join(FFO40_AFTER_8_BEST)
    assert r.stdout.strip().splitlines()[-1] == f"score=+{FFO40_AFTER_8_SCORE} best={names}"


def test_solve_a_middle_game_searches_in_time(tmp_path):
    from game.logic.reversi.board import Position

    text = Position.start().apply(37).apply(43).text()  # f5 d6
    r = gamehall("solve", "reversi", text, "--time", "0.5", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert last.startswith("best=") and " depth=" in last and " eval=" in last


@pytest.mark.parametrize("text", ["", "XO", "X" * 64 + " Q", "-" * 63 + "Z X"])
def test_solve_bad_positions_say_why(tmp_path, text):
    r = gamehall("solve", "reversi", text, cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip() and "Traceback" not in r.stderr


def test_a_tiny_tournament(tmp_path):
    r = gamehall(
        "tournament", "reversi", "--agents", "beginner,classic-beginner", "--games", "2",
        "--time", "0.02", "--seed", "3", cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    rates = dict(part.split(":") for part in last.removeprefix("winrates=").split(","))
    assert set(rates) == {"beginner", "classic-beginner"}
    assert all(0.0 <= float(v) <= 1.0 for v in rates.values())


@pytest.mark.gl
def test_shot_reversi_plays_moves_and_shows_a_hint(tmp_path):
    out = tmp_path / "reversi.png"
    r = gamehall(
        "shot",
        "reversi",
        "--do",
        "d3,c5,hint",
        "--out",
        str(out),
        "--size",
        "480x300",
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == ("status=playing black=3 white=3 moves=2 to_move=X")
    assert out.read_bytes().startswith(b"\x89PNG")


@pytest.mark.gl
def test_shot_lets_a_computer_that_moves_first_move(tmp_path):
    """Black is the computer, White the person: the shot waits for Black's move, and then
    for the person (with both colours the computer's, it waited for a whole game)."""
    out = tmp_path / "reversi.png"
    argv = ["shot", "reversi", "--black", "beginner", "--do", "wait"]
    r = gamehall(*argv, "--out", str(out), "--size", "480x300", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    status = dict(part.split("=") for part in r.stdout.strip().splitlines()[-1].split())
    assert int(status["moves"]) == 1 and status["to_move"] == "O", status


@pytest.mark.gl
def test_shot_reversi_loads_a_transcript_and_refuses_a_bad_one(tmp_path):
    good = tmp_path / "game.txt"
    good.write_text("f5d6c3d3c4\n")
    r = gamehall(
        "shot",
        "reversi",
        "--load",
        str(good),
        "--out",
        str(tmp_path / "a.png"),
        "--size",
        "320x200",
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert " moves=5 " in r.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("f5d6z9\n")
    r = gamehall(
        "shot",
        "reversi",
        "--load",
        str(bad),
        "--out",
        str(tmp_path / "b.png"),
        "--size",
        "320x200",
        cwd=tmp_path,
    )
    assert r.returncode == 2
    assert str(bad) in r.stderr and "Traceback" not in r.stderr


# -- limits, pieces, progress and Ctrl-C ---------------------------------------------------------

START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"


def test_an_exact_solve_keeps_to_its_time(tmp_path):
    r = gamehall("solve", "reversi", START, "--exact", "--time", "0.3", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == (
        "gamehall solve reversi: no exact result within --time 0.3 s (60 empty squares); "
        "give it more time, or leave out --exact for a search"
    )


def test_a_long_exact_solve_says_so_first_shows_progress_and_stops_on_ctrl_c(
    tmp_path, sigint_ignored
):
    """On a terminal (a pseudo-terminal here): the warning before the work, a progress line
    once it runs a few seconds, then Ctrl-C: status 130, one line, no traceback.

    Each step waits for what the command prints (the progress line, then its last line),
    never for a length of time: the Ctrl-C is sent once the progress line shows that the
    solve runs on its worker thread and the main thread waits for it."""
    import os
    import pty
    import signal
    import subprocess
    import sys
    from pathlib import Path

    from game.logic.reversi.board import Position
    from game.logic.reversi.solver import solve
    from tests.waiting import HANG_S, read_until

    # The kernels compile (and go to numba's disk cache) here, so that in the command the
    # Ctrl-C reaches the solve itself, not numba's compiler.
    solve(Position.from_text(FFO[40].text), all_moves=True)
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    # A command started in the background by a shell without job control (``.ci/run &``)
    # ignores Ctrl-C, and so would the command started here, which inherits that: it is
    # started with Python's own handler in place, which the new program resets to the default.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "game", "solve", "reversi", START, "--exact"],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=slave,
        )  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, before)
    os.close(slave)
    try:
        seen = read_until(master, b"(Ctrl-C stops)")
        assert b"(Ctrl-C stops)" in seen, seen.decode()
        process.send_signal(signal.SIGINT)
        seen = read_until(master, b"gamehall solve: stopped", seen)
        process.wait(timeout=HANG_S)
        assert process.stdout is not None
        out = process.stdout.read()
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
        if process.stdout is not None:
            process.stdout.close()
    text = seen.decode()
    assert process.returncode == 130, text
    assert out == b"" and "Traceback" not in text
    lines = [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
    assert lines[0].startswith("gamehall solve reversi: 60 empty squares and no --time")
    assert "\rsolving 60 empty squares exactly: " in text  # the redrawn progress line
    assert lines[-1] == "gamehall solve: stopped"


def test_perft_in_pieces_adds_up_in_both_conventions():
    """The pieces of a perft add up to the whole from the start and from a late position,
    where games end inside the pieces (the two conventions differ there)."""
    from game.logic.reversi.board import Position
    from game.logic.reversi.perft import PERFT_START, perft_both, perft_subtrees

    def total(position, depth, split):
        pieces = perft_subtrees(position, depth, split)
        return tuple(map(sum, zip(*(perft_both(p, d) for p, d in pieces), strict=True)))

    for depth in range(1, 9):
        for split in range(5):
            assert total(Position.start(), depth, split) == PERFT_START[depth]
    late = Position.from_text(FFO[40].text)
    for _ in range(12):
        late = late.apply(late.legal_moves()[0])
    differ = 0
    for depth in range(1, 12):
        whole = perft_both(late, depth)
        differ += whole[0] != whole[1]  # games ended inside: the conventions differ
        for split in (1, 3, 6):
            assert total(late, depth, split) == whole
    assert differ


def test_ctrl_c_stops_a_perft_between_pieces(monkeypatch, sigint_ignored):
    """Ctrl-C while the third piece is counted: the perft raises KeyboardInterrupt once that
    piece ends, and counts no other. The piece waits for the stop (an event), not for time."""
    import _thread
    import signal
    import threading

    from game import arguments as cli_args
    from game.games.reversi import hooks as reversi
    from game.logic import contract
    from game.logic.reversi import perft as perft_module
    from game.logic.reversi.board import Position
    from tests.waiting import HANG_S

    stopped = threading.Event()

    class Recorded(contract.Stop):
        def set(self):
            super().set()
            stopped.set()

    calls = []

    def piece(position, depth):
        calls.append(depth)
        if len(calls) == 3:
            _thread.interrupt_main()  # Ctrl-C, as the signal handler delivers it
            assert stopped.wait(HANG_S), "the Ctrl-C never reached the perft"
        return 1

    # interrupt_main does nothing while SIGINT is ignored, as it is in a command started in
    # the background by a shell without job control (``.ci/run &``): Python's own handler,
    # the one a command run at a terminal has.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    monkeypatch.setattr(cli_args, "Stop", Recorded)
    monkeypatch.setattr(perft_module, "perft", piece)
    try:
        with pytest.raises(KeyboardInterrupt):
            reversi.perft_in_pieces(Position.start(), 12)
    finally:
        signal.signal(signal.SIGINT, before)
    assert stopped.is_set() and len(calls) == 3  # no piece after the stop


def test_progress_goes_to_a_terminal_only_and_ends_its_line(monkeypatch):
    import io
    import sys
    import threading

    from game.arguments import run_stoppable
    from tests.waiting import HANG_S

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    drawn = threading.Event()

    def progress(elapsed):
        drawn.set()
        return "working"

    def work(stop):
        assert drawn.wait(HANG_S)  # returns once the progress line was drawn
        return 7

    monkeypatch.setattr(sys, "stderr", Terminal())
    assert run_stoppable(work, progress, quiet_s=0.0) == 7
    drawn_text = sys.stderr.getvalue()
    assert drawn_text.startswith("\rworking") and drawn_text[-1] == "\n"
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # a pipe or a log: nothing drawn
    assert run_stoppable(lambda stop: 8, lambda elapsed: "never", quiet_s=0.0) == 8
    assert sys.stderr.getvalue() == ""


def test_a_long_limit_never_overflows_the_search_timer(monkeypatch):
    """The watchdog timer of a search waits at most threading.TIMEOUT_MAX: a longer wait
    kills its thread with an OverflowError (``--time 1e12``); inf is refused."""
    import threading

    from game.logic.reversi import search as search_module
    from game.logic.reversi.board import Position

    waits = []

    class Timer(threading.Timer):
        def __init__(self, interval, *args, **kwargs):
            waits.append(interval)
            super().__init__(min(interval, 60.0), *args, **kwargs)

    monkeypatch.setattr(search_module.threading, "Timer", Timer)
    search_module.search(Position.start(), time_limit=1e12, depth=2)
    assert waits and all(w <= threading.TIMEOUT_MAX for w in waits)
    with pytest.raises(ValueError, match="finite and positive"):
        search_module.search(Position.start(), time_limit=float("inf"))


def test_refused_saved_options_fall_back_with_a_message(
    monkeypatch, capsys, tmp_path, _private_home
):
    """``black = "nosuch"`` and ``time_per_move = nan`` in settings.toml: the game starts
    with the defaults of those two and says which keys it did not take."""
    from game.cli import main
    from game.cli import play as cli_play

    _private_home.mkdir(parents=True, exist_ok=True)
    (_private_home / "settings.toml").write_text(
        '[reversi]\nblack = "nosuch"\ntime_per_move = nan\nwhite = "expert"\n'
    )
    seen = {}

    class Built(BaseException):
        pass

    def build_director(**kw):
        seen.update(kw["sessions"]["reversi"].options)
        raise Built

    monkeypatch.setattr(cli_play, "build_director", build_director)
    with pytest.raises(Built):
        main(["shot", "reversi", "--out", str(tmp_path / "x.png")])
    assert (seen["black"], seen["time_per_move"], seen["white"]) == ("human", 1.0, "expert")
    err = capsys.readouterr().err
    assert "black must be one of" in err and "time_per_move must be a finite number" in err


@pytest.mark.gl
@pytest.mark.parametrize(
    ("do", "needle"),
    [("a1", "--do item 1 'a1': a1 flips no disc"), ("f5,f5", "--do item 2 'f5': f5 is already")],
)
def test_shot_reversi_refuses_an_illegal_move_and_writes_no_picture(tmp_path, do, needle):
    out = tmp_path / "x.png"
    r = gamehall("shot", "reversi", "--do", do, "--out", str(out), "--size", "64x64", cwd=tmp_path)
    assert r.returncode == 2 and needle in r.stderr and "no picture written" in r.stderr
    assert not out.exists() and r.stdout == ""


@pytest.mark.gl
def test_load_from_a_pipe_or_garbage_is_refused_without_waiting(director, tmp_path):
    """``--do load-from:FILE`` reads through the same checks as ``--load``: a pipe in the
    file's place is refused at once (reading it would wait for a writer for ever)."""
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"f5\xff")
    director.switch("reversi")
    try:
        assert not director.perform(f"load-from:{fifo}")
        assert director.toast == f"{fifo}: is a named pipe, not a regular file"
        assert not director.perform(f"load-from:{garbage}")
        assert "not a Reversi transcript: not UTF-8 text (byte 3)" in director.toast
    finally:
        director.switch("menu")
