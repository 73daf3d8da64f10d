"""The rulebook: legal moves, making and unmaking them, end conditions and perft, for any
compiled design.

A :class:`DescribedPosition` is mutable (make/unmake for search and perft); the game contract's
immutable state (:mod:`game.logic.rules.state`) wraps one. A move is a tuple
``(path, captures, effects, program)``: the positions the moving piece visits (one for a drop,
empty for a pass), the positions whose pieces it captures, the changes it makes as
``(position, piece)`` pairs applied in order, and the index of the move program that made it
(-1 for a pass). Composite moves (``add-partial`` continued by the same piece) are one move;
their parts are the steps of ``path``.

Generation runs in stages: every program of every piece of the player to move, partial moves
continued to the end (a capture that can continue must), compulsory move types, most captures,
duplicate removal by the game's move identity, then the royal pieces' safety. The moves of
a position are counted as they are generated: past
:data:`~game.logic.rules.limits.MAX_MOVES`, a :class:`~game.logic.rules.limits.RulesError`
names the form that made them.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any, Final

from game.logic.rules import tree
from game.logic.rules.chance import Chance
from game.logic.rules.check_test import CheckTest
from game.logic.rules.compile import AGAIN, GOTO, LABELS, PROGRAM, Compiled, compile_design
from game.logic.rules.concealed import ConcealedRules
from game.logic.rules.design import Design
from game.logic.rules.ends import Ends, walk
from game.logic.rules.hands import HandRules
from game.logic.rules.hidden import FaceDownRules
from game.logic.rules.keys import pieces_key
from game.logic.rules.limits import MAX_MOVES, RulesError
from game.logic.rules.numbers import Tallies
from game.logic.rules.partial import onward, without
from game.logic.rules.position import PASS, DescribedPosition, Move
from game.logic.rules.prefer import prefer
from game.logic.rules.random_players import play_random
from game.logic.rules.sexpr import Form
from game.logic.rules.stacking import stacked
from game.logic.rules.teams import enemy_code, foes

__all__ = ["MAX_CHAINS", "PASS", "DescribedPosition", "Move", "Rulebook", "RulesError"]

#: The most composite moves one partial move may grow into; a description whose captures
#: branch more than this is refused while it plays rather than exhausting memory.
MAX_CHAINS: Final = 20_000


#: The fields of a position that a move changes besides its board and stacks (whose squares
#: ``undo`` restores): what :meth:`Rulebook.make` saves and :meth:`Rulebook.unmake` puts back.
_SAVED_FIELDS: Final = (
    "turn",
    "last_from",
    "last_to",
    "hands",
    "plies",
    "quiet",
    "history",
    "mover",
)
_saved_fields: Final = attrgetter(*_SAVED_FIELDS)


class Rulebook(Ends, CheckTest, FaceDownRules, Chance, Tallies, ConcealedRules):
    """A compiled design and the functions that play it; one per design."""

    #: How to make this rulebook again in another process: a function and its arguments (set by
    #: :mod:`~game.logic.rules.catalogue`, which makes every rulebook the program uses). A rulebook
    #: pickles as that call, so a state travels to a worker process; None: it cannot travel.
    origin: tuple[Any, tuple[Any, ...]] | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.origin is None:
            raise TypeError(f"the rulebook of {self.design.id} cannot be made again elsewhere")
        return self.origin

    def __init__(self, design: Design) -> None:
        self.design = design
        self.c: Compiled = compile_design(design)
        self.c.namespace["attacked"] = self.attacked  # type: ignore[attr-defined]
        self.c.namespace["line_at"] = self.line_at  # type: ignore[attr-defined]
        board = design.board
        self.n = len(board.names)
        self.players = len(design.players)
        self.seats = design.turn_seats or design.turn_order
        self.foes = [foes(p, self.players, design.teams) for p in range(self.players)]
        self.types = len(design.pieces)
        self.royal = frozenset(design.royal)
        self.shared = frozenset(i for i, p in enumerate(design.pieces) if p.shared)
        #: The pieces in hand of the position being judged (the check test's drops).
        self.hands_now: tuple[tuple[int, ...], ...] = ()
        #: Whether some program of each player is run forward by the check test.
        self.slow = [
            any(row[a] is not None for row in (*self.c.fallback, *self.c.fallback_drops))
            for a in range(self.players)
        ]
        #: Whether a program reads the last move's ends (``last-to``, ``last-from``).
        self.uses_last = any(
            isinstance(node, tree.Is) and node.word in ("last-to", "last-from")
            for piece in design.pieces
            for program in piece.programs
            for node in tree.walk(program.tree)
        )
        self.limited_hands = bool(design.hands) or design.captures_to_hand
        self.hands = HandRules(self)
        self.pieces_key = pieces_key(design, self.c)
        self.opposite = _opposites(board.links)
        self.quiet_types: frozenset[int] = frozenset()
        self.quiet_limit = 0
        self.repetition = 0
        #: Whether an end counts the plies played.
        self.counts_plies = False
        for end in design.ends:
            for cond in walk(end.condition):
                if isinstance(cond, Form) and cond.head == "quiet-moves":
                    self.quiet_limit = int(cond[1].value)  # type: ignore[union-attr]
                    self.quiet_types = frozenset(
                        design.type_index(str(a.value))  # type: ignore[union-attr]
                        for a in cond.items[2:]
                    )
                if isinstance(cond, Form) and cond.head in ("repetition", "perpetual-check"):
                    self.repetition = int(cond[1].value)  # type: ignore[union-attr]
                if isinstance(cond, Form) and cond.head == "plies":
                    self.counts_plies = True
        self._keep_tallies()
        if design.face_down is not None:
            self.turn_faces_down()
        if design.dice is not None or design.captured_home:
            self.take_chance()  # dice, pieces sent home: game.logic.rules.chance
        if design.concealed is not None:
            self.conceal()
        if design.random_players:
            play_random(self)  # seats chance plays: game.logic.rules.random_players

    # -- positions ---------------------------------------------------------------------

    def start(self) -> DescribedPosition:
        board = [0] * self.n
        for player, placed in self.design.setup.items():
            for pos, kind in placed:
                if self.design.counters:
                    board[pos] += 1
                else:
                    board[pos] = self.c.code(player, kind)
        hands = tuple(
            tuple(max(0, self.design.hands.get(p, {}).get(t, 0)) for t in range(self.types))
            for p in range(self.players)
        )
        position = DescribedPosition(board, 0, hands=hands)
        if self.design.stacks:
            position.under = [()] * self.n
        position.history = (self.key(position),) if self.repetition else ()
        return position

    def player(self, pos: DescribedPosition) -> int:
        return self.design.turn_order[pos.turn]

    def seat(self, pos: DescribedPosition) -> int:
        """Who chooses the move: the player, but P at a step (P Q) (rules/turn_seats.py)."""
        return self.seats[pos.turn]

    def next_turn(self, turn: int) -> int:
        turn += 1
        return turn if turn < len(self.design.turn_order) else self.design.repeat_from

    def label_step(self, label: str, step: int) -> int:
        """The step a label stands before: of the steps it names, the nearest at or before
        ``step``, going back round the turn order."""
        at = self.design.label_steps[label]
        steps = len(self.design.turn_order)
        return min(at, key=lambda s: (step - s) % steps)

    def key(self, pos: DescribedPosition) -> tuple[Any, ...]:
        """``((pieces, turn, hands, stacks), last)``: what decides the game from here, with
        the last move's ends where a program reads them (see :meth:`repeats`); the counters
        (plies, quiet moves) are not part of a position."""
        last = (pos.last_from, pos.last_to) if self.uses_last else ()
        under = tuple(pos.under) if pos.under is not None else ()
        return ((self.pieces_key(pos.board), pos.turn, pos.hands, under), last)

    def last_mover(self, pos: DescribedPosition) -> int:
        """The player who made the last move (at the start: the one before the first)."""
        if pos.mover >= 0:
            return pos.mover
        return (self.player(pos) - 1) % self.players

    # -- generation --------------------------------------------------------------------

    def pseudo(self, pos: DescribedPosition) -> list[Move]:
        """The moves before the royal pieces' safety is checked."""
        self.hands_now = pos.hands
        b = pos.board
        player = self.player(pos)
        c = self.c
        owner, kind_of = c.owner, c.kind_of
        lf, lt = pos.last_from, pos.last_to
        # Every program adds to one list, whose length the generated loops check against
        # MAX_MOVES as they go; froms[i] is where raw[i]'s piece stands (-1: a drop).
        raw: list[Any] = []
        froms: list[int] = []
        counters, shared, gens = self.design.counters, self.shared, c.gen
        for f, v in enumerate(b):
            if v and (counters or owner[v] == player or kind_of[v] in shared):
                gen = gens[0 if counters else kind_of[v]][player]
                if gen is not None:
                    gen(b, f, raw, lf, lt, (), v)
                    froms.extend([f] * (len(raw) - len(froms)))
                    if len(raw) > MAX_MOVES:
                        self._too_many(raw[-1][4])
        hand = pos.hands[player] if pos.hands else ()
        if self.design.drops_first and any(hand):
            raw.clear()  # pieces in hand must be placed before any piece moves
            froms.clear()
        for t in range(self.types):
            drop = c.drops[t][player]
            if drop is None or (
                self.limited_hands and not hand[t] and self.hands.counted(player, t)
            ):
                continue
            mc = c.code(player, t)
            off_board = self.design.board.off_board
            for f in range(self.n):
                if f in off_board:
                    continue
                drop(b, f, raw, lf, lt, (), mc)
                if len(raw) > MAX_MOVES:
                    self._too_many(raw[-1][4])
        froms.extend([-1] * (len(raw) - len(froms)))
        moves: list[Move] = []
        kinds: list[str] = []
        programs = c.programs
        partial_any = False
        for f, (to, cap, eff, mc, pid, partial) in zip(froms, raw, strict=True):
            if mc == -1:  # a game of counters: the effects are the changed counts
                moves.append(((f,), cap, eff, pid))
            elif partial is not None:
                partial_any = True
                chained = list(self._chains(b, player, f, to, cap, eff, mc, pid, partial, lf, lt))
                moves.extend(chained)
                kinds.extend([programs[pid & PROGRAM][2]] * len(chained))
                if len(moves) > MAX_MOVES:
                    self._too_many(pid)
                continue
            elif f < 0:
                taken = tuple((x, 0) for x in cap if x != to)
                moves.append(((to,), cap, (*taken, *eff, (to, mc)), pid))
            elif not eff and (not cap or (cap == (to,) and to != f)):  # a plain move or capture
                moves.append(((f, to), cap, ((f, 0), (to, mc)), pid))
            else:
                moves.append(((f, to), cap, self._effects(f, to, cap, eff, mc), pid))
            kinds.append(programs[pid & PROGRAM][2])
        step = self.design.turn_kinds[pos.turn] if self.design.turn_kinds else ""
        if step:  # this step of the turn order allows one move type
            chosen = [(m, k) for m, k in zip(moves, kinds, strict=True) if k == step]
            moves, kinds = [m for m, _ in chosen], [k for _, k in chosen]
        moves = self._select(moves, kinds, partial_any, b)
        if pos.under is not None:
            moves = [stacked(pos, m) for m in moves]
        return moves

    def _too_many(self, pid: int) -> None:
        """Raise for a position whose moves passed MAX_MOVES, naming the program that made
        the last of them (the generated loops name their own form before it comes to this:
        only programs without a loop, or composite moves, get here)."""
        t, name, _, _ = self.c.programs[pid & PROGRAM]
        every = [program for piece in self.design.pieces for program in piece.programs]
        where = every[pid & PROGRAM].where
        raise RulesError(
            f"{where.source}:{where.line}:{where.column}: (move {name} ...) of "
            f"{self.design.pieces[t].name} makes more than {MAX_MOVES} moves in one position "
            "with the other programs, the most a position may have"
        )

    def _effects(
        self, f: int, to: int, cap: tuple[int, ...], eff: tuple[Any, ...], mc: int
    ) -> tuple[tuple[int, int], ...]:
        if to == f and f in cap:  # the piece took itself where it stands: it is gone
            return ((f, 0), *eff)
        effects = [(f, 0)]
        for x in cap:
            if x != to:
                effects.append((x, 0))
        effects.extend(eff)
        effects.append((to, mc))
        return tuple(effects)

    def _chains(
        self,
        b: list[int],
        player: int,
        f: int,
        to: int,
        cap: tuple[int, ...],
        eff: tuple[Any, ...],
        mc: int,
        pid: int,
        kind: str,
        lf: int,
        lt: int,
    ) -> Iterator[Move]:
        """Every composite move that starts with the partial move from ``f`` to ``to``: each
        move so far grown by every move of its next type from where it stands, depth first,
        until none can follow (a continuation must capture something new; under
        ``(free-partial)`` :mod:`game.logic.rules.partial` says which may follow)."""
        gen_kind, kind_of, free = self.c.gen_kind, self.c.kind_of, self.design.free_partial
        found: list[tuple[tuple[int, ...], tuple[int, ...], tuple[Any, ...], int]] = []
        # The moves still to grow (the next one last): their positions, captures, effects, the piece
        # now, the type of the move that continues it (None: none does) and how many did.
        todo: list[tuple[list[int], tuple[int, ...], tuple[Any, ...], int, str | None, int]] = [
            ([f, to], cap, eff, mc, kind, 0)
        ]
        origin_piece = b[f]
        b[f] = 0
        try:
            while todo:
                trail, cap, eff, mc, next_kind, depth = todo.pop()
                if next_kind is not None:
                    if len(found) > MAX_CHAINS:
                        raise RulesError(
                            f"{self.design.source}: one move grows into more than {MAX_CHAINS} "
                            "continuations; check the description's add-partial moves"
                        )
                    at = trail[-1]
                    gen = gen_kind[kind_of[mc]][player].get(next_kind)
                    out: list[Any] = []
                    if gen is not None and depth < 64:
                        saved = b[at]
                        b[at] = mc
                        try:
                            if free and cap:  # ZRF: a piece an earlier part took is gone
                                gen(without(b, cap, at), at, out, lf, lt, cap, mc)
                            else:
                                gen(b, at, out, lf, lt, cap, mc)
                        finally:
                            b[at] = saved
                    if free:  # never back to a board the move has made (rules/partial.py)
                        out = onward(out, trail, eff, origin_piece)
                        if out and self.design.pass_partial:  # it may also stop here
                            found.append((tuple(trail), cap, eff, mc))
                    else:
                        out = [r for r in out if len(r[1]) > len(cap)]
                    if out:
                        for to2, cap2, eff2, mc2, _pid, partial in reversed(out):
                            todo.append(([*trail, to2], cap2, eff + eff2, mc2, partial, depth + 1))
                        continue
                found.append((tuple(trail), cap, eff, mc))
        finally:
            b[f] = origin_piece
        for path, caps, effs, final in found:
            final = self._promote_at_end(final, path[-1], player)
            yield (tuple(path), caps, self._effects(f, path[-1], caps, effs, final), pid)

    def _promote_at_end(self, mc: int, square: int, player: int) -> int:
        piece = self.design.pieces[self.c.kind_of[mc]]
        if piece.promote_at_end is None:
            return mc
        kind, zone = piece.promote_at_end
        if square in self.design.board.zones[zone][player]:
            return self.c.code(player, self.design.type_index(kind))
        return mc

    def _select(
        self, moves: list[Move], kinds: list[str], composite: bool, b: list[int]
    ) -> list[Move]:
        design = self.design
        if design.compulsory:
            for kind in design.compulsory:
                chosen = [m for m, k in zip(moves, kinds, strict=True) if k == kind]
                if chosen:
                    moves = chosen
                    break
            else:
                if design.priorities:  # a type not listed never starts a move
                    moves = []
        if composite and len(moves) > 1 and not design.free_partial:
            # A capture that can go on must: drop a move whose captures begin another's.
            longest: dict[tuple[int, ...], int] = {}
            for m in moves:
                caps = m[1]
                for i in range(1, len(caps)):
                    key = (m[0][0], *caps[:i])
                    longest[key] = max(longest.get(key, 0), len(caps))
            if longest:
                moves = [m for m in moves if (m[0][0], *m[1]) not in longest]
        if design.most_captures and moves:
            most = max(len(m[1]) for m in moves)
            moves = [m for m in moves if len(m[1]) == most]
        if design.prefer:
            moves = prefer(design.prefer, moves, b, self.c.kind_of)
        if design.identity == "from-to-captured" and len(moves) > 1:
            seen: set[Any] = set()
            unique = []
            for m in moves:
                ident = (m[0][0] if m[0] else -1, m[0][-1] if m[0] else -1, frozenset(m[2]))
                if ident not in seen:
                    seen.add(ident)
                    unique.append(m)
            moves = unique
        return moves

    def legal(self, pos: DescribedPosition) -> list[Move]:
        """The legal moves, in generation order (a pass alone when the game allows one)."""
        moves = self.pseudo(pos)
        if self.royal:
            moves = self._safe(pos, moves)
            if self.hands.no_mate:
                moves = self.hands.allowed(pos, moves)
        if not moves and self.design.pass_when_stuck:
            other = pos.copy()
            other.turn = self.next_turn(pos.turn)
            if self._has_moves(other):
                return [PASS]
        return moves

    def legal_of(self, pos: DescribedPosition, moves: list[Move]) -> list[Move]:
        """Of ``moves`` (some of :meth:`pseudo`'s for ``pos``), the ones :meth:`legal` keeps:
        a search that looks at captures only checks just those."""
        return self._safe(pos, moves) if self.royal else moves

    def _has_moves(self, pos: DescribedPosition) -> bool:
        moves = self.pseudo(pos)
        if self.royal:
            moves = self._safe(pos, moves)
        return bool(moves)

    def _safe(self, pos: DescribedPosition, moves: list[Move]) -> list[Move]:
        """The moves that leave none of the mover's royal pieces attacked.

        When the player is not in check, the probes from each royal piece read a known set of
        positions; a move that changes none of them and leaves the royal pieces where they
        are cannot expose one, so only the others are played out and probed again."""
        b = pos.board
        player = self.player(pos)
        kings = self.royal_squares(b, player)
        if not kings:  # a move may still put one down
            return self.placed_safe(pos, moves, player)
        self.hands_now = pos.hands
        lf, lt = pos.last_from, pos.last_to
        enemy = enemy_code(player, self.players)
        read = [0] * self.n
        checked = True
        alone: list[Any] = []
        if self.c.readers is not None and len(kings) == 1 and enemy >= 0:
            checked = bool(self.c.readers[enemy](b, kings[0], lf, lt, read))
            alone = self.c.programs_probed[enemy]
        safe = []
        for move in moves:
            path, _caps, effects, _pid = move
            again = -1  # every probe program
            if not checked and path and path[0] != kings[0]:
                again = 0
                for p, _ in effects:
                    again |= read[p]
                if not again:
                    safe.append(move)
                    continue
            undo = [(p, b[p]) for p, _ in effects]
            for p, v in effects:
                b[p] = v
            last_from, last_to = (path[0], path[-1]) if path else (lf, lt)
            ok = True
            if again > 0:  # the king stays: run again the programs that read what changed
                k = kings[0]
                while again:
                    low = again & -again
                    if alone[low.bit_length() - 1](b, k, last_from, last_to):
                        ok = False
                        break
                    again ^= low
            else:
                for k in [path[-1] if k == path[0] else k for k in kings] if path else kings:
                    if self.attacked(b, k, enemy, last_from, last_to):
                        ok = False
                        break
            for p, v in reversed(undo):
                b[p] = v
            if ok:
                safe.append(move)
        return safe

    # -- making moves ------------------------------------------------------------------

    def make(self, pos: DescribedPosition, move: Move) -> tuple[Any, ...]:
        """Play ``move`` on ``pos`` in place; returns what :meth:`unmake` needs."""
        b = pos.board
        path, caps, effects, pid = move
        undo: tuple[tuple[Any, ...], ...]
        if pos.under is not None:
            under = pos.under
            undo = tuple((p, b[p], under[p]) for p, *_ in effects)
            for p, v, stack in effects:  # type: ignore[misc]
                b[p] = v
                under[p] = stack
            effects = ()
        else:
            undo = tuple((p, b[p]) for p, _ in effects)
        saved = (undo, _saved_fields(pos))
        pos.mover = self.player(pos)
        moving = undo[0][1] if len(path) > 1 and undo else 0
        for p, v in effects:
            b[p] = v
        if self.limited_hands and pid >= 0:  # a drop from hand, pieces taken to hand
            self.hands.make(pos, move, undo)
        if path:
            pos.last_from, pos.last_to = (path[0], path[-1]) if len(path) > 1 else (-1, path[0])
        step = pos.turn
        if pid >= 0 and pid & LABELS:  # the move sends the turn to a label
            pos.turn = self.label_step(self.design.labels[((pid & LABELS) >> GOTO) - 1], step)
        elif pid < 0 or not pid & AGAIN:  # a sowing into one's store plays again
            pos.turn = self.next_turn(step)
        pos.plies += 1
        for label, cond in self.design.turn_jumps.get(step, ()):
            if self._holds(pos, cond, None, False):  # a phase ends
                pos.turn = self.label_step(label, step)
                break
        if self.quiet_limit:
            resets = bool(caps) or (moving and self.c.kind_of[moving] in self.quiet_types)
            pos.quiet = 0 if resets else pos.quiet + 1
        if self.repetition:
            # A capture or drop cannot be undone unless captures go to hand (shogi).
            reset = (bool(caps) or pid < 0 or len(path) == 1) and not self.hands.to_hand
            key = self.key(pos)
            pos.history = (key,) if reset else (*pos.history, key)
        return saved

    def unmake(self, pos: DescribedPosition, saved: tuple[Any, ...]) -> None:
        # The fields of _SAVED_FIELDS, in its order (tests/test_rules_language.py checks
        # it), assigned in one statement: a loop of setattr made perft some 5% slower, and
        # vars(pos).update slower still (a position's __dict__, once asked for, makes every
        # later attribute read on it slower).
        undo, (
            pos.turn, pos.last_from, pos.last_to, pos.hands, pos.plies, pos.quiet, pos.history,
            pos.mover,
        ) = saved  # fmt: skip
        b = pos.board
        if pos.under is not None:
            under = pos.under
            for p, v, stack in reversed(undo):
                b[p] = v
                under[p] = stack
            return
        for p, v in reversed(undo):
            b[p] = v

    # -- perft ---------------------------------------------------------------------------

    def perft(self, pos: DescribedPosition, depth: int) -> int:
        """Move paths of length ``depth`` (the game's stated convention for ended games)."""
        if depth == 0:
            return 1
        moves = self.legal(pos)
        ended = (
            not moves
            if self.design.perft_past_ends
            else self.outcome(pos, moves, perft=True) is not None
        )
        if ended:
            return 1 if self.design.perft_ended_leaves else 0
        if depth == 1 and not self._ends_after_move:
            return len(moves)
        total = 0
        for move in moves:
            saved = self.make(pos, move)
            total += self.perft(pos, depth - 1)
            self.unmake(pos, saved)
        return total


def _opposites(links: tuple[tuple[int, ...], ...]) -> list[int]:
    """For each direction, the direction that undoes it everywhere (-1 when none does)."""
    out = []
    for d, row in enumerate(links):
        found = -1
        for e, back in enumerate(links):
            if e == d:
                continue
            if all(q < 0 or back[q] == p for p, q in enumerate(row)) and any(q >= 0 for q in row):
                found = e
                break
        out.append(found)
    return out
