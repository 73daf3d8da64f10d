"""The hostile-user probe (tools/probe.py and tools/probing/): the runner finds every category,
the same seed makes the same cases, and the checks that decide "misbehaved" see what they
must. The probe's own runs are too long for CI; these check its parts."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from probing.base import MEMORY_CAP, Ran, common_problems, execute  # noqa: E402


def _ran(rc: int | None = 0, out: str = "", err: str = "") -> Ran:
    return Ran(rc, out, err, pid=1, seconds=0.1, left_running=False)


def test_every_category_has_a_module_with_a_run() -> None:
    probe = importlib.import_module("probe")
    for category, module in probe.CATEGORIES.items():
        found = importlib.import_module(f"probing.{module}")
        assert callable(found.run), category
    assert {"descriptions", "cases", "workers", "dask", "saved"} <= set(probe.CATEGORIES)


def test_an_unknown_category_is_refused_with_the_list() -> None:
    ran = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "probe.py"), "--only", "nosuch"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert ran.returncode == 2
    assert "descriptions" in ran.stdout and "saved" in ran.stdout


def test_the_same_seed_makes_the_same_cases() -> None:
    from probing.cli import cli_cases
    from probing.cli_numbers import number_cases
    from probing.descriptions import description_cases

    assert cli_cases(random.Random("1:cli")) == cli_cases(random.Random("1:cli"))
    assert cli_cases(random.Random("1:cli")) != cli_cases(random.Random("2:cli"))
    assert number_cases() == number_cases()
    assert [(c.name, c.command) for c in description_cases()] == [
        (c.name, c.command) for c in description_cases()
    ]


def test_an_internal_error_counts_even_with_an_allowed_exit_status() -> None:
    assert common_problems(_ran(2, err="gamehall x: internal error: KeyError: 3"), 60.0)
    assert not common_problems(_ran(2, err="gamehall x: --time: not a number"), 60.0)


def test_the_memory_cap_stops_a_huge_allocation(tmp_path: Path) -> None:
    ran = execute(
        [sys.executable, "-c", "b = bytearray(3 << 30)"], env={}, cwd=tmp_path, timeout=60.0,
        memory=MEMORY_CAP,
    )  # fmt: skip
    assert ran.rc not in (0, None)
    assert "MemoryError" in ran.err


def test_a_refusal_that_names_a_letter_is_caught() -> None:
    from probing.descriptions import description_cases, description_problems

    case = next(c for c in description_cases() if c.odd and "Ä" in c.name)
    wrong = "gamehall rules check: odd.txt:7:13: unexpected character 'Ω'"
    right = "gamehall rules check: odd.txt:7:13: unexpected character '\u202e'"
    assert any("letter" in p for p in description_problems(case, _ran(2, err=wrong)))
    assert not description_problems(case, _ran(2, err=right))


@pytest.mark.parametrize(
    ("help_text", "seconds"),
    [
        ("  --scheduler ADDRESS  run the games on this Dask scheduler\n  --json", None),
        ("  --scheduler ADDRESS  run the games on this Dask scheduler; gives up\n"
         "                       after 60 s without an answer\n  --json  print", 60.0),
        ("  --scheduler ADDRESS  ... waits at most 2 minutes for a worker", 120.0),
        ("  --scheduler ADDRESS   run the games on this Dask scheduler\n"
         "  --scheduler-wait SECONDS\n                        with --scheduler: stop when the "
         "scheduler does not answer for this long (default 30); a lost worker\n  --json", 30.0),
    ],
)  # fmt: skip
def test_the_scheduler_bound_is_read_from_the_help(help_text: str, seconds: float | None) -> None:
    from probing.scheduler import stated_bound

    assert stated_bound(help_text) == seconds


def test_every_hostile_robot_compiles(tmp_path: Path) -> None:
    from probing.base import Place
    from probing.robots_hostile import hostile_cases, source

    place = Place(tmp_path / "home", tmp_path / "cwd", tmp_path / "xdg")
    cases = hostile_cases()
    assert cases
    for case in cases:
        code = compile(source(case, place, 1234, "0.5", "secret"), case.stem, "exec")
        assert code.co_filename == case.stem


def test_a_dask_run_stopped_in_one_clear_line_with_its_games_kept_is_fine() -> None:
    from probing.scheduler import dask_cases, dask_problems

    killed = next(c for c in dask_cases() if c.kill == "worker")
    kept = "game=chess games=4 capped=0\nwinrates=random:0.50\n"
    said = "gamehall tournament chess: stopped after 4 of 30 games: no worker for 30 s\n"
    assert dask_problems(killed, _ran(1, out=kept, err=said), 90.0) == []
    lost = dask_problems(killed, _ran(1, err="gamehall tournament: internal error: X\n"), 90.0)
    assert any("internal error" in p for p in lost)
    assert any("no results" in p for p in lost)
