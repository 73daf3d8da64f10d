"""Priests and Devils: the statistics table, one row per setting played.

The river controller counts each finished game under ``river:`` and the key of its rules
(``river:3/3/2``, ``river:3/3/2 boat_counts=no rowers=devils``), so every combination of
team sizes, seats and variants has its own games played, won and lost and its own best
(fewest crossings in a game won without Next step or Solve). :func:`statistics_sheet` lays
them out as the HUD's sheet, the current setting first; the rows of two keys that name the
same rules (an earlier version's ``boat-apart`` and today's ``boat_counts=no``) are one row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from game.engine.controller import Cell, Sheet
from game.logic.river.game import RiverRules, RiverSettingError
from game.settings import GameStats

__all__ = ["PREFIX", "statistics_sheet", "stats_key"]

#: Every river statistics key starts with this.
PREFIX = "river:"

_HERE = (54, 92, 150, 255)  # the current setting's row


def stats_key(rules: RiverRules) -> str:
    """The statistics key of games played with ``rules``: ``river:3/3/2``."""
    return PREFIX + rules.key()


def statistics_sheet(
    records: Mapping[str, GameStats], current: RiverRules, optimum: int | None
) -> Sheet:
    """The table: rules, played, won, lost, best; the ``current`` rules' row first (also
    before its first game), then the others, most played first. A key the rules cannot read
    (a hand-edited file) is shown as it is. ``optimum``: the fewest crossings possible with
    the current rules (None: no way across), for the footer."""
    here = stats_key(current)
    records = _merged(records)
    rows = [_row(here, records.get(here, GameStats()), current, bold=True)]
    others = sorted(
        ((key, record) for key, record in records.items() if key != here),
        key=lambda item: (-item[1].played, item[0]),
    )
    rows.extend(_row(key, record, _rules(key), bold=False) for key, record in others)
    best = "no way across" if optimum is None else f"{optimum} crossings"
    footer = (
        f"Fewest possible with these rules: {best}.",
        "Best: fewest crossings in a win without Next step or Solve.",
        "P priests, D devils; boat counts no: passengers count for no bank;",
        "priests row: a priest must be aboard to cross; goal priests:",
        "every priest across wins.  T hides this table.",
    )
    header = tuple(Cell(text, bold=True) for text in ("Rules", "Played", "Won", "Lost", "Best"))
    return Sheet("Statistics", header, tuple(rows), footer)


def _merged(records: Mapping[str, GameStats]) -> dict[str, GameStats]:
    """``records`` with each key the rules can read written as :meth:`RiverRules.key` writes it
    today, the records of keys that name the same rules added up (the fewest crossings kept
    for each setting); a key they cannot read is kept as it is."""
    out: dict[str, GameStats] = {}
    for key, record in records.items():
        rules = _rules(key)
        setting = key[len(PREFIX) :]
        if rules is not None and rules.key() != setting:
            best = {rules.key() if k == setting else k: v for k, v in record.best.items()}
            key, setting = stats_key(rules), rules.key()
        else:
            best = dict(record.best)
        total = out.get(key)
        if total is None:
            out[key] = replace(record, best=best)
            continue
        total.played += record.played
        total.won += record.won
        total.lost += record.lost
        total.drawn += record.drawn
        for where, score in best.items():
            total.best[where] = min(score, total.best.get(where, score))
    return out


def _rules(key: str) -> RiverRules | None:
    try:
        return RiverRules.from_key(key[len(PREFIX) :])
    except RiverSettingError:
        return None


def _row(key: str, record: GameStats, rules: RiverRules | None, *, bold: bool) -> tuple[Cell, ...]:
    setting = key[len(PREFIX) :]
    name = rules.short() if rules is not None else setting
    best = record.best.get(setting)
    fill = _HERE if bold else None
    texts = (
        name,
        str(record.played),
        str(record.won),
        str(record.lost),
        "-" if best is None else str(best),
    )
    return tuple(Cell(text, fill=fill, bold=bold) for text in texts)
