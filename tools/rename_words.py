"""The renames of issue 26 ("one meaning per word"), as a script that can run again.

Each step moves modules (``git mv``) and rewrites words in the tree's text files (``game/``,
``tests/``, ``tools/``, ``benchmarks/``, ``docs/``, ``README.md``, ``conftest.py``,
``pyproject.toml``, ``.ci/``). A step that has run finds nothing left to do, so after a merge
brings in code written with the old names, running the script again renames that too::

    python tools/rename_words.py            # every step
    python tools/rename_words.py workers    # one step
    python tools/rename_words.py --list     # the steps and what each renames

The rewrites are regular expressions with word boundaries, run in the order given; a step's
rewrites skip the lines that hold a text of its ``keep`` list (aliases kept on purpose for
robot writers and saved files).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Where the rewrites look (files under these, or these files).
PLACES = (
    "game",
    "tests",
    "tools",
    "benchmarks",
    "docs",
    "README.md",
    "conftest.py",
    "pyproject.toml",
    ".ci",
)
SUFFIXES = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ""}
THIS = Path(__file__).resolve()
#: The test that the old names stay gone names them on purpose.
NAMES_TEST = ROOT / "tests" / "test_names.py"


@dataclass(frozen=True)
class Step:
    """One rename: modules moved (old path, new path) and words rewritten (pattern, text)."""

    name: str
    about: str
    moves: tuple[tuple[str, str], ...] = ()
    words: tuple[tuple[str, str], ...] = ()
    keep: tuple[str, ...] = field(default=())
    #: (text, pattern, replacement): rewrites made only in files that hold the text (or whose
    #: path does; ``path:X``: only files whose path holds X).
    where: tuple[tuple[str, str, str], ...] = ()
    #: The file suffixes a step rewrites (empty: every text file).
    suffixes: tuple[str, ...] = ()


def _module(old: str, new: str) -> tuple[str, str]:
    """A dotted module name, as written in imports and docstrings (not a longer name)."""
    return (r"(?<![\w.])" + re.escape(old) + r"(?![\w])", new)


def _path(old: str, new: str) -> tuple[str, str]:
    return (r"(?<![\w/])" + re.escape(old) + r"(?![\w])", new)


def _class(old: str, new: str, *holds: str) -> tuple[tuple[str, str, str], ...]:
    """Rewrites of the class name ``old`` (as a word, and as a quoted name in ``__all__``)
    in the files that hold one of ``holds`` (a text of theirs or of their path)."""
    word = (r"(?<![\w\"'])" + old + r"(?![\w\"'])", new)
    quoted = (r"([\"'])" + old + r"\1", r"\g<1>" + new + r"\g<1>")
    return tuple((hold, p, text) for hold in holds for p, text in (word, quoted))


_JAIL = ("jail", "jail_fork", "jail_linux", "jail_reads", "confine")
#: The files of the described games (their path holds one of these): "engine" there is the
#: compiled rules of a design.
_RULES_FAMILY = (
    "path:game/logic/rules/",
    "path:game/games/rules/",
    "path:game/cli/rules.py",
    "path:tests/test_rules",
    "path:tests/test_board",
    "path:benchmarks/rules_",
)

STEPS: tuple[Step, ...] = (
    Step(
        "workers",
        "the spawned workers' code in one package: game/logic/apart.py (thinking in a worker) "
        "becomes game/logic/workers/thinking.py, the robot jail and its confinement "
        "(game/logic/grab/jail*.py, confine.py) move beside it",
        moves=(
            ("game/logic/apart.py", "game/logic/workers/thinking.py"),
            ("tests/test_apart.py", "tests/test_thinking.py"),
            ("tests/apart_agents.py", "tests/thinking_agents.py"),
            *((f"game/logic/grab/{m}.py", f"game/logic/workers/{m}.py") for m in _JAIL),
        ),
        words=(
            _module("game.logic.apart", "game.logic.workers.thinking"),
            _path("game/logic/apart.py", "game/logic/workers/thinking.py"),
            *(_module(f"game.logic.grab.{m}", f"game.logic.workers.{m}") for m in _JAIL),
            *(_path(f"game/logic/grab/{m}.py", f"game/logic/workers/{m}.py") for m in _JAIL),
            (
                r"from game\.logic\.grab import jail_fork, jail_reads\b",
                "from game.logic.workers import jail_fork, jail_reads",
            ),
            (
                r"from game\.logic\.grab import jail_linux as linux\b",
                "from game.logic.workers import jail_linux as linux",
            ),
            (
                r"from game\.logic\.grab import jail, jail_linux, jail_reads\b",
                "from game.logic.workers import jail, jail_linux, jail_reads",
            ),
            (r"from game\.logic import apart\b", "from game.logic.workers import thinking"),
            (r"\bapart\.py\b", "thinking.py"),
            (r"\bapart_agents\b", "thinking_agents"),
        ),
        where=(("from game.logic import apart", r"\bapart\.(?=[A-Za-z_])", "thinking."),),
    ),
    Step(
        "pool",
        "the thinking pool is game/logic/workers/pool.py (game/logic/thinking.py is a "
        "match's choice on a thread; two 'thinking' modules read as one)",
        moves=(
            ("game/logic/workers/thinking.py", "game/logic/workers/pool.py"),
            ("tests/test_thinking.py", "tests/test_worker_pool.py"),
            ("tests/thinking_agents.py", "tests/worker_agents.py"),
        ),
        words=(
            _module("game.logic.workers.thinking", "game.logic.workers.pool"),
            _path("game/logic/workers/thinking.py", "game/logic/workers/pool.py"),
            (r"from game\.logic\.workers import thinking\b", "from game.logic.workers import pool"),
            (r"\bthinking_agents\b", "worker_agents"),
        ),
        where=(
            ("from game.logic.workers import thinking", r"\bthinking\.(?=[A-Za-z_])", "pool."),
            ("stall.doing", r'"thinking\.py"', '"pool.py"'),
        ),
    ),
    Step(
        "worker-words",
        "'apart' meant a worker process and a river variant: the worker side says 'worker' "
        "(ApartAgent -> WorkerAgent, think_apart -> think_in_worker, maps_apart -> "
        "maps_in_worker, 'thinks apart' -> 'thinks in a worker')",
        words=(
            (r"\bApartAgent\b", "WorkerAgent"),
            (r"\b([Aa])n (:class:`~?|``|`)?(?=WorkerAgent\b)", r"\1 \2"),
            (r"\bthink_apart\b", "think_in_worker"),
            (r"\bmaps_apart\b", "maps_in_worker"),
            (r"\bthinks apart\b", "thinks in a worker"),
            (r"\bthink apart\b", "think in a worker"),
            (r"\bthinking apart\b", "thinking in a worker"),
            (r"\btest_a_search_apart_chooses\b", "test_a_search_in_a_worker_chooses"),
            (r"\bgrab-apart\b", "grab-maps-in-worker"),
        ),
        where=(
            ("WorkerCase(", r'"apart"', '"thinking"'),
            ("WorkerCase(", r"\bapart_problems\b", "thinking_problems"),
            ("WorkerCase(", r"``apart``", "``thinking``"),
        ),
    ),
    Step(
        "river-words",
        "the river's variant where a docked boat's passengers count for no bank is named as "
        "its option is (boat_counts, 'Boat counts: no') and its solver module (ashore), not "
        "'apart': the rules' key writes boat_counts=no (boat-apart is still read)",
        words=(
            (
                r"from game\.logic\.river import ashore as river_apart\b",
                "from game.logic.river import ashore",
            ),
            (r"\briver_apart\.", "ashore."),
            (r"\b_apart_(cost|loads|plan)\b", r"_ashore_\1"),
            (
                r"\btest_passengers_apart_published_oracles\b",
                "test_passengers_counting_for_no_bank_published_oracles",
            ),
        ),
        keep=('"boat-apart"', "``boat-apart``", 'boat-apart")', "boat-apart "),
        where=(
            ("boat_counts", r"(?<![\w-])boat-apart\b", "boat_counts=no"),
            ("boat_counts", r"\bpassengers apart\b", "passengers counting for no bank"),
            ("boat_counts", r"\bPassengers apart\b", "Passengers counting for no bank"),
        ),
    ),
    Step(
        "contract",
        "'game' named the package, game/games/, the contract module and each game's module: "
        "the contract (Game, State, Agent, Limits, Stop) is game/logic/contract.py",
        moves=(("game/logic/game.py", "game/logic/contract.py"),),
        words=(
            _module("game.logic.game", "game.logic.contract"),
            _path("game/logic/game.py", "game/logic/contract.py"),
            (r"(?<![\w/])logic/game\.py\b", "logic/contract.py"),
        ),
        where=(
            (
                "from game.logic import game\n",
                r"from game\.logic import game\b",
                "from game.logic import contract",
            ),
            (
                "from game.logic import game\n",
                r"(?<![\w.])game\.(?=Stop\b|Limits\b|Game\b|State\b)",
                "contract.",
            ),
        ),
    ),
    Step(
        "classes",
        "one class name, one thing: the river's boarding action Board -> BoardBoat (Board is "
        "a described game's board), its Rules -> RiverRules and Cluedo's -> ClueRules, the "
        "settings' GameRecord (a game's statistics) -> GameStats and the tournament's (one "
        "game played) -> PlayedGame, Cluedo's sweep Step (one free card) -> FreeCard (a Step "
        "is an entry of a match's record)",
        words=(
            # A file holding both games' rules names Cluedo's by the name it now has.
            (
                r"from game\.logic\.clue\.rules import Rules as ClueRules\b",
                "from game.logic.clue.rules import ClueRules",
            ),
        ),
        where=(
            ("game.logic.river", r"(?<![\w\"])Board\b(?![\"])", "BoardBoat"),
            ("logic/river/", r"(?<![\w\"])Board\b(?![\"])", "BoardBoat"),
            ("games/river/", r"(?<![\w\"])Board\b(?![\"])", "BoardBoat"),
            ("game.logic.river", r"(?<![\w\"])Rules\b(?![\"])", "RiverRules"),
            ("logic/river/", r"(?<![\w\"])Rules\b(?![\"])", "RiverRules"),
            ("games/river/", r"(?<![\w\"])Rules\b(?![\"])", "RiverRules"),
            ("game.logic.clue", r"(?<![\w\"])Rules\b(?![\"])", "ClueRules"),
            ("logic/clue/", r"(?<![\w\"])Rules\b(?![\"])", "ClueRules"),
            ("games/clue/", r"(?<![\w\"])Rules\b(?![\"])", "ClueRules"),
            ("from game.settings import", r"\bGameRecord\b", "GameStats"),
            ("game/settings.py", r"\bGameRecord\b", "GameStats"),
            ("game.logic.tournament import", r"\bGameRecord\b", "PlayedGame"),
            ("game/logic/tournament.py", r"\bGameRecord\b", "PlayedGame"),
            ("logic/river/", r'^(\s+)"Board",$', r'\1"BoardBoat",'),
            ("logic/river/", r'"Board"(?=, "Cross")', '"BoardBoat"'),
            ("logic/river/", r'^(\s+)"Rules",$', r'\1"RiverRules",'),
            ("logic/clue/", r'^(\s+)"Rules",$', r'\1"ClueRules",'),
            ("game.logic.clue.sweep", r"\bStep\b", "FreeCard"),
            ("game/logic/clue/sweep.py", r"\bStep\b", "FreeCard"),
        ),
        keep=('" Board:Priest "',),  # an action's text, which says "board"
        suffixes=(".py",),  # the docs say "Rules" and "Board" in their plain sense too
    ),
    Step(
        "reversi-board-view",
        "Reversi's scene part that shows the discs, rings and hint ghost is ReversiBoardView "
        "(BoardView is a described game's board in its scene)",
        where=_class(
            "BoardView",
            "ReversiBoardView",
            "games/reversi/",
            "game.games.reversi.board",
            "test_reversi_",
        ),
        suffixes=(".py",),
    ),
    Step(
        "grab-flight",
        "what MasterGrab's moves in flight add to the map (arrows, armies on their way, the "
        "target's colour) is a Flight (a Frame is what the engine's layers draw into)",
        where=_class("Frame", "Flight", "games/grab/anim.py", "game.games.grab.anim"),
        suffixes=(".py",),
    ),
    Step(
        "river-next-crossings",
        "the river solver's optimal next loads with their distance are NextCrossings (a Hint "
        "is the hint agent's choice a match shows)",
        where=_class(
            "Hint",
            "NextCrossings",
            "logic/river/solver.py",
            "logic/river/game.py",
            "tests/test_river.py",
            "river.solver import Hint",
        ),
        suffixes=(".py",),
    ),
    Step(
        "river-illegal-action",
        "the river's refusal of an action is IllegalRiverActionError (IllegalMoveError is "
        "Reversi's refusal of a move)",
        where=_class(
            "IllegalMoveError",
            "IllegalRiverActionError",
            "logic/river/",
            "games/river/",
            "game.logic.river",
            "test_river",
        ),
        suffixes=(".py",),
    ),
    Step(
        "clue-action-kind",
        "what a Cluedo action does (deal, suggest, show, accuse ...) is its ActionKind (Kind "
        "is what a river character is: priest or devil)",
        where=_class("Kind", "ActionKind", "logic/clue/", "games/clue/", "game.logic.clue"),
        suffixes=(".py",),
    ),
    Step(
        "reversi-level-agent",
        "a Reversi level as an agent is a ReversiLevelAgent (LevelAgent is a described "
        "game's level)",
        where=_class(
            "LevelAgent",
            "ReversiLevelAgent",
            "logic/reversi/",
            "games/reversi/",
            "game.logic.reversi.players",
            "test_reversi_",
        ),
        suffixes=(".py",),
    ),
    Step(
        "reversi-move-text",
        "Reversi's text that is not a move is a MoveTextError, beside its BoardTextError "
        "(NotationError is the contract's, for every game)",
        where=_class(
            "NotationError",
            "MoveTextError",
            "logic/reversi/board.py",
            "tests/test_reversi_rules.py",
            "reversi.board import MoveTextError",
        ),
        suffixes=(".py",),
    ),
    Step(
        "clue-placement",
        "where and how one node of the Cluedo table lies (prototype, position, face, label) "
        "is a Placement (a Place is where a river character is: a bank slot or a boat seat)",
        where=_class("Place", "Placement", "games/clue/", "game.games.clue.table"),
        suffixes=(".py",),
    ),
    Step(
        "described-position",
        "a described game's mutable position (pieces, turn, hands, plies, history) is a "
        "DescribedPosition (Position is Reversi's immutable bitboards and side to move)",
        where=_class(
            "Position",
            "DescribedPosition",
            "logic/rules/",
            "games/rules/",
            "test_rules_",
            "rules.engine import",
            "rules.position import",
        ),
        keep=("reversi",),  # Reversi's Position, where a test compares the two
        suffixes=(".py",),
    ),
    Step(
        "search-result",
        "what one search of a described game found is a DescribedSearchResult (a Result is "
        "MasterGrab's last move and what it did, which robots read; a SearchResult Reversi's)",
        where=_class(
            "Result", "DescribedSearchResult", "logic/rules/search.py", "logic/rules/levels.py"
        ),
        suffixes=(".py",),
    ),
    Step(
        "program-tree",
        "the described games' move programs are a tree of ProgramNode (a Node is an object "
        "of a scene); the statement that moves the cursor along a direction is an Advance (a "
        "Step is an entry of a match's record)",
        words=((r"\btree\.Node\b", "tree.ProgramNode"), (r"\btree\.Step\b", "tree.Advance")),
        where=(
            *_class("Node", "ProgramNode", "logic/rules/tree.py", "game.logic.rules.tree import"),
            *_class("Step", "Advance", "logic/rules/tree.py", "game.logic.rules.tree import"),
        ),
        suffixes=(".py",),
    ),
    Step(
        "compiled-search",
        "'engine' is the window layer (game/engine/): an entry's compiled search, readied in a "
        "worker by the warm-up before its agents think there, is Entry.compiled_search (it was "
        "Entry.engine)",
        words=((r"\b(entry|ENTRY)\.engine\b", r"\1.compiled_search"),),
        where=(
            ("game/registry.py", r"\bself\.engine\b", "self.compiled_search"),
            ("game/registry.py", r'^(\s+)engine: str = ""$', r'\1compiled_search: str = ""'),
            ("game/registry.py", r"\b([Aa])n ``engine``", r"\1 ``compiled_search``"),
            ("game/registry.py", r"\bcompiled ``engine``", "``compiled_search``"),
            ("game/registry.py", r"``engine``", "``compiled_search``"),
            (
                "game/registry.py",
                r"^(\s+)engine in a worker process,",
                r"\1search in a worker process,",
            ),
            ("game/registry.py", r"\bwith an engine's first\b", "with a compiled search's first"),
            ("from game.registry import", r'^(\s+)engine=(?=")', r"\1compiled_search="),
            ("ENTRY, engine=", r"\bENTRY, engine=", "ENTRY, compiled_search="),
            ('reversi = get("reversi")', r"\breversi\.engine\b", "reversi.compiled_search"),
            (
                'reversi = get("reversi")',
                r"\breadies the compiled engine,",
                "readies the compiled search,",
            ),
            (
                "docs/architecture.md",
                r"a game with a compiled `engine`",
                "a game with a compiled search (`compiled_search`)",
            ),
        ),
    ),
    Step(
        "rulebook",
        "'engine' is the window layer (game/engine/): a described game's compiled rules (the "
        "class that plays a design: legal, make, unmake, outcome) are its Rulebook, in "
        "game/logic/rules/rulebook.py (it was Engine, game/logic/rules/engine.py); "
        "catalogue.engine() is catalogue.rulebook()",
        moves=(("game/logic/rules/engine.py", "game/logic/rules/rulebook.py"),),
        words=(
            _module("game.logic.rules.engine", "game.logic.rules.rulebook"),
            _path("game/logic/rules/engine.py", "game/logic/rules/rulebook.py"),
            _path("logic/rules/engine.py", "logic/rules/rulebook.py"),
            _path("rules/engine.py", "rules/rulebook.py"),
        ),
        where=(
            *(
                rewrite
                for hold in _RULES_FAMILY
                for rewrite in (
                    (hold, r"\b[Rr]ules engines\b", "rulebooks"),
                    (hold, r"\b([Rr])ules engine\b", "rulebook"),
                    (hold, r"(?<![\w\"'])Engine(?![\w\"'])", "Rulebook"),
                    (hold, r"([\"'])Engine\1", r"\g<1>Rulebook\g<1>"),
                    (hold, r"(?<!game\.)(?<![\w/])engine_for_text\b", "rulebook_for_text"),
                    (hold, r"\bshipped_engine\b", "shipped_rulebook"),
                    (hold, r"\b(_|chess_)engine\b", r"\1rulebook"),
                    (hold, r"(?<!game\.)(?<![\w/-])engines(?![\w/-])", "rulebooks"),
                    (hold, r"(?<!game\.)(?<![\w/-])engine(?![\w/-])", "rulebook"),
                    (hold, r"(?<![\w/-])Engines(?![\w/-])", "Rulebooks"),
                )
            ),
            (
                "catalogue import engine",
                r"\bcatalogue import engine\b",
                "catalogue import rulebook",
            ),
            ("catalogue import engine", r"(?<![\w.])engine\(", "rulebook("),
            ("catalogue._engine", r"\bcatalogue\._engine\b", "catalogue._rulebook"),
            # A RulesGame's rulebook (the variable is named game, as the package is).
            ("path:game/games/rules/", r"= game\.engine\b", "= game.rulebook"),
            ("path:tests/test_rules", r"\bgame\.engine\.design\b", "game.rulebook.design"),
            ("catalogue import rulebook", r"(?<![\w.])engine\(", "rulebook("),
        ),
        suffixes=(".py",),
    ),
    Step(
        "background",
        "'apart' still meant 'on a thread of its own' in the window's process: that is "
        "'background', as Match's background=True (Cluedo's background= override, "
        "notebook_in_background, work_in_background, background_threads; the menu's "
        "opens_in_background; clue_frames' sweeps_in_background)",
        words=(
            (r"\bnotebook_apart\b", "notebook_in_background"),
            (r"\bwork_apart\b", "work_in_background"),
            (r"\bapart_threads\b", "background_threads"),
            (r"\b_apart_(asked|answers)\b", r"_background_\1"),
            (r"\bopens_apart\b", "opens_in_background"),
            (r"\bsweeps_apart\b", "sweeps_in_background"),
            (r"\bworked out apart\b", "worked out in the background"),
            (r"_imports_its_module_apart\b", "_imports_its_module_in_the_background"),
            # The worker sense of two test names (worker-words' pattern missed the suffix).
            (r"\btest_a_search_apart_chooses_", "test_a_search_in_a_worker_chooses_"),
            (
                r"\btest_the_described_games_think_apart_",
                "test_the_described_games_think_in_workers_",
            ),
        ),
        where=(
            ("ClueController(", r"(?<=ClueController\()(.*)\bapart=", r"\1background="),
            (
                "games/clue/controller.py",
                r'\boverrides\.pop\("apart"',
                'overrides.pop("background"',
            ),
            ("games/clue/controller.py", r"\bself\._apart\b", "self._background"),
            ("games/clue/controller.py", r"``apart`` \(work the", "``background`` (work the"),
            ("hall/menu.py", r"^(\s+)apart = ", r"\1background = "),
            ("hall/menu.py", r"\bif apart is None\b", "if background is None"),
            ("hall/menu.py", r"\bif apart and module\b", "if background and module"),
            ("benchmarks/clue_frames.py", r'"apart"', '"background"'),
            ("tests/test_frames.py", r"\bapart too\b", "in the background too"),
            ("tests/test_frames.py", r"\bimported apart\)", "imported in the background)"),
        ),
    ),
)


def files() -> list[Path]:
    out: list[Path] = []
    for place in PLACES:
        path = ROOT / place
        if path.is_file():
            out.append(path)
        elif path.is_dir():
            out.extend(
                p
                for p in sorted(path.rglob("*"))
                if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts
            )
    return [p for p in out if p.resolve() not in (THIS, NAMES_TEST)]


def _holds(hold: str, text: str, rel: str) -> bool:
    """Whether a file (its ``text``, its path ``rel``) holds ``hold``; ``path:X``: only its
    path holds X."""
    if hold.startswith("path:"):
        return hold.removeprefix("path:") in rel
    return hold in text or hold in rel


def run(step: Step, touched: set[Path]) -> int:
    """Apply ``step``; the number of files changed (moves included), added to ``touched``."""
    changed = 0
    for old, new in step.moves:
        source, target = ROOT / old, ROOT / new
        if source.exists() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(["git", "mv", old, new], cwd=ROOT, check=True)
            changed += 1
    for path in files():
        if step.suffixes and path.suffix not in step.suffixes:
            continue
        try:
            before = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        patterns = [(re.compile(p), text) for p, text in step.words]
        rel = path.relative_to(ROOT).as_posix()
        patterns += [
            (re.compile(p), text) for hold, p, text in step.where if _holds(hold, before, rel)
        ]
        lines = before.splitlines(keepends=True)
        for i, line in enumerate(lines):
            if any(k in line for k in step.keep):
                continue
            for pattern, text in patterns:
                line = pattern.sub(text, line)
            lines[i] = line
        after = "".join(lines)
        if after != before:
            path.write_text(after, encoding="utf-8")
            touched.add(path)
            changed += 1
    return changed


def tidy(touched: set[Path]) -> None:
    """Sort the imports and `__all__` of the Python files changed and format them (ruff)."""
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    python = sorted(str(p) for p in touched if p.suffix == ".py" and p.exists())
    if not python or not Path(ruff).exists():
        return
    subprocess.run([ruff, "check", "--select", "I,RUF022", "--fix", "-q", *python], cwd=ROOT)
    subprocess.run([ruff, "format", "-q", *python], cwd=ROOT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("steps", nargs="*", help="steps to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the steps")
    args = parser.parse_args(argv)
    by_name = {step.name: step for step in STEPS}
    if args.list:
        for step in STEPS:
            print(f"{step.name}: {step.about}")
        return 0
    unknown = [name for name in args.steps if name not in by_name]
    if unknown:
        parser.error(f"unknown step(s) {', '.join(unknown)}; known: {', '.join(by_name)}")
    touched: set[Path] = set()
    for name in args.steps or list(by_name):
        print(f"{name}: {run(by_name[name], touched)} file(s) changed")
    tidy(touched)
    return 0


if __name__ == "__main__":
    sys.exit(main())
