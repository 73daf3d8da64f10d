"""Cluedo at a card table: the scene controller.

A :class:`~game.logic.match.Match` holds the game (the record, undo and redo back to your
decisions, the computer detectives thinking off the drawing thread, the hint from the
``full`` detective). The table shows each seat's token and cards (yours face up, coloured by
category: red suspects, blue weapons, green rooms; the others' face down), the envelope in
the middle, the last suggestion's three cards before the suggester, a grey token before each
seat that passed and the card that refuted it on its way to the suggester (face up when it
was shown to you). When the game ends the envelope's cards lie face up beside it.

You choose a suggestion with the three option buttons (click to step through the cards of a
category), then Suggest or Accuse; when you must show a card, a button per card you may show.
The F3 overlay holds the detective's notebook: every card by every holder with its chance.
"""

from __future__ import annotations

import logging
import random
from typing import Any

import numpy as np

from game.controllers.clue_faces import CardFaceLayer
from game.controllers.clue_table import Table, layout
from game.engine.commands import Command, CommandTable
from game.engine.controller import Host, Sheet, Status, Tone
from game.engine.scene import Node, Scene, load_scene
from game.logic.clue.events import narrate
from game.logic.clue.exact import NotebookCache
from game.logic.clue.game import OPTIONS, ClueGame
from game.logic.clue.notebook import Notebook
from game.logic.clue.roster import make_agent
from game.logic.clue.rules import END, Action, ClueState, Kind, Phase
from game.logic.game import CHANCE, Limits
from game.logic.match import Match, MatchError, Step
from game.registry import GameSession
from game.resources import asset_path

__all__ = ["ClueController", "open_table"]

log = logging.getLogger(__name__)

HUMAN = 0


def open_table(session: GameSession, **overrides: Any) -> Any:
    """The Cluedo scene for these overrides: the assistant for a real table with
    ``assistant=True``, else a game against the computer detectives."""
    if overrides.get("assistant"):
        from game.controllers.clue_assistant import AssistantController

        return AssistantController(session, **overrides)
    overrides.pop("case", None)
    return ClueController(session, **overrides)


class ClueController:
    """The Cluedo scene; see the module docstring. ``overrides``: option values for this
    controller only, and ``seed`` (the deal)."""

    name = "clue"
    title = "Cluedo"

    def __init__(self, session: GameSession, **overrides: Any) -> None:
        self.seed: int | None = overrides.pop("seed", None)
        overrides.pop("assistant", None)  # open_table gives the assistant its own scene
        self.session = session
        self.options = OPTIONS.validate({**session.options, **overrides})
        self.game = ClueGame(self.options)
        self.dealer = 0
        self.choice = [cards[0] for cards in self.game.rules.deck.ranges]
        self.host: Host | None = None
        self.scene: Scene | None = None
        self.message = "Name three cards (click them in the notebook), then Suggest."
        self.tone = Tone.INFO
        self.confirm: tuple[int, ...] | None = None  # the accusation waiting for a second press
        self.show_notebook = True
        self._books = NotebookCache()
        self._sheet: tuple[Any, Sheet] | None = None
        self.recorded = False
        self.drawn: tuple[Any, ...] | None = None
        self.faces: CardFaceLayer | None = None
        self.table: Table | None = None
        self._hover_label: list[tuple[str, Any]] = []
        self.match = self._new_match()

    # -- the game ---------------------------------------------------------------------------

    @property
    def human(self) -> bool:
        return bool(self.options["human_playing"])

    @property
    def state(self) -> ClueState:
        state = self.match.state
        assert isinstance(state, ClueState)
        return state

    def _new_match(self) -> Match[Action]:
        rules = self.game.rules
        seats: list[Any] = [make_agent(str(self.options["opponent"])) for _ in range(rules.seats)]
        if self.human:
            seats[HUMAN] = None
        match: Match[Action] = Match(
            self.game, seats, seed=self.seed, limits=Limits(time=2.0),
            hint_agent=make_agent("full"), background=True,
            start=ClueState.start(rules, self.dealer),
        )  # fmt: skip
        for _ in range(rules.deck.n_cards + 1):  # the deal: chance steps, played at once
            if match.state.current_player() != CHANCE:
                break
            match.poll()
        match.on_step = self._on_step
        return match

    def _on_step(self, step: Step) -> None:
        state = self.state
        if state.log and step.action.kind in (Kind.SHOW, Kind.ACCUSE, Kind.END, Kind.SUGGEST):
            view = state.observation(HUMAN if self.human else -1)
            if view.events:
                self._say(narrate(view.events[-1], view, self.names()))

    def names(self) -> list[str]:
        """The seats' names, seat 0 first."""
        return [self.game.seat_name(s) for s in range(self.game.seats)]

    @property
    def viewer(self) -> int:
        """Whose notebook the table shows: your seat, or the public view (-1) when only
        computer detectives play."""
        return HUMAN if self.human else -1

    def notebook(self) -> Notebook:
        """The notebook of what your seat has seen (kept between frames, extended with each
        new event)."""
        return self._books.of(self.state.observation(self.viewer))

    def sheet(self) -> Sheet | None:
        """The notebook docked at the left of the table (B shows or hides it)."""
        if not self.show_notebook:
            return None
        key = (len(self.state.log), self.state.hands[HUMAN] if self.human else (),
               tuple(self.choice))  # fmt: skip
        if self._sheet is None or self._sheet[0] != key:
            from game.controllers.clue_panel import notebook_sheet

            self._sheet = (key, notebook_sheet(self.notebook(), self.names(), tuple(self.choice)))
        return self._sheet[1]

    # -- SceneController --------------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "clue.toml"))
        if host.ctx is not None:
            self.faces = CardFaceLayer(host.ctx, self.game.rules.deck)
            self.scene.layers.append(self.faces)
        self.table = Table(self.scene, host.tweens, self.faces)
        self.drawn = None
        self._draw(animate=False)
        return self.scene

    def exit(self) -> None:
        self.match.close()
        if self.faces is not None:
            self.faces.release()
            self.faces = None
        self.table = None
        self.host = None

    def animating(self) -> bool:
        return self.host is not None and self.host.tweens.busy > 0

    def update(self, dt: float) -> None:
        try:
            # A computer's next move waits until the table has shown the last one.
            self.match.poll(apply=not self.animating(), limit=1)
        except MatchError as exc:
            log.error("a detective could not move: %s", exc)
            self._say(f"A computer detective failed: {exc}", Tone.WARN)
        hint = self.match.current_hint()
        if hint is not None and self.message.startswith("Thinking"):
            self._say(f"Hint: {hint.text}. {hint.note}", Tone.HINT)
        state = self.state
        if self.human and state.phase is Phase.REFUTE and state.current_player() == HUMAN:
            assert state.asking is not None
            deck = state.rules.deck
            ask = f"{self.names()[state.asking.seat]} asks about "
            if not self.message.startswith(ask):
                self._say(
                    f"{ask}{deck.triple_text(state.asking.cards)}: choose the card to show "
                    "(the buttons at the right).", Tone.HINT,
                )  # fmt: skip
        self._finish()
        self._draw()

    def idle(self) -> bool:
        """Nothing is due: no thinking, and it is your turn or the game is over (a computer
        to play is due even between its thinking and its move)."""
        if self.match.thinking() or self.match.hinting():
            return False
        return self.match.over or self.match.agent_to_move() is None

    def commands(self) -> CommandTable:
        return CommandTable(self._commands())

    def status(self) -> Status:
        state = self.state
        names = self.names()
        if state.is_terminal():
            counter = "Game over"
        elif state.current_player() < 0:
            counter = "Dealing"
        else:
            seat = state.current_player()
            doing = {
                Phase.TURN: "to suggest or accuse",
                Phase.REFUTE: "to show a card",
                Phase.AFTER: "to accuse or end the turn",
            }.get(state.phase, "to play")
            counter = f"Round {state.round} · {names[seat]} {doing}"
        return Status(self.title, counter, self.message, self.tone, help=HELP)

    def status_line(self) -> str:
        state = self.state
        winner = "-" if state.winner is None else str(state.winner)
        return (
            f"status={state.phase.value} round={state.round} events={len(state.log)} "
            f"winner={winner} seats={state.rules.seats}"
        )

    def world_labels(self) -> list[tuple[str, Any]]:
        """Each seat's name (and cards in hand) by its token, "passed" over a pass token,
        and the name of the face-up card under the mouse."""
        labels = self.table.labels() if self.table is not None else []
        return labels + self._hover_label

    def on_pick(self, node: Node | None) -> object | None:
        return None

    def on_hover(self, node: Node | None) -> None:
        place = self.table.place_of(node) if self.table is not None else None
        if node is None or place is None or place.face < 0 or not place.face_up:
            self._hover_label = []
            return
        x, y, z = (float(v) for v in node.position)
        name = self.game.rules.deck.name(place.face)
        self._hover_label = [(name, np.array([x, y + 0.4, z - 0.75 * place.scale], "f4"))]

    def play(self, action: Any) -> None:
        """Play an action for you; raises ValueError (shown in the banner) when it is not
        legal or not your turn."""
        if not self.human or self.state.current_player() != HUMAN:
            raise ValueError("It is not your turn.")
        self.match.play(action)
        self._draw()

    def debug_panel(self) -> None:
        from game.controllers.clue_panel import draw_notebook

        draw_notebook(self)

    # -- commands ---------------------------------------------------------------------------

    def _commands(self) -> list[Command]:
        m = self.match
        deck = self.game.rules.deck

        def mine() -> bool:
            return self.human and self.state.current_player() == HUMAN

        def phase(*phases: Phase) -> bool:
            return mine() and self.state.phase in phases

        commands = [
            Command("hint", self.hint, "Hint", "H", "what the full detective would do here, "
                    "and why", enabled=lambda: not m.over, why_disabled="The game is over."),
            Command("next", self.next_step, "Next", "N", "play the hint",
                    enabled=mine, why_disabled="It is not your turn."),
            Command("undo", self.undo, "Undo", "U", "back to your previous decision",
                    enabled=m.can_undo, why_disabled="Nothing to undo."),
            Command("redo", self.redo, "Redo", "Y", "forward to your next decision",
                    enabled=m.can_redo, why_disabled="Nothing to redo."),
            Command("new", self.new_game, "New game", "R", "a new deal; the dealer passes "
                    "to the left"),
            Command("suggest", lambda: self._act(Kind.SUGGEST), "Suggest", "S",
                    "ask about the three cards chosen at the top right",
                    enabled=lambda: phase(Phase.TURN), why_disabled="Not your turn to suggest."),
            Command("accuse", self.accuse, "Accuse", "A",
                    "accuse the three chosen cards (press twice): right wins, wrong puts "
                    "you out",
                    enabled=lambda: phase(Phase.TURN, Phase.AFTER),
                    why_disabled="Not your turn."),
            Command("end", lambda: self.play(END), "End turn", "E",
                    "end your turn without accusing", enabled=lambda: phase(Phase.AFTER),
                    why_disabled="Suggest first."),
        ]  # fmt: skip
        for k, category in enumerate(deck.categories):
            commands.append(
                Command(
                    category.name,
                    lambda k=k: self.step_choice(k),
                    f"{category.name.title()}: {deck.name(self.choice[k])}",
                    group="options",
                    help=f"the {category.name} to name: click for the next one",
                )
            )
        deck_cards = deck.n_cards
        holders = self.game.seats + 1
        commands += [
            Command("notebook", self.toggle_notebook, "Notebook", "B",
                    "show or hide the notebook at the left"),
            Command("choose", self.choose, help="name this card in your suggestion (a click "
                    "on its row in the notebook)", group="", parse=_card_parser(deck),
                    argument="a card"),
            Command("why", self.why, help="why a card is or is not with a holder (a click "
                    "on a notebook cell)", group="", argument="CARD/HOLDER",
                    parse=_cell_parser(deck, self.names(), deck_cards, holders)),
        ]  # fmt: skip
        if phase(Phase.REFUTE):
            for card in self.state.matching(HUMAN):
                commands.append(
                    Command(
                        f"show-{card}",
                        lambda card=card: self.play(Action(Kind.SHOW, (card,))),
                        f"Show {deck.name(card)}",
                        group="list",
                        help="show this card to the suggester",
                    )
                )
        return commands

    def toggle_notebook(self) -> None:
        self.show_notebook = not self.show_notebook

    def choose(self, card: int) -> None:
        """Name ``card`` for its category in the next suggestion or accusation."""
        self.confirm = None
        deck = self.game.rules.deck
        self.choice[deck.category_of(card)] = card
        self._say(f"You will name {deck.triple_text(self.choice)}.")

    def why(self, cell: tuple[int, int]) -> None:
        """Say in the banner why the card of ``cell`` is (or is not) with its holder."""
        from game.controllers.clue_panel import why_text

        card, holder = cell
        self._say(why_text(self.notebook(), card, holder, self.names()), Tone.HINT)

    def step_choice(self, category: int) -> None:
        self.confirm = None
        cards = self.game.rules.deck.ranges[category]
        self.choice[category] = cards[(cards.index(self.choice[category]) + 1) % len(cards)]

    def _act(self, kind: Kind) -> None:
        self.confirm = None
        self.play(Action(kind, tuple(self.choice)))

    def accuse(self) -> None:
        """The first press asks for confirmation; a second press of the same three accuses."""
        chosen = tuple(self.choice)
        if self.confirm != chosen:
            self.confirm = chosen
            deck = self.game.rules.deck
            self._say(
                f"Accuse {deck.triple_text(chosen)}? If it is wrong you are out of the game. "
                "Press Accuse again to open the envelope.", Tone.WARN,
            )  # fmt: skip
            return
        self._act(Kind.ACCUSE)

    def hint(self) -> None:
        self._say("Thinking about a hint ...", Tone.HINT)
        self.match.hint()

    def next_step(self) -> None:
        hint = self.match.current_hint()
        if hint is None:
            agent = self.match.hint_agent
            assert agent is not None
            action = agent.choose(self.state, Limits(time=2.0), random.Random(0), _stop())
        else:
            action = hint.action
        if action.kind in (Kind.SUGGEST, Kind.ACCUSE):
            self.choice = list(action.cards)  # the buttons and the notebook show what it named
        self.play(action)

    def undo(self) -> None:
        self.match.undo()
        self._redraw()
        self._say("Back to your previous decision.")

    def redo(self) -> None:
        self.match.redo()
        self._redraw()

    def new_game(self) -> None:
        self.match.close()
        self.dealer = (self.dealer + 1) % self.game.seats
        self.seed = None
        self.recorded = False
        self.match = self._new_match()
        self._redraw()
        self._say("A new deal.")

    def _redraw(self) -> None:
        """The table at once as the state is now (after a jump in the record)."""
        if self.host is not None:
            self.host.tweens.cancel_all()
        self.drawn = None
        self._draw(animate=False)

    # -- inside -----------------------------------------------------------------------------

    def _say(self, text: str, tone: Tone = Tone.INFO) -> None:
        self.message, self.tone = text, tone

    def _finish(self) -> None:
        state = self.state
        if not state.is_terminal() or self.recorded:
            return
        self.recorded = True
        won = state.winner == HUMAN and self.human
        note = ""
        if self.human:
            note = self.session.record(
                "clue", won=won, setting=f"{state.rules.seats} seats, {state.rules.deck.id}"
            )
        tone = Tone.WON if won else Tone.LOST if self.human else Tone.INFO
        self._say(f"{self.game.result_text(state).capitalize()}. {note}".strip(), tone)

    def _draw(self, animate: bool = True) -> None:
        """Bring the table to the current state (only when it changed)."""
        state = self.state
        key = (state.key(), self.human)
        if self.table is None or key == self.drawn:
            return
        self.drawn = key
        scene = self.table.scene
        numbers = {k: scene.number(k) for k in ("radius_x", "radius_z", "card_step", "card_rest")}
        viewer = HUMAN if self.human else None
        self.table.show(layout(state, viewer, self.names(), numbers), animate)


def _card_parser(deck: Any) -> Any:
    def parse(text: str) -> int:
        text = text.strip()
        if text.isdigit() and int(text) < deck.n_cards:
            return int(text)
        return int(deck.card(text))

    return parse


def _cell_parser(deck: Any, names: list[str], cards: int, holders: int) -> Any:
    """``CARD/HOLDER``: a card (name or number) and a holder (a seat's name or number, or
    ``envelope``)."""
    card_of = _card_parser(deck)

    def parse(text: str) -> tuple[int, int]:
        card_text, slash, holder_text = text.rpartition("/")
        if not slash:
            raise ValueError(f"write CARD/HOLDER, not {text!r}")
        holder_text = holder_text.strip()
        folded = [n.casefold() for n in names]
        if holder_text.isdigit() and int(holder_text) < holders:
            holder = int(holder_text)
        elif holder_text.casefold() in ("envelope", "env"):
            holder = holders - 1
        elif holder_text.casefold() in folded:
            holder = folded.index(holder_text.casefold())
        else:
            raise ValueError(f"no holder {holder_text!r}: a seat ({', '.join(names)}) or envelope")
        return card_of(card_text), holder

    return parse


def _stop() -> Any:
    from game.logic.game import Stop

    return Stop()


HELP = (
    "Name three cards (click them in the notebook), then Suggest (S); Accuse (A) when sure. "
    "F1: every key."
)
