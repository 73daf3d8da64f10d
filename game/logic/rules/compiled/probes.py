"""The compiled back end's attack probes, written once for every attacker (the attacker
``p`` their last argument): ``P(b, f, lf, lt, p)``, whether ``p`` could capture on ``f``, and
``R(b, f, lf, lt, m, p)``, the same noting in ``m`` a bit per probe program at each position
it reads (see :mod:`game.logic.rules.attacks`, which writes each program's backward walk).

Programs whose walks differ only in the directions they step along (a rook's four slides, a
knight's eight leaps) are one loop over a table of their directions, each pass reading its
own table of the pieces that make the capture: numba compiles one walk instead of eight.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

__all__ = ["shared_probes"]

#: A direction a walk steps along: the local ``_d<word index>`` its function reads from SYM.
_DIRECTION: Final = re.compile(r"\b_d(\d+)\b")


def _shape(code: Sequence[Any]) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """``code`` with its directions numbered in the order it first names them (``_e<i>``),
    and those directions."""
    found: list[int] = []

    def slot(match: re.Match[str]) -> str:
        d = int(match.group(1))
        if d not in found:
            found.append(d)
        return f"_e{found.index(d)}"

    shape = tuple(_DIRECTION.sub(slot, line) if isinstance(line, str) else line for line in code)
    return shape, tuple(found)


def shared_probes(
    order: Sequence[Sequence[Any]], every: int, words: int, lines: list[str], ns: dict[str, Any]
) -> None:
    """Append ``P`` and ``R`` for the probe programs ``order`` (each a walk's code: lines, and
    slots with ``indent`` and ``hit``; program ``g``'s pieces in ``ns["AH<g>"][p]``);
    ``every``: every program's bit; ``words``: the board's direction words. Programs of one
    shape are one loop (tables ``PD<n>[k]`` its directions, ``PH<n>[k, p]`` its pieces,
    ``PB<n>[k]`` its bit)."""
    families: dict[tuple[Any, ...], list[tuple[int, tuple[int, ...]]]] = {}
    for g, code in enumerate(order):
        shape, directions = _shape(code)
        families.setdefault(shape, []).append((g, directions))
    for name in ("P", "R"):
        lines.append(f"def {name}(b, f, lf, lt{', m' if name == 'R' else ''}, p):")
        lines += ["    q = 1 - p", *(f"    _d{d} = SYM[p, {d}]" for d in range(words))]
        if name == "R":
            lines.append(f"    m[f] = {every}")
        for n, (shape, members) in enumerate(families.items()):
            if len(members) == 1:
                g = members[0][0]
                code, pad, hit, bit = order[g], "", f"AH{g}[p, b[c]]", str(1 << g)
            else:
                ns[f"PD{n}"] = tuple(directions for _, directions in members)
                ns[f"PH{n}"] = tuple(ns[f"AH{g}"] for g, _ in members)
                ns[f"PB{n}"] = tuple(1 << g for g, _ in members)
                code, pad, hit, bit = shape, "    ", f"PH{n}[_k, p, b[c]]", f"PB{n}[_k]"
                lines.append(f"    for _k in range({len(members)}):")
                lines += [
                    f"        _e{i} = SYM[p, PD{n}[_k, {i}]]" for i in range(len(members[0][1]))
                ]
            for line in code:
                if isinstance(line, str):
                    lines.append(pad + line)
                elif line.hit:
                    lines.append(pad + "    " * line.indent + f"if {hit}:")
                elif name == "R":
                    lines.append(pad + "    " * line.indent + f"m[c] |= {bit}")
        lines.append("    return False")
