"""How the searching levels judge a position of a described game they do not search further.

Everything is read from the description, nothing is written per game:

- **material**: each piece type's ``value`` (100 points a unit), times the description's
  ``(evaluation (material W))`` weight; a game of counters scores the counts so far;
- **piece-square tables**, made once per game: a piece that does not promote is worth more
  where it has more moves on an empty board (a knight in the centre, a king of draughts on the
  long diagonal), counted from the mean of its type; a piece that promotes (a pawn, a man) is
  worth more the closer it stands to the zone where it promotes, little while the board is
  full and much once it empties (a passed pawn in the end game), a little more near the
  centre, and holds its home row early on (draughts' back rank); a piece that wins by
  reaching a zone (Breakthrough) counts its progress strongly at every stage; a royal piece
  stays back while the board is full and walks to the centre when it empties;
- **the description's own terms**: ``(mobility W)`` times the difference in legal moves,
  ``(frontier W)`` for each own piece next to an empty position (a disc that gives the
  opponent a place to play) and ``(zone NAME W [TYPE])`` for each own piece in the zone; a
  zone of negative weight that borders a zone of positive weight (Othello's squares beside
  the corners) counts only while the prized neighbour is empty, since once it is taken the
  square no longer gives it away;
- **winning the won ending**: a side ahead in material when little is left is paid for each
  exchange (trade down when ahead); with royal pieces, for driving the enemy's to the edge
  and bringing its own near (a mate with a rook); without, for bringing its pieces that no
  longer promote near the enemy's and shutting them in (draughts' kings hunting a king),
  except in a refuge (two neighbouring edge positions with two neighbours each, a draughts
  board's double corner), where an enemy piece counts against it until driven out.
- **keeping the game alive**: the side that searches, while not ahead, is paid for the
  material left (the square root of its share, so the last exchanges cost most): it does not
  trade an even game down to a drawn ending, one king against one king.

Tables are tapered: a middle-game and an end-game value for each piece on each position,
blended by how much non-royal material is left. Scores are from the side to move.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Final

from game.logic.rules import tree
from game.logic.rules.rulebook import DescribedPosition, Move, Rulebook
from game.logic.rules.sexpr import Form

__all__ = ["UNIT", "Judge"]

#: Points for one unit of a piece's ``value`` (a pawn in chess, a man in draughts).
UNIT: Final = 100
#: Points a move on an empty board is worth to a piece that does not promote (middle game,
#: end game).
MOBILITY_MG: Final = 4
MOBILITY_EG: Final = 3
#: Points for each step nearer its promotion zone, middle game and end game.
ADVANCE_MG: Final = 3
ADVANCE_EG: Final = 8
#: The share of what promoting wins (at most CROWNING_CAP points) a piece of a promoting type
#: is worth one, two and three steps from where it promotes (half as much in the middle game).
CROWNING: Final = {1: 0.25, 2: 0.1, 3: 0.04}
CROWNING_CAP: Final = 3 * UNIT
#: Points for a step nearer a zone whose reaching wins the game.
GOAL_STEP: Final = 12
#: Points for a promoting piece on its home row (middle game), and the centre's worth to it.
HOME_ROW: Final = 10
CENTRE_PROMOTER: Final = 12
#: Points for a royal piece at the centre (end game; the middle game counts against it).
ROYAL_CENTRE_EG: Final = 30
ROYAL_CENTRE_MG: Final = -25
#: The lead (points) from which the stronger side is paid for driving the enemy royal piece
#: to the edge (10 a step) and nearing it (4 a step), and the share of the lead paid for
#: exchanges.
MOP_UP_LEAD: Final = 250
MOP_UP_EDGE: Final = 10
MOP_UP_NEAR: Final = 4
TRADE_SHARE: Final = 0.25
#: Points for each way out an enemy piece lacks (the board's edge, a piece beside it) when
#: the stronger side has no royal piece to hunt (draughts: a king shut in cannot run).
MOP_UP_CAGE: Final = 8
#: What an enemy piece in a refuge (see :class:`Judge`'s ``refuges``) costs the stronger side.
MOP_UP_REFUGE: Final = 40
#: Points for each legal move under eight the weaker side has, when it is to move.
MOP_UP_SQUEEZE: Final = 10
#: What the searching side (see :meth:`Judge.evaluate`'s ``keeper``) is paid for the pieces
#: left while it is not ahead, at a full board; it falls with the square root of the share of
#: material left, so that the last exchanges (into a drawn ending) cost the most.
KEEP_PIECES: Final = 60


class Judge:
    """The evaluation of one rulebook's game; see the module docstring."""

    def __init__(self, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        design = rulebook.design
        c = rulebook.c
        board = design.board
        n = rulebook.n
        rules = design.evaluation
        self.counters = design.counters
        self.mobility = rules.mobility * UNIT
        self.frontier = rules.frontier * UNIT
        self.neighbours = [
            tuple(row[p] for row in board.links if row[p] >= 0) for p in range(rulebook.n)
        ]
        self.widest = max((len(row) for row in self.neighbours), default=0)
        #: Refuges: two neighbouring positions of the edge, each with two neighbours (a
        #: draughts board's double corner), where a lone piece shuttles and cannot be shut in.
        nb = self.neighbours
        self.refuges = frozenset(
            p for p in range(n) if len(nb[p]) == 2 and any(len(nb[q]) == 2 for q in nb[p])
        )
        self.values = [p.value * UNIT for p in design.pieces]
        #: what pieces kept are worth to the searching side (none where material is not
        #: counted, or where the pieces are what is counted)
        count_game = any(end.outcome == "count" for end in design.ends)
        self.keep = KEEP_PIECES if rules.material and not (self.counters or count_game) else 0
        weight = rules.material * UNIT
        steps = _step_distances(board.links, n)
        self.steps = steps
        centre = _centrality(board.xy)
        promotes = _promotion_zones(rulebook)
        #: The piece types that can change type (for the search: a promotion is loud).
        self.promoters = frozenset(promotes)
        self.promotion_squares: frozenset[int] = frozenset().union(
            *(part[0] for row in promotes.values() for part in row if part is not None)
        )
        goals = _goal_zones(rulebook)
        empty_moves = _empty_board_moves(rulebook)
        #: reach[(type, player)][p]: the moves a piece has from p on an empty board.
        self.reach = empty_moves
        codes = c.codes
        best_worth = rules.material * max(
            (self.values[k] for k in range(rulebook.types) if k not in rulebook.royal), default=0
        )
        # mg[p][v], eg[p][v]: piece code v on position p, for the first player (the second's
        # count against); phase[v]: the non-royal material of a code, for the taper.
        self.mg: list[list[int]] = [[0] * codes for _ in range(n)]
        self.eg: list[list[int]] = [[0] * codes for _ in range(n)]
        self.material = [0] * codes
        self.phase = [0] * codes
        self.royal_code = [False] * codes
        if self.counters:
            self.start_phase = 1
            self.edges: list[tuple[int, tuple[int, ...], int, int]] = []
            return
        for v in range(1, codes):
            kind, player = c.kind_of[v], c.owner[v]
            sign = 1 if player == 0 else -1
            worth = rules.material * (UNIT if count_game else self.values[kind])
            royal = kind in rulebook.royal
            self.royal_code[v] = royal
            self.material[v] = sign * worth
            self.phase[v] = 0 if royal else abs(worth) + (UNIT // 2 if count_game else 0)
            moves = empty_moves.get((kind, player))
            for p in range(n):
                if p in board.off_board:
                    continue
                mg = eg = worth
                if royal:
                    mg += int(ROYAL_CENTRE_MG * centre[p])
                    eg += int(ROYAL_CENTRE_EG * centre[p])
                elif kind in promotes and (promoting := promotes[kind][player]) is not None:
                    zone, home = promoting
                    far = max((steps[zone][q] for q in range(n) if steps[zone][q] >= 0), default=0)
                    d = steps[zone][p]
                    if d >= 0:
                        progress = far - d
                        mg += ADVANCE_MG * progress
                        eg += ADVANCE_EG * progress
                        if d in CROWNING:  # what promoting wins, by how near it is
                            gain = min(best_worth - worth, CROWNING_CAP) * CROWNING[d]
                            mg += int(gain / 2)
                            eg += int(gain)
                    mg += int(CENTRE_PROMOTER * centre[p])
                    if p in home:
                        mg += HOME_ROW
                elif moves is not None and weight:
                    mean = sum(moves) / max(1, sum(1 for m in moves if m))
                    if moves[p]:
                        mg += int(MOBILITY_MG * (moves[p] - mean))
                        eg += int(MOBILITY_EG * (moves[p] - mean))
                goal = goals.get(player)
                if goal is not None and steps[goal][p] >= 0:
                    far = max(q for q in steps[goal] if q >= 0)
                    mg += GOAL_STEP * (far - steps[goal][p])
                    eg += GOAL_STEP * (far - steps[goal][p])
                for zone_name, w, type_name in rules.zones:
                    if p in board.zones[zone_name][player] and (
                        type_name is None or design.pieces[kind].name == type_name
                    ):
                        if (
                            w < 0
                            and type_name is None
                            and _prized_neighbours(rulebook, zone_name, p)
                        ):
                            continue  # counted only while the neighbour is empty (below)
                        mg += w * UNIT
                        eg += w * UNIT
                self.mg[p][v] = sign * mg
                self.eg[p][v] = sign * eg
        # (position, prized neighbours, points for the first player's piece, the second's)
        self.edges = []
        for zone_name, w, type_name in rules.zones:
            if w >= 0 or type_name is not None:
                continue
            parts = board.zones[zone_name]
            for at in sorted(frozenset().union(*parts)):
                prized = _prized_neighbours(rulebook, zone_name, at)
                if prized:
                    first = w * UNIT if at in parts[0] else 0
                    second = -w * UNIT if len(parts) > 1 and at in parts[1] else 0
                    self.edges.append((at, prized, first, second))
        start = rulebook.start()
        self.start_phase = max(1, sum(self.phase[v] for v in start.board if v))
        #: What a piece in hand is worth, by type (a game whose captures go to hand), or ().
        self.hand_worth = (
            tuple(rules.material * w for w in self.values) if design.captures_to_hand else ()
        )

    def evaluate(self, pos: DescribedPosition, moves: list[Move], keeper: int = -1) -> int:
        """The position's worth to the side to move (``moves``: its legal moves). ``keeper``
        (a player, or -1: none) is the side that searches: while it is not a unit of material
        ahead, pieces left on the board are worth :data:`KEEP_PIECES` at most to it, so that it
        does not trade an even game down to a drawn ending and a side that is behind keeps its
        chances (a contempt for the weaker partner's simplifications)."""
        rulebook = self.rulebook
        me = rulebook.player(pos)
        if self.counters:
            counts = rulebook.counts(pos, final=False)
            return UNIT * (counts[me] - counts[1 - me])
        b = pos.board
        mg = eg = phase = material = 0
        mg_t, eg_t, ph_t, mat_t = self.mg, self.eg, self.phase, self.material
        royal = self.royal_code
        kings: list[int] = []
        for p, v in enumerate(b):
            if v:
                mg += mg_t[p][v]
                eg += eg_t[p][v]
                phase += ph_t[v]
                material += mat_t[v]
                if royal[v]:
                    kings.append(p)
        if self.hand_worth:  # pieces in hand count as on the board
            worth = self.hand_worth
            for player, row in enumerate(pos.hands):
                held = sum(n * worth[t] for t, n in enumerate(row) if n)
                held = held if player == 0 else -held
                mg, eg, material = mg + held, eg + held, material + held
        start = self.start_phase
        left = min(phase, start)
        total = (mg * left + eg * (start - left)) // start
        if abs(material) >= UNIT and left * 2 < start:
            total += self._mop_up(pos, kings, material, left, me, len(moves))
        owner = rulebook.c.owner
        for p, near, first, second in self.edges:
            v = b[p]
            if v and any(not b[q] for q in near):
                total += first if owner[v] == 0 else second
        if self.frontier:
            edge = 0
            for p, neighbours in enumerate(self.neighbours):
                v = b[p]
                if v and any(not b[q] for q in neighbours):
                    edge += 1 if owner[v] == 0 else -1
            total += self.frontier * edge
        if keeper >= 0 and self.keep and left:
            lead = material if keeper == 0 else -material
            if lead < UNIT:
                share = min(1.0, (UNIT - lead) / UNIT)
                keep = int(self.keep * share * math.sqrt(left / start))
                total += keep if keeper == 0 else -keep
        mine = total if me == 0 else -total
        if self.mobility:
            other = pos.copy()
            other.turn = rulebook.next_turn(pos.turn)
            mine += self.mobility * (len(moves) - len(rulebook.legal(other)))
        return mine

    def _mop_up(
        self,
        pos: DescribedPosition,
        kings: list[int],
        material: int,
        left: int,
        to_move: int,
        moves: int,
    ) -> int:
        """The stronger side's pay for a won ending (first player's view): for each
        exchange; with royal pieces, for the enemy's nearer the edge and its own nearer it;
        without, for its pieces that no longer promote standing near the enemy's."""
        strong = 0 if material > 0 else 1
        sign = 1 if strong == 0 else -1
        bonus = int(TRADE_SHARE * abs(material) * (self.start_phase - left) / self.start_phase)
        owner = self.rulebook.c.owner
        b = pos.board
        if len(kings) == 2:
            if abs(material) >= MOP_UP_LEAD:
                weak_king = next((k for k in kings if owner[b[k]] != strong), None)
                strong_king = next((k for k in kings if owner[b[k]] == strong), None)
                if weak_king is not None and strong_king is not None:
                    near = self.steps_between(weak_king, strong_king)
                    bonus += MOP_UP_EDGE * self.edge_steps(weak_king) + MOP_UP_NEAR * (8 - near)
        elif not kings:
            kind_of = self.rulebook.c.kind_of
            promoters = self.promoters
            hunters = [
                p
                for p, v in enumerate(b)
                if v and owner[v] == strong and kind_of[v] not in promoters
            ]
            prey = [p for p, v in enumerate(b) if v and owner[v] != strong]
            if hunters and prey:
                steps = self._king_steps()
                for h in hunters:
                    row = steps[h]
                    d = min((row[q] for q in prey if row[q] >= 0), default=8)
                    bonus += MOP_UP_NEAR * (8 - min(d, 8))
                neighbours = self.neighbours
                widest = self.widest
                refuges = self.refuges
                for q in prey:  # fewer ways out for each enemy piece: an edge, a piece beside
                    if q in refuges:  # ... but not a refuge: it must be driven out of that
                        bonus -= MOP_UP_REFUGE
                        continue
                    free = sum(1 for r in neighbours[q] if not b[r])
                    bonus += MOP_UP_CAGE * (widest - free)
                if to_move != strong:  # and few moves left to the enemy
                    bonus += MOP_UP_SQUEEZE * max(0, 8 - moves)
        return sign * bonus

    def steps_between(self, a: int, b: int) -> int:
        """Steps (king moves) from ``a`` to ``b``, at most 8."""
        d = self._king_steps()[a][b]
        return 8 if d < 0 else min(8, d)

    def edge_steps(self, p: int) -> int:
        """How far ``p`` is from the centre, in steps (0 at the centre)."""
        table = self._centre_steps()
        return table[p]

    def _king_steps(self) -> list[list[int]]:
        if self._king_cache is None:
            links = self.rulebook.design.board.links
            self._king_cache = [_bfs(links, self.rulebook.n, (a,)) for a in range(self.rulebook.n)]
        return self._king_cache

    def _centre_steps(self) -> list[int]:
        if self._centre_cache is None:
            xy = self.rulebook.design.board.xy
            centre = _centrality(xy)
            best = max(centre) if centre else 0.0
            middle = tuple(p for p, c in enumerate(centre) if c >= best - 1e-9)
            steps = _bfs(self.rulebook.design.board.links, len(xy), middle)
            self._centre_cache = [max(0, d) for d in steps]
        return self._centre_cache

    _king_cache: list[list[int]] | None = None
    _centre_cache: list[int] | None = None


# -- what the tables are made of ----------------------------------------------------------------


def _bfs(links: tuple[tuple[int, ...], ...], n: int, sources: tuple[int, ...]) -> list[int]:
    """Steps along any link from the nearest source (-1: unreachable)."""
    dist = [-1] * n
    queue: deque[int] = deque()
    for s in sources:
        dist[s] = 0
        queue.append(s)
    while queue:
        p = queue.popleft()
        for row in links:
            q = row[p]
            if q >= 0 and dist[q] < 0:
                dist[q] = dist[p] + 1
                queue.append(q)
    return dist


def _step_distances(links: tuple[tuple[int, ...], ...], n: int) -> _Distances:
    return _Distances(links, n)


class _Distances:
    """``steps[zone_key][p]``: steps from ``p`` to the nearest position of a zone (a frozenset
    of positions), computed when first asked for."""

    def __init__(self, links: tuple[tuple[int, ...], ...], n: int) -> None:
        self.links = links
        self.n = n
        self.cache: dict[frozenset[int], list[int]] = {}

    def __getitem__(self, zone: frozenset[int]) -> list[int]:
        found = self.cache.get(zone)
        if found is None:
            found = _bfs(self.links, self.n, tuple(sorted(zone)))
            self.cache[zone] = found
        return found


def _centrality(xy: tuple[tuple[float, float], ...]) -> list[float]:
    """1 at the board's centre, 0 at the position farthest from it."""
    if not xy:
        return []
    cx = sum(x for x, _ in xy) / len(xy)
    cy = sum(y for _, y in xy) / len(xy)
    far = max(math.hypot(x - cx, y - cy) for x, y in xy) or 1.0
    return [1.0 - math.hypot(x - cx, y - cy) / far for x, y in xy]


def _promotion_zones(
    rulebook: Rulebook,
) -> dict[int, list[tuple[frozenset[int], frozenset[int]] | None]]:
    """For each piece type that promotes: per player, (the zone where it promotes, its home
    row: the other player's part of that zone)."""
    design = rulebook.design
    zones = design.board.zones
    out: dict[int, list[tuple[frozenset[int], frozenset[int]] | None]] = {}
    players = rulebook.players
    for kind, piece in enumerate(design.pieces):
        names: set[str] = set()
        if piece.promote_at_end is not None:
            names.add(piece.promote_at_end[1])
        for program in piece.programs:
            found_promote = False
            zone_names: set[str] = set()
            for node in tree.walk(program.tree):
                if isinstance(node, tree.ChangeType) and node.type != piece.name:
                    found_promote = True  # it becomes another type there
                if isinstance(node, tree.InZone):
                    zone_names.add(node.zone)
            if found_promote:
                names |= {z for z in zone_names if z in zones}
        if not names:
            continue
        row: list[tuple[frozenset[int], frozenset[int]] | None] = []
        for player in range(players):
            zone = frozenset().union(*(zones[z][player] for z in names))
            other = (player + 1) % players
            home = frozenset().union(*(zones[z][other] for z in names))
            row.append((zone, home) if zone else None)
        out[kind] = row
    return out


def _goal_zones(rulebook: Rulebook) -> dict[int, frozenset[int]]:
    """Per player, the zone where any piece of theirs wins by arriving (``(win (reached
    ZONE))`` with no type named)."""
    out: dict[int, frozenset[int]] = {}
    zones = rulebook.design.board.zones
    for end in rulebook.design.ends:
        if end.outcome != "win":
            continue
        cond = end.condition
        if isinstance(cond, Form) and cond.head == "reached" and len(cond.args) == 1:
            name = str(cond.args[0].value)  # type: ignore[union-attr]
            for player in range(rulebook.players):
                out[player] = out.get(player, frozenset()) | zones[name][player]
    return out


def _empty_board_moves(rulebook: Rulebook) -> dict[tuple[int, int], list[int]]:
    """For each (type, player) that moves: the moves it has from each position of an empty
    board."""
    c = rulebook.c
    out: dict[tuple[int, int], list[int]] = {}
    off = rulebook.design.board.off_board
    for kind in range(rulebook.types):
        for player in range(rulebook.players):
            gen = c.gen[kind][player]
            if gen is None:
                continue
            code = c.code(player, kind)
            counts = []
            for p in range(rulebook.n):
                if p in off:
                    counts.append(0)
                    continue
                b = [0] * rulebook.n
                b[p] = code
                found: list[object] = []
                try:
                    gen(b, p, found, -1, -1, (), code)
                except (IndexError, KeyError, ValueError):  # a program that needs a context
                    found = []
                counts.append(len({r[0] for r in found}))  # type: ignore[index]
            out[(kind, player)] = counts
    return out


def _prized_neighbours(rulebook: Rulebook, zone_name: str, p: int) -> tuple[int, ...]:
    """The positions next to ``p`` that lie in a zone the description prizes (a positive
    weight), when ``zone_name`` is a zone it shuns (a negative weight)."""
    rules = rulebook.design.evaluation
    zones = rulebook.design.board.zones
    prized: set[int] = set()
    for name, w, type_name in rules.zones:
        if w > 0 and type_name is None:
            for part in zones[name]:
                prized |= part
    near = {row[p] for row in rulebook.design.board.links if row[p] >= 0}
    return tuple(sorted(near & prized))
