"""StrategicRobot: a MasterGrab robot with the strategies spec 5.3 lists as BasicRobot's gaps.

BasicRobot (spec 5.3) attacks greedily and marches gathered armies to the front; spec 5.3
lists what it does not do: answer threats, balance growth against expansion, improve the
shape of its territory, weigh its opponents, lure them into fighting each other. This robot
does all of that with one rule: it tries every sensible move (every attack it is sure to win,
with all its neighbours of the target and with the fewest of them that suffice; every gather
into one of its countries from the neighbours that can give), plays each one on a copy of the
armies with the game's own rules (spec 3.4 to 3.6), and keeps the move that most improves an
evaluation of its own countries. ``none`` is played when nothing improves it by more than
``least_gain``. Against three basic robots at 140 countries it wins about three games in four
(a quarter is par), at about 2.5 ms a move.

The evaluation (weights in :class:`StrategicWeights`; an army is worth ``worth``, 1 until the
enemies hold less than the robot, then ``sqrt(theirs / mine)``, at least ``least_worth``, so a
surplus gets spent) sums, over the robot's countries ``c`` (only those around a move change,
so a move costs a few dozen country look-ups):

* **territory**: ``territory x capacity(c)`` (capacity is proportional to size, the ranking's
  measure), plus its armies;
* **growth**: ``growth x`` the country's growth per round while it is below capacity: a full
  inland country wastes its growth, so gathering from it is worth a move, and conquests are
  weighed against the growth they stop;
* **frontier**: ``frontier`` less for every country with a foreign neighbour, so conquests
  that make countries inland (a shorter frontier, holes filled) are preferred; a frontier
  country that could take a neighbour on its own next move earns ``momentum x territory x``
  that neighbour's capacity (a stack keeps rolling);
* **depth**: inland armies lose ``depth`` of their worth per step from the front (they can
  neither attack nor defend there), so armies march to the front;
* **threat**: an enemy ``o`` puts ``c`` at risk when it can take ``c`` next move (``sum((a -
  1) x AF) >= armies(c)`` over o's neighbours of c, spec 3.4) and would judge it worth it by a
  margin of 1.1, counting its neighbours that face nobody else at full strength and the others
  at half (they keep the rest for their own defence); the risk is ``risk x territory x
  capacity + armies`` times a ramp from ``threat_start`` of that margin. Each enemy takes at
  most one country a move, so per enemy only the worst risk counts, plus ``spread x`` the
  sum. A gather that makes a threatened country safe and an attack that removes the
  threatening country both score here, as does a conquest that would be retaken at once.

A won attack also scores what the victim loses: ``denial x territory x capacity`` and ``kill
x`` its armies; ``leader x territory x capacity`` more when the victim leads the ranking (the
leader running away), ``lure x territory x capacity`` less when the country also borders a
third player (two opponents left to fight each other), and taking the last enemy country wins.
One against one (a single opponent owns countries) the robot looks one reply deeper
(:mod:`game.logic.grab.robots.duel`): its ``replies`` best moves by the evaluation above,
and ``none``, are each followed by the opponent's greedy reply (spec 5.3's attack rule) and
scored by the balance left, ``land x capacity + armies``, its own less the opponent's, plus
``blend x`` the evaluation. Against three opponents the evaluation alone is better (someone
else may answer, or nobody); one against one every move is answered at once by the same
player, and the evaluation alone wins only about four games in ten against basic, where the
look at the reply wins about six. :data:`DUEL_WEIGHTS` are the weights used then.

Everything is deterministic: ties go to the first move tried (attacks by ascending target id,
then gathers by ascending id).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from game.logic.grab.robot import Robot, RobotGame
from game.logic.grab.robots.duel import duel_score
from game.logic.grab.rules import MOUNTAIN, attack, gather
from game.logic.grab.state import NO_MOVE, GrabState, Move, MoveKind

# The built-in robots attack only when their estimate beats the defender by this margin.
_JUDGED_MARGIN: Final = 1.1
# Inland armies are discounted per step from the front, up to this many steps.
_MAX_DEPTH: Final = 6
# Taking the last enemy country wins the game: worth more than anything else.
_WIN: Final = 1e9


@dataclass(frozen=True, slots=True)
class StrategicWeights:
    """The weights of :class:`StrategicRobot`'s evaluation (see the module docstring), in
    armies; the defaults were tuned in games against three basic robots. ``replies`` (how
    many moves get a look at the opponent's reply one against one; 0: none), ``land`` and
    ``blend`` are for one against one only."""

    territory: float = 1.5
    growth: float = 1.0
    frontier: float = 0.5
    depth: float = 0.5
    threat_start: float = 0.8
    risk: float = 1.0
    denial: float = 0.5
    kill: float = 1.0
    leader: float = 0.5
    lure: float = 0.3
    least_gain: float = 0.3
    spread: float = 0.2
    momentum: float = 0.3
    least_worth: float = 0.1
    replies: int = 0
    land: float = 1.5
    blend: float = 0.3


#: The weights one against one (see the module docstring): the defaults with a look at the
#: reply to the 8 best moves.
DUEL_WEIGHTS: Final = StrategicWeights(replies=8)


class StrategicRobot(Robot):
    """Looks one move ahead with an evaluation of threats, growth, frontier and conquests (see
    the module docstring). Deterministic and keeps no memory between moves; also the hint for
    the human."""

    name: ClassVar[str] = "Strategic"
    description: ClassVar[str] = (
        "Answers threats, weighs each conquest against the frontier it leaves, keeps its "
        "countries growing and lets its opponents fight each other."
    )
    # Default and random games seat BasicRobot (spec 2.3).
    default: ClassVar[bool] = False

    def __init__(
        self, weights: StrategicWeights | None = None, duel: StrategicWeights | None = None
    ) -> None:
        """``weights`` while two or more opponents own countries, ``duel`` (default
        :data:`DUEL_WEIGHTS`) one against one."""
        self.weights = weights if weights is not None else StrategicWeights()
        self.duel = duel if duel is not None else DUEL_WEIGHTS

    def plan(self, game: RobotGame) -> Move:
        return choose_move(game.state, game.player, self.weights, self.duel)


def choose_move(
    state: GrabState,
    player: int,
    weights: StrategicWeights | None = None,
    duel: StrategicWeights | None = None,
) -> Move:
    """The strategic move of ``player`` in ``state`` (not necessarily the player to move,
    so a hint can be asked for at any time); never changes ``state``. ``weights`` are used
    while two or more opponents own countries, ``duel`` (default :data:`DUEL_WEIGHTS`) when
    one does.

    >>> from game.logic.grab.state import GrabBoard
    >>> board = GrabBoard(sizes=(100, 100), neighbours=((1,), (0,)), players=2)
    >>> str(choose_move(GrabState(board, owners=(0, 1), armies=(20.0, 2.0)), 0))
    'attack 0>1'
    """
    if not 0 <= player < state.board.players:
        raise ValueError(f"player={player} is not a player of this game")
    if state.finished:
        return NO_MOVE
    opponents = {o for o in state.owners if o not in (player, MOUNTAIN)}
    alone = len(opponents) == 1
    chosen = (duel or DUEL_WEIGHTS) if alone else (weights or StrategicWeights())
    return _Planner(state, player, chosen).best()


# --------------------------------------------------------------------------- private helpers


class _Planner:
    """One move's planning: the per-move tables, the candidates and their evaluation."""

    def __init__(self, state: GrabState, me: int, weights: StrategicWeights) -> None:
        board = state.board
        self.board = board
        self.me = me
        self.w = weights
        self.owners = state.owners
        self.armies = state.armies
        self.table = board.neighbours
        self.capacity = board.capacity
        self.af = board.attack_factor
        self.pf = board.protection_factor
        self.abf = board.attack_benefit_factor
        owners, table = self.owners, self.table
        self.mine = [c for c, o in enumerate(owners) if o == me]
        biggest = max(board.sizes) if board.sizes else 1
        per_round = board.growth_factor * board.armies_in_biggest / biggest
        self.growth = [per_round * s for s in board.sizes]
        # How many neighbours of another owner each country has (now; a move changes few).
        self.foreign = [sum(1 for n in ns if owners[n] != owners[c]) for c, ns in enumerate(table)]
        self.depth = self._depths()
        sizes = [0] * board.players
        for c, o in enumerate(owners):
            if o != MOUNTAIN:
                sizes[o] += board.sizes[c]
        self.leader = max(range(board.players), key=lambda p: (sizes[p], -p))
        self.leading = sizes[self.leader] > 0 and self.leader != me
        # Armies are worth less once the enemies have few: surplus is there to be spent.
        own = sum(armies for armies, o in zip(state.armies, owners, strict=True) if o == me)
        rest = sum(
            armies
            for armies, o in zip(state.armies, owners, strict=True)
            if o not in (me, MOUNTAIN)
        )
        self.worth = min(1.0, (rest / own) ** 0.5) if own > 0 else 1.0
        self.worth = max(self.worth, weights.least_worth)
        self.enemy_countries = sum(1 for o in owners if o not in (me, MOUNTAIN))
        self._before: dict[int, tuple[float, dict[int, float]]] | None = None
        self._exposed: dict[int, list[tuple[float, int]]] = {}
        self._total_before = 0.0
        self._worst_before = 0.0

    def best(self) -> Move:
        if not self.mine:
            return NO_MOVE
        opponents = {o for o in self.owners if o not in (self.me, MOUNTAIN)}
        if self.w.replies > 0 and len(opponents) == 1:
            return self._duel(opponents.pop())
        best, best_gain = NO_MOVE, self.w.least_gain
        for move in self._candidates():
            gain = self.gain(move)
            if gain > best_gain:
                best, best_gain = move, gain
        return best

    def _duel(self, opponent: int) -> Move:
        """One against one: the best ``replies`` moves by :meth:`gain`, and ``none``, each
        scored after the opponent's greedy reply (:func:`duel_score`)."""
        w = self.w
        ranked = sorted(
            ((self.gain(move), i, move) for i, move in enumerate(self._candidates())),
            key=lambda entry: (-entry[0], entry[1]),
        )
        shortlist = [(gain, move) for gain, _, move in ranked[: w.replies]]
        shortlist.append((w.least_gain, NO_MOVE))
        best, best_score = NO_MOVE, float("-inf")
        for gain, move in shortlist:
            score = duel_score(
                self.board, self.owners, self.armies, self.me, opponent, move, w.land
            )
            score += w.blend * gain
            if score > best_score:
                best, best_score = move, score
        return best

    def gain(self, move: Move) -> float:
        """How much ``move`` (an attack or a gather of the robot's) improves the evaluation."""
        if self._before is None:
            self._prepare()
        me, owners, armies, table = self.me, self.owners, self.armies, self.table
        before, exposed = self._before, self._exposed
        assert before is not None
        new_owners = list(owners)
        new_armies = list(armies)
        if move.kind is MoveKind.ATTACK:
            attack(
                new_owners,
                new_armies,
                move.target,
                move.sources,
                table,
                self.capacity[move.target],
                self.af,
                self.pf,
                self.abf,
            )
        else:
            gather(new_owners, new_armies, move.target, move.sources, table, self.pf)
        gain = self._conquest(move, new_owners) if move.kind is MoveKind.ATTACK else 0.0
        around = {move.target, *move.sources}
        for c in (move.target, *move.sources):
            around.update(table[c])
        worst: dict[int, float] = {}
        total_before = self._total_before
        total = total_before
        for c in around:
            if new_owners[c] == me:
                value, risks = self._value(c, new_owners, new_armies)
                gain += value
                for owner, risk in risks.items():
                    total += risk
                    if risk > worst.get(owner, 0.0):
                        worst[owner] = risk
            if owners[c] == me:
                value, risks = before[c]
                gain -= value
                total -= sum(risks.values())
        for owner, entries in exposed.items():
            for risk, c in entries:
                if c not in around:
                    if risk > worst.get(owner, 0.0):
                        worst[owner] = risk
                    break
        gain -= sum(worst.values()) - self._worst_before
        gain -= self.w.spread * (total - total_before)
        return gain

    def _prepare(self) -> None:
        """Every own country's value and, per enemy, the risks it poses, largest first (each
        enemy takes at most one country a move, so the worst one outside a move's
        surroundings is found fast)."""
        before = {c: self._value(c, self.owners, self.armies) for c in self.mine}
        exposed: dict[int, list[tuple[float, int]]] = {}
        total_before = 0.0
        for c, (_, risks) in before.items():
            for owner, risk in risks.items():
                exposed.setdefault(owner, []).append((risk, c))
                total_before += risk
        for entries in exposed.values():
            entries.sort(reverse=True)
        self._before = before
        self._exposed = exposed
        self._total_before = total_before
        self._worst_before = sum(entries[0][0] for entries in exposed.values())

    def _candidates(self) -> list[Move]:
        me, owners, armies, table, af = self.me, self.owners, self.armies, self.table, self.af
        moves: list[Move] = []
        targets = sorted(
            {n for c in self.mine for n in table[c] if owners[n] != me and owners[n] != MOUNTAIN}
        )
        for t in targets:
            sources = tuple(a for a in table[t] if owners[a] == me and armies[a] > 1.0)
            if not sources or sum((armies[a] - 1.0) * af for a in sources) < armies[t]:
                continue
            moves.append(Move(MoveKind.ATTACK, t, sources))
            fewest = _fewest_attackers(sources, armies, armies[t], af)
            if len(fewest) < len(sources):
                moves.append(Move(MoveKind.ATTACK, t, fewest))
        for g in self.mine:
            sources = tuple(s for s in table[g] if owners[s] == me and self._spendable(s) > 0.5)
            if sources:
                moves.append(Move(MoveKind.GATHER, g, sources))
        return moves

    def _spendable(self, c: int) -> float:
        owners, armies = self.owners, self.armies
        totals: dict[int, float] = {}
        for n in self.table[c]:
            if owners[n] != self.me:
                totals[owners[n]] = totals.get(owners[n], 0.0) + armies[n]
        need = self.pf * max(totals.values()) if totals else 0.0
        return armies[c] - need

    def _conquest(self, move: Move, new_owners: Sequence[int]) -> float:
        """What a won attack takes from the victim (0 for a lost one)."""
        t = move.target
        if new_owners[t] != self.me:
            return 0.0
        w = self.w
        victim = self.owners[t]
        value = w.denial * w.territory * self.capacity[t] + w.kill * self.armies[t]
        if self.enemy_countries == 1:
            value += _WIN
        if self.leading and victim == self.leader:
            value += w.leader * w.territory * self.capacity[t]
        if w.lure and any(self.owners[n] not in (victim, self.me, MOUNTAIN) for n in self.table[t]):
            value -= w.lure * w.territory * self.capacity[t]
        return value

    def _value(
        self, c: int, owners: Sequence[int], armies: Sequence[float]
    ) -> tuple[float, dict[int, float]]:
        """Country ``c``'s share of the evaluation, ``c`` being the robot's, without the
        threats, and what each enemy that threatens it would take from it."""
        w, me, af, worth = self.w, self.me, self.af, self.worth
        mine = armies[c]
        capacity = self.capacity[c]
        value = w.territory * capacity + worth * mine
        if mine < capacity:
            value += w.growth * self.growth[c]
        real: dict[int, float] = {}
        judged: dict[int, float] = {}
        border = False
        reach = (mine - 1.0) * af
        prey = 0
        for n in self.table[c]:
            owner = owners[n]
            if owner == me:
                continue
            border = True
            theirs = armies[n]
            if theirs <= reach and self.capacity[n] > prey:
                prey = self.capacity[n]
            if theirs > 1.0:
                real[owner] = real.get(owner, 0.0) + (theirs - 1.0) * af
                # A country facing nobody else attacks with everything, else with half.
                share = theirs if self.foreign[n] <= 1 else theirs * 0.5
                judged[owner] = judged.get(owner, 0.0) + share * af
        if not border:
            return value - worth * w.depth * min(self.depth.get(c, 1), _MAX_DEPTH) * mine, {}
        value -= w.frontier - w.momentum * w.territory * prey
        risks: dict[int, float] = {}
        scale = _JUDGED_MARGIN * max(mine, 0.01)
        for owner, strength in real.items():
            if strength >= mine:
                ratio = judged[owner] / scale
                if ratio > w.threat_start:
                    danger = min(1.0, (ratio - w.threat_start) / (1.0 - w.threat_start))
                    risks[owner] = danger * (w.risk * w.territory * capacity + worth * mine)
        return value, risks

    def _depths(self) -> dict[int, int]:
        """Steps from each of the robot's countries to its nearest frontier country."""
        me, owners, table = self.me, self.owners, self.table
        depth: dict[int, int] = {}
        queue: deque[int] = deque()
        for c in self.mine:
            if self.foreign[c]:
                depth[c] = 0
                queue.append(c)
        while queue:
            c = queue.popleft()
            for n in table[c]:
                if owners[n] == me and n not in depth:
                    depth[n] = depth[c] + 1
                    queue.append(n)
        return depth


def _fewest_attackers(
    sources: tuple[int, ...], armies: Sequence[float], defence: float, af: float
) -> tuple[int, ...]:
    """The strongest of ``sources`` that together just win, in ascending id order."""
    chosen: list[int] = []
    strength = 0.0
    for a in sorted(sources, key=lambda a: (-armies[a], a)):
        chosen.append(a)
        strength += (armies[a] - 1.0) * af
        if strength >= defence:
            break
    return tuple(sorted(chosen))


__all__ = ["DUEL_WEIGHTS", "StrategicRobot", "StrategicWeights", "choose_move"]
