"""Progress on stderr (game.progress, drawn by tqdm): on a terminal only, and every line it
draws is ended, so the shell prompt or the results never land on the bar's line."""

from __future__ import annotations

import io
import sys

import pytest

from game.progress import games_bar, status_line


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def on_terminal(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    """stderr replaced by a terminal (in the test itself: pytest's capture swaps stderr
    between a fixture's setup and the test)."""
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    return screen


def test_the_games_bar_counts_to_the_total_and_ends_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = on_terminal(monkeypatch)
    with games_bar() as show:
        assert show is not None
        for done in (1, 2, 3):
            show(done, 3, None)
    drawn = terminal.getvalue()
    last = drawn.rstrip("\n").rsplit("\r", 1)[-1]
    assert "3/3" in last and "100%" in last
    assert drawn.endswith("\n") and drawn.count("\n") == 1


def test_the_games_bar_follows_games_that_finish_out_of_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The runner reports each game as it finishes: the count jumps, it never goes back."""
    terminal = on_terminal(monkeypatch)
    with games_bar() as show:
        assert show is not None
        show(2, 5, None)
        show(5, 5, None)
    assert "5/5" in terminal.getvalue().rsplit("\r", 1)[-1]


def test_the_status_line_redraws_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_terminal(monkeypatch)
    with status_line() as show:
        assert show is not None
        show("searching: 1 of 9 s")
        show("searching: 2 of 9 s")
    drawn = terminal.getvalue()
    assert drawn.rstrip("\n").rsplit("\r", 1)[-1].rstrip() == "searching: 2 of 9 s"
    assert drawn.count("\n") == 1 and drawn.endswith("\n")


def test_nothing_is_drawn_before_the_first_report(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_terminal(monkeypatch)
    with games_bar(), status_line():
        pass
    assert terminal.getvalue() == ""


def test_a_pipe_gets_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    with games_bar() as bar, status_line() as line:
        assert bar is None and line is None
    assert pipe.getvalue() == ""


def test_a_terminal_that_says_no_size_still_gets_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new pseudo-terminal says it is 0 x 0; tqdm alone would draw nothing there (the
    reason a Ctrl-C test in a pty once waited for a progress line that never came)."""
    import os
    import pty

    master, slave = pty.openpty()
    stderr = os.fdopen(slave, "w")
    try:
        assert os.get_terminal_size(slave) == (0, 0)
        monkeypatch.setattr(sys, "stderr", stderr)
        with status_line() as show:
            assert show is not None
            show("solving (Ctrl-C stops)")
        stderr.flush()
        os.set_blocking(master, False)
        assert b"\rsolving (Ctrl-C stops)" in os.read(master, 4096)
    finally:
        stderr.close()
        os.close(master)


def test_a_ctrl_c_while_the_line_is_drawn_still_ends_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first report draws the line as tqdm makes it; a Ctrl-C in that moment must not
    leave the next message ("gamehall solve: stopped") on the progress line."""
    import game.progress

    terminal = on_terminal(monkeypatch)

    def interrupted_while_drawing(**options: object) -> None:
        sys.stderr.write(f"\r{options['desc']}")
        raise KeyboardInterrupt

    monkeypatch.setattr(game.progress, "_tqdm", interrupted_while_drawing)
    with pytest.raises(KeyboardInterrupt), status_line() as show:
        assert show is not None
        show("solving 60 empty squares exactly: 3 s")
    assert terminal.getvalue() == "\rsolving 60 empty squares exactly: 3 s\n"
