"""Quoting what a person typed in a message, however long it was.

A refusal names the bad value, but a one-megabyte line or a 100 KB argument echoed whole
makes a message nobody can read (and a banner that takes a minute to lay out): messages quote
:func:`excerpt` of the text, and :func:`clip` bounds a whole message that may hold text from
elsewhere.

>>> excerpt("rope")
"'rope'"
>>> excerpt("x" * 100_000)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (100,000 characters)"
>>> len(clip("y" * 10_000)) <= CLIP
True
"""

from __future__ import annotations

from typing import Final

__all__ = ["CLIP", "EXCERPT", "clip", "excerpt"]

#: The most characters of a typed value a message quotes.
EXCERPT: Final = 32
#: The most characters of a whole message (one line on a terminal or in the banner).
CLIP: Final = 400


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted as Python would (``repr``), cut after ``limit`` characters with the
    full length said; control characters and the like stay escaped."""
    if len(text) <= limit:
        return repr(text)
    quoted = repr(text[:limit])
    return f"{quoted[:-1]}...{quoted[-1]} ({len(text):,} characters)"


def clip(message: str, limit: int = CLIP) -> str:
    """``message`` cut to at most ``limit`` characters, its cut said with ``...``."""
    if len(message) <= limit:
        return message
    tail = f"... ({len(message):,} characters)"
    return message[: max(0, limit - len(tail))] + tail
