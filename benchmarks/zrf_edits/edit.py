"""The form of one entry (:class:`Edit`) and the pieces of ZRF text several entries write."""

from __future__ import annotations

from typing import NamedTuple


class Edit(NamedTuple):
    """One variant (``path`` under the corpus root, ``index`` as perft.tsv's
    ``variant_index``), what the script changes (``why``), and the change written into the
    file's text: each ``(old, new)`` pair replaces every occurrence of ``old``, which must be
    there."""

    path: str
    index: int
    why: str
    changes: tuple[tuple[str, str], ...]

    def apply(self, text: str) -> str:
        """The file's text with the changes made; raises ValueError naming a missing text."""
        for old, new in self.changes:
            if old not in text:
                raise ValueError(f"no {old!r} in {self.path}")
            text = text.replace(old, new)
        return text


def turns(*steps: str | tuple[str, str, int]) -> str:
    """A ``turn-order`` form: a text step as it is, ``(PLAYER TYPE N)`` as N turns of
    PLAYER, each restricted to move type TYPE (an empty TYPE: any of the player's types)."""
    words: list[str] = []
    for step in steps:
        if isinstance(step, str):
            words.append(step)
        else:
            player, kind, count = step
            words.extend([f"({player} {kind})" if kind else player] * count)
    return f"(turn-order {' '.join(words)})"


def after(anchor: str, *lines: str) -> tuple[str, str]:
    """A change that writes ``lines`` (each a form of the game) on new lines after
    ``anchor``."""
    return anchor, anchor + "".join("\n  " + line for line in lines)


PASS_PARTIAL = '(option "pass partial" true)'
PASS_FORCED = '(option "pass turn" forced)'
SHARED = '(option "shared pieces" true)'
