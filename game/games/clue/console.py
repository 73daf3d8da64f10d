"""Cluedo at the terminal: ``gamehall clue --console`` (you against computer detectives) and
``gamehall clue --console --assistant`` (the notebook for a game at a real table).

Both read one line at a time from ``lines`` and write to ``out``, so tests script them. Bad
input gets a line saying what is wrong and a new prompt; nothing typed before is lost. The
end of input or ``quit`` ends the session.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from game.logic.clue.events import View, narrate
from game.logic.clue.game import ClueGame, start_match
from game.logic.clue.notebook import HAND, EventContradiction, Notebook
from game.logic.clue.record import HEADER, RecordError, dumps, event_line, loads, parse_event
from game.logic.clue.rules import Action, ActionKind, ClueState, Phase, advice
from game.logic.contract import Limits, Stop, explain
from game.logic.numbers import parse_whole
from game.logic.quoting import clip, excerpt
from game.userfiles import shown

if TYPE_CHECKING:
    from game.registry import Entry

log = logging.getLogger(__name__)

PLAY_HELP = """Type one of:
  suggest CARD, CARD, CARD   name one card of each category (short names work: plum, rope, hall)
  accuse CARD, CARD, CARD    win if right; if wrong you are out (you still show cards)
  end                        after your suggestion: end your turn without accusing
  notebook                   every card by every holder, with probabilities
  hint                       what the full detective would do, and why
  next                       play that hint
  undo                       back to your previous decision
  save FILE                  write your case file (your view of the game)
  quit"""

ASSISTANT_HELP = """Type case file lines, one at a time:
  deck classic | seats 4 | dealer 3 (or: hands 5 5 4 4) | me 0 | hand CARD, CARD, ...
  suggest SEAT: CARD, CARD, CARD; passed SEAT, SEAT; showed SEAT[: CARD]
  accuse SEAT: CARD, CARD, CARD; wrong
and: notebook, why CARD HOLDER (a seat number or 'envelope'), undo, save FILE (with --case:
save alone writes that file, as every change does), load FILE, quit"""


def run(args: argparse.Namespace, entry: Entry) -> int:
    """The console for the parsed ``play clue --console`` arguments."""
    options = args.options  # checked by the command line against the entry's schema
    if getattr(args, "case", None) and not getattr(args, "assistant", False):
        raise ValueError("--case goes with --assistant (the case file of a real table's game)")
    lines = _stdin_lines()
    if getattr(args, "assistant", False):
        case = getattr(args, "case", None)
        return assistant(lines, sys.stdout, Path(case) if case else None)
    seed = args.seed if getattr(args, "seed", None) is not None else random.randrange(2**32)
    return play(ClueGame(options), entry, seed, lines, sys.stdout)


def _stdin_lines() -> Iterator[str]:
    while True:
        try:
            line = input("> ") if sys.stdin.isatty() else sys.stdin.readline()
        except EOFError:
            return
        if not sys.stdin.isatty() and not line:
            return
        yield line.rstrip("\n")


# -- notebook as text -----------------------------------------------------------------------


def notebook_text(book: Notebook, names: list[str]) -> str:
    """The grid: a row per card, a column per holder: ``yes`` certain, ``-`` impossible,
    else the chance in percent."""
    deck = book.view.deck
    heads = [n[:8] for n in names] + ["Envelope"]
    width = max(len(deck.name(c)) for c in range(deck.n_cards))
    rows = [" " * width + " | " + " ".join(f"{h:>8}" for h in heads)]
    for category, cards in zip(deck.categories, deck.ranges, strict=True):
        rows.append(f"{category.name}s".upper())
        for card in cards:
            cells = []
            for holder in range(book.view.seats + 1):
                p = book.probability(card, holder)
                cell = "yes" if book.holder(card) == holder else "-" if p == 0 else f"{p:.0%}"
                cells.append(f"{cell:>8}")
            rows.append(f"{deck.name(card):<{width}} | " + " ".join(cells))
    best, chance = book.best_accusation()
    rows.append(f"likeliest envelope: {deck.triple_text(best)} ({chance:.0%})")
    return "\n".join(rows)


def why_text(book: Notebook, card: int, holder: int, names: list[str]) -> str:
    deck = book.view.deck
    who = "the envelope" if holder == book.envelope else names[holder]
    reasons = book.why(card, holder)
    if not reasons:
        chance = book.probability(card, holder)
        return f"not certain: {deck.name(card)} is with {who} in {chance:.0%} of the deals"
    held = book.holder(card) == holder
    verdict = ("hold" if who == "You" else "holds") if held else "cannot hold"
    lines = [f"{who} {verdict} {deck.name(card)}, because:"]
    for index in reasons:
        if index == HAND:
            lines.append("  your hand")
        else:
            lines.append(f"  {index + 1}. {event_line(deck, book.view.events[index])}")
    return "\n".join(lines)


# -- playing ----------------------------------------------------------------------------------


def play(game: ClueGame, entry: Entry, seed: int, lines: Iterator[str], out: TextIO) -> int:
    """You are seat 0; the other seats are the ``opponent`` detectives. Returns 0."""
    say: Callable[[str], None] = lambda text: print(text, file=out, flush=True)  # noqa: E731
    rng = random.Random(seed)
    names = [game.seat_name(s) for s in range(game.seats)]
    opponents = [entry.make_agent(str(game.options["opponent"]), game.options) for _ in names]
    helper = entry.make_agent(entry.hint_agent, game.options)
    deal = start_match(game, [None] * game.seats, seed=seed)  # the window's deal for this seed
    state = deal.state
    deal.close()
    assert isinstance(state, ClueState)
    deck = game.rules.deck
    say(f"Cluedo, {game.seats} seats, the {deck.id} deck (seed {seed}). You are seat 0.")
    say(
        "Seats: "
        + ", ".join(f"{n} ({k} cards)" for n, k in zip(names, state.hand_sizes, strict=True))
    )
    say("Your hand: " + ", ".join(deck.name(c) for c in state.hands[0]))
    say("Type 'help' for the commands.")
    told = 0
    history: list[ClueState] = []
    while not state.is_terminal():
        view = state.observation(0)
        for event in view.events[told:]:
            say(narrate(event, view, names))
        told = len(view.events)
        seat = state.current_player()
        forced = game.forced_action(state)
        if seat != 0 or forced is not None:
            action = (
                forced
                if forced is not None
                else opponents[seat].choose(state, Limits(time=5), rng, Stop())
            )
            state = state.apply(action)
            continue
        if state.phase is Phase.REFUTE:
            assert state.asking is not None
            choices = ", ".join(deck.name(c) for c in state.matching(0))
            say(f"{names[state.asking.seat]} asks about {deck.triple_text(state.asking.cards)}. "
                f"Show one of: {choices} (show CARD)")  # fmt: skip
        elif state.phase is Phase.AFTER:
            say("accuse CARD, CARD, CARD or end?")
        else:
            say(f"Round {state.round}: your turn. suggest or accuse?")
        line = next(lines, None)
        if line is None or line.strip().lower() in ("quit", "exit"):
            say("Goodbye.")
            return 0
        try:
            answer = _play_command(line.strip(), state, game, helper, names, rng, out)
        except Exception as exc:  # a bug on one line: said, and the game goes on
            log.warning("the console failed on a line", exc_info=True)
            say(f"could not take that line ({type(exc).__name__}: {clip(str(exc))})")
            continue
        if answer == "undo":
            if history:
                state = history.pop()
                told = min(told, len(state.log))
                say("Back to your previous decision.")
            else:
                say("Nothing to undo.")
        elif isinstance(answer, tuple):
            history.append(state)
            state = state.apply(Action(*answer))
    view = state.observation(0)
    for event in view.events[told:]:
        say(narrate(event, view, names))
    say(game.result_text(state))
    return 0


def _play_command(
    line: str, state: ClueState, game: ClueGame, helper: object, names: list[str],
    rng: random.Random, out: TextIO,
) -> tuple[ActionKind, tuple[int, ...]] | str | None:  # fmt: skip
    """An action to play, "undo", or None (the command was answered here)."""
    say: Callable[[str], None] = lambda text: print(text, file=out, flush=True)  # noqa: E731
    word, _, rest = line.partition(" ")
    word = word.lower()
    if word in ("help", "?", ""):
        say(PLAY_HELP)
        return None
    if word == "notebook":
        say(notebook_text(Notebook.of(state.observation(0)), names))
        return None
    if word in ("hint", "next"):
        action = helper.choose(state, Limits(time=5), random.Random(0), Stop())  # type: ignore[attr-defined]
        if word == "next":
            return (action.kind, action.cards)
        say(f"Hint: {advice(state.rules.deck, action, explain(helper))}")
        return None
    if word == "undo":
        return "undo"
    if word == "save":
        _save(rest.strip(), dumps(state.observation(0)), say)
        return None
    try:
        action = state.parse_action(line)
    except ValueError as exc:
        say(f"{exc}. Type 'help' for the commands.")
        return None
    if action.kind is ActionKind.END and state.phase is not Phase.AFTER:
        say("'end' comes after your suggestion; suggest or accuse first.")
        return None
    try:
        state.apply(action)
    except ValueError as exc:
        say(str(exc))
        return None
    return (action.kind, action.cards)


def _save(name: str, text: str, say: Callable[[str], None]) -> bool:
    """Write ``text`` to ``name``; whether it was written (a failure is said)."""
    if not name:
        say("save FILE: name the file")
        return False
    try:
        write_text(Path(name), text)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        say(f"could not save {shown(name)}: {getattr(exc, 'strerror', None) or exc}")
        return False
    say(f"saved {name}")
    return True


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` by the one safe writer (:mod:`game.safewrite`): a temp file
    in the same folder, renamed over it; a link, a pipe, a device or a folder there is
    refused (OSError), and a missing folder is not made."""
    from game.safewrite import write_bytes_atomic

    write_bytes_atomic(path, text.encode("utf-8"), make_folder=False)


# -- the assistant ----------------------------------------------------------------------------


def assistant(lines: Iterator[str], out: TextIO, case: Path | None = None) -> int:
    """The notebook for a real table: case file lines in, deductions out. Returns 0.

    ``case`` (``--case FILE``): read at the start when it exists, and written after every
    change (an event, an undo, a load), so that nothing entered is lost; a file that cannot
    be read is left as it is and nothing is written to it. A line that cannot be taken is
    answered and the session goes on: nothing typed before it is lost."""
    say: Callable[[str], None] = lambda text: print(text, file=out, flush=True)  # noqa: E731
    say("Cluedo assistant. Type the header of your case file (deck, seats, dealer or hands, "
        "me, hand), then what happens. 'help' for more.")  # fmt: skip
    desk = _Desk(say, case)
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if line.split(" ", 1)[0].lower() in ("quit", "exit"):
            break
        try:
            desk.take(line)
        except Exception as exc:  # a bug on one line: said, and the case goes on
            log.warning("the assistant failed on a line", exc_info=True)
            say(f"could not take that line ({type(exc).__name__}: {clip(str(exc))}); "
                "nothing entered before it is lost")  # fmt: skip
    desk.leave()
    return 0


class _Desk:
    """The assistant's case as it is entered: the header lines, then the notebook."""

    def __init__(self, say: Callable[[str], None], case: Path | None) -> None:
        self.say = say
        self.header: list[str] = [HEADER]
        self.book: Notebook | None = None
        #: Where each change is written (``--case``); None: only ``save FILE`` writes.
        self.case: Path | None = None
        self.unsaved = False
        if case is not None:
            self._open(case)

    def _open(self, case: Path) -> None:
        if not case.exists():
            self.case = case
            self.say(f"a new case file {case}: each change is saved there")
        elif self.load(str(case)):
            self.case = case
            self.say(f"each change is saved to {case}")
        else:
            self.say(f"{case} is left as it is and nothing is saved to it: mend it and "
                     "'load' it, or 'save FILE' elsewhere")  # fmt: skip

    def take(self, line: str) -> None:
        """Answer one line (without its comment)."""
        say = self.say
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not line:
            return
        if word == "help":
            say(ASSISTANT_HELP)
        elif word == "load":
            if self.load(rest.strip()):
                self._changed()
        elif word in ("suggest", "accuse"):
            self.book = self.book or _start(self.header, say)
            if self.book is None:
                return
            try:
                event = parse_event(self.book.view.deck, self.book.view.seats, line)
                self.book = self.book.extended(event)
            except EventContradiction as exc:
                say(f"refused: {exc}; nothing entered is lost")
                return
            except ValueError as exc:
                say(f"refused: {exc}")
                return
            say(_summary(self.book))
            self._changed()
        elif word == "notebook":
            self.book = self.book or _start(self.header, say)
            if self.book is not None:
                say(notebook_text(self.book, _names(self.book)))
        elif word == "why":
            if self.book is None:
                say("enter the header and some events first")
                return
            say(_why(self.book, rest))
        elif word == "undo":
            self.undo()
        elif word == "save":
            self.save(rest.strip())
        elif self.book is None:
            try:
                loads("\n".join([*self.header, line]) + "\n")
            except RecordError as exc:
                if "needs" not in str(exc) and "holds" not in str(exc):
                    say(f"refused: {str(exc).split(': ', 1)[-1]}")
                    return
            self.header.append(line)
        else:
            say(f"{excerpt(word)}: the header is done; type events or 'help'")

    def load(self, name: str) -> bool:
        """Read the case file ``name``; whether it was read (a mistake is said, and the case
        entered so far stays as it was)."""
        from game.userfiles import read_text

        if not name:
            self.say("load FILE: name the file")
            return False
        try:
            view = loads(read_text(name, "Cluedo case file"))
            book = Notebook.of(view)
        except (ValueError, OSError) as exc:
            self.say(f"not loaded: {clip(str(exc))}")
            return False
        self.book = book
        self.header = [
            HEADER,
            *dumps(View(view.deck, view.hand_sizes, view.seat, view.hand, ())).splitlines()[1:],
        ]
        self.say(f"loaded {len(view.events)} events")
        return True

    def undo(self) -> None:
        book = self.book
        if book is None or not book.view.events:
            self.say("nothing to undo")
            return
        view = book.view
        self.book = Notebook.of(
            View(view.deck, view.hand_sizes, view.seat, view.hand, view.events[:-1])
        )
        self.say(f"removed: {event_line(view.deck, view.events[-1])}")
        self._changed()

    def save(self, name: str) -> None:
        """``save FILE``; ``save`` alone writes the ``--case`` file."""
        if self.book is None:
            self.say("nothing to save yet")
            return
        if not name and self.case is not None:
            name = str(self.case)
        if _save(name, dumps(self.book.view), self.say) and Path(name) == self.case:
            self.unsaved = False

    def leave(self) -> None:
        """At the end: say what was not saved."""
        if self.unsaved and self.book is not None:
            n = len(self.book.view.events)
            self.say(f"not saved: the case of {n} events could not be written to {self.case}")

    def _changed(self) -> None:
        """Write the case to the ``--case`` file, if there is one (a failure is said)."""
        if self.case is None or self.book is None:
            return
        try:
            write_text(self.case, dumps(self.book.view))
        except (OSError, ValueError) as exc:  # ValueError: a file the writer refuses
            self.unsaved = True
            self.say(f"could not save to {self.case}: {getattr(exc, 'strerror', None) or exc}")
            return
        self.unsaved = False


def _start(header: list[str], say: Callable[[str], None]) -> Notebook | None:
    try:
        return Notebook.of(loads("\n".join(header) + "\n"))
    except (RecordError, EventContradiction) as exc:
        say(f"the header is not complete: {exc}")
        return None


def _names(book: Notebook) -> list[str]:
    return ["You" if s == book.view.seat else f"Seat {s}" for s in range(book.view.seats)]


def _summary(book: Notebook) -> str:
    deck = book.view.deck
    solution = book.solution()
    if solution is not None:
        return f"certain: the envelope holds {deck.triple_text(solution)}"
    env = book.envelope
    known = [deck.name(c) for c in range(deck.n_cards) if book.holder(c) == env]
    best, chance = book.best_accusation()
    text = f"likeliest envelope: {deck.triple_text(best)} ({chance:.0%})"
    return text + (f"; certain in the envelope: {', '.join(known)}" if known else "")


def _why(book: Notebook, rest: str) -> str:
    card_text, _, holder_text = rest.strip().rpartition(" ")
    try:
        card = book.view.deck.card(card_text)
    except ValueError as exc:
        return f"why CARD HOLDER: {exc}"
    holder_text = holder_text.lower()
    seat = parse_whole(holder_text)
    if holder_text == "envelope":
        holder = book.envelope
    elif seat is not None and 0 <= seat < book.view.seats:
        holder = seat
    else:
        return (
            f"why CARD HOLDER: the holder is a seat number from 0 to {book.view.seats - 1} "
            f"or 'envelope', not {excerpt(holder_text)}"
        )
    return why_text(book, card, holder, _names(book))
