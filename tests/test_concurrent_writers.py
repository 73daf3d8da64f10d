"""Two windows, or a window and another process, write the same settings and statistics at once
and nothing is lost: an option one saved survives the other's save, and every game counted by
every process is in the file. Each change is applied, under the lock beside the file, to what
the file holds when it is written (game.writer, game.safewrite.locked)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from game.logic.options import Option, OptionsSchema
from game.session import Session
from game.settings import Store
from game.writer import Writer
from tests.waiting import HANG_S

#: A game of four options, one for each writer to change.
SCHEMA = OptionsSchema(tuple(Option(f"o{k}", int, 0, minimum=0, maximum=1000) for k in range(4)))
SCHEMAS = {"g": SCHEMA}


@pytest.mark.parametrize("background", [False, True], ids=["at once", "by the window's writer"])
def test_an_option_saved_by_one_window_survives_anothers_save(
    tmp_path: Path, background: bool
) -> None:
    writers = [Writer(on_error=lambda path, exc: None) for _ in range(2)] if background else []
    stores = [Store(tmp_path, writer=writers[n] if writers else None) for n in range(2)]
    loaded = [store.load_settings(SCHEMAS)[0] for store in stores]  # both windows open
    one = Session("g", SCHEMA, loaded[0], stores[0])
    two = Session("g", SCHEMA, loaded[1], stores[1])
    one.save_options({**one.options, "o1": 11})  # the whole set of options, as a window saves
    loaded[0].volume = 30
    stores[0].save_settings(loaded[0])
    if writers:
        writers[0].close()
    two.save_options({**two.options, "o2": 22})
    loaded[1].window.width = 999
    loaded[1].window.x = 5
    stores[1].save_settings(loaded[1])
    loaded[1].window.x = None  # back to "the system places it": removed from the file
    stores[1].save_settings(loaded[1])
    for writer in writers:
        writer.close()
    settings, messages = Store(tmp_path).load_settings(SCHEMAS)
    assert messages == []
    assert settings.games["g"] == {"o0": 0, "o1": 11, "o2": 22, "o3": 0}
    assert (settings.volume, settings.window.width, settings.window.x) == (30, 999, None)


CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    from game.logic.options import Option, OptionsSchema
    from game.session import Session
    from game.settings import Store
    from game.writer import Writer

    home, me, games = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    background = sys.argv[4]
    schema = OptionsSchema(
        tuple(Option(f"o{k}", int, 0, minimum=0, maximum=1000) for k in range(4))
    )
    failed = []
    writer = Writer(on_error=lambda path, exc: failed.append(exc)) if background == "1" else None
    store = Store(home, writer=writer)
    settings, messages = store.load_settings({"g": schema})
    session = Session("g", schema, settings, store)
    print("loaded", flush=True)
    sys.stdin.readline()  # every writer has loaded the files: now they all write
    for n in range(games):
        session.record("g", won=n % 2 == 0)
    session.save_options({**session.options, f"o{me}": 100 + me})
    if writer is not None:
        writer.close()
    assert not failed and not messages, (failed, messages)
    print("done", flush=True)
    """
)


def test_four_processes_record_games_and_set_options_at_once_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    games = 20
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(tmp_path), str(me), str(games), str(me % 2)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for me in range(4)
    ]
    try:
        for child in children:
            assert child.stdout is not None and child.stdout.readline() == "loaded\n"
        for child in children:  # all at once, each with the files as they were at the start
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        outs = [child.communicate(timeout=HANG_S)[0] for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    assert [child.returncode for child in children] == [0] * 4
    assert outs == ["done\n"] * 4
    store = Store(tmp_path)
    settings, messages = store.load_settings(SCHEMAS)
    statistics, more = store.load_statistics()
    assert messages == more == []
    assert settings.games["g"] == {"o0": 100, "o1": 101, "o2": 102, "o3": 103}
    record = statistics.games["g"]
    assert (record.played, record.won, record.lost) == (4 * games, 2 * games, 2 * games)
