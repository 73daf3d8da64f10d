"""``gamehall rules analyse``: autoplay statistics (lengths, branching, win and draw rates
with their intervals) and the picture of them."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from game.cli import main
from game.engine.png import decode_png
from game.logic.analyse import Analysis, Played, play_games, wilson
from game.logic.contract import CHANCE, Game, Limits, Stop
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.state import RulesGame
from game.logic.search.toys import Pig


def test_wilson_interval_holds_the_rate_and_matches_known_values() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(45, 100)
    assert low == pytest.approx(0.3561, abs=1e-4) and high == pytest.approx(0.5476, abs=1e-4)
    for k, n in ((1, 3), (7, 7), (50, 51)):
        low, high = wilson(k, n)
        assert 0.0 <= low <= k / n <= high <= 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_tic_tac_toe_figures_add_up_and_repeat_with_the_seed() -> None:
    game = RulesGame(rulebook("tic-tac-toe"))
    first = play_games(game, [make_agent("random")], 40, seed=3)
    again = play_games(game, [make_agent("random")], 40, seed=3)
    other = play_games(game, [make_agent("random")], 40, seed=4)
    assert first.games == again.games and first.games != other.games
    assert len(first.finished) == 40
    assert first.wins(0) + first.wins(1) + first.draws == 40
    assert all(5 <= n <= 9 for n in first.lengths)  # a line needs 5 plies, the board holds 9
    # Every decision has 1 to 9 empty squares; the mean over decisions lies between.
    assert 4.0 < first.branching < 9.0
    last = first.lines()[-1]
    fields = dict(item.split("=") for item in last.split())
    assert int(fields["wins0"]) + int(fields["wins1"]) + int(fields["draws"]) == 40


def test_a_stronger_agent_shows_in_its_seat_rate() -> None:
    game = RulesGame(rulebook("tic-tac-toe"))
    agents = [make_agent("beginner"), make_agent("random")]
    analysis = play_games(game, agents, 20, seed=1, limits=Limits(nodes=300))
    rate, low, _ = analysis.rate(analysis.wins(0))
    assert rate >= 0.8 and low > 0.5
    assert analysis.agents == ("beginner", "random")


class _PigGame(Game[Any]):
    id = "pig"
    seats = 2

    def initial_state(self, rng: random.Random) -> Pig:
        return Pig(goal=12)


class _Holder:
    """Rolls until its turn holds 4 points, then holds."""

    name = "holder"
    description = "holds at 4"

    def choose(self, state: Pig, limits: Limits, rng: random.Random, stop: Stop) -> object:
        return "hold" if state.turn_points >= 4 else "roll"


def test_chance_nodes_are_drawn_and_not_counted_as_decisions() -> None:
    analysis = play_games(_PigGame(), [_Holder(), _Holder()], 30, seed=2)
    assert len(analysis.finished) == 30
    # Two choices at each decision (roll or hold); chance plies add to the length only.
    assert analysis.branching == 2.0
    assert all(g.plies > g.decisions for g in analysis.games)
    assert CHANCE not in {g.winner for g in analysis.games}


def test_a_game_past_the_step_cap_is_counted_apart() -> None:
    game = RulesGame(rulebook("breakthrough"))
    analysis = play_games(game, [make_agent("random")], 3, step_cap=4)
    assert not analysis.finished and analysis.draws == 0
    assert "3 games stopped at the step cap" in "\n".join(analysis.lines())


def test_empty_analysis_reads() -> None:
    analysis = Analysis("g", ("A", "B"), ("x", "y"), [Played(3, 6, 3, ())])
    assert analysis.rate(0) == (0.0, 0.0, 1.0)
    assert analysis.lines()[-1].startswith("games=1 finished=0 ")


def test_command_prints_the_figures_and_writes_the_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ttt.png"
    status = main(["rules", "analyse", "tic-tac-toe", "--games", "12", "--out", str(out)])
    printed, err = capsys.readouterr()
    assert status == 0, err
    assert re.search(r"^X wins \d+\.\d% \(95% interval", printed, re.M)
    assert re.fullmatch(
        r"games=12 finished=12 mean_length=\d+\.\d branching=\d+\.\d\d wins0=\d+ wins1=\d+ "
        r"draws=\d+",
        printed.strip().splitlines()[-1],
    )
    pixels = decode_png(out.read_bytes())
    assert pixels.shape[:2] == (560, 1000)
    # Bars and words are drawn: more than the paper's colour and a few shades of it.
    assert len({tuple(p) for p in pixels.reshape(-1, pixels.shape[2])[::7]}) > 20


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--agents", "random,random,random"], "give one agent or 2"),
        (["--agents", "nobody"], "no agent 'nobody'"),
    ],
)
def test_command_refuses_bad_agents(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["rules", "analyse", "tic-tac-toe", "--games", "2", *argv])
    assert status == 2 and words in capsys.readouterr().err
