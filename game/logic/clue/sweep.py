"""The sweep behind :mod:`game.logic.clue.deduce`: the cards whose holder is open, one step
each, over a dense numpy state (each player's remaining hand space, each category's "envelope
still empty" flag, and one bit per open clause on the last axis).

Each step is a sum over the card's possible holders of a linear map on the state: shift the
holder's axis down by one, weigh, clear the bits of the clauses the choice satisfies, and drop
the states whose closing clauses are still unsatisfied. The forward pass counts the partial
deals; the adjoint maps carry the backward counts, and the count of a card at a holder is the
inner product of the two around that holder's map. Samples walk the steps choosing holders
in proportion to the backward counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = ["FreeCard", "Plan"]

Array: TypeAlias = npt.NDArray[np.float64]


@dataclass(eq=False)
class Plan:
    """The cards in sweep order with the forward states kept, for counts and sampling."""

    steps: list[FreeCard]
    shape: tuple[int, ...]
    start: tuple[int, ...]
    fixed: list[int]
    n_cards: int
    holders: int
    forward: list[Array] = field(default_factory=list)
    backward: list[Array] = field(default_factory=list)

    def run(self, counts: Array) -> float:
        f = np.zeros(self.shape)
        f[self.start] = 1.0
        forward = [f]
        for step in self.steps:
            f = step.apply_all(f)
            forward.append(f)
        end = (0,) * len(self.shape)
        total = float(f[end])
        if total <= 0:
            return 0.0
        b = np.zeros(self.shape)
        b[end] = 1.0
        backward = [b]
        # <L_h f, b> = <f, L_h^T b>: each holder's count comes from its backward term.
        for t in range(len(self.steps) - 1, -1, -1):
            step = self.steps[t]
            opened = _open(forward[t], step.opens, step.bit_axis)
            acc = np.zeros_like(b)
            for h, term in step.adjoint_terms(b):
                # Not np.vdot: BLAS threads spin, and tournament workers in parallel
                # processes then ran 8 times slower.
                counts[step.card, h] = float(np.multiply(opened, term).sum())
                acc += term
            b = _open_adjoint(acc, step.opens, step.bit_axis)
            backward.append(b)
        backward.reverse()
        for card, holder in enumerate(self.fixed):
            if holder >= 0:
                counts[card, holder] = total
        self.forward, self.backward = forward, backward
        return total

    def sample(self, k: int, gen: np.random.Generator) -> npt.NDArray[np.int64]:
        """``k`` deals at once: each sample walks the steps, choosing a holder with the
        chance of the deals that go on from there (the backward counts)."""
        out = np.zeros((k, self.n_cards), dtype=np.int64)
        for card, holder in enumerate(self.fixed):
            if holder >= 0:
                out[:, card] = holder
        coords = np.tile(np.array(self.start, dtype=np.int64), (k, 1))
        rows = np.arange(k)
        for t, step in enumerate(self.steps):
            b_next = self.backward[t + 1]
            bits = coords[:, -1]
            for bit in step.opens:
                bits |= 1 << bit
            options = []
            mass = np.zeros((k, len(step.holders)))
            for i, (weight, axis, clear) in enumerate(step.choices()):
                moved = coords.copy()
                ok = np.ones(k, dtype=bool)
                if axis >= 0:
                    moved[:, axis] -= 1
                    ok &= moved[:, axis] >= 0
                for bit in clear:
                    moved[:, -1] &= ~(1 << bit)
                for bit in step.closes:
                    ok &= (moved[:, -1] >> bit) & 1 == 0
                safe = np.where(ok[:, None], moved, 0)
                mass[:, i] = np.where(ok, weight * b_next[tuple(safe.T)], 0.0)
                options.append(moved)
            cumulative = np.cumsum(mass, axis=1)
            draw = gen.random(k) * cumulative[:, -1]
            chosen = np.minimum((cumulative <= draw[:, None]).sum(axis=1), len(options) - 1)
            out[:, step.card] = np.asarray(step.holders)[chosen]
            coords = np.stack(options)[chosen, rows]
        return out


@dataclass
class FreeCard:
    """One free card: before it, clauses open; it goes to one of its holders; after it,
    clauses close."""

    card: int
    holders: list[int]
    weights: list[float]
    axes: list[int]  # the state axis each holder's choice shifts (-1: none)
    satisfy: list[list[int]]  # per holder: the clause bits this choice clears
    keep_env: list[int]  # NotEnvelope bits that stay set only when the card goes to the envelope
    opens: list[int]  # bits to set before this card
    closes: list[int]  # bits to require clear after this card
    bit_axis: int
    env_holder: int

    def choices(self) -> list[tuple[float, int, list[int]]]:
        """Per holder: its weight, the axis it shifts and the bits it clears."""
        return [
            (w, axis, bits if h == self.env_holder else bits + self.keep_env)
            for h, w, axis, bits in zip(
                self.holders, self.weights, self.axes, self.satisfy, strict=True
            )
        ]

    def apply_all(self, f: Array) -> Array:
        f = _open(f, self.opens, self.bit_axis)
        acc = np.zeros_like(f)
        for w, axis, clear in self.choices():
            part = _shift_down(f, axis)
            if w != 1.0:
                part *= w
            for bit in clear:
                _clear_bit_here(part, bit, self.bit_axis)
            for bit in self.closes:
                _drop_bit_here(part, bit, self.bit_axis)
            acc += part
        return acc

    def adjoint_terms(self, b: Array) -> list[tuple[int, Array]]:
        """Per holder: its map's adjoint applied to ``b`` (before the clauses that open at
        this card, which all holders share)."""
        if self.closes:
            b = b.copy()
            for bit in self.closes:
                _drop_bit_here(b, bit, self.bit_axis)
        out = []
        for h, (w, axis, clear) in zip(self.holders, self.choices(), strict=True):
            g = b
            for bit in reversed(clear):
                g = _clear_bit_adjoint(g, bit, self.bit_axis)
            term = _shift_up(g, axis)
            if w != 1.0:
                term *= w
            out.append((h, term))
        return out


def _on_axis(ndim: int, axis: int, index: Any) -> tuple[Any, ...]:
    """An index that takes ``index`` on ``axis`` and every element on the other axes."""
    sel: list[Any] = [slice(None)] * ndim
    sel[axis] = index
    return tuple(sel)


def _shift_down(f: Array, axis: int) -> Array:
    """One less space on ``axis``: new[k] = old[k + 1]."""
    out = np.zeros_like(f)
    out[_on_axis(f.ndim, axis, slice(None, -1))] = f[_on_axis(f.ndim, axis, slice(1, None))]
    return out


def _shift_up(g: Array, axis: int) -> Array:
    out = np.zeros_like(g)
    out[_on_axis(g.ndim, axis, slice(1, None))] = g[_on_axis(g.ndim, axis, slice(None, -1))]
    return out


def _bit_halves(f: Array, bit: int, axis: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The indexes ``(off, on)`` of the entries on ``axis`` with ``bit`` clear and set, in
    pairs: the n-th of ``off`` is the n-th of ``on`` without the bit."""
    idx = np.arange(f.shape[axis])
    on = idx[(idx >> bit) & 1 == 1]
    return _on_axis(f.ndim, axis, on ^ (1 << bit)), _on_axis(f.ndim, axis, on)


def _clear_bit_adjoint(g: Array, bit: int, axis: int) -> Array:
    off, on = _bit_halves(g, bit, axis)
    out = g.copy()
    out[on] = g[off]
    return out


def _clear_bit_here(f: Array, bit: int, axis: int) -> None:
    off, on = _bit_halves(f, bit, axis)
    f[off] += f[on]
    f[on] = 0.0


def _drop_bit_here(f: Array, bit: int, axis: int) -> None:
    _, on = _bit_halves(f, bit, axis)
    f[on] = 0.0


def _open(f: Array, bits: list[int], axis: int) -> Array:
    """Set ``bits`` (they are clear in every state now)."""
    for bit in bits:
        off, on = _bit_halves(f, bit, axis)
        out = np.zeros_like(f)
        out[on] = f[off]
        f = out
    return f


def _open_adjoint(g: Array, bits: list[int], axis: int) -> Array:
    for bit in reversed(bits):
        off, on = _bit_halves(g, bit, axis)
        out = np.zeros_like(g)
        out[off] = g[on]
        g = out
    return g
