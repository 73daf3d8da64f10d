"""Opening a long Cluedo case file: what reading it, deducing its notebook and opening it
in the assistant's scene take, and what a case file with a one-megabyte line costs.

    python benchmarks/clue_load.py                    # 2,000 events, 4 seats
    python benchmarks/clue_load.py --events 5000 --seats 6

The case is :func:`game.logic.clue.bench.long_case`: seat 0's view of random suggestions
answered as the rules ask. Two lines::

    events=2000 seats=4 bytes=... read_ms=... notebook_ms=... sweeps=... open_ms=...
        why_ms=... why_sweeps=... why_events=...
    bad_line_bytes=1000000 open_ms=... banner_chars=...

- ``read_ms``: the case file's text to a view (:func:`~game.logic.clue.record.loads`);
- ``notebook_ms``, ``sweeps``: the view's notebook (every probability) and the sweeps of
  the deals it took (two when the events agree: the hand's, then all the events');
- ``why_ms``, ``why_sweeps``, ``why_events``: why a cell the events decide is so (the
  events that decide it, none unneeded; the console's ``why`` and the window's click);
- ``open_ms``: the assistant's scene made with ``--case FILE`` (headless: the file read,
  checked and its notebook worked out, as the window does before its first frame);
- the second line: a case file whose event line is a megabyte long; ``banner_chars`` is the
  length of the banner that names the mistake (a short excerpt, not the line).

The milliseconds are this machine's at its load; ``sweeps`` does not depend on it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.games.clue.assistant import AssistantController  # noqa: E402
from game.logic.clue import deduce  # noqa: E402
from game.logic.clue.bench import long_case  # noqa: E402
from game.logic.clue.notebook import Notebook  # noqa: E402
from game.logic.clue.record import dumps, loads  # noqa: E402
from game.registry import MemorySession  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    text = dumps(long_case(args.events, args.seats))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.txt"
        path.write_text(text, encoding="utf-8")
        started = time.perf_counter()
        view = loads(text)
        read = time.perf_counter()
        sweeps = _counting_sweeps()
        Notebook.of(view)
        deduced = time.perf_counter()
        count = sweeps[0]
        book = Notebook.of(view)
        card, seat = next(
            (c, s) for c in range(view.deck.n_cards) if c not in view.hand
            for s in range(1, view.seats) if not book.possible(c, s)
        )  # fmt: skip  # a cell the events decide
        sweeps[0] = 0
        asked = time.perf_counter()
        reasons = book.why(card, seat)
        why_ms, why_sweeps = 1000 * (time.perf_counter() - asked), sweeps[0]
        opened_at = time.perf_counter()
        scene = AssistantController(MemorySession(), case=str(path), assistant=True)
        opened = time.perf_counter()
        assert len(scene.events) == args.events, scene.message
        print(
            f"events={args.events} seats={args.seats} bytes={len(text.encode())} "
            f"read_ms={1000 * (read - started):.0f} notebook_ms={1000 * (deduced - read):.0f} "
            f"sweeps={count} open_ms={1000 * (opened - opened_at):.0f} "
            f"why_ms={why_ms:.0f} why_sweeps={why_sweeps} why_events={len(reasons)}",
            flush=True,
        )
        head = text.split("suggest", 1)[0]
        bad = head + "suggest 1: Plum, Rope, " + "x" * 1_000_000 + "\n"
        path.write_text(bad, encoding="utf-8")
        started = time.perf_counter()
        scene = AssistantController(MemorySession(), case=str(path), assistant=True)
        opened = time.perf_counter()
        print(
            f"bad_line_bytes=1000000 open_ms={1000 * (opened - started):.0f} "
            f"banner_chars={len(scene.message)}",
            flush=True,
        )
    return 0


def _counting_sweeps() -> list[int]:
    """A counter of ``deduce._solve`` calls from now on (the sweeps of the deals)."""
    count = [0]
    solve = deduce._solve

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        count[0] += 1
        return solve(*args, **kwargs)

    deduce._solve = counted  # type: ignore[assignment]
    return count


if __name__ == "__main__":
    raise SystemExit(main())
