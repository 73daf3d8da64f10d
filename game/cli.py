"""The ``gamehall`` command: play, shot, solve, bench.

Commands that draw import pyglet and moderngl; ``solve`` does not, so it starts fast anywhere.
Results go to stdout, problems to stderr as one line; exit status 2 means bad input.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import logging
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.errors import GamehallError, NoDisplayError

if TYPE_CHECKING:
    from game.engine.director import Director
    from game.engine.scene import Node
    from game.logic.river import RiverState, Rules
    from game.settings import Settings, Store

log = logging.getLogger("gamehall")

GAMES = ("river", "reversi", "grab")
SCENES = ("menu", "river", "reversi", "grab")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    # A Reversi board text starts with "-" when A1 is empty, which argparse takes for an
    # option: accept it as the position it is.
    if extra and getattr(args, "command", None) == "solve" and args.position is None:
        args.position, extra = extra[0], extra[1:]
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except NoDisplayError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except GamehallError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except ValueError as exc:  # bad options: our ValueError subclasses name the bad value
        print(f"gamehall: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file we were asked to write or read: say which and why
        print(
            f"gamehall: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr
        )
        return 2
    except KeyboardInterrupt:
        return 130


# -- play ----------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    from game.engine.window import NO_DISPLAY_MESSAGE, has_display

    if not has_display():
        print(NO_DISPLAY_MESSAGE, file=sys.stderr)
        return 1
    from game.settings import Store

    store = Store()
    settings, messages = store.load_settings()
    rules = _rules(args, settings, messages)
    for m in messages:
        print(f"gamehall: {m}", file=sys.stderr)
    size = _size(args.size) if args.size else (settings.window.width, settings.window.height)
    position = None
    if settings.window.x is not None and settings.window.y is not None:
        position = (settings.window.x, settings.window.y)
    game = args.game or settings.last_game
    if game not in GAMES and game != "menu":
        game = "river"
    if args.black:
        settings.reversi.black = args.black
    if args.white:
        settings.reversi.white = args.white
    if args.time is not None:
        settings.reversi.time_per_move = args.time
    moves = _load_transcript(args.load)
    director = build_director(
        headless=False,
        size=size,
        position=position,
        rules=rules,
        shadows=settings.shadows and not args.no_shadows,
        store=store,
        settings=settings,
        reversi_moves=moves,
        grab=_grab_overrides(args, settings),
    )

    def remember() -> None:
        w, h = director.window.get_size()
        settings.window.width, settings.window.height = w, h
        try:
            x, y = director.window.get_location()
            settings.window.x, settings.window.y = x, y
        except Exception:  # some platforms cannot report a position; keep the old one
            pass
        if director.last_game in GAMES:
            settings.last_game = director.last_game
        try:
            store.save_settings(settings)
        except OSError as exc:
            print(f"gamehall: could not save settings: {exc}", file=sys.stderr)

    director.show_fps = settings.show_fps
    director.on_quit = remember
    try:
        director.switch(game)
        for m in messages:  # after the switch, which clears the banner
            director.say(m, seconds=8.0)
        director.run()
    finally:
        director.close()
    return 0


# -- shot ----------------------------------------------------------------------------------


def cmd_shot(args: argparse.Namespace) -> int:
    from game.engine.controller import UnknownActionError
    from game.settings import Store

    settings, messages = Store().load_settings()
    rules = _rules(args, settings, messages)
    for m in messages:
        print(f"gamehall: {m}", file=sys.stderr)
    size = _size(args.size)
    if not args.out.parent.is_dir():
        print(f"gamehall shot: no folder {args.out.parent} for {args.out.name}", file=sys.stderr)
        return 2
    # A picture is a scripted game: both Reversi colours are played by the --do list unless
    # --black/--white name computer players.
    settings.reversi.black = args.black or "human"
    settings.reversi.white = args.white or "human"
    if args.time is not None:
        settings.reversi.time_per_move = args.time
    director = build_director(
        headless=True,
        size=size,
        rules=rules,
        shadows=not args.no_shadows,
        settings=settings,
        reversi_moves=_load_transcript(args.load),
        grab=_grab_overrides(args, settings),
    )
    try:
        director.switch(args.game)
        for action in [a.strip() for a in (args.do or "").split(",") if a.strip()]:
            if action == "overlay":
                director.overlay.toggle()
                continue
            if action == "wait":
                director.advance(1.0)
                continue
            try:
                if not director.perform(action, strict=True):
                    print(f"gamehall shot: {action}: {director.toast}", file=sys.stderr)
            except UnknownActionError as exc:
                print(f"gamehall shot: {exc} (or overlay, wait)", file=sys.stderr)
                return 2
            if not director.settle():
                print("gamehall shot: the animation did not settle", file=sys.stderr)
        director.advance(0.5)  # let the water move and the hint arrow bob a little
        out = director.screenshot(args.out)
        print(f"wrote {out}")
        assert director.controller is not None
        print(director.controller.status_line())
    finally:
        director.close()
    return 0


# -- solve ---------------------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace) -> int:
    if args.game == "reversi":
        return _solve_reversi(args)
    if args.position:
        print("gamehall solve river: takes options, not a position", file=sys.stderr)
        return 2
    from game.logic.river import RiverPuzzle, RiverSettingError, RiverState, Rules

    try:
        rules = Rules(args.priests, args.devils, args.capacity)
        RiverPuzzle.check(rules)
    except RiverSettingError as exc:
        print(f"gamehall solve: {exc}", file=sys.stderr)
        return 2
    puzzle = RiverPuzzle(rules)
    state = RiverState.start(rules)
    c = state.crossing()
    loads = puzzle.solution(state)
    for i, load in enumerate(loads, 1):
        side = c.boat
        c_next = c.after(load)
        print(
            f"{i:3d}. {side.value:>5} -> {side.other.value:<5}  {load}"
            f"   left bank then {c_next.left_priests}P {c_next.left_devils}D"
        )
        c = c_next
    print(f"crossings={len(loads)}")
    return 0


#: Up to this many empty squares `solve reversi` solves exactly without being asked.
EXACT_EMPTIES = 20


def _solve_reversi(args: argparse.Namespace) -> int:
    """Exact score and best moves when the endgame is small enough (or --exact); otherwise
    the best move found in --time seconds, with its depth and evaluation."""
    from game.logic.reversi.board import Position, ReversiError, square_name

    if not args.position:
        print(
            'gamehall solve reversi: give a position, e.g. "<64 chars of X/O/-> X"', file=sys.stderr
        )
        return 2
    try:
        position = Position.from_text(args.position)
    except ReversiError as exc:
        print(f"gamehall solve reversi: {exc}", file=sys.stderr)
        return 2
    if position.is_terminal():
        print(
            f"score={position.score() * (1 if position.to_move.value == 'X' else -1):+d} best=none"
        )
        return 0
    empties = 64 - sum(position.disc_count())
    if args.exact or empties <= EXACT_EMPTIES:
        from game.logic.reversi.solver import solve

        sol = solve(position, all_moves=args.all)
        best = sol.best if args.all else sol.best[:1]
        names = ",".join(_upper_move(m) for m in best)
        print(f"empties={empties} nodes={sol.nodes} seconds={sol.seconds:.2f}", file=sys.stderr)
        print(f"score={sol.score:+d} best={names}")
        return 0
    from game.logic.reversi.search import search

    result = search(position, time_limit=args.time)
    pv = " ".join(square_name(m) if m < 64 else "pass" for m in result.pv)
    print(
        f"depth={result.depth} nodes={result.nodes} seconds={result.seconds:.2f} pv={pv}",
        file=sys.stderr,
    )
    kind = "score" if result.exact else "eval"
    value = f"{int(result.score):+d}" if result.exact else f"{result.score:+.2f}"
    print(f"best={_upper_move(result.move)} depth={result.depth} {kind}={value}")
    return 0


def _upper_move(move: int) -> str:
    from game.logic.reversi.board import PASS, square_name

    return "PASS" if move == PASS else square_name(move).upper()


# -- tournament ----------------------------------------------------------------------------


def cmd_tournament(args: argparse.Namespace) -> int:
    if args.game == "grab":
        return _tournament_grab(args)
    from game.logic.reversi import LEVELS
    from game.logic.reversi.tournament import run_tournament

    for name in (args.a, args.b):
        if name not in LEVELS:
            print(
                f"gamehall tournament: unknown player {name!r}; choose from " + ", ".join(LEVELS),
                file=sys.stderr,
            )
            return 2
    progress = _progress_bar(args.games) if sys.stderr.isatty() else None
    result = run_tournament(
        args.a,
        args.b,
        args.games,
        time_per_move=args.time_per_move,
        jobs=args.jobs,
        seed=args.seed,
        progress=progress,
    )
    if progress is not None:
        print(file=sys.stderr)
    print(f"a={args.a} b={args.b} games={args.games} time_per_move={args.time_per_move}")
    print(
        f"a_wins={result.a_wins} b_wins={result.b_wins} draws={result.draws} "
        f"a_score={result.a_score:.2f}"
    )
    return 0


def _tournament_grab(args: argparse.Namespace) -> int:
    from game.logic.grab.robot import RobotRegistry
    from game.logic.grab.tournament import run_tournament

    robots = [r.strip() for r in (args.robots or "").split(",") if r.strip()]
    known = RobotRegistry.builtins().names()
    bad = [r for r in robots if r not in known]
    if len(robots) < 2 or bad:
        print(
            "gamehall tournament grab: --robots needs two or more of " + ", ".join(known),
            file=sys.stderr,
        )
        return 2
    progress = _progress_bar(args.games) if sys.stderr.isatty() else None
    result = run_tournament(
        robots, args.games, countries=args.countries, jobs=args.jobs, seed=args.seed,
        progress=progress,
    )  # fmt: skip
    if progress is not None:
        print(file=sys.stderr)
    for line in result.lines():
        print(line)
    return 0


def _progress_bar(total: int) -> Callable[[int, int, Any], None]:
    """A one-line progress bar on stderr (only used when stderr is a terminal)."""

    def show(done: int, total: int, record: Any) -> None:
        width = 30
        filled = round(width * done / max(1, total))
        print(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games",
            end="",
            file=sys.stderr,
            flush=True,
        )

    return show


# -- bench ---------------------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "reversi":
        return _bench_reversi(args)
    if args.what == "grab":
        return _bench_grab(args)
    import moderngl
    import numpy as np

    size = _size(args.size)
    scenes = [args.scene] if args.scene else list(SCENES)
    for name in scenes:
        if name not in SCENES:
            print(
                f"gamehall bench: unknown scene {name!r}; try: {', '.join(SCENES)}", file=sys.stderr
            )
            return 2
    # The grab scene is measured at its hardest: 1000 countries on a 3840x2160 map.
    grab = {"countries": 1000, "size": (3840, 2160), "seed": 1}
    director = build_director(headless=True, size=size, shadows=not args.no_shadows, grab=grab)
    try:
        fbo = director.offscreen(size)
        for name in scenes:
            director.switch(name)
            director.advance(0.2)
            for _ in range(5):  # warm-up: shader compilation, first buffer uploads
                director.render(fbo, size)
            director.ctx.finish()
            frames = _time_frames(director, fbo, size, args.frames)
            calls = director.last_draw_calls
            # The same frames with every object bobbing by a millimetre: the shadow map must be
            # redrawn each frame, as while something walks or rows.
            movers = (
                [n for n in director.scene if n.mesh and not n.material.wave]
                if (director.scene)
                else []
            )
            rest = [(n, n.position.copy()) for n in movers]

            def bob(i: int, rest: list[tuple[Node, np.ndarray]] = rest) -> None:
                for n, pos in rest:
                    n.position = pos + np.array([0.0, 0.001 * (i % 2), 0.0], "f4")

            moving = _time_frames(director, fbo, size, args.frames, before=bob)
            for n, pos in rest:
                n.position = pos
            extra = ""
            if name == "grab":
                extra = "countries=1000 "
            if name == "reversi":
                extra = f"thinking_median_ms={_frames_while_thinking(director, fbo, size):.2f} "
            clears = []
            for _ in range(max(5, args.frames // 4)):
                t0 = time.perf_counter()
                fbo.use()
                fbo.clear(0.2, 0.3, 0.4, 1.0)
                director.ctx.enable_only(moderngl.BLEND)
                director.hud.draw()
                director.ctx.finish()
                clears.append((time.perf_counter() - t0) * 1000.0)
            frames.sort()
            p95 = frames[min(len(frames) - 1, round(0.95 * (len(frames) - 1)))]
            stats = director.renderer.stats
            print(
                f"scene={name} median_ms={statistics.median(frames):.2f} p95_ms={p95:.2f} "
                f"moving_median_ms={statistics.median(moving):.2f} {extra}"
                f"clear_ms={statistics.median(clears):.2f} draw_calls={calls} "
                f"triangles={stats.triangles} meshes={stats.meshes} nodes={stats.nodes} "
                f"shadows={'on' if director.renderer.shadows else 'off'} size={size[0]}x{size[1]}"
            )
    finally:
        director.close()
    return 0


def _bench_grab(args: argparse.Namespace) -> int:
    """Map generation, robot move times and whole robots-only games; with ``--strength`` the
    strategic-against-three-basic tournament too (game.logic.grab.tournament.bench_lines)."""
    from game.logic.grab.tournament import bench_lines

    progress = _progress_bar(args.games) if args.strength and sys.stderr.isatty() else None
    for line in bench_lines(
        strength=args.strength, games=args.games, jobs=args.jobs, progress=progress
    ):
        print(line, flush=True)
    return 0


def _bench_reversi(args: argparse.Namespace) -> int:
    """Perft speed and the FFO #40-#44 endgames (times exclude numba's first compilation)."""
    from game.logic.reversi.board import Position
    from game.logic.reversi.ffo import FFO
    from game.logic.reversi.perft import perft
    from game.logic.reversi.solver import solve

    start = Position.start()
    perft(start, 6)  # compile (or load the cached kernels) before timing
    for depth in (args.perft_depth - 1, args.perft_depth):
        t0 = time.perf_counter()
        leaves = perft(start, depth)
        seconds = time.perf_counter() - t0
        print(
            f"perft depth={depth} leaves={leaves} seconds={seconds:.3f} "
            f"leaves_per_s={leaves / seconds:.3g}",
            flush=True,
        )
    solve(Position.from_text(FFO[40].text))  # warm the solver's kernels once
    total = 0.0
    for number in range(40, 45):
        ffo = FFO[number]
        sol = solve(Position.from_text(ffo.text), all_moves=False)
        total += sol.seconds
        best = _upper_move(sol.best[0]) if sol.best else "none"
        correct = sol.score == ffo.score and best in ffo.best
        print(
            f"ffo={number} empties={ffo.empties} seconds={sol.seconds:.2f} nodes={sol.nodes} "
            f"score={sol.score:+d} best={best} correct={'yes' if correct else 'no'}",
            flush=True,
        )
    print(f"ffo=40-44 total_seconds={total:.2f}")
    return 0


def _frames_while_thinking(director: Director, fbo: object, size: tuple[int, int]) -> float:
    """Median frame time while the master player searches in a worker thread, as while the
    computer thinks in a game (the search releases the GIL)."""
    import threading

    import numpy as np

    from game.logic.reversi.board import Position
    from game.logic.reversi.players import get_player
    from game.logic.reversi.solver import SearchCancelled

    position = Position.start().apply(37).apply(43).apply(18)  # f5 d6 c3: a real middle game
    stop = np.zeros(1, dtype=np.uint8)
    get_player("master").choose(position, time_limit=0.05, stop=stop)  # compile first

    def think() -> None:
        with contextlib.suppress(SearchCancelled):  # the stop flag ends it
            get_player("master").choose(position, time_limit=60.0, stop=stop)

    worker = threading.Thread(target=think, daemon=True)
    worker.start()
    try:
        time.sleep(0.2)
        frames = _time_frames(director, fbo, size, 60)
    finally:
        stop[0] = 1
        worker.join(timeout=10)
    return statistics.median(frames)


def _time_frames(
    director: Director,
    fbo: object,
    size: tuple[int, int],
    count: int,
    before: Callable[[int], None] | None = None,
) -> list[float]:
    """Milliseconds per whole frame (scene, HUD), waiting for the GL to finish each one."""
    frames = []
    for i in range(count):
        director.advance(1.0 / 60.0)
        if before is not None:
            before(i)
        t0 = time.perf_counter()
        director.render(fbo, size)  # type: ignore[arg-type]
        director.ctx.finish()
        frames.append((time.perf_counter() - t0) * 1000.0)
    return frames


# -- shared --------------------------------------------------------------------------------


def build_director(
    *,
    headless: bool,
    size: tuple[int, int] = (1280, 720),
    position: tuple[int, int] | None = None,
    rules: Rules | None = None,
    shadows: bool = True,
    store: Store | None = None,
    settings: Settings | None = None,
    reversi_moves: list[int] | None = None,
    grab: dict[str, Any] | None = None,
) -> Director:
    """A Director with every game registered.

    ``settings`` is the one settings object of the session: option changes made in a game go
    into it, so the menu, a later visit and the save at quit all see them. With a ``store``,
    option changes and game results are also written to disk at once.
    """
    from game.controllers.grab import GrabController
    from game.controllers.menu import MenuController
    from game.controllers.reversi import ReversiController
    from game.controllers.river import RiverController
    from game.engine.director import Director
    from game.logic.reversi.board import Color
    from game.logic.river import Rules
    from game.settings import Settings

    session = settings or Settings()
    current = [rules or Rules()]  # the river rules of the latest game, options changes included

    def remember_options(new: Rules) -> None:
        current[0] = new
        opts = session.river
        opts.priests, opts.devils, opts.capacity = new.priests, new.devils, new.capacity
        if store is not None:
            try:
                store.save_settings(session)
            except OSError as exc:
                log.warning("could not save the river options: %s", exc)

    def river() -> RiverController:
        on_result = None
        if store is not None:
            on_result = functools.partial(_record_river, store)
        return RiverController(current[0], on_options=remember_options, on_result=on_result)

    director = Director(headless=headless, size=size, position=position, shadows=shadows)

    def reversi() -> ReversiController:
        opts = session.reversi
        moves = list(reversi_moves or [])
        on_result = functools.partial(_record_reversi, store) if store is not None else None
        return ReversiController(
            black=opts.black,
            white=opts.white,
            time_per_move=opts.time_per_move,
            moves=moves,
            on_options=remember_sides,
            on_result=on_result,
        )

    def remember_sides(sides: dict[Color, str]) -> None:
        session.reversi.black, session.reversi.white = sides[Color.BLACK], sides[Color.WHITE]
        if store is not None:
            try:
                store.save_settings(session)
            except OSError as exc:
                log.warning("could not save the reversi options: %s", exc)

    def grab_game() -> GrabController:
        from game.logic.grab.robot import RobotRegistry
        from game.settings import home_dir

        extra = dict(grab or {})
        options = extra.pop("options", None)
        messages: list[str] = []
        if options is None:
            options = _grab_options(session, messages)
        folder = home_dir() / "robots"
        registry = RobotRegistry(folder if folder.is_dir() else None)
        for problem in registry.problems + messages:
            log.warning("%s", problem)
        on_result = functools.partial(_record_grab, store) if store is not None else None
        return GrabController(
            options=options,
            registry=registry,
            on_options=remember_grab,
            on_result=on_result,
            **extra,
        )

    def remember_grab(options: Any) -> None:
        g = session.grab
        g.countries, g.robots = options.countries, ",".join(options.robots)
        g.human_playing, g.distribution = options.human_playing, options.distribution.value
        g.mountains_percent, g.armies_in_biggest = (
            options.mountains_percent,
            options.armies_in_biggest,
        )
        g.growth_factor, g.protection_factor = options.growth_factor, options.protection_factor
        g.attack_factor, g.attack_benefit_factor = (
            options.attack_factor,
            options.attack_benefit_factor,
        )
        g.random_options = options.random_options
        if store is not None:
            try:
                store.save_settings(session)
            except OSError as exc:
                log.warning("could not save the grab options: %s", exc)

    director.register("menu", MenuController)
    director.register("river", river)
    director.register("reversi", reversi)
    director.register("grab", grab_game)
    return director


def _grab_options(settings: Settings, messages: list[str]) -> Any:
    """The saved MasterGrab options; bad saved values fall back to the defaults, said once."""
    from game.logic.grab.options import Distribution, GrabOptions, GrabOptionsError

    g = settings.grab
    try:
        return GrabOptions(
            countries=g.countries,
            robots=tuple(r.strip() for r in g.robots.split(",") if r.strip()),
            human_playing=g.human_playing,
            distribution=Distribution(g.distribution),
            mountains_percent=g.mountains_percent,
            armies_in_biggest=g.armies_in_biggest,
            growth_factor=g.growth_factor,
            protection_factor=g.protection_factor,
            attack_factor=g.attack_factor,
            attack_benefit_factor=g.attack_benefit_factor,
            random_options=g.random_options,
        )
    except (GrabOptionsError, ValueError) as exc:
        messages.append(f"the saved MasterGrab options are not valid ({exc}); using the defaults")
        return GrabOptions()


def _record_grab(store: Store, match: Any) -> str:
    """Count a finished game the person played (robots-only games are not theirs)."""
    if not match.options.human_playing:
        return ""
    stats, _ = store.load_statistics()
    stats.record("grab", won=match.winner == 0)
    try:
        store.save_statistics(stats)
    except OSError as exc:
        log.warning("could not save statistics: %s", exc)
    record = stats.games["grab"]
    return f"Won {record.won} of {record.played}."


def _record_reversi(store: Store, sides: dict[Any, str], black: int, white: int) -> str:
    """Count a finished game against each computer level a person played (wins, losses,
    draws per level); computer-only games are not a person's statistics."""
    from game.logic.reversi.board import Color

    stats, _ = store.load_statistics()
    notes = []
    for me, them in ((Color.BLACK, Color.WHITE), (Color.WHITE, Color.BLACK)):
        if sides[me] != "human" or sides[them] == "human":
            continue
        mine, theirs = (black, white) if me is Color.BLACK else (white, black)
        key = f"reversi:{sides[them]}"
        stats.record(key, won=mine > theirs, drawn=mine == theirs)
        r = stats.games[key]
        notes.append(f"Against {sides[them]}: {r.won} won, {r.lost} lost, {r.drawn} drawn.")
    if notes:
        try:
            store.save_statistics(stats)
        except OSError as exc:
            log.warning("could not save statistics: %s", exc)
    return " ".join(notes)


def _record_river(store: Store, state: RiverState, won: bool, assisted: bool) -> str:
    """Count a finished game; a game the solver helped with sets no best score."""
    stats, _ = store.load_statistics()
    key = state.rules.key()
    best = stats.record(
        "river", won=won, setting=key, score=state.crossings if won and not assisted else None
    )
    try:
        store.save_statistics(stats)
    except OSError as exc:
        log.warning("could not save statistics: %s", exc)
    record = stats.games["river"]
    note = f"Won {record.won} of {record.played}."
    if won and assisted:
        note += " (Solved with help: no best score.)"
    return f"New best for {key}! {note}" if best else note


def _rules(args: argparse.Namespace, settings: Settings, messages: list[str]) -> Rules:
    """The river rules: command-line options over saved ones over the defaults.

    Bad options typed on the command line are an error (exit 2); bad saved ones (a file edited
    by hand) are reported and replaced by the defaults, so the game still starts.
    """
    from game.logic.river import RiverPuzzle, RiverSettingError, Rules

    saved = settings.river
    values = (
        args.priests if args.priests is not None else saved.priests,
        args.devils if args.devils is not None else saved.devils,
        args.capacity if args.capacity is not None else saved.capacity,
    )
    typed = any(v is not None for v in (args.priests, args.devils, args.capacity))
    try:
        rules = Rules(*values)
        RiverPuzzle.check(rules)
    except RiverSettingError as exc:
        if typed:
            raise
        messages.append(f"the saved river options are unusable ({exc}); using 3/3/2")
        rules = Rules()
    return rules


def _load_transcript(path: Path | None) -> list[int] | None:
    """The moves of a saved Reversi game (``--load``); a bad file is an error naming it."""
    if path is None:
        return None
    from game.logic.reversi.board import ReversiError, parse_transcript

    try:
        return parse_transcript(path.read_text(encoding="utf-8"))
    except ReversiError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size should look like 1280x720, not {text!r}") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise ValueError(f"--size {text} is out of range (64..8192 each way)")
    return w, h


def _river_options(p: argparse.ArgumentParser, defaults: bool) -> None:
    d = 3 if defaults else None
    p.add_argument("--priests", type=int, default=d, help="number of priests (default 3)")
    p.add_argument("--devils", type=int, default=d, help="number of devils (default 3)")
    p.add_argument(
        "--capacity",
        type=int,
        default=2 if defaults else None,
        help="seats in the boat (default 2)",
    )


def _grab_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--countries", type=int, help="MasterGrab: countries on the map")
    p.add_argument("--robots", help="MasterGrab: robot names, e.g. strategic,basic,basic")
    p.add_argument("--watch", action="store_true", help="MasterGrab: the robots play alone")
    p.add_argument("--seed", type=int, help="MasterGrab: the map and armies (same seed, same game)")


def _grab_overrides(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    """The controller's keyword arguments from --countries, --robots, --watch and --seed
    (options from the saved settings, changed by the flags; checked by GrabOptions)."""
    from dataclasses import replace

    out: dict[str, Any] = {}
    if getattr(args, "seed", None) is not None:
        out["seed"] = args.seed
    countries = getattr(args, "countries", None)
    robots = getattr(args, "robots", None)
    watch = getattr(args, "watch", False)
    if countries is None and robots is None and not watch:
        return out
    messages: list[str] = []
    options = _grab_options(settings, messages)
    changes: dict[str, Any] = {}
    if robots is not None:
        changes["robots"] = tuple(r.strip() for r in robots.split(",") if r.strip())
    if watch:
        changes["human_playing"] = False
        if len(changes.get("robots", options.robots)) < 2:
            changes["robots"] = tuple(changes.get("robots", options.robots)) * 2
    if countries is not None:
        if countries > 777:  # past the options' limit: a bigger map for the benchmark
            out["countries"] = countries
        else:
            changes["countries"] = countries
    out["options"] = replace(options, **changes)
    return out


def _reversi_options(p: argparse.ArgumentParser) -> None:
    from game.logic.reversi import LEVELS

    sides = ["human", *LEVELS]
    p.add_argument("--black", choices=sides, help="who plays black in Reversi")
    p.add_argument("--white", choices=sides, help="who plays white in Reversi")
    p.add_argument("--time", type=float, help="the computer's seconds a move in Reversi")
    p.add_argument("--load", type=Path, help="a saved Reversi game (a transcript like f5d6c3)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gamehall", description="Thinking games in a real 3D window."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    sub = parser.add_subparsers(dest="command")

    play = sub.add_parser("play", help="open the window and play")
    play.add_argument("game", nargs="?", choices=(*GAMES, "menu"), help="start in this game")
    play.add_argument("--size", help="window size, e.g. 1280x720")
    play.add_argument("--no-shadows", action="store_true", help="draw without shadows")
    _river_options(play, defaults=False)
    _reversi_options(play)
    _grab_arguments(play)
    play.set_defaults(func=cmd_play)

    shot = sub.add_parser("shot", help="render a scene headless after scripted actions")
    shot.add_argument("game", choices=(*GAMES, "menu"))
    shot.add_argument("--out", required=True, type=Path, help="PNG file to write")
    shot.add_argument("--size", default="1280x720", help="picture size, e.g. 1280x720")
    shot.add_argument("--do", default="", help="comma-separated UserActions, e.g. hint,next")
    shot.add_argument("--no-shadows", action="store_true")
    _river_options(shot, defaults=False)
    _reversi_options(shot)
    _grab_arguments(shot)
    shot.set_defaults(func=cmd_shot)

    solve = sub.add_parser("solve", help="solve a river setting or a Reversi position")
    solve.add_argument("game", choices=GAMES)
    solve.add_argument(
        "position",
        nargs="?",
        help='reversi: "BOARD SIDE", 64 characters A1..H8 of X/O/- and X or O',
    )
    _river_options(solve, defaults=True)
    solve.add_argument("--all", action="store_true", help="reversi: every best move")
    solve.add_argument("--exact", action="store_true", help="reversi: solve to the end")
    solve.add_argument(
        "--time",
        type=float,
        default=5.0,
        help="reversi: seconds for a search when not solving exactly",
    )
    solve.set_defaults(func=cmd_solve)

    bench = sub.add_parser("bench", help="measure; prints one line per figure")
    bench.add_argument("what", choices=("render", "reversi", "grab"))
    bench.add_argument("--perft-depth", type=int, default=11, help="reversi: deepest perft")
    bench.add_argument("--scene", help=f"one of {', '.join(SCENES)} (default: all)")
    bench.add_argument("--frames", type=int, default=120)
    bench.add_argument("--size", default="1280x720")
    bench.add_argument("--no-shadows", action="store_true")
    bench.add_argument(
        "--strength", action="store_true", help="grab: also strategic against 3 basic (slow)"
    )
    bench.add_argument("--games", type=int, default=200, help="grab --strength: games")
    bench.add_argument("--jobs", type=int, default=2, help="grab --strength: games at once")
    bench.set_defaults(func=cmd_bench)

    tour = sub.add_parser("tournament", help="computer against computer; prints the score")
    tour.add_argument("game", choices=("reversi", "grab"))
    tour.add_argument("--a", help="reversi: first player (a level name)")
    tour.add_argument("--b", help="reversi: second player")
    tour.add_argument("--robots", help="grab: robot names, e.g. strategic,basic,basic,basic")
    tour.add_argument("--countries", type=int, default=140, help="grab: countries a map")
    tour.add_argument("--games", type=int, default=10, help="games (each opening twice)")
    tour.add_argument("--time-per-move", type=float, default=1.0)
    tour.add_argument("--jobs", type=int, default=1, help="games played at once")
    tour.add_argument("--seed", type=int, default=1)
    tour.set_defaults(func=cmd_tournament)
    return parser
