"""The described games' default computer (the level a description names, ``master`` unless it
says otherwise): sound moves, reasons in words, the same hint for the same position.

Searches here are bounded by depth, positions or simulated games, or by a time they never
reach (a won end stops them first)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from game.logic.contract import Limits, Stop
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.levels import steady_name
from game.logic.rules.notation import coordinate_text
from game.logic.rules.rulebook import Move
from game.logic.rules.state import RulesGame, RulesState

DATA = Path(__file__).resolve().parent / "data"


def default_agent(game_id: str):  # type: ignore[no-untyped-def]
    """The agent that plays the computer's side and gives hints in ``game_id``."""
    return make_agent(rulebook(game_id).design.computer)


def state_of(game_id: str, text: str, **parameters: int) -> RulesState:
    e = rulebook(game_id, parameters) if parameters else rulebook(game_id)
    state = RulesGame(e, {"position": text}).initial_state(random.Random(0))
    assert isinstance(state, RulesState)
    return state


def choose(agent, state: RulesState, limits: Limits, seed: int = 0) -> Move:  # type: ignore[no-untyped-def]
    return agent.choose(state, limits, random.Random(seed), Stop())


def uci(state: RulesState, move: Move) -> str:
    """A chess move as python-chess writes it (from, to, the piece a pawn becomes)."""
    return coordinate_text(state.rulebook, state.pos, move)


def hanging_positions() -> list[tuple[str, set[str]]]:
    out = []
    for line in (DATA / "chess_hanging.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fen, moves, _losses = (part.strip() for part in line.split("|"))
        out.append((fen, set(moves.split())))
    return out


# -- chess ------------------------------------------------------------------------------------


def test_the_default_level_never_leaves_material_to_be_taken() -> None:
    """50 positions from play (tools/chess_hanging.py, judged by python-chess) where some move
    loses at least two pawns' worth at once: looking one move ahead, the default level never
    plays one (it follows the captures that answer its move). The plain alpha-beta of before,
    also one move deep, played one in 25 of them."""
    positions = hanging_positions()
    assert len(positions) == 50
    agent = default_agent("chess")
    hung = []
    for fen, hanging in positions:
        state = state_of("chess", fen)
        move = uci(state, choose(agent, state, Limits(depth=1)))
        if move in hanging:
            hung.append((fen, move))
    assert hung == []


OPENINGS = [
    # 1.e4 e5 2.Nf3 Nc6: the hint was h2-h3 or c2-c3, a different one each run.
    (
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        {"Bb5", "Bc4", "d4", "Nc3", "d3", "Be2"},
    ),
    # 1.e4 g6: the hint was Qg4.
    (
        "rnbqkbnr/pppppp1p/6p1/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        {"d4", "Nf3", "Nc3", "Bc4", "c4", "d3", "f4"},
    ),
]


@pytest.mark.parametrize(("fen", "sound"), OPENINGS)
def test_the_opening_hint_develops_and_is_the_same_every_time(fen: str, sound: set[str]) -> None:
    """The window's hint is the default level's steady form: half a second given becomes a
    budget of positions, so the hint and its words are the same on every run and machine."""
    state = state_of("chess", fen)
    said = set()
    for seed in range(2):  # the caller's random generator changes nothing
        agent = make_agent(steady_name(rulebook("chess").design.computer))
        move = choose(agent, state, Limits(time=0.5), seed)
        said.add((state.action_text(move), agent.explain()))
    assert len(said) == 1, said
    (text, reason), *_ = said
    assert text in sound
    assert re.match(
        r"(brings the \w+ to \w\d, where it reaches \d+ squares \(\d+ from \w\d\)"
        r"|gives White's pieces \d+ more moves \(\d+ to \d+\)); "
        r"best of a \d+-ply search of [\d,]+ positions: [+-]\d+\.\d\d pawns",
        reason,
    ), reason


@pytest.mark.parametrize(
    ("fen", "move", "words"),
    [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "Rd8#", "mate in 1"),
        ("6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", None, "mate in 2"),
        ("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "Rxd5", "takes the Knight on d5"),
        ("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "Rxd5", "wins material: +3.0 pawns"),
        ("4k3/8/8/4p3/3N4/8/8/4K3 w - - 0 1", None, "saves the Knight on d4"),
    ],
)
def test_the_hint_says_why_in_words(fen: str, move: str | None, words: str) -> None:
    state = state_of("chess", fen)
    agent = default_agent("chess")
    chosen = choose(agent, state, Limits(depth=4))
    if move is not None:
        assert state.action_text(chosen) == move
    assert words in agent.explain(), agent.explain()


def test_a_quiet_pawn_move_says_what_it_opens() -> None:
    state = state_of("chess", "r1bqkbnr/pppppppp/2n5/8/8/2N4N/PPPPPPPP/R1BQKB1R b KQkq - 3 2")
    agent = default_agent("chess")
    assert state.action_text(choose(agent, state, Limits(depth=3))) == "e5"
    assert "gives Black's pieces 10 more moves (22 to 32)" in agent.explain(), agent.explain()


def test_the_overlay_gets_the_search_depth_positions_and_line() -> None:
    state = state_of("chess", "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1")
    agent = default_agent("chess")
    choose(agent, state, Limits(depth=4))
    details = agent.details()
    assert details["depth"] >= 3 and details["nodes"] > 0
    assert len(details["pv"].split()) == 3  # the rook cuts off the king, a king move, mate
    assert details["score"] > 100  # pawns: a mate


# -- gomoku ---------------------------------------------------------------------------------------


def chebyshev(state: RulesState, a: int, b: int) -> float:
    xy = state.rulebook.design.board.xy
    return max(abs(xy[a][0] - xy[b][0]), abs(xy[a][1] - xy[b][1]))


def test_gomoku_plays_next_to_the_stones() -> None:
    """In seeded games against random play every move of the default level is within two
    points of a stone already down (the issue's computer played h1 and c7, on the edges)."""
    agent = default_agent("gomoku")
    other = make_agent("random")
    for seed in range(3):
        rng = random.Random(seed)
        state = RulesGame(rulebook("gomoku")).initial_state(rng)
        for ply in range(24):
            if state.is_terminal():
                break
            if ply % 2 == seed % 2:
                move = choose(agent, state, Limits(depth=2))
                stones = [p for p, v in enumerate(state.pos.board) if v]
                if stones:
                    near = min(chebyshev(state, move[0][0], p) for p in stones)
                    assert near <= 2, (state.text(), state.action_text(move))
            else:
                move = other.choose(state, Limits(depth=1), rng, Stop())
            state = state.apply(move)


@pytest.mark.parametrize(
    ("text", "answers", "words"),
    [
        # White's four f8-i8 is closed by e8: block j8.
        (
            "Black: stone e8 h10 k3 c12 / White: stone f8 g8 h8 i8 / Black to move",
            {"j8"},
            "blocks White's 4 at j8",
        ),
        # Black's own four wins before White's is blocked.
        (
            "Black: stone d4 e4 f4 g4 / White: stone f8 g8 h8 i8 / Black to move",
            {"c4", "h4"},
            "wins: 5 in a row",
        ),
        # White's open three g7-i7: block one end before it becomes an open four.
        (
            "Black: stone c2 n14 b13 / White: stone g7 h7 i7 / Black to move",
            {"f7", "j7"},
            "blocks White's open 3",
        ),
    ],
)
def test_gomoku_wins_a_four_and_blocks_fours_and_open_threes(
    text: str, answers: set[str], words: str
) -> None:
    state = state_of("gomoku", text)
    agent = default_agent("gomoku")
    move = choose(agent, state, Limits(depth=2))
    assert state.action_text(move) in answers
    assert words in agent.explain()


# -- draughts -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "trade"),
    [
        # Even, three pieces each: 16-11 gives the king for Black's (15x8 12x3), two against two.
        ("W:WK5,12,K16:BK15,K10,23", "16-11"),
        # Even: 26-30 lets White's man through to a king after 10x17, two against two.
        ("B:WK10,8,K12:B26,K18,K13", "26-30"),
    ],
)
def test_draughts_keeps_its_pieces_in_an_even_game(position: str, trade: str) -> None:
    """Not ahead, the default level does not trade an even game down towards one king
    against one king, the ending that drew its games against the old alpha-beta: it plays on
    with its pieces (crowning, here). Before, both trades scored as good as anything else."""
    state = state_of("english-draughts", position)
    agent = default_agent("english-draughts")
    chosen = choose(agent, state, Limits(depth=6))
    assert state.action_text(chosen) != trade, agent.details()
    pv = agent.details()["pv"].split()
    after = state
    for text in pv[:4]:
        move = next(m for m in after.legal_actions() if after.action_text(m) == text)
        after = after.apply(move)
    pieces = [v for v in state.pos.board if v]
    left = [v for v in after.pos.board if v]
    assert len(left) == len(pieces), (pv, agent.explain())


# -- hex ----------------------------------------------------------------------------------------


def test_hex_joins_when_it_can_and_blocks_a_chain_one_stone_from_joining() -> None:
    agent = default_agent("hex")
    state = state_of(
        "hex", "Red: stone c1 c2 c3 c4 / Blue: stone a2 e1 e4 d5 / Red to move", side=5
    )
    assert state.action_text(choose(agent, state, Limits(nodes=200))) in {"b5", "c5"}
    assert agent.explain() == "joins the two sides: wins"
    state = state_of(
        "hex", "Red: stone e2 a1 b1 a5 / Blue: stone a3 b3 c3 d3 / Red to move", side=5
    )
    assert state.action_text(choose(agent, state, Limits(nodes=200))) == "e3"
    assert agent.explain().startswith("blocks Blue's chain")


def test_the_hex_hint_reads_as_a_reason_and_repeats() -> None:
    """The issue's hint said "h7 (48 playouts, 0% won after the chosen move)"."""
    state = state_of("hex", "Red: stone f6 / Blue: stone e7 / Red to move")
    said = set()
    for seed in range(2):
        agent = default_agent("hex")
        move = choose(agent, state, Limits(nodes=2000), seed)
        said.add((state.action_text(move), agent.explain()))
    assert len(said) == 1
    (_text, reason), *_ = said
    assert re.fullmatch(
        r"Red is \d+ stones from joining its sides( \(\d+ before\))?, Blue \d+ stones from "
        r"joining( \(\d+ before\))?; wins \d+% of the [\d,]+ simulated games after it, "
        r"2,000 in all",
        reason,
    ), reason
    games = int(re.search(r"of the ([\d,]+) simulated", reason).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert games >= 50  # the chosen move's own games, not a handful


def test_the_hex_hint_counts_the_stones_each_side_still_needs() -> None:
    """Red joins rows 1 and 5, Blue columns a and e (side 5): Red's c1 c2 need three more
    stones (c3 c4 c5, or around Blue's stone), Blue's b3 four (a3 and c-e)."""
    from game.logic.rules.connect import Connection, connection_zones

    state = state_of("hex", "Red: stone c1 c2 / Blue: stone b3 / Red to move", side=5)
    e = state.rulebook
    zones = connection_zones(e)
    assert zones is not None
    race = Connection(e, zones)
    stones = [-1 if not v else e.c.owner[v] for v in state.pos.board]
    assert (race._needed(stones, 0), race._needed(stones, 1)) == (3, 4)
    c3 = e.design.board.names.index("c3")
    assert race._distances(stones, 0, c3) == (
        "Red is 2 stones from joining its sides (3 before), Blue 5 stones from joining (4 before)"
    )


def test_the_overlay_line_comes_back_from_the_thinking_process() -> None:
    """The window's agents think in a worker process: the depth, positions and line of the
    search come back with the move, for the F3 overlay."""
    from game.games.rules.entry import entry_for
    from game.games.rules.panel import search_text
    from game.logic.workers.pool import WorkerAgent

    state = state_of("chess", "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1")
    entry = entry_for("chess")
    agent = entry.thinker(entry.hint_agent, entry.options.defaults())
    assert isinstance(agent, WorkerAgent)
    choose(agent, state, Limits(depth=3))
    assert re.fullmatch(r"depth 3, [\d,]+ positions, line \S+ \S+ \S+", search_text(agent))
    assert "mate in 2" in agent.explain()


def test_tic_tac_toe_is_played_perfectly() -> None:
    """Against a brute-force minimax of every position: from 150 positions reached by random
    play, the default level's move is always one of the best (it searches to the end)."""
    game = RulesGame(rulebook("tic-tac-toe"))
    memo: dict[object, int] = {}

    def best(state: RulesState) -> int:  # the side to move's value: 1 win, 0 draw, -1 loss
        key = state.key()
        if key not in memo:
            memo[key] = max(value_of(state, m) for m in state.legal_actions())
        return memo[key]

    def value_of(state: RulesState, move: Move) -> int:
        after = state.apply(move)
        if after.is_terminal():
            return int(after.returns()[state.current_player()])
        return -best(after)

    agent = default_agent("tic-tac-toe")
    rng = random.Random(3)
    checked = 0
    while checked < 150:
        state = game.initial_state(rng)
        for _ in range(rng.randrange(0, 7)):
            if state.is_terminal():
                break
            state = state.apply(rng.choice(list(state.legal_actions())))
        if state.is_terminal():
            continue
        move = choose(agent, state, Limits(nodes=20_000))
        assert value_of(state, move) == best(state), (state.text(), state.action_text(move))
        checked += 1


def test_a_description_may_weigh_the_frontier_and_name_a_level() -> None:
    from game.logic.rules.catalogue import path_of
    from game.logic.rules.design import parse
    from game.logic.rules.sexpr import DescriptionError

    text = path_of("othello").read_text(encoding="utf-8")
    design = parse(text)
    assert design.evaluation.frontier == -2 and design.computer == "master"
    assert parse(text + "\n(computer advanced)\n").computer == "advanced"
    with pytest.raises(DescriptionError, match="the computer is one of beginner, intermediate"):
        parse(text + "\n(computer grandmaster)\n")
    with pytest.raises(DescriptionError, match=r"\(frontier W\)"):
        parse(text.replace("(frontier -2)", "(frontiers -2)"))


# -- the search's tables ------------------------------------------------------------------------


def test_master_bounded_by_time_alone_starts_from_its_sides_last_table() -> None:
    """Bounded by time alone, the default level keeps its transposition table for its side
    and the next search starts from it (it looks deeper for the same time); bounded by
    positions, it keeps none (the same move every time, whatever was searched before). The
    won end ends the search at once, so the time given is never reached."""
    from game.logic.rules.levels import KEPT_TABLES

    state = state_of("english-draughts", "B:WK10:BK14,K15")
    e = state.rulebook
    KEPT_TABLES.pop(e, None)
    agent = default_agent("english-draughts")
    assert state.action_text(choose(agent, state, Limits(nodes=2_000))) in ("14x7", "15x6")
    assert e not in KEPT_TABLES
    assert state.action_text(choose(agent, state, Limits(time=600.0))) in ("14x7", "15x6")
    table = KEPT_TABLES[e][("master", state.current_player())]
    kept = dict(table)
    assert kept
    choose(agent, state, Limits(time=600.0))
    assert KEPT_TABLES[e][("master", state.current_player())] is table
    assert kept.items() <= table.items()  # the second search found what the first kept


def test_a_kept_score_never_hides_the_end_of_the_quiet_moves() -> None:
    """A position that the table holds as a win for the side to move, reached when the quiet
    moves have run out: the game is drawn there, and the search says so (the table's score is
    looked at before the moves are made only where no count can have ended the game)."""
    from game.logic.rules.evaluation import Judge
    from game.logic.rules.search import CONTEMPT, EXACT, Search

    state = state_of("english-draughts", "W:WK5,K12:BK15,K10")
    e = state.rulebook
    pos = state.pos.copy()
    search = Search(e, Judge(e))
    search.root_player = e.player(pos)
    search.root_depth = 4
    search.table[hash(e.key(pos))] = (20, EXACT, 5_000, None)
    pos.quiet = e.quiet_limit - 1
    assert search._node(pos, 4, -100_000, 100_000, 1) == 5_000  # the game goes on: kept
    pos.quiet = e.quiet_limit
    assert search._node(pos, 4, -100_000, 100_000, 1) == -CONTEMPT  # drawn: not the table's
