"""The words of the MasterGrab scene: the counter, the left panel (ranking, trace, rules),
what a move did, what a hovered country offers, the round's summary and the status line.

Every function reads the match (or a state) and returns text; none changes anything.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from game.logic.grab.game import GrabGame
from game.logic.grab.record import grab_state, round_start
from game.logic.grab.state import GrabMoveError, GrabState, Move, MoveKind, player_statistics
from game.logic.match import Match

__all__ = [
    "ROW_CHARS",
    "RULES",
    "counter",
    "describe_hint",
    "describe_move",
    "list_row",
    "panel_text",
    "preview",
    "ranking_lines",
    "round_summary",
    "status_line",
    "trace_lines",
]

#: The characters a row of the move list spends on players at most (:func:`list_row`): at
#: 800x600 a wider list reaches the title.
ROW_CHARS: Final = 35

RULES = (
    "Conquer every country. Click an enemy country to attack it with all your countries next "
    "to it: you win when (your armies - 1 each) x the attack factor reach its armies. Click "
    "your own country to gather armies into it from your neighbours (those facing enemies keep "
    "some back). Armies grow after every move up to a country's capacity (a bold number is "
    "nearly full). The map has no edges. WASD or the arrow keys pan, +/- zoom."
)


def status_line(match: Match[Move] | None) -> str:
    """``status=playing moves=12 player0_countries=9 winner=none countries=140 seed=5``.

    ``status`` is playing, won or lost (a person plays), or finished (robots only);
    ``winner`` names the winning player once the game is over: when the person lost every
    country, the robot leading the ranking (:meth:`GrabState.decided_winner`).
    """
    if match is None:
        return "status=none"
    state = grab_state(match)
    winner = state.decided_winner()
    if winner is None:
        status = "playing"
    elif not state.board.human_playing:
        status = "finished"
    else:
        status = "won" if winner == 0 else "lost"
    mine = len(state.countries_of(0))
    return (
        f"status={status} moves={state.turn} player0_countries={mine} "
        f"winner={'none' if winner is None else winner} countries={state.board.countries} "
        f"seed={match.seed}"
    )


def counter(match: Match[Move], autoplay: float, showing: bool = False) -> str:
    """The HUD's counter line: the round, how much is yours, whose move (``showing``: the
    robots' moves are still being shown)."""
    state = grab_state(match)
    board = state.board
    rnd = state.turn // board.players + 1
    if board.human_playing:
        mine = len(state.countries_of(0))
        land = board.countries - len(board.mountains)
        if match.over:
            turn = "game over"
        else:
            yours = match.person_to_move() and not showing
            turn = "your move" if yours else "robots moving"
        return f"Round {rnd}   you own {mine} of {land} countries   {turn}"
    speed = f"   autoplay {autoplay:g} s" if autoplay else ""
    return f"Round {rnd}   {board.players} robots{speed}"


def panel_text(match: Match[Move], info: str) -> str:
    """The left panel: ``info`` is "ranking", "trace", "rules" or "none"."""
    if info == "none":
        return ""
    if info == "rules":
        return RULES
    if info == "trace":
        return "\n".join(trace_lines(match)) or "No moves yet."
    return "\n".join(ranking_lines(match))


def ranking_lines(match: Match[Move]) -> list[str]:
    """Spec 4.5's ranking: rank, name, share of the land, countries, armies."""
    game = match.game
    return [
        f"{s.rank}. {game.seat_name(s.player):<7} {s.size_percent:5.1f}% land  "
        f"{s.countries:>3} countries  {s.armies:>4} armies"
        for s in player_statistics(grab_state(match))
    ]


def trace_lines(match: Match[Move]) -> list[str]:
    """Spec 6.5's trace in words: every player's last result, countries by name, with the
    armies before and after (the target first, then each source)."""
    game = match.game
    assert isinstance(game, GrabGame)
    state = grab_state(match)
    lines = []
    for result in state.results:
        name = game.seat_name(result.player)
        if result.is_error:
            lines.append(f"{name}: lost the turn (a move the rules refuse)")
            continue
        if result.kind is MoveKind.NONE:
            lines.append(f"{name} waited")
            continue
        target = game.country_name(state, result.target)
        to = f"{result.before[0]}→{result.after[0]}" if result.before else ""
        sources = ", ".join(
            f"{b}→{a}" for b, a in zip(result.before[1:], result.after[1:], strict=False)
        )
        armies = f" (armies {to}; from {sources})"
        if result.kind is MoveKind.GATHER:
            lines.append(f"{name} gathered into {target}{armies}")
        elif result.success:
            lines.append(f"{name} took {target} from {game.seat_name(result.defender)}{armies}")
        else:
            defender = game.seat_name(result.defender)
            lines.append(f"{name} attacked {target} ({defender}) and failed{armies}")
    return lines


def list_row(match: Match[Move], first: int, end: int) -> str:
    """A round as the move list writes it (steps ``first`` to ``end`` of the full record, the
    undone ones included): by the ranking's names, how many countries each player has more or
    fewer after it than before, as the ranking's Countries column changed (``You −1 · Robot2
    +2 · Robot3 −1``); the players who changed most (you first) as long as the row stays
    within :data:`ROW_CHARS`, the rest an ``…``. ``no change`` when no country changed hands,
    ``2 countries changed hands`` when they did and everyone ended with as many as before."""
    game = match.game
    assert isinstance(game, GrabGame)
    conquests = _conquests(match, first, end)
    if not conquests:
        return "no change"
    net: Counter[int] = Counter()
    for taker, loser in conquests:
        net[taker] += 1
        net[loser] -= 1
    you = game.human_playing
    changed = sorted((p for p in net if net[p]), key=lambda p: (p > 0 or not you, -abs(net[p]), p))
    if not changed:
        return f"{_countries(len(conquests))} changed hands"
    parts = {p: f"{game.seat_name(p)} {'+' if net[p] > 0 else '−'}{abs(net[p])}" for p in changed}
    named = changed[:1]
    for p in changed[1:]:
        more = " · ".join(parts[q] for q in [*named, p]) + (" …" if p != changed[-1] else "")
        if len(more) > ROW_CHARS:
            break
        named.append(p)
    text = " · ".join(parts[p] for p in sorted(named))
    return text + (" …" if len(named) < len(changed) else "")


def describe_move(game: GrabGame, before: GrabState, move: Move, after: GrabState) -> str:
    """What the person's move did, for the banner."""
    if move.kind is MoveKind.NONE:
        return "You wait."
    name, owner = _target(game, before, move)
    if move.kind is MoveKind.GATHER:
        return f"You gather armies into {name}."
    if after.owners[move.target] != before.owners[move.target]:
        return f"You take {name} from {owner}."
    return f"Your attack on {name} ({owner}) fails."


def describe_hint(game: GrabGame, state: GrabState, move: Move) -> str:
    """The hint in words (the strategic robot's move for the person)."""
    if move.kind is MoveKind.NONE:
        return "Hint: wait this turn (Space) and let your armies grow."
    name, owner = _target(game, state, move)
    if move.kind is MoveKind.GATHER:
        return f"Hint: gather armies into {name} from {_count(len(move.sources))} (N plays it)."
    return f"Hint: attack {name} ({owner}) with {_count(len(move.sources))} (N plays it)."


def preview(game: GrabGame, state: GrabState, move: Move | None, country: int) -> tuple[str, str]:
    """What a click on ``country`` would do (``move``: the move it sends, None when none of
    the person's countries borders it), and the tone: "info", "hint" (a won attack) or
    "warn" (a lost one)."""
    owner = state.owners[country]
    name = game.country_name(state, country)
    if move is None:
        return (
            f"{name} ({game.seat_name(owner)}, {int(state.armies[country])} armies): "
            "none of yours borders it.",
            "info",
        )
    try:
        after = state.apply(move)
    except GrabMoveError:
        return "", "info"
    result = after.results[state.to_move]
    if move.kind is MoveKind.GATHER:
        gained = result.after[0] - result.before[0]
        sources = len(move.sources)
        return f"Gather into {name}: +{gained} armies from {_count(sources)}.", "info"
    armies = state.armies
    strength = sum(armies[s] - 1 for s in move.sources if armies[s] >= 1)
    strength *= state.board.attack_factor
    defence = armies[country]
    head = f"Attack {name} ({game.seat_name(owner)}): {strength:.1f} against {defence:.1f}"
    if result.success:
        return f"{head}: you win, with {sum(result.after):d} armies after the split.", "hint"
    return f"{head}: you lose; it keeps {result.after[0]}.", "warn"


def round_summary(match: Match[Move]) -> str:
    """After the robots moved: the round and which countries changed hands in it, as the
    person sees it: the ones they took, the ones they lost, and how many the robots took from
    each other ("Round 3: you took 1 country and lost 2; 1 more country went from robot to
    robot.")."""
    state = grab_state(match)
    human = state.board.human_playing
    took = lost = others = 0
    for taker, loser in _conquests(match, round_start(match), match.cursor):
        if human and taker == 0:
            took += 1
        elif human and loser == 0:
            lost += 1
        else:
            others += 1
    text = f"Round {state.turn // state.board.players}: "
    if not human:
        return text + f"{_countries(others, 'conquest')}."
    parts = []
    if took and lost:
        parts.append(f"you took {_countries(took)} and lost {lost}")
    elif took:
        parts.append(f"you took {_countries(took)}")
    elif lost:
        parts.append(f"you lost {_countries(lost)}")
    if others:
        count = _countries(others)
        more = count.replace(" ", " more ", 1) if parts else count  # "2 more countries"
        parts.append(f"{more} went from robot to robot")
    return text + ("; ".join(parts) if parts else "no country changed hands") + ". Your move."


def _countries(n: int, word: str = "country") -> str:
    """``1 country``, ``2 countries``, ``3 conquests``."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def _target(game: GrabGame, state: GrabState, move: Move) -> tuple[str, str]:
    """The country ``move`` aims at and the player who holds it, by name."""
    return game.country_name(state, move.target), game.seat_name(state.owners[move.target])


def _count(countries: int) -> str:
    """``1 of your countries`` reads badly: "your country", "2 of your countries"."""
    return "one of your countries" if countries == 1 else f"{countries} of your countries"


def _conquests(match: Match[Move], first: int, end: int) -> list[tuple[int, int]]:
    """``(taker, loser)`` for each country taken by the steps ``first`` to ``end`` of the
    full record, in their order (owners compared in the states before and after a step)."""
    out = []
    for index, step in enumerate(match.full_record[first:end], first):
        move = step.action
        if step.forfeit is not None or type(move) is not Move or move.kind is not MoveKind.ATTACK:
            continue
        before = grab_state(match, index).owners[move.target]
        after = grab_state(match, index + 1).owners[move.target]
        if after != before:
            out.append((after, before))
    return out
