"""One word, one meaning (issue 26): the glossary of docs/architecture.md lists each domain
word once, no two modules of game/ define a public class of the same name, and the names that
were renamed stay gone. Reads the sources only: no import, no process."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"

#: The words the glossary must name (the domain's words of issue 26).
DOMAIN_WORDS = (
    "game", "match", "state", "action", "seat", "agent", "level", "hint", "step", "record",
    "options", "entry", "controller", "scene", "director", "worker", "robot", "tween",
    "contract", "tournament",
)  # fmt: skip

#: A class defined at a module's top level (not in a docstring or a string: those are
#: indented or follow other text).
_CLASS = re.compile(r"^class ([A-Za-z]\w*)\b", re.MULTILINE)


def _glossary() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("\n## Glossary\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [row.split("|")[1].strip() for row in rows[1:]]  # the header row left out


def _public_classes() -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(GAME.rglob("*.py")):
        for name in _CLASS.findall(path.read_text(encoding="utf-8")):
            found[name].add(path.relative_to(ROOT).as_posix())
    return found


def test_the_glossary_names_each_domain_word_once() -> None:
    words = _glossary()
    twice = sorted({word for word in words if words.count(word) > 1})
    assert not twice, f"listed twice in the glossary: {twice}"
    missing = [word for word in DOMAIN_WORDS if word not in words]
    assert not missing, f"the glossary does not name: {missing}"


def test_no_two_modules_define_a_public_class_of_the_same_name() -> None:
    twice = {name: sorted(paths) for name, paths in _public_classes().items() if len(paths) > 1}
    assert not twice, f"one class name, two things: {twice}"


def test_apart_names_no_worker_and_no_river_variant_and_the_contract_is_its_own_module() -> None:
    assert not (GAME / "logic" / "game.py").exists()
    assert not (GAME / "logic" / "apart.py").exists()
    renamed = re.compile(
        r"\b(ApartAgent|think_apart|maps_apart|river_apart|_apart_(?:cost|loads|plan)|game\.logic\.game|"
        r"game\.logic\.apart)\b"
    )
    found = []
    for path in sorted(GAME.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if renamed.search(line) or ("boat-apart" in line and "_OLD_BOAT_WORD" not in line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    # The old key word is read, never written: only its constant and what says so name it.
    allowed = ("``boat-apart``", 'from_key("3/3/2 boat-apart")')
    found = [line for line in found if not any(text in line for text in allowed)]
    assert not found, "\n".join(found)


def test_apart_names_no_thread_and_engine_no_entry_field() -> None:
    """A thread of its own in the window's process is the background (it was 'apart': Cluedo's
    notebook_apart, work_apart, apart=, the menu's opens_apart) and an entry's compiled search
    is Entry.compiled_search (it was Entry.engine: 'engine' is the window layer)."""
    # Each pattern runs only on the files that hold its word (a plain search is much faster).
    checks = (
        ("apart", re.compile(r"\w_apart\b|\bapart_\w|\bapart=|[\"']apart[\"']")),
        ("engine", re.compile(r"\b(?:entry|ENTRY)\.engine\b|^\s+engine=\"", re.MULTILINE)),
    )
    field = re.compile(r"^\s+engine\s*:|\bself\.engine\b", re.MULTILINE)  # in the registry
    found = []
    for path in sorted(GAME.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        hits = [hit for word, old in checks if word in text for hit in old.finditer(text)]
        if name == "game/registry.py":
            hits += field.finditer(text)
        for hit in hits:
            number = text.count("\n", 0, hit.start()) + 1
            found.append(f"{name}:{number}: {text.splitlines()[number - 1].strip()}")
    assert not found, "\n".join(found)


def test_a_described_games_rules_are_its_rulebook_and_engine_is_the_window_layer() -> None:
    """A described game's compiled rules (what plays a design: legal moves, make, unmake, the
    outcome) are its Rulebook (they were Engine, in game/logic/rules/engine.py): 'engine' is
    the window layer, game/engine/."""
    assert not (GAME / "logic" / "rules" / "engine.py").exists()
    assert "Engine" not in _public_classes()
    old = re.compile(r"(?<!game\.)(?<![\w/])[Ee]ngines?(?![\w/])")
    found = []
    for path in sorted({*GAME.glob("logic/rules/**/*.py"), *GAME.glob("games/rules/*.py")}):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if old.search(line):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
