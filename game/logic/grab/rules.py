"""MasterGrab rules (spec sections 1.3, 3): owners, armies, growth, attack, split, gather.

>>> capacities(np.array([154, 77, 10]), 20.0).tolist()
[20, 10, 1]
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

import numpy as np
import numpy.typing as npt

from game.logic.grab.options import Distribution


def capacities(sizes: npt.NDArray[np.int64], armies_in_biggest: float) -> npt.NDArray[np.int64]:
    """``floor(size * armies_in_biggest / biggest size)`` per country (spec 3.1).

    Multiplying first, the biggest country always gets ``armies_in_biggest`` (dividing first,
    as spec 3.1's ``ArmiesPerSize`` does, sometimes gives it 19 instead of 20, e.g. size 154).
    """
    biggest = int(sizes.max())
    return np.floor(sizes * armies_in_biggest / biggest).astype(np.int64)


def grow(
    armies: npt.NDArray[np.float64],
    sizes: npt.NDArray[np.int64],
    capacity: npt.NDArray[np.int64],
    armies_in_biggest: float,
    growth_factor: float,
    players: int,
) -> npt.NDArray[np.float64]:
    """Armies after one move's growth (spec 3.3); pass only non-mountain countries.

    A country below its capacity gains ``size * armies_per_size * growth_factor / players``,
    clamped to the capacity; one at or above it is left alone (never reduced).
    """
    per_size = armies_in_biggest / int(sizes.max())
    gained = np.minimum(armies + sizes * per_size * growth_factor / players, capacity)
    return np.where(armies < capacity, gained, armies)


#: Owner of a mountain: nobody can own, attack or cross it (spec 1.2).
MOUNTAIN = -1

#: Cluster centres on the 2P x 2P lattice for the compact distribution, P = 2..16 (spec 1.3).
_COMPACT: dict[int, tuple[tuple[int, int], ...]] = {
    2: ((2, 2), (0, 2)),
    3: ((3, 3), (5, 0), (1, 0)),
    4: ((4, 4), (0, 6), (4, 0), (0, 2)),
    5: ((5, 5), (7, 9), (9, 3), (1, 7), (3, 1)),
    6: ((6, 6), (8, 0), (10, 6), (0, 0), (2, 6), (4, 0)),
    7: ((7, 7), (9, 13), (11, 5), (13, 11), (1, 3), (3, 9), (5, 1)),
    8: ((8, 8), (10, 0), (12, 8), (14, 0), (0, 8), (2, 0), (4, 8), (6, 0)),
    9: ((9, 9), (9, 15), (15, 5), (15, 11), (15, 17), (3, 7), (3, 13), (3, 1), (9, 3)),
    10: (
        (10, 10),
        (12, 12),
        (14, 2),
        (16, 4),
        (18, 14),
        (0, 16),
        (2, 6),
        (4, 8),
        (6, 18),
        (8, 0),
    ),
    11: (
        (11, 11),
        (13, 19),
        (15, 5),
        (17, 13),
        (19, 21),
        (21, 7),
        (1, 15),
        (3, 1),
        (5, 9),
        (7, 17),
        (9, 3),
    ),
    12: (
        (12, 12),
        (20, 12),
        (4, 12),
        (16, 18),
        (0, 18),
        (8, 18),
        (12, 0),
        (20, 0),
        (4, 0),
        (16, 6),
        (0, 6),
        (8, 6),
    ),
    13: (
        (13, 13),
        (15, 21),
        (17, 3),
        (19, 11),
        (21, 19),
        (23, 1),
        (25, 9),
        (1, 17),
        (3, 25),
        (5, 7),
        (7, 15),
        (9, 23),
        (11, 5),
    ),
    14: (
        (14, 14),
        (18, 20),
        (22, 26),
        (26, 4),
        (2, 10),
        (6, 16),
        (10, 22),
        (14, 0),
        (18, 6),
        (22, 12),
        (26, 18),
        (2, 24),
        (6, 2),
        (10, 8),
    ),
    15: (
        (15, 15),
        (17, 23),
        (19, 1),
        (21, 9),
        (23, 17),
        (25, 25),
        (27, 3),
        (29, 11),
        (1, 19),
        (3, 27),
        (5, 5),
        (7, 13),
        (9, 21),
        (11, 29),
        (13, 7),
    ),
    16: (
        (16, 16),
        (24, 16),
        (4, 24),
        (12, 24),
        (20, 24),
        (28, 24),
        (0, 0),
        (8, 0),
        (16, 0),
        (24, 0),
        (4, 8),
        (12, 8),
        (20, 8),
        (28, 8),
        (0, 16),
        (8, 16),
    ),
}


def _stripe(players: int) -> list[int]:
    """P, P + 2, ... below 2P, then on from 0 or 1 (the parity of P): the k list of spec 1.3."""
    return list(range(players, 2 * players, 2)) + list(range(players % 2, players, 2))


def cluster_centres(players: int, distribution: Distribution) -> list[tuple[int, int]]:
    """The (x, y) lattice points of spec 1.3's table for ``players`` (2..16) players.

    Vertical stripes share y = P, horizontal ones x = P, diagonal points are (k, k). Two
    entries differ from the table's pattern: diagonal P = 3 is the table's
    (3,3),(1,1),(5,5), which is not the k pattern, and is kept as written; vertical P = 10 ends
    in x = 8 where the table has 9, which would break its stripes.
    """
    if not 2 <= players <= 16:
        raise ValueError(f"players={players} is outside 2..16")
    if distribution is Distribution.COMPACT:
        return list(_COMPACT[players])
    ks = [3, 1, 5] if players == 3 and distribution is Distribution.DIAGONAL else _stripe(players)
    if distribution is Distribution.DIAGONAL:
        return [(k, k) for k in ks]
    if distribution is Distribution.VERTICAL:
        return [(k, players) for k in ks]
    if distribution is Distribution.HORIZONTAL:
        return [(players, k) for k in ks]
    raise ValueError(f"{distribution} is not a clustered distribution")


def torus_square_distance(a: tuple[int, int], b: tuple[int, int], width: int, height: int) -> int:
    """dx² + dy² on the torus, per axis ``min(d, N - d)`` where d > N // 2 (spec 1.1)."""
    dx = abs(a[0] - b[0]) % width
    dy = abs(a[1] - b[1]) % height
    if dx > width // 2:
        dx = width - dx
    if dy > height // 2:
        dy = height - dy
    return dx * dx + dy * dy


def initial_owners(
    sizes: Sequence[int],
    mountains: Collection[int],
    centres: Sequence[tuple[int, int]],
    width: int,
    height: int,
    players: int,
    human_playing: bool,
    distribution: Distribution,
) -> list[int]:
    """The starting owner of every country (spec 1.3); mountains get :data:`MOUNTAIN`.

    Random: land countries biggest first (stable, ties by id) each go to the player with the
    smallest total size so far (ties: lowest id); then, with a human (player 0), the human's
    smallest country and the biggest country not the human's swap owners (ties: lowest id).
    Clustered: each country goes to the nearest cluster centre (squared torus distance from
    the country's centre; ties: lowest player). ``centres`` are the map's country centres.
    """
    owners = [MOUNTAIN] * len(sizes)
    land = sorted((c for c in range(len(sizes)) if c not in mountains), key=lambda c: -sizes[c])
    if distribution is Distribution.RANDOM:
        totals = [0] * players
        for c in land:
            player = min(range(players), key=lambda p: (totals[p], p))
            owners[c] = player
            totals[player] += sizes[c]
        if human_playing:
            human = [c for c in land if owners[c] == 0]
            others = [c for c in land if owners[c] != 0]
            if human and others:
                smallest = min(human, key=lambda c: (sizes[c], c))
                biggest = min(others, key=lambda c: (-sizes[c], c))
                owners[smallest], owners[biggest] = owners[biggest], owners[smallest]
        return owners
    lattice = 2 * players
    points = [
        (x * (width - 1) // lattice, y * (height - 1) // lattice)
        for x, y in cluster_centres(players, distribution)
    ]
    for c in land:
        owners[c] = min(
            range(players),
            key=lambda p: (torus_square_distance(centres[c], points[p], width, height), p),
        )
    return owners


def initial_armies(
    capacity: Sequence[int], owners: Sequence[int], rng: random.Random
) -> list[float]:
    """``capacity * (1 + U) / 2`` per land country in id order, U uniform in [0, 1) (spec 1.3).

    Mountains get 0.0 (they hold no armies and never grow).
    """
    return [
        0.0 if owner == MOUNTAIN else capacity[c] * (1 + rng.random()) / 2
        for c, owner in enumerate(owners)
    ]


def defence_needed(
    country: int,
    owners: Sequence[int],
    armies: Sequence[float],
    neighbours: Sequence[Collection[int]],
    protection_factor: float,
) -> float:
    """PF x the biggest per-enemy-owner total of adjacent armies; 0 without enemies (3.5)."""
    totals: dict[int, float] = {}
    own = owners[country]
    for n in neighbours[country]:
        if owners[n] != own and owners[n] != MOUNTAIN:
            totals[owners[n]] = totals.get(owners[n], 0.0) + armies[n]
    return protection_factor * max(totals.values()) if totals else 0.0


def attack(
    owners: list[int],
    armies: list[float],
    target: int,
    attackers: Sequence[int],
    neighbours: Sequence[Collection[int]],
    target_capacity: int,
    attack_factor: float,
    protection_factor: float,
    attack_benefit_factor: float,
) -> bool:
    """Resolve an attack in place (spec 3.4) and, on a win, the split (spec 3.5); True if won.

    Attackers go one at a time in list order; one with fewer than 1 army is skipped. Each
    commits ``s = (a - 1) * AF``: if the defender's D > s, D -= s and the attacker keeps 1;
    otherwise (a tie wins) it keeps ``1 + (s - D) / AF``, the target changes owner and the rest
    of the list keeps its armies. The caller validates ownership and adjacency.
    """
    defence = armies[target]
    attacker_owner = owners[attackers[0]] if attackers else MOUNTAIN
    won = False
    for a in attackers:
        if armies[a] < 1.0:
            continue
        strength = (armies[a] - 1.0) * attack_factor
        if defence > strength:
            defence -= strength
            armies[a] = 1.0
            continue
        armies[a] = 1.0 + (strength - defence) / attack_factor
        owners[target] = attacker_owner
        won = True
        break
    if not won:
        armies[target] = defence
        return False

    def need(c: int) -> float:
        return defence_needed(c, owners, armies, neighbours, protection_factor)

    needs = {a: need(a) for a in attackers}
    target_need = need(target)
    available = attack_benefit_factor * target_capacity + sum(armies[a] for a in attackers)
    needed = target_need + sum(needs[a] for a in attackers)
    if needed == 0:
        for a in attackers:
            armies[a] = available / len(attackers)
        armies[target] = 0.0
    elif available > needed:
        if target_need > 0:
            for a in attackers:
                armies[a] = needs[a]
            armies[target] = target_need + available - needed
        else:
            for a in attackers:
                armies[a] = needs[a] * available / needed
            armies[target] = 0.0
    else:
        for a in attackers:
            armies[a] = needs[a] * available / needed
        armies[target] = target_need * available / needed
    return True


def gather(
    owners: Sequence[int],
    armies: list[float],
    target: int,
    sources: Sequence[int],
    neighbours: Sequence[Collection[int]],
    protection_factor: float,
) -> None:
    """Move ``max(0, a - need(source))`` from each source into ``target``, in place (3.6).

    Ownership does not change, so every need is taken before anything moves.
    """
    spendable = [
        max(0.0, armies[s] - defence_needed(s, owners, armies, neighbours, protection_factor))
        for s in sources
    ]
    for s, amount in zip(sources, spendable, strict=True):
        armies[s] -= amount
        armies[target] += amount
