"""Numbers and limits on the command line and in typed commands (issue 25, item 11): one
number reader everywhere (ASCII digits only: ``int()`` alone takes ``١٢``, ``１２`` and
``1_0``), every limit capped with the cap said, and a huge argument quoted as a short
excerpt. Each refusal is one line, status 2, before any work starts."""

from __future__ import annotations

import pytest

from game.logic.contract import MAX_DEPTH, MAX_NODES, MAX_TIME, Limits, LimitsError
from game.logic.numbers import NumberError, decimal, parse_decimal, parse_whole, whole_number
from tests.test_cli import START, no_work, run_main  # noqa: F401  (no_work: a fixture)

#: Every command line here must be refused before its work starts.
pytestmark = pytest.mark.usefixtures("no_work")

NOT_ASCII = ("١٠", "１０", "1_0", "²", "߁", "৪")
HUGE = "9223372036854775808"
LONG = "7" * 100_000


@pytest.mark.parametrize("text", [*NOT_ASCII, "1e3", "0x10", "1.0", "", "-", "7" * 31, "nan"])
def test_the_reader_takes_ascii_digits_only(text: str) -> None:
    assert parse_whole(text) is None
    with pytest.raises(NumberError, match="must be a whole number from 0 to 10"):
        whole_number(text, 0, 10)


def test_the_reader_takes_what_a_person_means() -> None:
    assert [parse_whole(t) for t in ("7", " -7 ", "+7", "007")] == [7, -7, 7, 7]
    assert [parse_decimal(t) for t in ("0.5", ".5", "5.", "1e-3", "-2")] == [
        0.5, 0.5, 5.0, 0.001, -2.0,
    ]  # fmt: skip
    for text in ("nan", "inf", "1e999", "٠.٥", "0_5", "0x1p-2", "１.５"):
        assert parse_decimal(text) is None, text
    with pytest.raises(NumberError, match="above 0 to 3600"):
        decimal("0", 0.0, 3600.0, above=True)


def test_a_refusal_quotes_a_short_excerpt() -> None:
    with pytest.raises(NumberError) as refused:
        whole_number(LONG, 0, 10)
    assert len(str(refused.value)) < 120 and "(100,000 characters)" in str(refused.value)


def test_every_limit_is_capped() -> None:
    for field, cap in (("time", MAX_TIME), ("depth", MAX_DEPTH), ("nodes", MAX_NODES)):
        assert getattr(Limits(**{field: cap}), field) == cap
        with pytest.raises(LimitsError, match=f"{field} must be at most"):
            Limits(**{field: cap * 2})
    with pytest.raises(LimitsError):
        Limits(time=int(HUGE))


TOURNAMENT = ("tournament", "reversi", "--agents", "beginner,beginner")
REFUSED = [
    # a limit beyond its cap, and the cap said
    ([*TOURNAMENT, "--time", HUGE], "--time: must be a finite number of seconds above 0 and at"),
    ([*TOURNAMENT, "--time-per-move", HUGE], "at most 3600"),
    (["solve", "reversi", START, "--time", HUGE], "at most 3600"),
    ([*TOURNAMENT, "--games", HUGE], "--games: must be a whole number from 1 to 100000"),
    ([*TOURNAMENT, "--jobs", "257"], "--jobs: must be a whole number from 1 to 256"),
    ([*TOURNAMENT, "--max-steps", HUGE], "--max-steps: must be a whole number from 1 to"),
    (["shot", "grab", "--out", "x.png", "--countries", HUGE], "countries must be at most"),
    # digits that int() and float() take and the reader does not
    *[([*TOURNAMENT, flag, v], f"{flag}: must be") for v in NOT_ASCII[:3]
      for flag in ("--games", "--seed", "--max-steps", "--time")],
    *[(["solve", "reversi", START, "--time", v], "--time: must be") for v in ("١", "１", "1_0")],
    *[(["shot", "river", "--out", "x.png", "--priests", v], "priests must be a number from 0")
      for v in NOT_ASCII[:3]],
    (["shot", "grab", "--out", "x.png", "--attack-factor", "٠.٥"], "attack_factor must be"),
    (["shot", "grab", "--out", "x.png", "--countries", "1e3"], "countries must be a whole number"),
    (["shot", "grab", "--out", "x.png", "--set", "countries=１００"], "countries must be a"),
    (["play", "clue", "--console", "--seats", "٤"], "seats must be a number from 3 to 6"),
    (["rules", "perft", "chess", "١"], "must be a whole number from 0 to"),
    # a described game's --time was never read: now checked as its option is
    *[([c, "chess", *o, "--time", v], "time_per_move must be")
      for c, o in (("shot", ["--out", "x.png"]), ("play", [])) for v in ("1_0", HUGE, "0")],
    (["rules", "perft", "gomoku", "1", "--set", "width=1_0"], "--set takes NAME=N"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "needle"), REFUSED, ids=lambda v: " ".join(v)[:60])
def test_a_number_the_reader_refuses_is_one_line_before_any_work(
    capsys, tmp_path, monkeypatch, _private_home, argv, needle
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run_main(argv, capsys)
    assert status == 2, err
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert needle in err and "Traceback" not in err


ECHOED = [
    [*TOURNAMENT, "--games", LONG],
    [*TOURNAMENT, "--time", LONG],
    [*TOURNAMENT, "--scheduler", LONG],
    [*TOURNAMENT, "--agents", "," + LONG],
    ["tournament", "reversi", "--agents", "beginner," + LONG],
    ["shot", "river", "--out", "x.png", "--priests", LONG],
    ["shot", "river", "--out", "x.png", "--size", LONG],
    ["shot", "grab", "--out", "x.png", "--set", LONG],
    ["play", "nosuch" + LONG],
    ["rules", LONG],
    ["rules", "perft", "chess", "1", "--set", "x=" + LONG],
    ["solve", "river", "--priests", "1", LONG],
    ["play", "clue", "--console", "--seats", "a b " * 25_000],
]


@pytest.mark.parametrize("argv", ECHOED, ids=lambda v: " ".join(v)[:40])
def test_a_100_kb_argument_is_quoted_as_a_short_excerpt(
    capsys, tmp_path, monkeypatch, _private_home, argv
) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, err = run_main(argv, capsys)
    assert status == 2, err[:300]
    assert len(err) < 1600 and len(err.strip().splitlines()) == 1, err[:300]
    assert "Traceback" not in err


def test_do_items_read_their_numbers_with_the_reader() -> None:
    from game.games.grab.commands import _country, _move
    from game.hall.match_controls import move_number

    assert move_number("12") == 12 and _country(" 3 ") == 3
    assert str(_move("attack 3,5>12")) == "attack 3,5>12"
    for text in NOT_ASCII:
        with pytest.raises(ValueError, match="a move number"):
            move_number(text)
        with pytest.raises(ValueError, match="a country id is a whole number"):
            _country(text)
        with pytest.raises(ValueError, match="not a move"):
            _move(f"attack {text}>2")
    with pytest.raises(ValueError) as refused:
        move_number(LONG)
    assert len(str(refused.value)) < 100


@pytest.mark.gl
def test_a_100_kb_do_item_is_quoted_as_a_short_excerpt(tmp_path) -> None:
    # Through a real command line (100 KB of argv) in a process of its own: its drawing starts
    # before item 2 is read, which this module's no_work fixture forbids in this process.
    from tests.test_cli import gamehall_apart

    r = gamehall_apart(
        "shot", "river", "--out", "x.png", "--size", "160x120", "--do", f"hint,x{LONG}",
        cwd=tmp_path, env={"GAMEHALL_HOME": str(tmp_path / "home")},
    )  # fmt: skip
    assert r.returncode == 2 and len(r.stderr) < 600, r.stderr[:300]
    assert "--do item 2 'x777" in r.stderr and "(100,001 characters)" in r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "x.png").exists()


def test_whole_arguments_are_read_by_one_helper() -> None:
    """``goto`` and ``country`` read their number through one helper, whose message names
    what was wanted and quotes what came."""
    from game.hall.match_controls import whole_argument

    assert whole_argument("7", "a count") == 7
    with pytest.raises(ValueError, match=r"^a count, not '7a'$"):
        whole_argument("7a", "a count")
