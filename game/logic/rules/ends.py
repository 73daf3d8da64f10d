"""The end of a described game: its end conditions in order (the first that holds decides),
the lines, chains and counts they look at, and the winning pieces the board lights.

:class:`Ends` is a part of :class:`~game.logic.rules.rulebook.Rulebook`; it uses the rulebook's
design, compiled tables and move generation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from game.logic.rules.board_ends import BOARD_ENDS, board_end_holds, row_found
from game.logic.rules.numbers import COMPARISONS, compare
from game.logic.rules.perpetual import REPETITION_ENDS, perpetual_check
from game.logic.rules.position import PASS, DescribedPosition, Move
from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.rules.teams import results, team_of

if TYPE_CHECKING:
    from game.logic.rules.compile import Compiled
    from game.logic.rules.design import Design

__all__ = ["Ends", "walk"]

#: The end conditions that count repetitions, which a search may score by itself.
_REPEATS = frozenset(("repetition", *REPETITION_ENDS))


class Ends:
    """End conditions, lines, chains and scores, for the rulebook that inherits them."""

    design: Design
    c: Compiled
    players: int
    shared: frozenset[int]
    opposite: list[int]

    if TYPE_CHECKING:

        def legal(self, pos: DescribedPosition) -> list[Move]: ...
        def _has_moves(self, pos: DescribedPosition) -> bool: ...
        def next_turn(self, turn: int) -> int: ...
        def player(self, pos: DescribedPosition) -> int: ...
        def last_mover(self, pos: DescribedPosition) -> int: ...
        def in_check(self, pos: DescribedPosition) -> bool: ...
        def key(self, pos: DescribedPosition) -> tuple[object, ...]: ...

    def outcome(
        self,
        pos: DescribedPosition,
        moves: list[Move] | None,
        perft: bool = False,
        *,
        repetition: bool = True,
    ) -> str | None:
        """ "win" / "loss" (for the player who moved last), "draw", "count" (more pieces
        wins), or None while the game goes on. ``moves``: the legal moves, when known.
        With ``perft`` the draw counters (repetition, quiet moves, plies) are not looked at;
        without ``repetition``, an end that is a repetition alone is not (a search that
        scores a repeat itself, sooner)."""
        for end in self.design.ends:
            cond = end.condition
            if not repetition and isinstance(cond, Form) and cond.head in _REPEATS:
                continue
            if self._holds(pos, cond, moves, perft):
                return end.outcome
        if not perft and not (moves if moves is not None else self.legal(pos)):
            return "draw"  # no move and no end condition says more: the game cannot go on
        return None

    def returns(self, pos: DescribedPosition, outcome: str | None) -> tuple[float, ...]:
        """Each player's result (1 won, -1 lost, 0 a draw or a game going on) for the position
        ``pos`` that ended by ``outcome`` (see :meth:`outcome`)."""
        players = self.players
        if outcome is None or outcome == "draw":
            return (0.0,) * players
        teams = self.design.teams
        if outcome == "count":  # the side (a player, or a team together) with the most
            counts = self.counts(pos)
            sides = {team_of(p, teams) for p in range(players)}
            totals = {side: sum(counts[p] for p in side) for side in sides}
            best = max(totals.values())
            tops = [side for side, total in totals.items() if total == best]
            return results(tops[0] if len(tops) == 1 else (), players)
        mover = team_of(self.last_mover(pos), teams)
        if outcome == "win":
            return results(mover, players)
        return results([p for p in range(players) if p not in mover], players)

    def _holds(
        self, pos: DescribedPosition, cond: Item, moves: list[Move] | None, perft: bool
    ) -> bool:
        head = cond.head if isinstance(cond, Form) else str(cond.value)
        if head == "stuck":
            return not (moves if moves is not None else self.legal(pos))
        args = cond.args if isinstance(cond, Form) else ()
        if head == "and":
            return all(self._holds(pos, a, moves, perft) for a in args)
        player = self.player(pos)
        mover = self.last_mover(pos)
        b = pos.board
        owner, kind_of = self.c.owner, self.c.kind_of
        if head == "both-stuck":
            if moves is None:
                moves = self.legal(pos)
            if moves and moves != [PASS]:
                return False
            if moves == [PASS]:
                return False
            other = pos.copy()
            other.turn = self.next_turn(pos.turn)
            return not self._has_moves(other)
        if head == "check":
            return self.in_check(pos)
        if head == "true":  # an unconditional goto in the turn order
            return True
        if head == "connects":
            return bool(self.chain(pos, str(args[0].value), str(args[1].value)))  # type: ignore[union-attr]
        if head == "connected":  # all of a player's pieces touch as one group
            return bool(self.group(b, mover if not args else (mover + 1) % self.players))
        if head == "in-hand":  # some player has pieces still to place
            return bool(pos.hands) and any(any(row) for row in pos.hands)
        if head == "not":
            return not self._holds(pos, args[0], moves, perft)
        if head == "line":
            at = pos.last_to
            if at < 0 or not b[at]:
                return False
            return self._line(b, at, int(args[0].value)) >= int(args[0].value)  # type: ignore[union-attr]
        if head == "reached":
            # A piece of the mover's (or of no one's) in the mover's part of the zone; with
            # "theirs", in the other player's part.
            whose = mover if len(args) < 3 else (mover + 1) % self.players
            zone = self.design.board.zones[str(args[0].value)][whose]  # type: ignore[union-attr]
            kinds = (
                {self.design.type_index(str(args[1].value))}  # type: ignore[union-attr]
                if len(args) > 1
                else None
            )
            return any(
                b[p]
                and (owner[b[p]] == whose or kind_of[b[p]] in self.shared)
                and (kinds is None or kind_of[b[p]] in kinds)
                for p in zone
            )
        if head == "none-left":
            kinds = {self.design.type_index(str(a.value)) for a in args} or None  # type: ignore[union-attr]
            on_board = any(
                v and owner[v] == player and (kinds is None or kind_of[v] in kinds) for v in b
            )
            in_hand = bool(pos.hands and any(pos.hands[player]))
            return not on_board and not in_hand
        if head == "full":
            return all(b)
        if head == "zone-empty":  # some player's part of the zone holds nothing
            parts = self.design.board.zones[str(args[0].value)]  # type: ignore[union-attr]
            return any(not any(b[p] for p in part) for part in parts)
        if head == "pieces-below":
            count = sum(1 for v in b if v and owner[v] == player)
            if pos.hands:
                count += sum(pos.hands[player])
            return count < int(args[0].value)  # type: ignore[union-attr]
        if head in ("only", "at-most", "one-colour"):  # what material is left (dead positions)
            return self._material(b, head, args)
        if head in BOARD_ENDS:
            return board_end_holds(self, pos, head, args)
        if perft:  # (a comparison is asked here by the rulebook's own wrapper: numbers.py)
            return False
        if head == "repetition":
            return self.repeats(pos) >= int(args[0].value)  # type: ignore[union-attr]
        if head in REPETITION_ENDS:
            return perpetual_check(self, pos, args)
        if head == "quiet-moves":
            return pos.quiet >= int(args[0].value)  # type: ignore[union-attr]
        if head == "plies":
            return pos.plies >= int(args[0].value)  # type: ignore[union-attr]
        if head in COMPARISONS:
            return compare(self, pos, cond)  # type: ignore[arg-type]
        raise ValueError(f"unknown end condition {head!r}")  # pragma: no cover

    def _material(self, b: list[int], head: str, args: tuple[Item, ...]) -> bool:
        """``(only TYPE...)``: every piece on the board is of these types; ``(at-most N
        TYPE...)``: N or fewer of them on the board, both players' together; ``(one-colour
        TYPE...)``: they all stand on dark squares, or all on light ones."""
        words = [str(a.value) for a in args if isinstance(a, Atom)]
        if head == "at-most":
            words = words[1:]
        kinds = {self.design.type_index(w) for w in words}
        kind_of = self.c.kind_of
        if head == "only":
            return all(not v or kind_of[v] in kinds for v in b)
        on = [p for p, v in enumerate(b) if v and kind_of[v] in kinds]
        if head == "at-most":
            return len(on) <= int(args[0].value)  # type: ignore[union-attr]
        dark = self.design.board.dark
        return len({p in dark for p in on}) <= 1

    def repeats(self, pos: DescribedPosition) -> int:
        """How often the position stands in its history, itself included."""
        return len(self.occurrences(pos))

    def occurrences(self, pos: DescribedPosition) -> list[int]:
        """Where the position stands in its history (indices, itself included). Where the
        key holds the last move's ends (a description reads them: en passant), two positions
        that differ only there are the same when they allow the same moves: the last move
        counts only through what it makes possible (as FIDE's laws and FEN say)."""
        now = self.key(pos)
        return [
            i
            for i, seen in enumerate(pos.history)
            if seen == now or (seen[0] == now[0] and self._allowed(seen) == self._allowed(now))
        ]

    def position_of(self, key: tuple[Any, ...]) -> DescribedPosition:
        """A position set up from its key (:meth:`key`): the pieces, the turn, the hands."""
        (board, turn, hands, under), last = key[:2]
        lf, lt = last or (-1, -1)
        pos = DescribedPosition(list(board), turn, lf, lt, hands=hands)
        if under:
            pos.under = list(under)
        return pos

    def _allowed(self, key: tuple[Any, ...]) -> frozenset[Any]:
        """The legal moves of the position ``key`` describes (cached)."""
        cache: dict[Any, frozenset[Any]] = self.__dict__.setdefault("_allowed_cache", {})
        found = cache.get(key)
        if found is None:
            found = frozenset(m[:3] for m in self.legal(self.position_of(key)))
            if len(cache) > 4096:
                cache.clear()
            cache[key] = found
        return found

    def chain(self, pos: DescribedPosition, first: str, second: str) -> list[int]:
        """The touching pieces of the last mover's that hold the last piece placed, when they
        reach both the mover's part of zone ``first`` and of zone ``second`` (Hex's winning
        chain); else []."""
        at = pos.last_to
        b = pos.board
        if at < 0 or not b[at]:
            return []
        owner = self.c.owner
        who = owner[b[at]]
        zones = self.design.board.zones
        a, z = zones[first][who], zones[second][who]
        seen = self._reach(b, at, who)
        if seen.isdisjoint(a) or seen.isdisjoint(z):
            return []
        return sorted(seen)

    def group(self, b: list[int], who: int) -> list[int]:
        """The positions of ``who``'s pieces when they all touch one another through the
        board's links as one group (a single piece is one); [] when they do not, or when
        ``who`` has none."""
        owner = self.c.owner
        mine = [p for p, v in enumerate(b) if v and owner[v] == who]
        if not mine:
            return []
        return mine if len(self._reach(b, mine[0], who)) == len(mine) else []

    def _reach(self, b: list[int], start: int, who: int) -> set[int]:
        """The positions of ``who``'s pieces joined to ``start`` through the board's links."""
        owner = self.c.owner
        links = self.design.board.links
        seen = {start}
        todo = [start]
        while todo:
            p = todo.pop()
            for row in links:
                q = row[p]
                if q >= 0 and q not in seen and b[q] and owner[b[q]] == who:
                    seen.add(q)
                    todo.append(q)
        return seen

    def line_at(self, b: list[int], at: int, vacated: int, v: int) -> int:
        """The longest run of pieces of ``v``'s owner through ``at`` along a pair of opposite
        directions, with ``v`` standing on ``at`` and ``vacated`` (if not -1) empty."""
        owner = self.c.owner
        me = owner[v]
        links = self.design.board.links
        best = 1
        for d, e in enumerate(self.opposite):
            if 0 <= e < d:
                continue
            run = 1
            for direction in (d, e):
                if direction < 0:
                    continue
                q = links[direction][at]
                while q >= 0 and q != at and q != vacated and b[q] and owner[b[q]] == me:
                    run += 1
                    q = links[direction][q]
            best = max(best, run)
        return best

    def winning(self, pos: DescribedPosition) -> list[int]:
        """The positions of the pieces that ended the game by a line of N, a chain between
        two zones or a player's pieces all connected (what the board lights when the game
        is won); [] otherwise."""
        b, at = pos.board, pos.last_to
        for end in self.design.ends:
            for cond in walk(end.condition):
                if isinstance(cond, Atom) and cond.value == "connected":
                    found = self.group(b, self.last_mover(pos))
                    if found:
                        return found
                if not isinstance(cond, Form):
                    continue
                if cond.head == "connects":
                    found = self.chain(pos, str(cond[1].value), str(cond[2].value))  # type: ignore[union-attr]
                    if found:
                        return found
                if cond.head == "connected":
                    mover = self.last_mover(pos)
                    found = self.group(b, mover if len(cond) == 1 else (mover + 1) % self.players)
                    if found:
                        return found
                if cond.head == "row-of":
                    found = row_found(self, b, self.last_mover(pos), int(cond[1].value))  # type: ignore[union-attr]
                    if found:
                        return sorted(found)
                if cond.head == "line" and at >= 0 and b[at]:
                    need = int(cond[1].value)  # type: ignore[union-attr]
                    for d, e in enumerate(self.opposite):
                        if not 0 <= e < d:
                            run = self._run(b, at, d, e)
                            if len(run) >= need:
                                return sorted(run)
        return []

    def _run(self, b: list[int], at: int, d: int, e: int) -> list[int]:
        """The positions holding the same piece as ``at`` in a row through it, along
        direction ``d`` and its opposite ``e`` (-1: none)."""
        links = self.design.board.links
        run = [at]
        for direction in (d, e):
            if direction >= 0:
                q = links[direction][at]
                while q >= 0 and q != at and b[q] == b[at]:
                    run.append(q)
                    q = links[direction][q]
        return run

    def _line(self, b: list[int], at: int, need: int) -> int:
        """The longest row of ``at``'s piece through it (stopping at ``need``)."""
        best = 1
        for d, e in enumerate(self.opposite):
            if not 0 <= e < d:
                best = max(best, len(self._run(b, at, d, e)))
                if best >= need:
                    return best
        return best

    def counts(self, pos: DescribedPosition, final: bool = True) -> list[int]:
        """Each player's score: pieces on the board, or in a game of counters the counters
        in their part of the score zone (and, with ``final``, of the keep zone)."""
        counts = [0] * self.players
        if self.design.counters:
            zones = self.design.board.zones
            for name in (self.design.score_zone, self.design.keep_zone if final else ""):
                if name in zones:
                    for player in range(self.players):
                        counts[player] += sum(pos.board[p] for p in zones[name][player])
            return counts
        owner = self.c.owner
        for v in pos.board:
            if v:
                counts[owner[v]] += 1
        return counts

    @property
    def _ends_after_move(self) -> bool:
        """Whether a move can end the game with the next player still having moves (a line,
        a goal reached): then the last ply cannot be counted in bulk."""
        cached = self.__dict__.get("_eam")
        if cached is None:
            cached = not self.design.perft_past_ends and any(
                isinstance(c, Form | Atom)
                and (c.head if isinstance(c, Form) else str(c.value))
                in (
                    "line",
                    "reached",
                    "none-left",
                    "full",
                    "pieces-below",
                    "zone-empty",
                    "connects",
                    "connected",
                    *BOARD_ENDS,
                )
                for end in self.design.ends
                for c in walk(end.condition)
            )
            self.__dict__["_eam"] = cached
        return bool(cached)


def walk(item: Item) -> Iterator[Item]:
    yield item
    if isinstance(item, Form):
        for sub in item.args:
            yield from walk(sub)
