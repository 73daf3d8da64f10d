"""One line of stderr for a message, however long: the dispatcher (:mod:`game.cli`) and the
commands that report their own errors (:mod:`game.cli.shot`, :mod:`game.cli.tournament`) cut
what they print with :func:`shorten`. It lives apart from the dispatcher, which imports those
commands, so that they need not import it back."""

from __future__ import annotations

import re

from game.logic.quoting import EXCERPT, clip

__all__ = ["LONGEST_LINE", "LONG_WORD", "shorten"]

#: The longest word (characters without a space) an error line repeats whole.
LONG_WORD = 240
#: The most characters of one error line (the list of every game fits).
LONGEST_LINE = 1500


def shorten(message: str) -> str:
    """``message`` fit for one line of stderr: each run of more than :data:`LONG_WORD`
    characters without a space (a 100 KB argument echoed by argparse or a schema) cut to an
    excerpt with its length, then the whole cut to :data:`LONGEST_LINE` characters."""

    def cut(match: re.Match[str]) -> str:
        word = match[0]
        return f"{word[:EXCERPT]}... ({len(word):,} characters)"

    return clip(re.sub(rf"\S{{{LONG_WORD + 1},}}", cut, message), LONGEST_LINE)
