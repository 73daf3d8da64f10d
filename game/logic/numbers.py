"""The one reader of numbers a person types: command-line flags, ``--set``, option values
typed as text, ``--do`` items' arguments, console lines and case files.

Python's ``int()`` and ``float()`` take more than a person means: Arabic-Indic and
full-width digits (``int("١٢")`` is 12), superscripts that ``str.isdigit()`` accepts but
``int()`` refuses (``"²"``), underscores (``"1_0"``), ``nan`` and ``inf``, and thousands of
digits. Here a number is ASCII only: an optional sign and at most :data:`MOST_DIGITS` digits
(with a decimal point and an exponent for :func:`decimal`), spaces around allowed; every
reader takes its range, and a refusal quotes a short excerpt of what was typed.

>>> whole_number("12", 0, 20)
12
>>> whole_number("١٢", 0, 20)
Traceback (most recent call last):
...
game.logic.numbers.NumberError: must be a whole number from 0 to 20, not '١٢'
>>> decimal("0.5", 0.0, 3600.0, above=True)
0.5
>>> parse_whole("1_0") is None
True
"""

from __future__ import annotations

import math
import re
from typing import Final

from game.logic.quoting import excerpt

__all__ = ["MOST_DIGITS", "NumberError", "decimal", "parse_decimal", "parse_whole", "whole_number"]

#: The most digits a typed number may have (a seed of 2**63 - 1 has 19).
MOST_DIGITS: Final = 30

_WHOLE = re.compile(rf"\s*([-+]?[0-9]{{1,{MOST_DIGITS}}})\s*", re.ASCII)
_DECIMAL = re.compile(
    rf"\s*([-+]?(?:[0-9]{{1,{MOST_DIGITS}}}(?:\.[0-9]{{0,{MOST_DIGITS}}})?"
    rf"|\.[0-9]{{1,{MOST_DIGITS}}})(?:[eE][-+]?[0-9]{{1,3}})?)\s*",
    re.ASCII,
)


class NumberError(ValueError):
    """Text that is not a number of the kind asked for, or one out of its range."""


def parse_whole(text: str) -> int | None:
    """The whole number ``text`` spells in ASCII digits (a sign and spaces around allowed),
    or None.

    >>> parse_whole(" -7 "), parse_whole("7.0"), parse_whole("²"), parse_whole("１")
    (-7, None, None, None)
    """
    match = _WHOLE.fullmatch(text) if isinstance(text, str) else None
    return int(match[1]) if match else None


def parse_decimal(text: str) -> float | None:
    """The finite number ``text`` spells (``3``, ``-0.25``, ``.5``, ``1e-3``), or None:
    ASCII only, no ``nan``, ``inf`` or ``_``, nothing that overflows.

    >>> parse_decimal("1e-3"), parse_decimal("nan"), parse_decimal("1e999"), parse_decimal("٣")
    (0.001, None, None, None)
    """
    match = _DECIMAL.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    value = float(match[1])
    return value if math.isfinite(value) else None


def whole_number(text: str, minimum: int, maximum: int) -> int:
    """The whole number ``text`` spells, from ``minimum`` to ``maximum``; raises
    :class:`NumberError` saying the range and quoting (a short excerpt of) the text."""
    value = parse_whole(text)
    if value is None or not minimum <= value <= maximum:
        raise NumberError(
            f"must be a whole number from {minimum} to {maximum}, not {excerpt(text)}"
        )
    return value


def decimal(text: str, minimum: float, maximum: float, *, above: bool = False) -> float:
    """The number ``text`` spells, from ``minimum`` (``above``: more than it) to
    ``maximum``; raises :class:`NumberError` saying the range and quoting the text."""
    value = parse_decimal(text)
    low_ok = value is not None and (value > minimum if above else value >= minimum)
    if value is None or not low_ok or value > maximum:
        low = f"above {_num(minimum)}" if above else f"from {_num(minimum)}"
        raise NumberError(f"must be a number {low} to {_num(maximum)}, not {excerpt(text)}")
    return value


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
