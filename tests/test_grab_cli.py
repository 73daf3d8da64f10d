"""The MasterGrab commands: shot and bench (figures are printed, never asserted)."""

from __future__ import annotations

import re

import pytest

from tests.test_cli import gamehall

pytestmark = pytest.mark.slow


def test_shot_grab_clicks_a_country_and_reports_the_game(tmp_path):
    out = tmp_path / "grab.png"
    r = gamehall(
        "shot", "grab", "--seed", "5", "--do", "next,hint", "--out", str(out), cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 10_000
    status = r.stdout.strip().splitlines()[-1]
    assert status.startswith("status=playing moves=4 ")
    assert "seed=5" in status


def test_bench_grab_prints_every_figure(tmp_path):
    """Each figure from one sample (``--quick``): the same code as the medians, a third of
    the maps and games."""
    r = gamehall("bench", "grab", "--quick", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    text = r.stdout
    for pattern in (
        r"mapgen countries=140 size=1280x720 seconds=\d+\.\d+",
        r"mapgen countries=1000 size=3840x2160 seconds=\d+\.\d+",
        r"robot=basic countries=140 median_ms=\d+\.\d+",
        r"robot=strategic countries=140 median_ms=\d+\.\d+",
        r"game robots=4 countries=140 seconds=\d+\.\d+ rounds=\d+",
    ):
        assert re.search(pattern, text), (pattern, text)


def test_tournament_grab_prints_win_rates_last(tmp_path):
    r = gamehall(
        "tournament", "grab", "--agents", "strategic,basic", "--robots", "strategic,basic",
        "--no-human-playing", "--games", "4", "--countries", "30", cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"winrates=strategic:\d\.\d\d,basic:\d\.\d\d", last), last
    bad = gamehall("tournament", "grab", "--agents", "nobody,basic", cwd=tmp_path)
    assert bad.returncode == 2 and "nobody" in bad.stderr


@pytest.mark.gl
@pytest.mark.parametrize(
    ("do", "needle"),
    [
        ("country:99999", "--do item 1 'country:99999': there is no country 99999"),
        ("click:nosuch", "--do item 1 'click:nosuch': unknown command 'click'"),
    ],
)
def test_shot_grab_refuses_an_item_and_writes_no_picture(tmp_path, do, needle):
    out = tmp_path / "grab.png"
    r = gamehall("shot", "grab", "--seed", "5", "--do", do, "--out", str(out), cwd=tmp_path)
    assert r.returncode == 2 and needle in r.stderr, r.stderr
    assert not out.exists() and r.stdout == "" and "Traceback" not in r.stderr
