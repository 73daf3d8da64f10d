"""Cluedo at a card table: the scene controller.

A :class:`~game.logic.match.Match` holds the game (the record, undo and redo back to your
decisions, the computer detectives thinking off the drawing thread, the hint from the
``full`` detective). The table (:mod:`game.games.clue.table`) shows each seat's token
and cards (yours face up, the others' backs), the envelope in the middle, the suggestion
being answered in a row before it, a grey token at each seat that passed, a gold one at the
seat that answered and the card that answered it; a computer's next move waits until the
table has shown the last one. When the game ends every card lies face up.

You name a suggestion's cards by clicking them in the notebook docked at the left (or with
the option buttons), then Suggest or Accuse; when you must show a card, a button per card you
may show takes the option buttons' place. A click on a notebook cell says why the card is, or
cannot be, there.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from game.engine.commands import Command, CommandTable
from game.engine.controller import Sheet, Status, Tone
from game.engine.scene import Scene
from game.games.clue.entry import ENTRY
from game.games.clue.scene import CardTableScene
from game.games.clue.table import Placement, Ring, layout
from game.hall.keeping import follow, keep, kept_data, kept_game, kept_options, resume_kept
from game.hall.scene import Control
from game.logic.clue.deck import detectives
from game.logic.clue.events import View, narrate
from game.logic.clue.game import ClueGame, start_match
from game.logic.clue.rules import END, Action, ActionKind, ClueState, Phase, advice
from game.logic.contract import Limits
from game.logic.linked import LinkedMatch
from game.logic.match import Match, MatchError, Step
from game.registry import GameSession

if TYPE_CHECKING:
    from game.engine.controller import Host

__all__ = ["ClueController", "open_table"]

log = logging.getLogger(__name__)

HUMAN = 0


def open_table(session: GameSession, **overrides: Any) -> Any:
    """The Cluedo scene for these overrides: the assistant for a real table with
    ``assistant=True``, else a game against the computer detectives."""
    if overrides.get("assistant"):
        from game.games.clue.assistant import AssistantController

        return AssistantController(session, **overrides)
    overrides.pop("case", None)
    return ClueController(session, **overrides)


class ClueController(CardTableScene):
    """The Cluedo scene; see the module docstring. ``overrides``: option values for this
    controller only, ``seed`` (the deal) and ``background`` (work the notebook out on a thread of
    its own: by default in a window only)."""

    title = "Cluedo"
    plays_stand_in = True  # the table shows the others' cards face down only, to the end

    def __init__(self, session: GameSession, **overrides: Any) -> None:
        self.seed: int | None = overrides.pop("seed", None)
        self._background: bool | None = overrides.pop("background", None)
        overrides.pop("assistant", None)  # open_table gives the assistant its own scene
        self.session = session
        # A deal asked for (a seed, options for this table) starts afresh; otherwise the game
        # kept when the person left comes back, with its options and its dealer.
        kept, note = kept_game(session, self.name, fresh=self.seed is not None or bool(overrides))
        self.options, kept, refused = kept_options(session, ENTRY.options, kept, overrides)
        note = refused or note
        self.game = ClueGame(self.options)
        super().__init__(
            self.game.rules.deck, "Name three cards (click them in the notebook), then Suggest."
        )
        self.dealer = 0
        if kept is not None:
            dealer = kept.extra.get("dealer", 0)
            self.dealer = dealer if isinstance(dealer, int) and 0 <= dealer < self.game.seats else 0
        self.choice = [cards[0] for cards in self.deck.ranges]
        self.confirm: tuple[int, ...] | None = None  # the accusation waiting for a second press
        self._viewed: tuple[ClueState, View] | None = None
        self.recorded = False
        self.play_hint = False  # N was pressed before the hint came: play it when it does
        self.match = self._new_match(deal=kept is None)
        if kept is not None:
            note = resume_kept(session, self.match, kept)
            if note:  # a fresh deal instead
                self.match.close()
                self.match = self._new_match()
        if note:
            self.say(note, Tone.WARN)

    # -- the game ---------------------------------------------------------------------------

    @property
    def human(self) -> bool:
        return bool(self.options["human_playing"])

    @property
    def linked(self) -> bool:
        """Whether the match is one a server holds (:mod:`game.logic.linked`)."""
        return isinstance(self.match, LinkedMatch)

    @property
    def me(self) -> int | None:
        """The seat you play: the one held on a server, else seat 0 (None: only computer
        detectives play, or you watch a server's match)."""
        if isinstance(self.match, LinkedMatch):
            return self.match.you
        return HUMAN if self.human else None

    @property
    def state(self) -> ClueState:
        state = self.match.state
        assert isinstance(state, ClueState)
        return state

    def _new_match(self, deal: bool = True) -> Match[Action]:
        """A match at this table's dealer; with ``deal``, the cards dealt (chance steps
        played at once), else before the deal (a kept record replays it)."""
        rules = self.game.rules
        opponent = str(self.options["opponent"])
        seats: list[Any] = [ENTRY.make_agent(opponent, self.options) for _ in range(rules.seats)]
        if self.human:  # the first seats are people's (on a server, each a window)
            for seat in range(min(int(self.options["people"]), rules.seats)):
                seats[seat] = None
        hint = ENTRY.make_agent(ENTRY.hint_agent, self.options)
        match = start_match(
            self.game, seats, seed=self.seed, dealer=self.dealer, deal=deal,
            limits=Limits(time=2.0), hint_agent=hint, background=True,
        )  # fmt: skip
        match.on_step = self._on_step
        return match

    def kept_now(self) -> dict[str, Any] | None:
        """What to keep of the game now (None: none is in progress): its options, the
        match's record (the deal included) and the dealer."""
        return kept_data(self.name, self.match, self.options, {"dealer": self.dealer})

    def _on_step(self, step: Step) -> None:
        state = self.state
        if step.action is None:  # another seat's step on a server, its text not told
            before = self.match.state_at(self.match.cursor - 1)
            news = not isinstance(before, ClueState) or len(state.log) > len(before.log)
        else:
            news = step.action.kind in (
                ActionKind.SHOW,
                ActionKind.ACCUSE,
                ActionKind.END,
                ActionKind.SUGGEST,
            )
        if state.log and news:
            view = state.observation(self._seen_by())
            if view.events:
                self.say(narrate(view.events[-1], view, self.names()))

    def names(self) -> list[str]:
        """The seats' names, seat 0 first: "You" for yours, a detective's for the others."""
        me, detective = self.me, detectives()
        return ["You" if s == me else detective[s % len(detective)] for s in range(self.game.seats)]

    @property
    def viewer(self) -> int | None:
        """Whose view the table and the notebook show: your seat, or None (the public view)
        when only computer detectives play."""
        return self.me

    def _seen_by(self) -> int:
        """The viewer as ``observation`` takes it (-1: the public view)."""
        return -1 if self.viewer is None else self.viewer

    def _view(self) -> View:
        """Your seat's view of the game now (kept while the state is the same object: the
        sheet asks for it every frame)."""
        state = self.state
        if self._viewed is None or self._viewed[0] is not state:
            self._viewed = (state, state.observation(self._seen_by()))
        return self._viewed[1]

    def places(self, ring: Ring) -> tuple[Any, list[Placement]]:
        state = self.state
        # A server's match of a hiding game is played on a stand-in whose other hands and
        # envelope are made up: they are never shown, not even at the end.
        reveal = not getattr(self.match, "stands_in", False)
        places = layout(state, self.viewer, self.names(), ring.numbers, reveal=reveal)
        return (state.key(), self.viewer, reveal), places

    def sheet(self) -> Sheet | None:
        """The notebook docked at the left of the table (B shows or hides it), the cards
        chosen for your suggestion marked."""
        if not self.show_notebook:
            return None
        return self.notebook_sheet(tuple(self.choice))

    # -- SceneController --------------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.notebook_in_background = (
            not host.headless if self._background is None else self._background
        )
        scene = super().enter(host)
        if self.linked:  # the server keeps its match; the one kept here stays as it was
            return scene
        if len([s for s in self.match.seats if s is None]) > 1:
            self._computers_for_people()
        follow(self.session, self.kept_now)
        return scene

    def exit(self) -> None:
        if not self.linked:
            keep(self.session, self.kept_now)
        self.match.close()
        super().exit()

    def update(self, dt: float) -> None:
        self.take_answers()
        try:
            # A computer's next move waits until the table has shown the last one.
            self.poll_match(self.match, limit=1)
        except MatchError as exc:
            log.error("a detective could not move: %s", exc)
            self.say(f"A computer detective failed: {exc}", Tone.WARN)
        hint = self.match.current_hint()
        if self.play_hint and hint is None and not self.match.hinting():
            self.play_hint = False  # the detective failed (logged): nothing will come
            self.say("No hint came: choose your move yourself, or press N again.", Tone.WARN)
        elif hint is not None and self.play_hint:
            if self.state.current_player() == self.me and not self.animating():
                self.next_step()  # N was pressed before the hint came
        elif hint is not None and self.message.startswith("Thinking"):
            self.say(f"Hint: {advice(self.deck, hint.action, hint.note)}", Tone.HINT)
        state = self.state
        me = self.me
        if me is not None and state.phase is Phase.REFUTE and state.current_player() == me:
            assert state.asking is not None
            deck = state.rules.deck
            ask = f"{self.names()[state.asking.seat]} asks about "
            if not self.message.startswith(ask):
                self.say(
                    f"{ask}{deck.triple_text(state.asking.cards)}: choose the card to show "
                    "(the buttons at the top right).", Tone.HINT,
                )  # fmt: skip
        self._finish()
        self.redraw()

    def idle(self) -> bool:
        """Nothing is due: no thinking, and it is your turn or the game is over (a computer
        to play is due even between its thinking and its move)."""
        if self.match.thinking() or self.match.hinting() or self.play_hint:
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

    def play(self, action: Any) -> None:
        """Play an action for you; raises ValueError (shown in the banner) when it is not
        legal or not your turn."""
        if self.me is None or self.state.current_player() != self.me:
            raise ValueError("It is not your turn.")
        self.play_hint = False  # a move of yours comes before a hint still on its way
        self.match.play(action)
        self.redraw()

    def debug_panel(self) -> None:
        from game.games.clue.panel import draw_notebook

        draw_notebook(self)

    # -- commands ---------------------------------------------------------------------------

    def _commands(self) -> list[Command]:
        m = self.match
        deck = self.deck

        def mine() -> bool:
            return self.me is not None and self.state.current_player() == self.me

        def phase(*phases: Phase) -> bool:
            return mine() and self.state.phase in phases

        commands = [
            self.control("hint", Control("Hint", "what the full detective would do here, and "
                                         "why", enabled=lambda: not m.over,
                                         why_disabled="The game is over.")),
            self.control("next", Control("Next", "play the hint", enabled=mine,
                                         why_disabled="It is not your turn.")),
            self.control("undo", Control("Undo", "back to your previous decision",
                                         enabled=m.can_undo, why_disabled="Nothing to undo.")),
            self.control("redo", Control("Redo", "forward to your next decision",
                                         enabled=m.can_redo, why_disabled="Nothing to redo.")),
            self.control("new", Control("New game", "a new deal; the dealer passes to the "
                                        "left")),
            Command("suggest", lambda: self._act(ActionKind.SUGGEST), "Suggest", "S",
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
        refuting = phase(Phase.REFUTE)
        for k, category in enumerate(deck.categories):
            if refuting:  # the cards you may show take the choices' place (below)
                break
            commands.append(
                Command(
                    category.name,
                    lambda k=k: self.step_choice(k),
                    f"{category.name.title()}: {deck.name(self.choice[k])}",
                    group="options",
                    help=f"the {category.name} to name: click for the next one",
                )
            )
        commands += [
            Command("notebook", self.toggle_notebook, "Notebook", "B",
                    "show or hide the notebook at the left"),
            Command("choose", self.choose, help="name this card in your suggestion (a click "
                    "on its row in the notebook)", group="", parse=self.parse_card,
                    argument="a card"),
            Command("why", self.why, help="why a card is or is not with a holder (a click "
                    "on a notebook cell)", group="", argument="CARD/HOLDER",
                    parse=self.parse_cell),
        ]  # fmt: skip
        if refuting:
            # In the top-right corner, where the choices were: a column at the right would
            # narrow the room of the table, and the table would jump and shrink.
            for card in self.state.matching(self.state.current_player()):
                commands.append(
                    Command(
                        f"show-{card}",
                        lambda card=card: self.play(Action(ActionKind.SHOW, (card,))),
                        f"Show {deck.name(card)}",
                        group="options",
                        help="show this card to the suggester",
                    )
                )
        return commands + self.move_list()

    def choose(self, card: int) -> None:
        """Name ``card`` for its category in the next suggestion or accusation."""
        self.confirm = None
        deck = self.deck
        self.choice[deck.category_of(card)] = card
        self.say(f"You will name {deck.triple_text(self.choice)}.")

    def step_choice(self, category: int) -> None:
        self.confirm = None
        cards = self.game.rules.deck.ranges[category]
        self.choice[category] = cards[(cards.index(self.choice[category]) + 1) % len(cards)]

    def _act(self, kind: ActionKind) -> None:
        self.confirm = None
        self.play(Action(kind, tuple(self.choice)))

    def accuse(self) -> None:
        """The first press asks for confirmation; a second press of the same three accuses."""
        chosen = tuple(self.choice)
        if self.confirm != chosen:
            self.confirm = chosen
            deck = self.deck
            self.say(
                f"Accuse {deck.triple_text(chosen)}? If it is wrong you are out of the game. "
                "Press Accuse again to open the envelope.", Tone.WARN,
            )  # fmt: skip
            return
        self._act(ActionKind.ACCUSE)

    def hint(self) -> None:
        self.say("Thinking about a hint ...", Tone.HINT)
        self.match.hint()

    def next_step(self) -> None:
        """Play the hint; with none yet, ask for it and play it when it comes (the full
        detective thinks on the match's worker, never in a frame)."""
        hint = self.match.current_hint()
        if hint is None:
            self.match.hint()
            hint = self.match.current_hint()  # at once where the match thinks in the call
        if hint is None:
            self.play_hint = True
            self.say("Thinking about the move to play ...", Tone.HINT)
            return
        self.play_hint = False
        action = hint.action
        if action.kind in (ActionKind.SUGGEST, ActionKind.ACCUSE):
            self.choice = list(action.cards)  # the buttons and the notebook show what it named
        self.play(action)

    def undo(self) -> None:
        self.play_hint = False
        self.match.undo()
        if self.linked:  # asked of the server's other seats: the table changes if they agree
            return
        self.jump()
        self.say("Back to your previous decision.")

    def redo(self) -> None:
        self.play_hint = False
        self.match.redo()
        self.jump()

    def restart(self) -> None:
        """A new deal at once; the dealer passes to the left."""
        if self.linked:
            raise MatchError("A match on a server cannot start again: open a new one.")
        self.match.close()
        self.dealer = (self.dealer + 1) % self.game.seats
        self.seed = None
        self.recorded = False
        self.play_hint = False
        self.match = self._new_match()
        self.jump()
        self.say("A new deal.")

    # -- inside -----------------------------------------------------------------------------

    def _computers_for_people(self) -> None:
        """More than one person's seat at one machine: the computer takes all but yours."""
        opponent = str(self.options["opponent"])
        for seat, agent in enumerate(self.match.seats):
            if agent is None and seat != HUMAN:
                self.match.set_seat(seat, ENTRY.make_agent(opponent, self.options))
        self.say(
            "More people than you play Cluedo on a server only (gamehall play clue --people N "
            "--host HOST:PORT): the computer detectives take their seats here.",
            Tone.WARN,
        )

    def _finish(self) -> None:
        state = self.state
        if not state.is_terminal() or self.recorded:
            return
        self.recorded = True
        me = self.me
        won = me is not None and state.winner == me
        note = ""
        if me is not None:
            note = self.session.record(
                "clue", won=won, setting=f"{state.rules.seats} seats, {state.rules.deck.id}"
            )
        tone = Tone.WON if won else Tone.LOST if me is not None else Tone.INFO
        # The match's result: a server's names the true envelope, which a stand-in lacks.
        result = self.match.result_text() or self.game.result_text(state)
        self.say(f"{result[:1].upper()}{result[1:]}. {note}".strip(), tone)


HELP = (
    "Name three cards (click them in the notebook), then Suggest (S); Accuse (A) when sure. "
    "F1: every key."
)
