"""The Cluedo assistant in the window: the notebook for a game played at a real table.

``gamehall play clue --assistant`` opens it. You sit in seat 0; the others are numbered
clockwise from your left. First say how many play and who dealt, and click the cards you hold
in the sheet at the left, then Start. From then on enter what happens at the table as it
happens: who suggests (the first option button) and the three cards (click them in the
notebook, or step through the option buttons), then each answer in turn from the suggester's
left: a pass, or a card shown (which card, when it was shown to you; when you are asked, the
card you show). The suggestion is recorded when somebody shows a card or everybody has
passed; a wrong accusation is recorded with its button. The notebook deduces after every
event; an event that no deal agrees with is refused, saying so, and nothing is lost. U takes
back the last answer or event, Y puts it back. Save writes the case file (``--case FILE``, or
``clue-case.txt`` in the data folder), Load reads it back and names the line of a mistake. H
says what the ``full`` detective would suggest on your turn; N sets the cards to it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np

from game.controllers.clue_faces import BACK, CardFaceLayer
from game.controllers.clue_panel import CATEGORY_TEXT, HELD, notebook_sheet, why_text
from game.controllers.clue_table import Place, Ring, Table, seat_places, suggestion_places
from game.engine.commands import Command, CommandTable
from game.engine.controller import Cell, Host, Sheet, Status, Tone
from game.engine.scene import Node, Scene, load_scene
from game.logic.clue.deck import hand_sizes, load_deck
from game.logic.clue.deduce import Contradiction, Fact, Knowledge, Lacks, Some
from game.logic.clue.events import Accusation, Event, Suggestion, View, narrate
from game.logic.clue.exact import FullAgent, NotebookCache
from game.logic.clue.game import OPTIONS
from game.logic.clue.notebook import EventContradiction, Notebook
from game.logic.clue.record import dumps, loads
from game.logic.clue.rules import MAX_SEATS, MIN_SEATS
from game.logic.game import Stop
from game.registry import GameSession
from game.resources import asset_path

__all__ = ["AssistantController"]

CASE_FILE = "clue-case.txt"
ME = 0


class AssistantController:
    """See the module docstring. ``overrides``: option values, and ``case`` (the case
    file to load at the start, if it exists, and to save to)."""

    name = "clue"
    title = "Cluedo assistant"

    def __init__(self, session: GameSession, **overrides: Any) -> None:
        case = overrides.pop("case", None)
        overrides.pop("assistant", None)
        overrides.pop("seed", None)
        self.session = session
        self.options = OPTIONS.validate({**session.options, **overrides})
        self.deck = load_deck(str(self.options["deck"]))
        self.seats = int(self.options["seats"])
        self.dealer = self.seats - 1  # you are dealt first
        self.sizes: tuple[int, ...] | None = None  # hand sizes a case file gave
        self.path: Path | None = Path(case) if case else None
        self.hand: list[int] = []
        self.events: list[Event] = []
        self.undone: list[Event] = []
        self.started = False
        self.suggester = ME
        self.choice = [cards[0] for cards in self.deck.ranges]
        self.passed: list[int] = []
        self.refuter: int | None = None  # a seat that showed you a card not yet named
        self.hinted: tuple[int, ...] | None = None
        self.show_notebook = True
        self.books = NotebookCache()
        self.message = "Click the cards you hold in the sheet at the left, then Start."
        self.tone = Tone.INFO
        self.host: Host | None = None
        self.scene: Scene | None = None
        self.faces: CardFaceLayer | None = None
        self.table: Table | None = None
        self.drawn: Any = None
        self._sheet: tuple[Any, Sheet] | None = None
        self._hover_label: list[tuple[str, Any]] = []
        if self.path is not None and self.path.exists():
            self.load()

    # -- what is known ----------------------------------------------------------------------

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        if self.sizes is not None and len(self.sizes) == self.seats:
            return self.sizes
        return hand_sizes(self.seats, self.deck.n_cards - len(self.deck.categories), self.dealer)

    @property
    def view(self) -> View:
        return View(self.deck, self.hand_sizes, ME, tuple(sorted(self.hand)), tuple(self.events))

    def notebook(self) -> Notebook:
        return self.books.of(self.view)

    def names(self) -> list[str]:
        return ["You"] + [f"Seat {s}" for s in range(1, self.seats)]

    def order(self) -> list[int]:
        """The seats asked, in turn from the suggester's left."""
        return [(self.suggester + k) % self.seats for k in range(1, self.seats)]

    def asked(self) -> int | None:
        """The seat whose answer comes next (None: waiting for the card shown to you)."""
        if self.refuter is not None:
            return None
        order = self.order()
        return order[len(self.passed)] if len(self.passed) < len(order) else None

    # -- SceneController --------------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "clue.toml"))
        if host.ctx is not None:
            self.faces = CardFaceLayer(host.ctx, self.deck)
            self.scene.layers.append(self.faces)
        self.table = Table(self.scene, host.tweens, self.faces)
        self.drawn = None
        self._draw()
        return self.scene

    def exit(self) -> None:
        if self.faces is not None:
            self.faces.release()
            self.faces = None
        self.table = None
        self.host = None

    def update(self, dt: float) -> None:
        self._draw()

    def idle(self) -> bool:
        return True

    def commands(self) -> CommandTable:
        return CommandTable(self._commands())

    def status(self) -> Status:
        names = self.names()
        if not self.started:
            need = self.hand_sizes[ME]
            counter = f"Setting up: your hand, {len(self.hand)} of {need} cards"
        else:
            asked = self.asked()
            waiting = (
                f"{names[self.refuter]} showed you which card?"
                if self.refuter is not None
                else f"{names[asked]} to answer"
                if asked is not None
                else ""
            )
            verb = "suggest" if self.suggester == ME else "suggests"
            who = names[self.suggester]
            counter = f"Event {len(self.events) + 1}: {who} {verb} · {waiting}"
        return Status(self.title, counter, self.message, self.tone, help=HELP)

    def status_line(self) -> str:
        return (
            f"status={'recording' if self.started else 'setup'} events={len(self.events)} "
            f"hand={len(self.hand)} seats={self.seats}"
        )

    def on_pick(self, node: Node | None) -> object | None:
        return None

    def play(self, action: Any) -> None:
        raise ValueError("The assistant records a real table's game: use the buttons.")

    def on_hover(self, node: Node | None) -> None:
        place = self.table.place_of(node) if self.table is not None else None
        if node is None or place is None or place.face < 0 or not place.face_up:
            self._hover_label = []
            return
        x, y, z = (float(v) for v in node.position)
        self._hover_label = [
            (self.deck.name(place.face), np.array([x, y + 0.4, z - 0.75 * place.scale], "f4"))
        ]

    def world_labels(self) -> list[tuple[str, Any]]:
        return (self.table.labels() if self.table is not None else []) + self._hover_label

    def debug_panel(self) -> None:
        from imgui_bundle import imgui

        imgui.text(f"case file: {self._case_path()}")
        imgui.text(f"events: {len(self.events)}  undone: {len(self.undone)}")

    def sheet(self) -> Sheet | None:
        """The setup sheet (click the cards you hold), then the notebook."""
        if not self.show_notebook:
            return None
        key = (self.started, tuple(self.hand), len(self.events), tuple(self.choice),
               self.seats, self.hand_sizes)  # fmt: skip
        if self._sheet is None or self._sheet[0] != key:
            if self.started:
                sheet = notebook_sheet(self.notebook(), self.names(), tuple(self.choice))
            else:
                sheet = self._setup_sheet()
            self._sheet = (key, sheet)
        return self._sheet[1]

    # -- commands ---------------------------------------------------------------------------

    def _commands(self) -> list[Command]:
        deck = self.deck
        names = self.names()
        setup = not self.started
        commands = [
            Command("hint", self.hint, "Hint", "H", "what the full detective would suggest "
                    "on your turn", enabled=lambda: self.started,
                    why_disabled="Start first."),
            Command("next", self.next_step, "Next", "N", "name the hinted cards for your turn",
                    enabled=lambda: self.started, why_disabled="Start first."),
            Command("undo", self.undo, "Undo", "U", "take back the last answer or event",
                    enabled=self._can_undo, why_disabled="Nothing to take back."),
            Command("redo", self.redo, "Redo", "Y", "put back what undo took",
                    enabled=lambda: bool(self.undone) and self.started,
                    why_disabled="Nothing to put back."),
            Command("new", self.new_case, "New case", "R", "start again from the setup"),
            Command("notebook", self.toggle_notebook, "Notebook", "B",
                    "show or hide the notebook at the left"),
            Command("save", self.save, "Save", "", "write the case file",
                    enabled=lambda: self.started, why_disabled="Start first."),
            Command("load", self.load, "Load", "", "read the case file back"),
            Command("hold", self.hold, help="add a card to your hand, or take it out (setup)",
                    group="", parse=self._card, argument="a card",
                    enabled=lambda: not self.started, why_disabled="The game has started."),
            Command("choose", self.choose, help="name this card in the suggestion being "
                    "entered", group="", parse=self._card, argument="a card",
                    enabled=lambda: self.started, why_disabled="Start first."),
            Command("why", self.why, help="why a card is or is not with a holder", group="",
                    parse=self._cell, argument="CARD/HOLDER", enabled=lambda: self.started,
                    why_disabled="Start first."),
        ]  # fmt: skip
        if setup:
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
            Command("suggester", self.next_suggester, f"Suggests: {names[self.suggester]}",
                    group="options", help="who is suggesting (click for the next seat)",
                    enabled=lambda: not self.passed and self.refuter is None,
                    why_disabled="Answers are being entered: undo them first.")
        )  # fmt: skip
        for k, category in enumerate(deck.categories):
            commands.append(
                Command(category.name, lambda k=k: self.step_choice(k),
                        f"{category.name.title()}: {deck.name(self.choice[k])}",
                        group="options", help=f"the {category.name} named: click for the next",
                        enabled=lambda: not self.passed and self.refuter is None,
                        why_disabled="Answers are being entered: undo them first.")
            )  # fmt: skip
        commands.append(
            Command("accused", self.wrong_accusation, "Wrong accusation", "",
                    f"{names[self.suggester]} accused these three and was wrong",
                    enabled=lambda: not self.passed and self.refuter is None
                    and self.suggester != ME, why_disabled="Only before the answers, "
                    "and not for you (the game tells you if you are wrong).")
        )  # fmt: skip
        commands += self._answers()
        return commands

    def _answers(self) -> list[Command]:
        """The buttons for the answer expected now, in the right-hand column."""
        names = self.names()
        deck = self.deck
        if self.refuter is not None:
            who = names[self.refuter]
            return [
                Command(f"shown-{card}", lambda card=card: self.shown_to_you(card),
                        f"{who} showed you {deck.name(card)}", group="list",
                        help="the card you were shown")
                for card in self.choice
            ]  # fmt: skip
        asked = self.asked()
        if asked is None:
            return []
        if asked == ME:
            matching = [c for c in self.choice if c in self.hand]
            if not matching:
                return [Command("pass", self.passes, "You pass (none of yours)", "P",
                                "you hold none of the three", group="list")]  # fmt: skip
            return [
                Command(f"show-{card}", lambda card=card: self.you_show(card),
                        f"You show {deck.name(card)}", group="list",
                        help="the card you showed")
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
        if card in self.hand:
            self.hand.remove(card)
        elif len(self.hand) >= self.hand_sizes[ME]:
            raise ValueError(
                f"You hold {self.hand_sizes[ME]} cards: take one out first (click it)."
            )
        else:
            self.hand.append(card)
        self._say(f"Your hand: {self._hand_text()}.")

    def more_seats(self) -> None:
        self.seats = MIN_SEATS + (self.seats - MIN_SEATS + 1) % (MAX_SEATS - MIN_SEATS + 1)
        self.dealer = self.seats - 1
        self.sizes = None
        del self.hand[self.hand_sizes[ME] :]
        self._say(f"{self.seats} players; you hold {self.hand_sizes[ME]} cards.")

    def next_dealer(self) -> None:
        self.dealer = (self.dealer + 1) % self.seats
        self.sizes = None
        del self.hand[self.hand_sizes[ME] :]
        self._say(f"{self.names()[self.dealer]} dealt: you hold {self.hand_sizes[ME]} cards.")

    def start(self) -> None:
        try:
            Notebook.of(self.view)
        except EventContradiction as exc:
            raise ValueError(str(exc)) from None
        self.started = True
        self.suggester = (self.dealer + 1) % self.seats
        self._say("Now enter what happens at the table: who suggests, the three cards, then "
                  "each answer.")  # fmt: skip

    def new_case(self) -> None:
        self.started = False
        self.events.clear()
        self.undone.clear()
        self._reset_draft()
        self.sizes = None
        self._say("A new case: your hand, the players and the dealer.")

    # -- recording --------------------------------------------------------------------------

    def next_suggester(self) -> None:
        self.suggester = (self.suggester + 1) % self.seats

    def step_choice(self, category: int) -> None:
        cards = self.deck.ranges[category]
        self.choice[category] = cards[(cards.index(self.choice[category]) + 1) % len(cards)]

    def choose(self, card: int) -> None:
        if self.passed or self.refuter is not None:
            raise ValueError("Answers are being entered: undo them to change the cards.")
        self.choice[self.deck.category_of(card)] = card
        verb = "suggest" if self.suggester == ME else "suggests"
        cards = self.deck.triple_text(self.choice)
        self._say(f"{self.names()[self.suggester]} {verb} {cards}.")

    def passes(self) -> None:
        asked = self.asked()
        if asked is None:
            raise ValueError("Nobody is to answer now.")
        if asked == ME and any(c in self.hand for c in self.choice):
            raise ValueError("You hold one of the three: you must show it.")
        self._possible(asked, [Lacks(asked, c) for c in self.choice], "passed")
        self.passed.append(asked)
        done = Suggestion(self.suggester, tuple(self.choice), tuple(self.passed))
        if len(self.passed) == self.seats - 1 and not self._record(done):
            self.passed.pop()

    def showed(self) -> None:
        asked = self.asked()
        if asked is None or asked == ME:
            raise ValueError("Choose the card you showed.")
        self._possible(asked, [Some(asked, tuple(self.choice))], "shown a card")
        if self.suggester == ME:
            self.refuter = asked
            self._say(f"Which card did {self.names()[asked]} show you?")
            return
        self._record(Suggestion(self.suggester, tuple(self.choice), tuple(self.passed), asked))

    def shown_to_you(self, card: int) -> None:
        assert self.refuter is not None
        event = Suggestion(ME, tuple(self.choice), tuple(self.passed), self.refuter, card)
        self._record(event)

    def you_show(self, card: int) -> None:
        event = Suggestion(self.suggester, tuple(self.choice), tuple(self.passed), ME, card)
        self._record(event)

    def wrong_accusation(self) -> None:
        self._record(Accusation(self.suggester, tuple(self.choice), False))

    def undo(self) -> None:
        if self.refuter is not None:
            self.refuter = None
        elif self.passed:
            self.passed.pop()
        elif self.events:
            event = self.events.pop()
            self.undone.append(event)
            self.suggester = event.seat
            self.choice = list(event.cards)
            self._say(f"Took back event {len(self.events) + 1}.")
        elif self.started:
            self.started = False
            self._say("Back to the setup.")

    def redo(self) -> None:
        event = self.undone[-1]
        self._reset_draft()
        if self._record(event, keep_undone=True):
            self.undone.pop()

    def hint(self) -> None:
        agent = FullAgent()
        self.hinted = agent.suggest(self.view, random.Random(len(self.events)), Stop())
        self._say(
            f"On your turn, suggest {self.deck.triple_text(self.hinted)}: "
            f"{agent.suggestion_reason()}. N names them.",
            Tone.HINT,
        )

    def next_step(self) -> None:
        if self.passed or self.refuter is not None:
            raise ValueError("Answers are being entered: undo them first.")
        if self.hinted is None:
            self.hint()
        assert self.hinted is not None
        self.suggester = ME
        self.choice = list(self.hinted)
        self._say(f"You suggest {self.deck.triple_text(self.choice)}: now enter the answers.")

    def why(self, cell: tuple[int, int]) -> None:
        card, holder = cell
        self._say(why_text(self.notebook(), card, holder, self.names()), Tone.HINT)

    def toggle_notebook(self) -> None:
        self.show_notebook = not self.show_notebook

    # -- the case file ----------------------------------------------------------------------

    def save(self) -> None:
        from game.clue_console import write_text

        path = self._case_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text(path, dumps(self.view))
        except OSError as exc:
            raise ValueError(f"Could not save {path}: {exc.strerror or exc}") from None
        note = " (the answers being entered are not in it)" if self.passed else ""
        self._say(f"Saved {len(self.events)} events to {path}{note}.")

    def load(self) -> None:
        """Read the case file; a mistake is named with its line and nothing changes."""
        from game.userfiles import read_text

        path = self._case_path()
        try:
            view = loads(read_text(path, "case file"))
            Notebook.of(view)
        except EventContradiction as exc:
            raise ValueError(f"{path}: {exc}") from None
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
        if view.seat != ME:
            raise ValueError(
                f"{path} is seat {view.seat}'s view; the window sits you in seat 0 (open it with "
                "gamehall clue --console --assistant)"
            )
        if view.deck != self.deck:
            raise ValueError(f"{path} is played with the {view.deck.id} deck: use --deck "
                             f"{view.deck.id}")  # fmt: skip
        self.seats = view.seats
        self.sizes = view.hand_sizes
        self.hand = list(view.hand)
        self.events = list(view.events)
        self.undone.clear()
        self._reset_draft()
        self.started = True
        last = self.events[-1].seat if self.events else self.seats - 1
        self.suggester = (last + 1) % self.seats
        self._say(f"Loaded {len(self.events)} events from {path}.")

    # -- inside -----------------------------------------------------------------------------

    def _record(self, event: Event, keep_undone: bool = False) -> bool:
        """Add a finished event; one that no deal agrees with is refused and the answers
        before its last one are kept. Returns whether it was added."""
        try:
            self.notebook().extended(event)
        except EventContradiction as exc:
            self._say(f"Not recorded: {exc}. Check the last answer and enter it again.",
                      Tone.WARN)  # fmt: skip
            return False
        self.events.append(event)
        if not keep_undone:
            self.undone.clear()
        view = self.view
        self._say(narrate(event, view, self.names()))
        self._reset_draft()
        self.suggester = (event.seat + 1) % self.seats
        return True

    def _possible(self, seat: int, facts: list[Fact], what: str) -> None:
        """Refuse an answer that no deal agrees with, before it is entered."""
        knowledge: Knowledge | None = self.notebook().knowledge
        for fact in (*(Lacks(p, c) for p in self.passed for c in self.choice), *facts):
            knowledge = _with(knowledge, fact)
            if knowledge is None:
                raise ValueError(
                    f"{self.names()[seat]} cannot have {what}: no deal agrees with it and "
                    "what came before."
                )

    def _reset_draft(self) -> None:
        self.passed = []
        self.refuter = None

    def _can_undo(self) -> bool:
        return self.started

    def _case_path(self) -> Path:
        if self.path is not None:
            return self.path
        from game.settings import data_dir

        return data_dir() / CASE_FILE

    def _card(self, text: str) -> int:
        text = text.strip()
        if text.isdigit() and int(text) < self.deck.n_cards:
            return int(text)
        return self.deck.card(text)

    def _cell(self, text: str) -> tuple[int, int]:
        card_text, slash, holder_text = text.rpartition("/")
        if not slash:
            raise ValueError(f"write CARD/HOLDER, not {text!r}")
        holder_text = holder_text.strip().casefold()
        names = [n.casefold() for n in self.names()]
        if holder_text.isdigit() and int(holder_text) <= self.seats:
            holder = int(holder_text)
        elif holder_text in ("envelope", "env"):
            holder = self.seats
        elif holder_text in names:
            holder = names.index(holder_text)
        else:
            raise ValueError(f"no holder {holder_text!r}: a seat or envelope")
        return self._card(card_text), holder

    def _hand_text(self) -> str:
        need = self.hand_sizes[ME]
        cards = ", ".join(self.deck.name(c) for c in sorted(self.hand)) or "none yet"
        return f"{cards} ({len(self.hand)} of {need})"

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

    def _say(self, text: str, tone: Tone = Tone.INFO) -> None:
        self.message, self.tone = text, tone

    def _draw(self) -> None:
        if self.table is None:
            return
        key = (self.started, tuple(self.hand), tuple(self.events), self.suggester,
               tuple(self.choice), tuple(self.passed), self.refuter, self.seats,
               self.hand_sizes)  # fmt: skip
        if key == self.drawn:
            return
        self.drawn = key
        scene = self.table.scene
        numbers = {k: scene.number(k) for k in ("radius_x", "radius_z", "card_step", "card_rest")}
        ring = Ring(self.seats, numbers)
        hands = [sorted(self.hand) if s == ME else [BACK] * n
                 for s, n in enumerate(self.hand_sizes)]  # fmt: skip
        view = self.view
        to_play = self.suggester if self.started else -1
        places: list[Place] = seat_places(ring, hands, ME, self.names(), view.out(), to_play)
        places.append(Place("envelope", "envelope", (0.0, 0.01, -0.2)))
        if self.started:
            draft = Suggestion(self.suggester, tuple(self.choice), tuple(self.passed),
                               self.refuter)  # fmt: skip
            places += suggestion_places(ring, len(self.events), draft, ME, self.names())
        self.table.show(places, animate=True)


def _with(knowledge: Knowledge | None, fact: Fact) -> Knowledge | None:
    if knowledge is None:
        return None
    try:
        return knowledge.add(fact)
    except Contradiction:
        return None


HELP = (
    "Enter your real table's game: who suggests, the three cards (click them in the "
    "notebook), then each answer. F1: every key."
)
