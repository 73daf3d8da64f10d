"""The game server under load: many matches at once played by bot clients, with faults.

    python benchmarks/server_load.py                       # 500 matches, mixed games
    python benchmarks/server_load.py --matches 50 --games river,reversi
    python benchmarks/server_load.py --faults              # 3 server kills, client kills

It starts ``gamehall serve --port 0 --data TMP`` as a subprocess and plays every match with
bot clients spread over a few worker processes (``--clients-procs``; asyncio, many
connections each). Every seat of a match is a client of its own that plays a fast agent of
the game (``--agent``, default ``random``) after a short think pause (``--think-ms``), so the
traffic resembles play. A public game's client keeps a replica of the match (the start from
``start_seed``, then every step's text); a hiding game's client picks among the ``legal``
texts the server sends to the seat to move. A seat resigns once the record reaches
``--max-plies`` (or the game's own ``step_cap``), so games that may never end still finish.

What is measured:

- per accepted action, the time from the acting client's send to the moment every client of
  the match has its update (every client reads the same monotonic clock: one machine);
- accepted actions the server acknowledged (the acting client received the update of its
  own act, appended at once to a file that survives the client's death) against the records
  in the database once the server is stopped: ``lost`` counts those missing or different;
- each seat's final record against the database's (public games: every step's seat and text;
  hiding games: the seats, and the texts the seat was told);
- the server's resident memory at its peak (``/proc/PID/status``, sampled);
- ``stranded``: matches a seat's client could not follow to the end: its token was lost
  (the server kept a ``join`` and was killed before its answer left: ``seat-taken``), or
  the match ended while the client was away and the restarted server, which loads only
  unfinished matches, answers its ``resume`` with ``no-match`` (the client never sees the
  last steps, so its record differs from the database's).

The clients live in :mod:`server_load_clients` (worker processes, one connection a seat).

With ``--faults`` the server is killed with SIGKILL three times during the run and started
again on the same data folder and port; clients drop connections at random and one client
process is killed and replaced: every client reconnects and resumes its seats with the
tokens it kept. ``--profile FILE`` runs the server under cProfile (written when it stops).

The line before the last says memory and faults; the last line is exactly::

    matches=N finished=F actions_per_s=A p50_ms=P p99_ms=Q lost=L
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server_load_clients import Plan, Settings, worker  # noqa: E402

#: How long a run may take before the benchmark gives up on the matches still open.
RUN_LIMIT_S = 1800.0


# -- the server process ---------------------------------------------------------------------


class Server:
    """``gamehall serve`` in a subprocess: started, killed, restarted on the same data folder
    and port; a thread samples its resident memory while it runs."""

    def __init__(self, data: Path, profile: str) -> None:
        self.data = data
        self.profile = profile
        self.port = 0
        self.process: subprocess.Popen[str] | None = None
        self.peak_rss = 0
        self.kills = 0
        self._sampler: threading.Thread | None = None

    def start(self) -> str:
        head = [sys.executable]
        if self.profile:
            head += ["-m", "cProfile", "-o", self.profile]
        command = [*head, "-m", "game", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--data", str(self.data)]
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("serving on ws://"):
                self.port = int(line.strip().rsplit(":", 1)[1].rstrip("/"))
                break
        else:
            raise SystemExit(f"the server stopped before it listened: {self.process.wait()}")
        threading.Thread(target=self._drain, args=(self.process,), daemon=True).start()
        self._sampler = threading.Thread(target=self._sample, args=(self.process,), daemon=True)
        self._sampler.start()
        return f"ws://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL: nothing is flushed, nothing said goodbye."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self.kills += 1

    def stop(self) -> int:
        """SIGTERM, as a person stopping it would; returns its exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def _drain(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for _ in process.stdout:
            pass

    def _sample(self, process: subprocess.Popen[str]) -> None:
        status = Path(f"/proc/{process.pid}/status")
        while process.poll() is None:
            try:
                for line in status.read_text().splitlines():
                    if line.startswith(("VmRSS:", "VmHWM:")):
                        self.peak_rss = max(self.peak_rss, int(line.split()[1]) * 1024)
            except (OSError, ValueError):
                return
            time.sleep(0.2)


# -- the run --------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--games", default="river,reversi,grab,clue,chess")
    parser.add_argument("--agent", default="random", help="the agent every client plays")
    parser.add_argument("--faults", action="store_true")
    parser.add_argument("--clients-procs", type=int, default=2)
    parser.add_argument("--think-ms", type=float, default=300.0, help="mean think pause")
    parser.add_argument("--max-plies", type=int, default=200, help="resign past this ply")
    parser.add_argument("--kill-every", type=float, default=10.0, help="seconds (--faults)")
    parser.add_argument("--profile", default="", help="write the server's cProfile here")
    args = parser.parse_args(argv)
    # no compile worker for a described game's search: the clients play fast agents, and a
    # chess compile would take the machine from the run (the server and workers inherit it)
    os.environ.setdefault("GAMEHALL_COMPILE_WORKER", "0")
    os.environ.setdefault("GAMEHALL_COMPILED_SEARCH", "0")
    games = [g for g in args.games.split(",") if g]
    plans = [Plan(i, games[i % len(games)], args.agent, i) for i in range(args.matches)]
    with tempfile.TemporaryDirectory(prefix="gamehall-load-") as tmp:
        report = _run(Path(tmp), plans, args)
    print(report[0])
    print(report[1])


def _run(tmp: Path, plans: list[Plan], args: argparse.Namespace) -> tuple[str, str]:
    for sub in ("data", "tokens", "acks", "results"):
        (tmp / sub).mkdir()
    server = Server(tmp / "data", args.profile)
    url = server.start()
    settings = Settings(url, str(tmp), args.think_ms, args.max_plies, 0.0)
    if args.faults:
        settings.drop_rate = 0.002
    context = multiprocessing.get_context("spawn")
    procs = max(1, args.clients_procs)
    shares = [plans[p::procs] for p in range(procs)]
    workers = [context.Process(target=worker, args=(share, settings)) for share in shares]
    began = time.monotonic()
    for process in workers:
        process.start()
    client_kills = 0
    next_kill = began + args.kill_every
    results = tmp / "results"
    said = began
    while time.monotonic() - began < RUN_LIMIT_S:
        finished = sum(1 for _ in results.glob("*.json"))
        if finished == len(plans):
            break
        time.sleep(0.25)
        if time.monotonic() - said > 10:
            said = time.monotonic()
            print(f"{said - began:.0f} s: {finished} of {len(plans)} finished", file=sys.stderr)
        if args.faults and time.monotonic() >= next_kill:
            next_kill += args.kill_every
            if server.kills < 3:
                server.kill()
                server.start()
            elif client_kills < 1:  # one client process dies; another takes its matches
                client_kills += 1
                victim = random.Random(7).randrange(procs)
                workers[victim].kill()
                workers[victim].join()
                left = [p for p in shares[victim] if not (results / f"{p.index}.json").exists()]
                workers[victim] = context.Process(target=worker, args=(left, settings))
                workers[victim].start()
    elapsed = time.monotonic() - began
    for process in workers:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
    status = server.stop()
    done = {}
    for path in results.glob("*.json"):
        result = json.loads(path.read_text())
        done[result["index"]] = result
    return _compare(tmp, plans, done, elapsed, server, status, client_kills)


def _compare(
    tmp: Path,
    plans: list[Plan],
    done: dict[int, dict[str, Any]],
    elapsed: float,
    server: Server,
    status: int,
    client_kills: int,
) -> tuple[str, str]:
    stored = _stored_records(tmp / "data")
    acks = 0
    lost = 0
    for path in (tmp / "acks").glob("*.jsonl"):
        for line in path.read_text().splitlines():
            index, ply, seat, text = json.loads(line)
            acks += 1
            code = json.loads((tmp / "tokens" / f"{index}.json").read_text())["code"]
            record = stored.get(code, ([], False))[0]
            if (
                len(record) < ply
                or list(record[ply - 1][:1]) != [seat]
                or (text is not None and record[ply - 1][1] != text)
            ):
                lost += 1
    finished = mismatched = stranded = 0
    latencies: list[float] = []
    reconnects = 0
    errors: dict[str, int] = {}
    last_created = max((r["created"] for r in done.values()), default=0.0)
    steady: list[float] = []
    for result in done.values():
        latencies += [seconds for _, seconds in result["latencies"]]
        steady += [seconds for sent, seconds in result["latencies"] if sent > last_created]
        reconnects += result["reconnects"]
        for reason, count in result["errors"].items():
            errors[reason] = errors.get(reason, 0) + count
        stranded += bool(result["stranded"])
        record, over = stored.get(result["code"], ([], False))
        same = all(_same(record, seen) for seen in result["records"].values())
        finished += over and same
        mismatched += not same and not result["stranded"]
    by_game: dict[str, list[float]] = {}
    for result in done.values():
        by_game.setdefault(result["game"], []).extend(x for _, x in result["latencies"])
    for game, seconds in sorted(by_game.items()):
        seconds.sort()
        if seconds:
            print(
                f"{game}: actions={len(seconds)} p50_ms={statistics.median(seconds) * 1000:.1f} "
                f"p99_ms={seconds[int(0.99 * (len(seconds) - 1))] * 1000:.1f}",
                file=sys.stderr,
            )
    steady.sort()
    if steady:
        print(
            f"after the last match was created: actions={len(steady)} "
            f"p50_ms={statistics.median(steady) * 1000:.1f} "
            f"p99_ms={steady[int(0.99 * (len(steady) - 1))] * 1000:.1f}",
            file=sys.stderr,
        )
    latencies.sort()
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1000 if latencies else float("nan")
    said = ",".join(f"{k}:{v}" for k, v in sorted(errors.items())) or "none"
    first = (
        f"server_rss_peak_mib={server.peak_rss / 2**20:.0f} server_kills={server.kills} "
        f"client_procs_killed={client_kills} reconnects={reconnects} mismatched={mismatched} "
        f"stranded={stranded} "
        f"acks={acks} samples={len(latencies)} errors={said} seconds={elapsed:.1f} "
        f"stop_status={status}"
    )
    last = (
        f"matches={len(plans)} finished={finished} actions_per_s={acks / elapsed:.0f} "
        f"p50_ms={p50:.1f} p99_ms={p99:.1f} lost={lost}"
    )
    return first, last


def _same(stored: Sequence[Sequence[Any]], seen: Sequence[Sequence[Any]]) -> bool:
    """Whether a client's record agrees with the database's: the same seats, and the same
    text wherever the client was told one."""
    if len(stored) != len(seen):
        return False
    return all(
        a[0] == b[0] and (b[1] is None or a[1] == b[1]) for a, b in zip(stored, seen, strict=True)
    )


def _stored_records(data: Path) -> dict[str, tuple[list[tuple[int, str]], bool]]:
    """Every match in the server's database (read with SQL: the store has no call for
    finished matches): its code -> (its record as (seat, text), whether it is over)."""
    import sqlite3

    from game.server.store import DATABASE_NAME

    db = sqlite3.connect(f"file:{data / DATABASE_NAME}?mode=ro", uri=True)
    try:
        matches = {
            code: ([], status == "over")
            for code, status in db.execute("SELECT code, status FROM matches")
        }
        for code, seat, text in db.execute("SELECT code, seat, text FROM steps ORDER BY code, ply"):
            matches[code][0].append((seat, text))
    finally:
        db.close()
    return matches


if __name__ == "__main__":
    main()
