"""Every ``gamehall`` command in a ``sh`` block of README.md and docs/*.md runs and exits 0.

The rule, not a list, decides what runs: each command line of a ``sh`` block (split at
``&&``, ``;`` and ``|``) whose program is ``gamehall`` (``.venv/bin/gamehall`` too, after a
wrapper such as ``xvfb-run -a``), except ``play``, which needs a screen. Each runs in this
process through ``game.cli.main`` in a temporary folder with its own GAMEHALL_HOME, so an
``--out`` file lands there; the repository's ``tests/data`` is linked there, for the files
an example reads (``tests/data/zrf/steps.zrf``). Commands that draw borrow the session's
headless Director (a process has one), set up as the command asks and put back afterwards.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Commands that need a screen: a rule of the command line, not of this test.
NEEDS_A_SCREEN = {"play"}


def examples() -> list[tuple[str, list[str]]]:
    """(where, argv) for every ``gamehall`` command of every ``sh`` block."""
    found = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
            # A command may go on over lines ending in a backslash; a line may be a comment.
            for line in block.replace("\\\n", " ").splitlines():
                if line.lstrip().startswith("#"):
                    continue
                for part in re.split(r"&&|;|\|", line.split(" #")[0]):
                    words = shlex.split(part)
                    program = next((i for i, w in enumerate(words) if w.endswith("gamehall")), None)
                    if program is None:
                        continue
                    argv = words[program + 1 :]
                    found.append((f"{doc.name}: {part.strip()}", argv))
    return found


EXAMPLES = examples()


def test_the_documents_have_examples_of_every_headless_command():
    commands = {argv[0] for _, argv in EXAMPLES if argv}
    assert {"shot", "solve", "tournament"} <= commands, commands


@pytest.fixture
def borrowed(director: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, int]]]:
    """``build_director`` lends the session's Director with the command's games, size and
    shadows; its ``close`` gives it back as the other tests expect it."""
    from game.cli import play as cli_play

    sizes: list[tuple[int, int]] = []

    class Lent:
        def __init__(self) -> None:
            object.__setattr__(self, "_director", director)

        def __getattr__(self, name: str) -> Any:
            return getattr(director, name)

        def __setattr__(self, name: str, value: Any) -> None:
            setattr(director, name, value)

        def close(self) -> None:
            cli_play.register_games(director)
            director.on_resize(640, 400)
            director.renderer.shadows = True
            if director.overlay.visible:
                director.overlay.toggle()
            director.last_game = None
            director.switch("menu")

    def build_director(*, headless: bool, size: tuple[int, int] = (1280, 720), **kw: Any) -> Any:
        assert headless
        sizes.append(size)
        director.window.switch_to()  # its GL context, whatever window a test made current
        cli_play.register_games(
            director, kw.get("sessions"), kw.get("overrides"), kw.get("last_game", "")
        )
        director.last_game = None
        director.on_resize(*size)
        director.renderer.shadows = kw.get("shadows", True)
        return Lent()

    monkeypatch.setattr(cli_play, "build_director", build_director)
    yield sizes


def _params() -> list[Any]:
    params = []
    for where, argv in EXAMPLES:
        if not argv or argv[0] in NEEDS_A_SCREEN:
            continue
        marks = [pytest.mark.gl] if argv[0] in ("shot", "bench") else []
        params.append(pytest.param(argv, id=where[:70], marks=marks))
    return params


@pytest.mark.parametrize("argv", _params())
def test_an_example_runs(
    argv: list[str],
    request: pytest.FixtureRequest,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from game.cli import main

    if argv[0] in ("shot", "bench"):
        request.getfixturevalue("borrowed")
    (tmp_path / "tests").mkdir()  # an example's own files (tests/data/zrf/steps.zrf)
    (tmp_path / "tests" / "data").symlink_to(ROOT / "tests" / "data")
    monkeypatch.chdir(tmp_path)
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "Traceback" not in err
    if argv[0] == "shot":
        png = (tmp_path / argv[argv.index("--out") + 1]).read_bytes()
        assert png.startswith(b"\x89PNG")
        size = argv[argv.index("--size") + 1] if "--size" in argv else "1280x720"
        width, height = (int(v) for v in size.split("x"))
        assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (
            width,
            height,
        )  # the size the command asked for, on the lent Director
        assert out.strip().splitlines()[-1].startswith("status=")
