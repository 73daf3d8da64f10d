"""The ZRF reader on the corpus (``../shared/zrf/``): every file and variant loaded, played
and counted. Prints one line per variant and a summary line last:

    .venv/bin/python benchmarks/zrf_corpus.py --jobs 4
    .venv/bin/python benchmarks/zrf_corpus.py --match checkers/ --max-nodes 100000

For each game of each ``.zrf`` file (``--root``, every folder below it; ``--match`` keeps the
paths holding a text), in the order of ``perft.tsv``'s ``variant_index``:

- **loaded**: the file read as ``gamehall rules perft FILE.zrf`` reads it (its includes from
  the same folder) and compiled, or ``refused(REASON)`` with the reader's message;
- **played=K**: K random moves (at most ``--moves``, 200 by default, or to the game's end),
  seeded by ``--seed``, each one's text written as the move list writes it; an error on the
  way is ``played=K!(REASON)``;
- **counts**: for every depth of ``perft.tsv``'s rows, our perft at that depth from the
  start equals its plain count (``nodes``, where its status is ``ok``) or, where the file
  relies on a rule the plain engine leaves out (``checkmated``) or the extensions changed no
  count where both were made, its count with its rule extensions (:func:`reference`): ``equal``,
  ``differs(d3: OURS/THEIRS)`` at the first depth that differs, or ``none`` (no row, or
  every row over ``--max-nodes``, which are skipped, not compared). An error or a variant's
  time out (``--timeout`` seconds for the whole variant) is named, not raised;
- **as_edited**: where the counts differ and ``zrf_edits/`` says how the other
  program's compiled script is another game than the file (a turn order, an option, a set-up
  the file does not hold), the same counts on the file with that change written in:
  ``as_edited=equal`` shows that both programs count the same game alike, and that the
  difference is the script's, not the reading's.

Lines come in file order as the worker processes (``--jobs``) finish them. The refusals
grouped by reason (the 20 most common, with an example) go to stderr; the last line is
``variants=N loaded=L counts_equal=E compared=C equal_as_edited=D played=P no_first_move=Z
skipped_rows=S seconds=T``: C variants had a count compared, D of the C - E that differ are
equal on the file as the other program's script changed it, P loaded and played with no
error (Z of them have no move at the start, a sign of a rule read wrongly where the game has
one), S rows were over ``--max-nodes``.
"""

from __future__ import annotations

import argparse
import collections
import csv
import multiprocessing
import random
import signal
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.games.rules.file import zrf_file  # noqa: E402
from game.logic.contract import CHANCE, sample_chance  # noqa: E402
from game.logic.rules.catalogue import rulebook_for_zrf  # noqa: E402
from game.logic.rules.rulebook import Rulebook  # noqa: E402
from game.logic.rules.sexpr import DescriptionError  # noqa: E402
from game.logic.rules.state import RulesGame  # noqa: E402
from game.logic.zrf.load import variants  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from zrf_edits import EDITS, Edit  # noqa: E402

#: A reason shown in a line: its first characters.
SHOWN = 90
#: What the reader says of a file with no ``(game ...)``: no variant, not a refusal.
NO_GAME = "the file has no (game ...) form"


@dataclass
class Task:
    """One variant to measure: the file (relative to the root), its index, and the
    reference counts by depth (each depth's acceptable counts: plain and extended)."""

    root: str
    path: str
    index: int
    refs: dict[int, dict[str, set[int]]] = field(default_factory=dict)
    refused: str = ""  # the file's games could not be listed: this is why
    edit: Edit | None = None  # how the other program's script changed the file, if it did


@dataclass
class Result:
    path: str
    index: int
    loaded: bool = False
    reason: str = ""
    played: int = 0
    play_error: str = ""
    counts: str = "none"
    skipped: int = 0
    as_edited: str = ""  # the counts on the file as the other program's script changed it

    def line(self) -> str:
        head = f"{self.path}#{self.index}"
        if not self.loaded:
            return f"{head} refused({self.reason})"
        played = f"played={self.played}" + (f"!({self.play_error})" if self.play_error else "")
        skipped = f" skipped={self.skipped}" if self.skipped else ""
        edited = f" as_edited={self.as_edited}" if self.as_edited else ""
        return f"{head} loaded {played} counts={self.counts}{skipped}{edited}"


class OutOfTime(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise OutOfTime


def _why(exc: BaseException) -> str:
    """A refusal's reason: the message without the ``file:line:column:`` it starts with."""
    if isinstance(exc, OutOfTime):
        return "out of time"
    text = exc.reason if isinstance(exc, DescriptionError) else f"{type(exc).__name__}: {exc}"
    return " ".join(text.split())[:SHOWN]


def reference(root: Path, match: str) -> dict[tuple[str, int], dict[int, dict[str, set[int]]]]:
    """The counts of ``perft.tsv`` by (file, variant), depth and page that our count may
    equal (one variant's pages may be different set-ups: a variant is equal when its counts
    equal one page's at every depth that page has).

    The plain count (``nodes``) where its status is ``ok``. The count with the other
    program's rule extensions (``ext_nodes``) where the file relies on a Zillions rule the
    plain engine leaves out (``checkmated``: moves that leave the piece attacked are not
    made), or where the extensions change no count at the depths where both were counted
    (``ext_vs_bare`` is ``same`` on every such row): elsewhere they add rules that are not in
    the file (gravity in Connect Four, whole blocks in the sliding puzzles) and are no
    reference for it.
    """
    table = root / "perft.tsv"
    if not table.exists():
        return {}
    rows: dict[tuple[str, int], list[dict[str, str]]] = collections.defaultdict(list)
    with table.open(encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh, delimiter="\t"):
            if match in r["zrf_path"]:
                rows[(r["zrf_path"], int(r["variant_index"]))].append(r)
    out: dict[tuple[str, int], dict[int, dict[str, set[int]]]] = {}
    for (path, index), found in rows.items():
        file = root / path
        text = file.read_bytes().decode("latin-1") if file.exists() else ""
        both = [r for r in found if r["status"] == "ok" and r["ext_status"] == "ok"]
        ext_fits = "checkmated" in text or (
            bool(both) and all(r["ext_vs_bare"] == "same" for r in both)
        )
        depths = out[(path, index)] = {}
        for r in found:
            counts = depths.setdefault(int(r["depth"]), {}).setdefault(r["page"], set())
            if r["status"] == "ok" and r["nodes"]:
                counts.add(int(r["nodes"]))
            if r["ext_status"] == "ok" and r["ext_nodes"] and ext_fits:
                counts.add(int(r["ext_nodes"]))
    return out


def tasks(root: Path, match: str) -> Iterator[Task]:
    """Every variant of every file under ``root`` whose path holds ``match``."""
    refs = reference(root, match)
    edits = {(e.path, e.index): e for e in EDITS}
    for file in sorted(root.rglob("*.zrf")):
        path = file.relative_to(root).as_posix()
        if match not in path:
            continue
        try:
            text, source, _, include = zrf_file(file)
            found = [v.index for v in variants(text, source, include)]
        except Exception as exc:  # the file's games cannot be listed: one refused variant
            if NO_GAME in str(exc):  # a file only included by others (common.zrf)
                print(f"{path}: no game (a file other files include)", file=sys.stderr)
            else:
                yield Task(str(root), path, 0, refused=_why(exc))
            continue
        for index in found:
            edit = edits.get((path, index))
            yield Task(str(root), path, index, refs.get((path, index), {}), edit=edit)


def measure(task: Task, moves: int, seed: int, max_nodes: int, timeout: int) -> Result:
    """Load, play and count one variant within ``timeout`` seconds; every error is named in
    the result."""
    result = Result(task.path, task.index, reason=task.refused)
    if task.refused:
        return result
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        _measure(task, result, moves, seed, max_nodes)
    except OutOfTime:  # between two steps: the step that ran names it
        pass
    finally:
        signal.alarm(0)
    return result


def _measure(task: Task, result: Result, moves: int, seed: int, max_nodes: int) -> None:
    try:
        rulebook = rulebook_for_zrf(*zrf_file(Path(task.root) / task.path, task.index))
    except Exception as exc:
        result.reason = _why(exc)
        return
    result.loaded = True
    try:
        game = RulesGame(rulebook)
        rng = random.Random(seed * 1_000_003 + task.index)
        state = game.initial_state(rng)
        while result.played < moves and not state.is_terminal():
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            action = rng.choice(list(state.legal_actions()))
            state.action_text(action)  # as the move list writes it
            state = state.apply(action)
            result.played += 1
    except Exception as exc:
        result.play_error = _why(exc)
        if isinstance(exc, OutOfTime):
            return
    result.counts, result.skipped = compare(rulebook, task.refs, max_nodes)
    if task.edit is not None and result.counts.startswith("differs"):
        try:
            text, source, index, include = zrf_file(Path(task.root) / task.path, task.index)
            edited = rulebook_for_zrf(task.edit.apply(text), source, index, include)
            result.as_edited = compare(edited, task.refs, max_nodes)[0]
        except Exception as exc:
            result.as_edited = f"error({_why(exc)})"


def compare(
    rulebook: Rulebook, refs: dict[int, dict[str, set[int]]], max_nodes: int
) -> tuple[str, int]:
    """Our perft against the reference counts by depth and page: ``equal`` (every depth of
    one page), ``differs(dD: OURS/THEIRS)`` at the first depth no page still in the running
    has, ``error(...)``, or ``none``; and how many depths were over ``max_nodes``."""
    counts, skipped = "none", 0
    alive: set[str] | None = None  # the pages every count so far equals
    for depth in sorted(refs):
        pages = {page: n for page, n in refs[depth].items() if n}
        theirs = set().union(*pages.values()) if pages else set()
        if not theirs or (alive is not None and not alive & set(pages)):
            continue  # no row here, or only rows of pages already ruled out
        if min(theirs) > max_nodes:
            skipped += 1
            continue
        try:
            ours = rulebook.perft(rulebook.start(), depth)
        except Exception as exc:
            return f"error(d{depth}: {_why(exc)})", skipped
        fits = {page for page, n in pages.items() if ours in n}
        known = set(pages) if alive is None else alive
        if not fits & known and not (known - set(pages)):
            shown = "/".join(str(n) for n in sorted(theirs))
            return f"differs(d{depth}: {ours}/{shown})", skipped
        alive = (fits & known) | (known - set(pages))
        counts = "equal"
    return counts, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT.parent / "shared" / "zrf")
    parser.add_argument("--match", default="", metavar="SUBSTRING", help="paths holding this")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--moves", type=int, default=200, help="random moves played a variant")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-nodes", type=int, default=2_000_000, help="larger rows: skipped")
    parser.add_argument("--timeout", type=int, default=300, help="seconds a variant may take")
    args = parser.parse_args(argv)
    if not args.root.is_dir():
        print(f"zrf_corpus: no folder {args.root}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    todo = list(tasks(args.root, args.match))
    work = [(t, args.moves, args.seed, args.max_nodes, args.timeout) for t in todo]
    results: list[Result] = []
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=20) as pool:
            for result in pool.imap(_measure_one, work, chunksize=1):
                print(result.line(), flush=True)
                results.append(result)
    else:
        for item in work:
            result = _measure_one(item)
            print(result.line(), flush=True)
            results.append(result)
    refusals = collections.Counter(r.reason for r in results if not r.loaded)
    example: dict[str, str] = {}
    for r in results:
        example.setdefault(r.reason, f"{r.path}#{r.index}")
    print(f"refusals by reason ({sum(refusals.values())} variants):", file=sys.stderr)
    for group, count in refusals.most_common(20):
        print(f"{count:5} {group} (first: {example[group]})", file=sys.stderr)
    loaded = sum(r.loaded for r in results)
    equal = sum(r.counts == "equal" for r in results)
    compared = sum(r.counts != "none" for r in results)
    as_edited = sum(r.as_edited == "equal" for r in results)
    played = sum(r.loaded and not r.play_error for r in results)
    skipped = sum(r.skipped for r in results)
    stuck = sum(r.loaded and not r.played and not r.play_error for r in results)
    seconds = time.perf_counter() - started
    print(
        f"variants={len(results)} loaded={loaded} counts_equal={equal} compared={compared} "
        f"equal_as_edited={as_edited} played={played} no_first_move={stuck} "
        f"skipped_rows={skipped} seconds={seconds:.0f}"
    )
    return 0


def _measure_one(item: tuple[Task, int, int, int, int]) -> Result:
    return measure(*item)


if __name__ == "__main__":
    sys.exit(main())
