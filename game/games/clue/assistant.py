"""The Cluedo assistant in the window: the notebook for a game played at a real table.

``gamehall play clue --assistant`` opens it. You sit in seat 0; the others are numbered
clockwise from your left. First say how many play and who dealt, and click the cards you hold
in the sheet at the left, then Start. From then on enter what happens at the table as it
happens: who suggests (the first option button) and the three cards (click them in the
notebook, or step through the option buttons), then each answer in turn from the suggester's
left (:class:`~game.logic.clue.draft.Draft`): a pass, or a card shown (which card, when it was
shown to you; when you are asked, the card you show). The suggestion is recorded when
somebody shows a card or everybody has passed; a wrong accusation is recorded with its
button. The notebook deduces after every event; an answer that no deal agrees with is
refused as it is entered, and nothing entered before it is lost.

U takes back the last answer being entered or, with none, the last event whole (its
suggester and cards stay chosen); Y puts back the events U took, until a new answer is
entered. Save writes the case file (``--case FILE``, or ``clue-case.txt`` in the data
folder), Load reads it back and names the line of a mistake (quoting a short excerpt of it);
a case file that could not be read is kept as ``FILE.bad-DATE`` before Save writes over
it. H says what the ``full`` detective would suggest on your turn; N takes the hint: you
suggest those cards.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from game.engine.commands import Command, CommandTable
from game.engine.controller import Cell, Host, Sheet, Status, Tone
from game.engine.scene import Scene
from game.games.clue.faces import BACK
from game.games.clue.panel import CATEGORY_TEXT, HELD
from game.games.clue.scene import CardTableScene
from game.games.clue.table import (
    ENVELOPE_AT,
    Placement,
    Ring,
    seat_places,
    suggestion_places,
)
from game.hall.scene import Control
from game.logic.clue.deck import Triple, hand_sizes, load_deck
from game.logic.clue.deduce import Contradiction, Fact, Lacks, Some
from game.logic.clue.draft import Draft
from game.logic.clue.events import Accusation, Event, Suggestion, View, narrate
from game.logic.clue.exact import FullAgent
from game.logic.clue.game import OPTIONS
from game.logic.clue.notebook import EventContradiction, Notebook
from game.logic.clue.record import dumps, loads
from game.logic.clue.rules import MAX_SEATS, MIN_SEATS
from game.logic.contract import Stop
from game.registry import GameSession

__all__ = ["AssistantController"]

CASE_FILE = "clue-case.txt"
ME = 0
ANSWERING = "Answers are being entered: take them back (U) first."


class AssistantController(CardTableScene):
    """See the module docstring. ``overrides``: option values, and ``case`` (the case file
    to read at the start, when it exists, and to save to)."""

    title = "Cluedo assistant"

    def __init__(self, session: GameSession, **overrides: Any) -> None:
        case = overrides.pop("case", None)
        overrides.pop("assistant", None)
        overrides.pop("seed", None)
        self.session = session
        self.options = OPTIONS.validate({**session.options, **overrides})
        super().__init__(
            load_deck(str(self.options["deck"])),
            "Click the cards you hold in the sheet at the left, then Start.",
        )
        self.seats = int(self.options["seats"])
        self.dealer = self.seats - 1  # you are dealt the first card
        self.sizes: tuple[int, ...] | None = None  # hand sizes a case file gave
        self.path: Path | None = Path(case) if case else None
        self.hand: list[int] = []
        self.events: list[Event] = []
        self.undone: list[Event] = []
        self.started = False
        self.draft = Draft(self.seats, ME, tuple(cards[0] for cards in self.deck.ranges))
        self._setup: tuple[Any, Sheet] | None = None  # the setup sheet, with its key
        self.hinted: tuple[Any, Triple] | None = None  # the case's key and its hint
        #: The case file when it could not be read: Save keeps it aside before writing.
        self.unread: Path | None = None
        if self.path is not None and self.path.exists():
            try:
                self.load()
            except ValueError as exc:
                self.say(f"{exc}. Set up a new case, or mend the file and Load.", Tone.WARN)

    # -- what is known ----------------------------------------------------------------------

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        if self.sizes is not None:
            return self.sizes
        return hand_sizes(self.seats, self.deck.n_cards - len(self.deck.categories), self.dealer)

    @property
    def view(self) -> View:
        return View(self.deck, self.hand_sizes, ME, tuple(sorted(self.hand)), tuple(self.events))

    def _view(self) -> View:
        return self.view

    def names(self) -> list[str]:
        return ["You"] + [f"Seat {s}" for s in range(1, self.seats)]

    def places(self, ring: Ring) -> tuple[Any, list[Placement]]:
        key = (self.started, tuple(self.hand), tuple(self.events), self.draft, self.hand_sizes)
        hands = [sorted(self.hand) if s == ME else [BACK] * n
                 for s, n in enumerate(self.hand_sizes)]  # fmt: skip
        to_play = self.draft.seat if self.started else -1
        places = seat_places(ring, hands, ME, self.names(), self.view.out(), to_play)
        places.append(Placement("envelope", "envelope", ENVELOPE_AT))
        if self.started:
            d = self.draft
            being = Suggestion(d.seat, d.cards, d.passed, d.refuter)
            places += suggestion_places(ring, len(self.events), being, ME, self.names())
        return key, places

    # -- SceneController --------------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.notebook_in_background = not host.headless  # why a cell is so: on a thread
        return super().enter(host)

    def update(self, dt: float) -> None:
        self.take_answers()
        self.redraw()

    def idle(self) -> bool:
        return True

    def commands(self) -> CommandTable:
        return CommandTable(self._commands())

    def status(self) -> Status:
        names = self.names()
        if not self.started:
            counter = f"Setting up: your hand, {len(self.hand)} of {self.hand_sizes[ME]} cards"
        else:
            d = self.draft
            asked = d.asked()
            waiting = (
                f"{names[d.refuter]} showed you which card?"
                if d.refuter is not None
                else f"{names[asked]} to answer"
                if asked is not None
                else ""
            )
            verb = "suggest" if d.seat == ME else "suggests"
            counter = f"Event {len(self.events) + 1}: {names[d.seat]} {verb} · {waiting}"
        return Status(self.title, counter, self.message, self.tone, help=HELP)

    def status_line(self) -> str:
        return (
            f"status={'recording' if self.started else 'setup'} events={len(self.events)} "
            f"hand={len(self.hand)} seats={self.seats}"
        )

    def play(self, action: Any) -> None:
        raise ValueError("The assistant records a real table's game: use the buttons.")

    def debug_panel(self) -> None:
        from imgui_bundle import imgui

        imgui.text(f"case file: {self._case_path()}")
        imgui.text(f"events: {len(self.events)}  taken back: {len(self.undone)}")

    def sheet(self) -> Sheet | None:
        """The setup sheet (click the cards you hold), then the notebook."""
        if not self.show_notebook:
            return None
        if self.started:
            return self.notebook_sheet(tuple(self.draft.cards))
        key = (tuple(self.hand), self.hand_sizes, self.deck.id)
        if self._setup is None or self._setup[0] != key:
            self._setup = (key, self._setup_sheet())
        return self._setup[1]

    # -- commands ---------------------------------------------------------------------------

    def _commands(self) -> list[Command]:
        names = self.names()

        def started() -> bool:
            return self.started

        def quiet() -> bool:
            return self.started and not self.draft.answering

        commands = [
            self.control("hint", Control("Hint", "what the full detective would suggest on "
                                         "your turn", enabled=started,
                                         why_disabled="Start first.")),
            self.control("next", Control("Next", "take the hint: you suggest its cards",
                                         enabled=quiet, why_disabled=ANSWERING)),
            self.control("undo", Control("Undo", "take back the last answer, or the last "
                                         "event", enabled=started,
                                         why_disabled="Nothing to take back.")),
            self.control("redo", Control("Redo", "put back the event undo took",
                                         enabled=lambda: quiet() and bool(self.undone),
                                         why_disabled="Nothing to put back.")),
            self.control("new", Control("New case", "start again from the setup")),
            Command("notebook", self.toggle_notebook, "Notebook", "B",
                    "show or hide the notebook at the left"),
            Command("save", self.save, "Save", "", "write the case file", enabled=started,
                    why_disabled="Start first."),
            Command("load", self.load, "Load", "", "read the case file back"),
            Command("hold", self.hold, help="add a card to your hand, or take it out",
                    group="", parse=self.parse_card, argument="a card",
                    enabled=lambda: not self.started, why_disabled="The game has started."),
            Command("choose", self.choose, help="name this card in the suggestion being "
                    "entered", group="", parse=self.parse_card, argument="a card",
                    enabled=quiet, why_disabled=ANSWERING),
            Command("why", self.why, help="why a card is or is not with a holder", group="",
                    parse=self.parse_cell, argument="CARD/HOLDER", enabled=started,
                    why_disabled="Start first."),
        ]  # fmt: skip
        if not self.started:
            need = self.hand_sizes[ME]
            commands += [
                Command("seats", self.more_seats, f"Players: {self.seats}", group="options",
                        help=f"how many play ({MIN_SEATS} to {MAX_SEATS})"),
                Command("dealer", self.next_dealer, f"Dealer: {names[self.dealer]}",
                        group="options", help="who dealt: the seats after the dealer get the "
                        "extra cards"),
                Command("start", self.start, "Start", "S", "start recording the game",
                        enabled=lambda: len(self.hand) == need,
                        why_disabled=f"Click the {need} cards you hold first."),
            ]  # fmt: skip
            return commands
        commands.append(
            Command("suggester", self.next_suggester, f"Suggests: {names[self.draft.seat]}",
                    group="options", help="who is suggesting (click for the next seat)",
                    enabled=quiet, why_disabled=ANSWERING)
        )  # fmt: skip
        for k, category in enumerate(self.deck.categories):
            commands.append(
                Command(category.name, lambda k=k: self.step_choice(k),
                        f"{category.name.title()}: {self.deck.name(self.draft.cards[k])}",
                        group="options", help=f"the {category.name} named: click for the next",
                        enabled=quiet, why_disabled=ANSWERING)
            )  # fmt: skip
        commands.append(
            Command("accused", self.wrong_accusation, "Wrong accusation", "",
                    f"{names[self.draft.seat]} accused these three and was wrong",
                    enabled=lambda: quiet() and self.draft.seat != ME,
                    why_disabled="Only before the answers, and not for you.")
        )  # fmt: skip
        # The events entered, then the answers to enter (the column keeps its last rows).
        return commands + self.move_list() + self._answers()

    def _answers(self) -> list[Command]:
        """The buttons for the answer expected now, in the right-hand column."""
        names = self.names()
        deck = self.deck
        d = self.draft
        if d.refuter is not None:
            who = names[d.refuter]
            return [
                Command(f"shown-{card}", lambda card=card: self._shown(card),
                        f"{who} showed you {deck.name(card)}", group="list",
                        help="the card you were shown")
                for card in d.cards
            ]  # fmt: skip
        asked = d.asked()
        if asked is None:
            return []
        if asked == ME:
            matching = [c for c in d.cards if c in self.hand]
            if not matching:
                return [Command("pass", self.passes, "You pass (none of yours)", "P",
                                "you hold none of the three", group="list")]  # fmt: skip
            return [
                Command(f"show-{card}", lambda card=card: self._shown(card),
                        f"You show {deck.name(card)}", group="list", help="the card you showed")
                for card in matching
            ]  # fmt: skip
        who = names[asked]
        return [
            Command("pass", self.passes, f"{who} passed", "P", "the seat asked held none",
                    group="list"),
            Command("showed", self.showed, f"{who} showed a card", "K",
                    "the seat asked showed a card", group="list"),
        ]  # fmt: skip

    # -- setup ------------------------------------------------------------------------------

    def hold(self, card: int) -> None:
        need = self.hand_sizes[ME]
        if card in self.hand:
            self.hand.remove(card)
        elif len(self.hand) >= need:
            raise ValueError(f"You hold {need} cards: take one out first (click it).")
        else:
            self.hand.append(card)
        cards = ", ".join(self.deck.name(c) for c in sorted(self.hand)) or "none yet"
        self.say(f"Your hand: {cards} ({len(self.hand)} of {need}).")

    def more_seats(self) -> None:
        self._set_table(MIN_SEATS + (self.seats - MIN_SEATS + 1) % (MAX_SEATS - MIN_SEATS + 1))
        self.say(f"{self.seats} players; you hold {self.hand_sizes[ME]} cards.")

    def next_dealer(self) -> None:
        self._set_table(self.seats, (self.dealer + 1) % self.seats)
        self.say(f"{self.names()[self.dealer]} dealt: you hold {self.hand_sizes[ME]} cards.")

    def start(self) -> None:
        try:
            Notebook.of(self.view)
        except EventContradiction as exc:
            raise ValueError(str(exc)) from None
        self.started = True
        self.undone.clear()
        self.draft = Draft(self.seats, (self.dealer + 1) % self.seats, self.draft.cards)
        self.say("Now enter what happens at the table: who suggests, the three cards, then "
                 "each answer.")  # fmt: skip

    def restart(self) -> None:
        """A new case at once: back to the setup."""
        self.started = False
        self.events.clear()
        self._set_table(self.seats, self.dealer)
        self.say("A new case: the players, the dealer and your hand.")

    # -- recording --------------------------------------------------------------------------

    def next_suggester(self) -> None:
        self._draft(seat=(self.draft.seat + 1) % self.seats)

    def step_choice(self, category: int) -> None:
        cards = self.deck.ranges[category]
        chosen = list(self.draft.cards)
        chosen[category] = cards[(cards.index(chosen[category]) + 1) % len(cards)]
        self._draft(cards=tuple(chosen))

    def choose(self, card: int) -> None:
        chosen = list(self.draft.cards)
        chosen[self.deck.category_of(card)] = card
        self._draft(cards=tuple(chosen))
        d = self.draft
        verb = "suggest" if d.seat == ME else "suggests"
        self.say(f"{self.names()[d.seat]} {verb} {self.deck.triple_text(d.cards)}.")

    def passes(self) -> None:
        d = self.draft
        asked = d.asked()
        if asked is None:
            raise ValueError("Nobody is to answer now.")
        if asked == ME and any(c in self.hand for c in d.cards):
            raise ValueError("You hold one of the three: you must show it.")
        self._possible(asked, [Lacks(asked, c) for c in d.cards], "passed")
        self._answer(d.passing())

    def showed(self) -> None:
        d = self.draft
        asked = d.asked()
        if asked is None or asked == ME:
            raise ValueError("Choose the card you showed.")
        self._possible(asked, [Some(asked, d.cards)], "shown a card")
        self._answer(d.showing())

    def _shown(self, card: int) -> None:
        """The card shown: to you (you suggested), or by you (you were asked)."""
        d = self.draft if self.draft.refuter is not None else self.draft.showing()
        event = d.complete(card)
        assert event is not None
        self.undone.clear()
        self._record(event)

    def wrong_accusation(self) -> None:
        self.undone.clear()
        self._record(Accusation(self.draft.seat, self.draft.cards, False))

    def undo(self) -> None:
        if self.draft.answering:
            self.draft = self.draft.back()
        elif self.events:
            event = self.events.pop()
            self.undone.append(event)
            self.draft = Draft(self.seats, event.seat, tuple(event.cards))
            self.say(f"Took back event {len(self.events) + 1}; Y puts it back.")
        else:
            self.started = False
            self.say("Back to the setup.")

    def redo(self) -> None:
        if self._record(self.undone[-1]):
            self.undone.pop()

    def hint(self) -> None:
        def tell(triple: Triple) -> None:
            self.say(
                f"On your turn, suggest {self.deck.triple_text(triple)}: per category, the "
                "card likeliest to be in the envelope. N takes it.",
                Tone.HINT,
            )

        self._with_hint(tell)

    def next_step(self) -> None:
        draft = self.draft

        def take(triple: Triple) -> None:
            if self.draft != draft:  # you went on entering the table meanwhile
                return
            self._draft(seat=ME, cards=triple)
            self.say(f"You suggest {self.deck.triple_text(triple)}: now the answers.")

        self._with_hint(take)

    # -- the case file ----------------------------------------------------------------------

    def save(self) -> None:
        from game.games.clue.console import write_text

        path = self._case_path()
        kept = ""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if self.unread == path and path.exists():  # nothing that could not be read is lost
                aside = path.with_name(f"{path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
                path.rename(aside)
                self.unread, kept = None, f"; the file that could not be read is {aside.name}"
            write_text(path, dumps(self.view))
        except OSError as exc:
            raise ValueError(f"Could not save {path}: {exc.strerror or exc}") from None
        note = " (not the answers being entered)" if self.draft.answering else ""
        self.say(f"Saved {len(self.events)} events to {path}{note}{kept}.")

    def load(self) -> None:
        """Read the case file; a mistake is named with its line and nothing changes."""
        from game.userfiles import read_text

        path = self._case_path()
        try:
            view = loads(read_text(path, "case file"))
            Notebook.of(view)
        except ValueError as exc:
            self.unread = path if path.exists() else self.unread
            raise ValueError(f"{path}: {exc}") from None
        if view.seat != ME or view.deck != self.deck:  # a case this table cannot take
            self.unread = path
        if view.seat != ME:
            raise ValueError(f"{path} is seat {view.seat}'s view; the window sits you in seat 0 "
                             "(gamehall clue --console --assistant reads any seat's)")  # fmt: skip
        if view.deck != self.deck:
            raise ValueError(f"{path} is played with the {view.deck.id} deck: use --deck "
                             f"{view.deck.id}")  # fmt: skip
        dealt = self.deck.n_cards - len(self.deck.categories)
        dealers = [d for d in range(view.seats) if hand_sizes(view.seats, dealt, d)
                   == view.hand_sizes]  # fmt: skip
        self._set_table(view.seats, dealers[-1] if dealers else view.seats - 1)
        self.sizes = None if dealers else view.hand_sizes
        self.hand = list(view.hand)
        self.events = list(view.events)
        self.started = True
        last = self.events[-1].seat if self.events else self.dealer
        self.draft = Draft(self.seats, (last + 1) % self.seats, self.draft.cards)
        self.unread = None
        self.say(f"Loaded {len(self.events)} events from {path}.")

    # -- inside -----------------------------------------------------------------------------

    def _set_table(self, seats: int, dealer: int | None = None) -> None:
        """A table of ``seats`` dealt by ``dealer`` (default: the last seat); what was taken
        back and answers being entered belong to the old table and go."""
        self.seats = seats
        self.dealer = seats - 1 if dealer is None else dealer % seats
        self.sizes = None
        del self.hand[self.hand_sizes[ME] :]
        self.undone.clear()
        self.draft = Draft(seats, self.draft.seat % seats, self.draft.cards)

    def _draft(self, **changes: Any) -> None:
        """Change who suggests or what, before the answers."""
        if self.draft.answering:
            raise ValueError(ANSWERING)
        self.undone.clear()
        self.draft = replace(self.draft, **changes)

    def _answer(self, draft: Draft) -> None:
        self.undone.clear()
        if draft.refuter is not None and draft.seat == ME:  # you name the card next
            self.draft = draft
            self.say(f"Which card did {self.names()[draft.refuter]} show you?")
            return
        event = draft.complete()
        if event is None:
            self.draft = draft
        else:
            self._record(event)

    def _record(self, event: Event) -> bool:
        """Add a finished event; one that no deal agrees with is refused and the draft
        stays as it was. Returns whether it was added."""
        try:
            self.notebook().extended(event)
        except EventContradiction as exc:
            self.say(f"Not recorded: {exc}. Check the last answer and enter it again.",
                     Tone.WARN)  # fmt: skip
            return False
        self.events.append(event)
        self.say(narrate(event, self.view, self.names()))
        self.draft = Draft(self.seats, (event.seat + 1) % self.seats, tuple(event.cards))
        return True

    def _possible(self, seat: int, facts: list[Fact], what: str) -> None:
        """Refuse an answer that no deal agrees with, before it is entered."""
        earlier: list[Fact] = [Lacks(p, c) for p in self.draft.passed for c in self.draft.cards]
        try:
            self.notebook().knowledge.add(*earlier, *facts)
        except Contradiction:
            raise ValueError(
                f"{self.names()[seat]} cannot have {what}: no deal agrees with it and what "
                "came before."
            ) from None

    def _with_hint(self, then: Callable[[Triple], None]) -> None:
        """``then(the full detective's suggestion)`` for the case as it is; worked out on a
        thread in a window (a few hundred milliseconds at six seats), and dropped if the
        case changed meanwhile."""
        key = self._view_key()  # your hand and the events: the case
        if self.hinted is not None and self.hinted[0] == key:
            then(self.hinted[1])
            return
        view = self.view
        self.say("Thinking about a hint ...", Tone.HINT)

        def done(triple: Triple) -> None:
            self.hinted = (key, triple)
            then(triple)

        self.work_in_background(
            "hint",
            "Could not work out a hint",
            lambda: FullAgent().suggest(view, random.Random(len(view.events)), Stop()),
            done,
        )

    def _case_path(self) -> Path:
        if self.path is not None:
            return self.path
        from game.settings import data_dir

        return data_dir() / CASE_FILE

    def _setup_sheet(self) -> Sheet:
        rows: list[tuple[Cell, ...]] = []
        for k, (category, cards) in enumerate(
            zip(self.deck.categories, self.deck.ranges, strict=True)
        ):
            rows.append((Cell(f"{category.name}s".upper()),))
            for card in cards:
                held = card in self.hand
                name = self.deck.name(card)
                rows.append(
                    (
                        Cell(name, f"hold:{card}", color=CATEGORY_TEXT[k % len(CATEGORY_TEXT)],
                             bold=held, tip=f"Click if you hold {name}."),
                        Cell("✓" if held else "", f"hold:{card}", HELD if held else None,
                             bold=True),
                    )
                )  # fmt: skip
        return Sheet(
            "Your hand  (click the cards you hold)",
            (Cell("Card"), Cell("You")),
            tuple(rows),
            (f"{len(self.hand)} of {self.hand_sizes[ME]} cards", "Then press Start."),
        )


HELP = (
    "Enter your real table's game: who suggests, the three cards (click them in the "
    "notebook), then each answer. F1: every key."
)
