"""Our exact endgame solver against Edax 4.6 on the same positions: time and node ratios.

Run (Edax is never part of this repository; the script takes its paths from the environment)::

    EDAX=/path/to/edax/bin/lEdax-native EDAX_EVAL=/path/to/eval.dat \\
        python benchmarks/reversi_edax.py [--ffo 40 41 42 43 44] [--random24 N --seed S]
    EDAX=/path/to/edax/bin/lEdax-native python benchmarks/reversi_edax.py --zero /tmp/edax-zero

Edax 4.6 builds from its public repository with ``make build CC=gcc ARCH=native OS=linux`` in
its ``src/``; the binary lands in its ``bin/`` (``lEdax-native``). ``EDAX_EVAL`` names the
evaluation file Edax reads (its ``-eval-file`` option). ``--zero DIR`` instead writes an
all-zero evaluation file to ``DIR/data/eval.dat`` and uses it: Edax's search then gets no help
from its learned evaluation (its other move-ordering rules stay), so the comparison is search
against search. When a path is missing or wrong the script says which variable to set and
exits with status 2.

Each position goes to a fresh Edax process, ``-solve FILE -level 60 -n-tasks 1`` (level 60:
its last search is exact, at full depth and no selectivity; the shallower and selective
searches of its iterative deepening before it count in its time and nodes; one thread), run in
an empty scratch directory so no ``edax.ini`` is read. Its hash table keeps Edax's default
size (2^22 entries); our solver keeps its own (2^(empties - 4) entries, at most 2^18). Edax's
times are its own search clock (milliseconds, excluding loading its evaluation file); ours are
the solver's ``Solution.seconds`` after our numba kernels were compiled (or loaded from the
cache) on a small warm-up, so neither includes start-up costs; they include our short midgame
search that guesses the score before the exact search. Both are single-core wall-clock seconds.
Our node counts include that guessing search's; Edax's include its shallower searches. Our
solver orders its moves with our pattern evaluation in both settings: ``--zero`` zeroes only
Edax's evaluation.

Output, on stdout (progress goes to stderr):

``ffo=N empties=E ours_s ours_nodes edax_s edax_nodes time_ratio node_ratio score agree``
    one FFO position: ratios are ours over Edax's; ``score`` is the FFO table's exact score;
    ``agree=yes`` when both programs found it.
``ffo_total group=40-44 positions=P ours_s edax_s time_ratio ... target<=0.7 met=yes|no``
    the sums over the positions run from one group of the issue (#40-44 and #45-49) and the
    target it names for the time ratio.
``random24 index=I empties=24 ours_s ... score=S agree=yes|no position=TEXT``
    one random position (random legal play from the start with the seed until 24 squares are
    empty; games that end earlier are skipped), solved by both (ours only without Edax);
    ``position`` is the board text ``Position.from_text`` reads.
``random24_median program=ours|edax positions=N median_s=M [target<=5 met=yes|no]``
    the median solving time of each program (the target is for ours).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.logic.reversi.board import PASS, Position
from game.logic.reversi.ffo import FFO
from game.logic.reversi.solver import Solution, solve

BUILD_HINT = "make build CC=gcc ARCH=native OS=linux"
# The targets for our total time over Edax-zero's, per FFO group.
FFO_GROUPS: dict[str, tuple[range, float]] = {
    "40-44": (range(40, 45), 0.7),
    "45-49": (range(45, 50), 1.0),
}
RANDOM_TARGET_S = 5.0
EDAX_TIMEOUT_S = 3600.0

# Edax's evaluation file: a header of five little-endian uint32 ("EDAX", "EVAL", version 4,
# release 6, build 0) and a double (its date), then 114,364 int16 weights for each of 61 plies.
EVAL_HEADER = struct.pack("<5Id", 0x45444158, 0x4556414C, 4, 6, 0, 0.0)
EVAL_WEIGHTS = 114_364
EVAL_PLIES = 61
EVAL_SIZE = len(EVAL_HEADER) + 2 * EVAL_WEIGHTS * EVAL_PLIES


class SetupError(Exception):
    """A missing or wrong path to Edax or its evaluation file; the message says what to set."""


@dataclass(frozen=True, slots=True)
class EdaxResult:
    """One solved position as Edax's ``-solve`` prints it."""

    number: int  # the problem's line number in the file, from 1
    depth: int
    selectivity: int  # percent; 100 is an exact search
    score: int
    seconds: float
    nodes: int
    pv: tuple[str, ...]


# "  1|   20   +38        0:00.376      21000788   55853160 a2 B1 c1 PA b6 C7 a7": problem
# number, depth (with "@73%" when selective), bound mark and score, time, nodes, nodes per
# second (absent when the time is 0), principal variation.
_EDAX_LINE = re.compile(
    r"^\s*(?P<number>\d+)\|\s*(?P<depth>\d+)(?:@\s*(?P<sel>\d+)%)?\s+[<>?]?(?P<score>[+-]\d+)"
    r"\s+(?P<time>(?:\d+:)+\d+\.\d+)\s+(?P<nodes>\d+)(?:\s+\d+)?(?P<pv>(?:\s+[A-Za-z]\d|\s+PA)*)"
    r"\s*$"
)


def parse_edax_line(line: str) -> EdaxResult | None:
    """Read one result line of ``edax -solve`` (verbosity 1); None for any other line.

    >>> r = parse_edax_line("  1|   20   +38        0:00.376      21000788   55853160 a2 B1")
    >>> r.score, r.seconds, r.nodes, r.pv
    (38, 0.376, 21000788, ('a2', 'B1'))
    """
    match = _EDAX_LINE.match(line.rstrip("\n"))
    if match is None:
        return None
    return EdaxResult(
        number=int(match["number"]),
        depth=int(match["depth"]),
        selectivity=int(match["sel"]) if match["sel"] else 100,
        score=int(match["score"]),
        seconds=_clock_seconds(match["time"]),
        nodes=int(match["nodes"]),
        pv=tuple(match["pv"].split()),
    )


def parse_edax_output(text: str) -> list[EdaxResult]:
    """Every result line in the standard output of ``edax -solve``."""
    return [r for r in map(parse_edax_line, text.splitlines()) if r is not None]


def zero_eval_bytes() -> bytes:
    """The contents of an Edax 4.6 evaluation file whose weights are all zero."""
    return EVAL_HEADER + bytes(2 * EVAL_WEIGHTS * EVAL_PLIES)


def write_zero_eval(directory: Path) -> Path:
    """Write the all-zero evaluation file to ``directory/data/eval.dat``; return its path."""
    path = directory / "data" / "eval.dat"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(zero_eval_bytes())
    return path


def random_position(rng: random.Random, empties: int = 24) -> Position | None:
    """Random legal play from the start until ``empties`` squares are empty, with the side to
    move holding a move (a forced pass is played); None when the game ends before."""
    position = Position.start()
    while True:
        moves = position.legal_moves()
        if not moves:
            return None
        if moves == [PASS]:
            position = position.apply(PASS)
            continue
        if position.empties == empties:
            return position
        position = position.apply(rng.choice(moves))


def random_positions(count: int, seed: int, empties: int = 24) -> list[Position]:
    """``count`` positions from :func:`random_position`, one random stream from ``seed``."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = random_position(rng, empties)
        if position is not None:
            found.append(position)
    return found


def find_edax(environ: dict[str, str] | os._Environ[str]) -> Path:
    """The Edax binary named by ``EDAX``; :class:`SetupError` says what to do when it is not."""
    value = environ.get("EDAX", "")
    if not value:
        raise SetupError(
            "EDAX is not set: build Edax 4.6 from its public repository (in its src/: "
            f"{BUILD_HINT}) and set EDAX to the binary it writes to its bin/, "
            "e.g. EDAX=/path/to/edax-reversi/bin/lEdax-native."
        )
    path = Path(value).expanduser()
    if not path.is_file() or not os.access(path, os.X_OK):
        raise SetupError(
            f"EDAX={value} is not an executable file: set EDAX to the Edax binary "
            f"(built in Edax's src/ with {BUILD_HINT}, written to its bin/)."
        )
    return path.resolve()


def find_eval(environ: dict[str, str] | os._Environ[str], zero_dir: Path | None) -> Path:
    """The evaluation file: an all-zero one written to ``zero_dir``, or ``EDAX_EVAL``."""
    if zero_dir is not None:
        return write_zero_eval(zero_dir).resolve()
    value = environ.get("EDAX_EVAL", "")
    if not value:
        raise SetupError(
            "EDAX_EVAL is not set: set it to the evaluation file Edax should read "
            "(its data/eval.dat), or pass --zero DIR to write an all-zero one and use it."
        )
    path = Path(value).expanduser()
    if not path.is_file():
        raise SetupError(
            f"EDAX_EVAL={value} is not a file: set it to Edax's data/eval.dat, "
            "or pass --zero DIR to write an all-zero one and use it."
        )
    return path.resolve()


class Edax:
    """Runs Edax on one position at a time: exact (level 60), one thread."""

    def __init__(self, binary: Path, eval_file: Path) -> None:
        self.binary = binary
        self.eval_file = eval_file

    def solve(self, position: Position) -> EdaxResult:
        with tempfile.TemporaryDirectory(prefix="edax-") as scratch:
            problem = Path(scratch) / "problem.obf"
            # An OBF line: the 64 squares, the side to move, and no known answers.
            problem.write_text(f"{position.text()[:64]} {position.to_move.value};\n")
            command = [
                str(self.binary),
                "-solve",
                str(problem),
                "-level",
                "60",
                "-n-tasks",
                "1",
                "-eval-file",
                str(self.eval_file),
                "-verbose",
                "1",
            ]
            done = subprocess.run(
                command,
                cwd=scratch,
                capture_output=True,
                text=True,
                timeout=EDAX_TIMEOUT_S,
                check=False,
            )
        results = parse_edax_output(done.stdout)
        if done.returncode != 0 or len(results) != 1:
            raise RuntimeError(
                f"Edax ({' '.join(command)}) exited with status {done.returncode} and printed "
                f"{len(results)} result lines; its error output: {done.stderr.strip()!r}"
            )
        return results[0]


def warm_up() -> None:
    """Compile (or load) our kernels on a small endgame so the timings below exclude it."""
    started = time.perf_counter()
    solve(_endgame(12), all_moves=True)
    print(
        f"# warm-up (compilation or cache load): {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )


@dataclass(frozen=True, slots=True)
class Pair:
    """One position solved by ours and, when it ran, by Edax."""

    ours: Solution
    edax: EdaxResult | None


def compare(position: Position, edax: Edax | None, label: str) -> Pair:
    print(f"# {label}: ours...", file=sys.stderr, flush=True)
    ours = solve(position)
    theirs = None
    if edax is not None:
        print(f"# {label}: edax...", file=sys.stderr, flush=True)
        theirs = edax.solve(position)
    return Pair(ours, theirs)


def pair_fields(pair: Pair) -> str:
    ours = pair.ours
    text = f"ours_s={ours.seconds:.3f} ours_nodes={ours.nodes}"
    if pair.edax is not None:
        edax = pair.edax
        text += (
            f" edax_s={edax.seconds:.3f} edax_nodes={edax.nodes}"
            f" time_ratio={_ratio(ours.seconds, edax.seconds)}"
            f" node_ratio={_ratio(ours.nodes, edax.nodes)}"
        )
    return text


def run_ffo(numbers: list[int], edax: Edax) -> bool:
    """One line per FFO position, then a total line per group of the issue; True when every
    score agreed with the table."""
    pairs: dict[int, Pair] = {}
    ok = True
    for number in numbers:
        ffo = FFO[number]
        position = Position.from_text(ffo.text)
        pair = compare(position, edax, f"ffo {number}")
        pairs[number] = pair
        edax_score = pair.edax.score if pair.edax is not None else None
        agree = pair.ours.score == ffo.score and edax_score == ffo.score
        ok &= agree
        print(
            f"ffo={number} empties={position.empties} {pair_fields(pair)} "
            f"score={ffo.score:+d} agree={'yes' if agree else 'no'}",
            flush=True,
        )
    for group, (members, target) in FFO_GROUPS.items():
        run = [pairs[n] for n in members if n in pairs]
        if not run:
            continue
        ours_s = sum(p.ours.seconds for p in run)
        edax_s = sum(p.edax.seconds for p in run if p.edax is not None)
        ours_nodes = sum(p.ours.nodes for p in run)
        edax_nodes = sum(p.edax.nodes for p in run if p.edax is not None)
        print(
            f"ffo_total group={group} positions={len(run)}/{len(members)} "
            f"ours_s={ours_s:.3f} edax_s={edax_s:.3f} time_ratio={_ratio(ours_s, edax_s)} "
            f"ours_nodes={ours_nodes} edax_nodes={edax_nodes} "
            f"node_ratio={_ratio(ours_nodes, edax_nodes)} target<={target} "
            f"met={'yes' if edax_s > 0 and ours_s <= target * edax_s else 'no'}",
            flush=True,
        )
    return ok


def run_random(count: int, seed: int, edax: Edax | None) -> bool:
    """One line per random 24-empty position, then the median time of each program."""
    ours_times: list[float] = []
    edax_times: list[float] = []
    ok = True
    for index, position in enumerate(random_positions(count, seed), start=1):
        pair = compare(position, edax, f"random24 {index}/{count}")
        ours_times.append(pair.ours.seconds)
        line = f"random24 index={index} empties={position.empties} {pair_fields(pair)}"
        line += f" score={pair.ours.score:+d}"
        if pair.edax is not None:
            edax_times.append(pair.edax.seconds)
            agree = pair.edax.score == pair.ours.score
            ok &= agree
            line += f" agree={'yes' if agree else 'no'}"
        print(f"{line} position={position.text()}", flush=True)
    median = statistics.median(ours_times)
    print(
        f"random24_median program=ours positions={count} median_s={median:.3f} "
        f"target<={RANDOM_TARGET_S:g} met={'yes' if median <= RANDOM_TARGET_S else 'no'}",
        flush=True,
    )
    if edax_times:
        print(
            f"random24_median program=edax positions={count} "
            f"median_s={statistics.median(edax_times):.3f}",
            flush=True,
        )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--ffo",
        type=int,
        nargs="*",
        metavar="N",
        help="FFO positions to compare (default 40-44, none when --random24 is given)",
    )
    parser.add_argument("--random24", type=int, default=0, metavar="N", help="random positions")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random positions")
    parser.add_argument(
        "--zero",
        type=Path,
        metavar="DIR",
        help="write an all-zero evaluation file to DIR/data/eval.dat and give it to Edax",
    )
    args = parser.parse_args(argv)
    numbers = args.ffo if args.ffo is not None else ([] if args.random24 else list(range(40, 45)))
    unknown = [n for n in numbers if n not in FFO]
    if unknown:
        parser.error(f"no FFO position {unknown[0]}: the table holds #{min(FFO)}-#{max(FFO)}")
    if args.random24 < 0:
        parser.error(f"--random24 {args.random24} is negative")

    edax: Edax | None = None
    try:
        edax = Edax(find_edax(os.environ), find_eval(os.environ, args.zero))
    except SetupError as missing:
        if numbers:  # the FFO comparison needs Edax; the random positions can go without
            print(missing, file=sys.stderr)
            return 2
        print(f"# Edax not compared: {missing}", file=sys.stderr)
    if edax is not None:
        print(f"# edax={edax.binary} eval={edax.eval_file}", file=sys.stderr)

    warm_up()
    print("# times exclude start-up (our compilation, Edax's loading); one core each", flush=True)
    ok = True
    if numbers and edax is not None:
        ok &= run_ffo(numbers, edax)
    if args.random24:
        ok &= run_random(args.random24, args.seed, edax)
    return 0 if ok else 1


def _endgame(empties: int) -> Position:
    position = Position.start()
    while position.empties > empties and position.legal_moves():
        position = position.apply(position.legal_moves()[-1])
    return position


def _clock_seconds(text: str) -> float:
    """Edax's clock text "[[[D:]H:]M:]S.mmm" in seconds."""
    *larger, seconds = text.split(":")
    total = 0
    for part, unit in zip(reversed(larger), (60, 3600, 86400), strict=False):
        total += int(part) * unit
    return total + float(seconds)


def _ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.3f}" if theirs > 0 else "n/a"


if __name__ == "__main__":
    raise SystemExit(main())
