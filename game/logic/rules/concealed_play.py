"""How a level thinks in a game of concealed pieces (:mod:`game.logic.rules.concealed`):
every move is judged on several positions dealt from what the seat to move has seen, and the
move worth the most on average is played.

Each deal gives the other players' unseen pieces types again at random, as the seat's
observation allows (the state's ``determinize``: a piece that carries an attribute, such as
Barrage's ``moved``, gets a type that declares it, so no piece that moved is dealt a Bomb or
a Flag). On each deal every move is searched two plies deep (the move and the best answer to
it, each fight's outcome known on that deal) by alpha-beta with :class:`ConcealedJudge`, and a
move's worth is its mean over the deals: an attack on an unknown piece counts what it wins
where that piece is weaker, a Flag, and what it loses where it is a Bomb or stronger, each as
often as the deals make it so; an attack on a piece known to be weaker wins on every deal.

The deals are seeded by the seat's observation and nothing else, so two states that look the
same to it give the same move; the caller's ``rng`` is not used, and a search bounded by
positions gives the same move on every machine.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from typing import TYPE_CHECKING, Any, Final

from game.logic.contract import Stop, ThinkingStopped
from game.logic.rules.position import PASS, DescribedPosition, Move
from game.logic.rules.sexpr import Form
from game.logic.rules.words import word_of
from game.logic.search.alphabeta import WIN

if TYPE_CHECKING:
    from game.logic.rules.rulebook import Rulebook

__all__ = ["DEALS", "ConcealedJudge", "sampled_choice"]

#: The most positions dealt for one choice (fewer where the positions or time given run out).
DEALS: Final = 24
#: Plies searched on each deal: the move and the answer to it.
DEPTH: Final = 2

# The judge's weights, in points (a piece's value is ten points: a Marshal is 100):
# ``movable`` times the square root of a side's pieces that can move (the last ones cost the
# most); ``guard`` for each square beside a side's Flag (the piece whose loss ends the game)
# that holds no piece of its own, a way in for the enemy, while pieces are set up (a quarter
# of it in play, so that the guards go out to win); ``approach`` for each square between a
# side's nearest piece that can move and the enemy Flag, and half of it for each square
# between each of its other pieces that can move and that Flag: each weight grows by itself
# every ``HURRY`` plies, so that a side ahead goes for the Flag before the game's ply limit.
MOVABLE, GUARD, APPROACH, HURRY = 150, 12, 2, 100


class ConcealedJudge:
    """What a dealt position is worth to the side to move: the pieces' values, the pieces
    that can move (a side with none left cannot play: the square root makes the last ones
    cost the most), the squares beside each side's Flag (the piece whose loss ends the game)
    that its own pieces do not hold, and how near each side's pieces that can move stand to
    the other's Flag, the nearest most. A piece's value is ten points."""

    def __init__(self, rulebook: Rulebook) -> None:
        design = rulebook.design
        c = rulebook.c
        self.rulebook = rulebook
        self.owner = c.owner
        scale = 10  # a value of 1 is ten points
        self.value = [scale * design.pieces[c.kind_of[v]].value if v else 0 for v in range(c.codes)]
        self.moves = [
            bool(v) and any(not p.drop for p in design.pieces[c.kind_of[v]].programs)
            for v in range(c.codes)
        ]
        targets = set()
        for end in design.ends:
            cond = end.condition
            if isinstance(cond, Form) and cond.head == "none-left" and end.outcome == "win":
                targets |= {design.type_index(word_of(a)) for a in cond.args}
        self.target = [bool(v) and c.kind_of[v] in targets for v in range(c.codes)]
        self.xy = design.board.xy
        links = design.board.links
        self.beside = [
            [row[p] for row in links if row[p] >= 0] for p in range(len(design.board.names))
        ]
        self.players = rulebook.players

    def __call__(self, pos: DescribedPosition, me: int) -> float:
        owner, value, moves, target, xy = self.owner, self.value, self.moves, self.target, self.xy
        guard = GUARD if pos.hands and any(map(any, pos.hands)) else GUARD / 4
        hurry = APPROACH * (1 + pos.plies / HURRY)
        worth = [0.0] * self.players
        movable: list[list[int]] = [[] for _ in range(self.players)]
        goals: list[list[int]] = [[] for _ in range(self.players)]
        for p, v in enumerate(pos.board):
            if v:
                who = owner[v]
                worth[who] += value[v]
                if moves[v]:
                    movable[who].append(p)
                elif target[v]:
                    goals[who].append(p)
                    open_ = sum(1 for q in self.beside[p] if owner[pos.board[q]] != who)
                    worth[who] -= guard * open_
        for who in range(self.players):
            worth[who] += MOVABLE * math.sqrt(len(movable[who]))
            other = goals[1 - who] if self.players == 2 else []
            if movable[who] and other:
                away = [
                    min(abs(xy[a][0] - xy[g][0]) + abs(xy[a][1] - xy[g][1]) for g in other)
                    for a in movable[who]
                ]
                near = min(away)
                worth[who] -= hurry * (near + (sum(away) - near) / 2)
        others = [w for who, w in enumerate(worth) if who != me]
        return worth[me] - sum(others) / len(others)


#: The moves of a leaf, not generated: the end conditions take the side to move to have one.
_UNMADE: Final[list[Move]] = [PASS]


class _Search:
    """Alpha-beta to a fixed depth on a dealt position, counting the positions it visits."""

    def __init__(self, rulebook: Rulebook, judge: ConcealedJudge) -> None:
        self.rulebook = rulebook
        self.judge = judge
        self.nodes = 0

    def value(self, pos: DescribedPosition, depth: int, alpha: float, beta: float) -> float:
        """The worth of ``pos`` to its side to move, ``depth`` plies deep."""
        rb = self.rulebook
        self.nodes += 1
        me = rb.player(pos)
        if depth == 0:  # no moves made here: a side that cannot move is the judge's to see
            outcome = rb.outcome(pos, _UNMADE)
            if outcome is not None:
                return WIN * rb.returns(pos, outcome)[me]
            return self.judge(pos, me)
        moves = rb.dealt_legal(pos)
        outcome = rb.outcome(pos, moves)
        if outcome is not None:
            return WIN * rb.returns(pos, outcome)[me]
        moves.sort(key=lambda m: -len(m[1]))  # attacks first
        best = -math.inf
        for m in moves:
            saved = rb.make(pos, m)
            v = -self.value(pos, depth - 1, -beta, -alpha)
            rb.unmake(pos, saved)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best


def _public(move: Move) -> Move:
    return (move[0], move[1], (), move[3])


def sampled_choice(
    state: Any, depth: int, nodes: int | None, seconds: float | None, stop: Stop
) -> tuple[Move, str]:
    """The move worth the most on average over positions dealt from what the seat to move
    has seen, and why in words. ``nodes`` bounds the positions searched in all (at least one
    deal is searched), ``seconds`` the time."""
    rulebook = state.rulebook
    seat = state.current_player()
    rng = random.Random(zlib.crc32(repr(state.observation(seat)).encode()))
    moves: list[Move] = list(state.legal_actions())
    search = _Search(rulebook, ConcealedJudge(rulebook))
    setting_up = all(len(m[0]) == 1 for m in moves)  # placings: judged where they stand
    plies = 1 if setting_up else max(1, min(depth, DEPTH))
    deadline = time.perf_counter() + seconds if seconds else None
    totals = [0.0] * len(moves)
    won = [0] * len(moves)  # the deals on which the move wins within the plies searched
    lost = [0] * len(moves)
    deals = 0
    while deals < DEALS:
        if stop.is_set():
            raise ThinkingStopped("stopped")
        pos = rulebook.determinize(state.pos, seat, rng)
        real = {_public(m): m for m in rulebook.dealt_legal(pos)}
        for i, m in enumerate(moves):
            saved = rulebook.make(pos, real[m])
            worth = -search.value(pos, plies - 1, -math.inf, math.inf)
            rulebook.unmake(pos, saved)
            totals[i] += worth
            won[i] += worth >= WIN / 2
            lost[i] += worth <= -WIN / 2
        deals += 1
        if nodes is not None and search.nodes >= nodes:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if setting_up and deals >= 1:
            break
    if setting_up:  # equal placings: one drawn by the seeded generator, so set-ups vary
        top = max(totals)
        ties = [i for i, t in enumerate(totals) if t >= top - 1e-9]
        best = ties[rng.randrange(len(ties))]
    else:
        best = max(range(len(moves)), key=lambda i: totals[i])
    guesses = f"{deals} guess{'es' if deals > 1 else ''} at the pieces not seen yet"
    decided = won[best] + lost[best]
    if decided:
        said = f"wins on {won[best]} and loses on {lost[best]} of {guesses}"
    else:
        said = f"worth {totals[best] / deals / 100:+.2f} Marshals on average over {guesses}"
    return moves[best], f"{said} ({search.nodes:,} positions)"
