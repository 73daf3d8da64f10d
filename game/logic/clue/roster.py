"""The computer players Cluedo offers, by name: one table read by the registry, the
tournament runner and the window.

>>> sorted(AGENTS)[:2]
['article', 'article-bluff']
>>> make_agent("article").name
'article'
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from game.logic.quoting import excerpt

__all__ = ["AGENTS", "UnknownDetectiveError", "describe", "make_agent"]


class UnknownDetectiveError(ValueError):
    """A computer player's name that Cluedo does not have."""


#: name -> (module:class, one line about it)
AGENTS: Final[dict[str, tuple[str, str]]] = {
    "random": (
        "game.logic.clue.agents:GuessingAgent",
        "names random cards it has not seen; accuses when the notebook is sure",
    ),
    "article": (
        "game.logic.clue.agents:ArticleAgent",
        "the classic notebook: names the cards most players lack; accuses when sure",
    ),
    "exact-article": (
        "game.logic.clue.exact:ExactArticleAgent",
        "exact deduction with the classic choices: names the cards most seats lack",
    ),
    "full": (
        "game.logic.clue.exact:FullAgent",
        "exact deduction, reads the others' suggestions, aims at the envelope, risks an "
        "accusation when an opponent is close",
    ),
    "full-safe": (
        "game.logic.clue.exact:SafeFullAgent",
        "full, accusing only when certain",
    ),
    "article-bluff": (
        "game.logic.clue.agents:BluffAgent",
        "the classic notebook, naming one of its own cards a quarter of the time",
    ),
}


def describe() -> dict[str, str]:
    return {name: about for name, (_, about) in AGENTS.items()}


def make_agent(name: str) -> Any:
    """A fresh agent called ``name``; raises :class:`UnknownDetectiveError`."""
    if name not in AGENTS:
        raise UnknownDetectiveError(
            f"Cluedo has no computer player {excerpt(name)}; the players are: {', '.join(AGENTS)}"
        )
    module, _, cls = AGENTS[name][0].partition(":")
    return getattr(importlib.import_module(module), cls)()
