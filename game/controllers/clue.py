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
import math
import random
from typing import Any

from game.engine.commands import Command, CommandTable
from game.engine.controller import Host, Status, Tone
from game.engine.scene import Node, Scene, load_scene, quat_from_axis_angle
from game.logic.clue.events import Accusation, Suggestion, narrate
from game.logic.clue.game import OPTIONS, ClueGame
from game.logic.clue.roster import make_agent
from game.logic.clue.rules import END, Action, ClueState, Kind, Phase
from game.logic.game import CHANCE, Limits
from game.logic.match import Match, MatchError, Step
from game.registry import GameSession
from game.resources import asset_path

__all__ = ["ClueController"]

log = logging.getLogger(__name__)

#: Category colours of a face-up card, and the back of a face-down one.
FACES = ((0.86, 0.30, 0.28, 1.0), (0.30, 0.48, 0.86, 1.0), (0.36, 0.70, 0.40, 1.0))
BACK = (0.50, 0.14, 0.18, 1.0)
COLOR_WORDS = ("yellow", "pink", "teal", "orange", "lime", "lilac")
SEAT_COLORS = (
    (0.95, 0.80, 0.30, 1.0), (0.85, 0.45, 0.85, 1.0), (0.35, 0.80, 0.85, 1.0),
    (0.95, 0.55, 0.25, 1.0), (0.60, 0.85, 0.35, 1.0), (0.75, 0.75, 0.95, 1.0),
)  # fmt: skip
HUMAN = 0


class ClueController:
    """The Cluedo scene; see the module docstring. ``overrides``: option values for this
    controller only, and ``seed`` (the deal)."""

    name = "clue"
    title = "Cluedo"

    def __init__(self, session: GameSession, **overrides: Any) -> None:
        self.seed: int | None = overrides.pop("seed", None)
        # The assistant runs at the terminal for now; the window says where to find it.
        self.assistant = bool(overrides.pop("assistant", False))
        self.session = session
        self.options = OPTIONS.validate({**session.options, **overrides})
        self.game = ClueGame(self.options)
        self.dealer = 0
        self.choice = [cards[0] for cards in self.game.rules.deck.ranges]
        self.host: Host | None = None
        self.scene: Scene | None = None
        self.message = "Choose three cards with the buttons at the top right, then Suggest."
        self.tone = Tone.INFO
        if self.assistant:
            self.message = (
                "The assistant for a real table runs in the terminal: "
                "gamehall clue --console --assistant. Here you play the computer detectives."
            )
        self.confirm: tuple[int, ...] | None = None  # the accusation waiting for a second press
        self.recorded = False
        self.drawn: tuple[Any, ...] | None = None
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
                self._say(narrate(view.events[-1], view, self._names()))

    def _names(self) -> list[str]:
        return [self.game.seat_name(s) for s in range(self.game.seats)]

    # -- SceneController --------------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "clue.toml"))
        self.drawn = None
        self._draw()
        return self.scene

    def exit(self) -> None:
        self.match.close()
        self.host = None

    def update(self, dt: float) -> None:
        try:
            self.match.poll()
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
            ask = f"{self._names()[state.asking.seat]} asks about "
            if not self.message.startswith(ask):
                self._say(
                    f"{ask}{deck.triple_text(state.asking.cards)}: choose the card to show "
                    "(the buttons at the right).", Tone.HINT,
                )  # fmt: skip
        self._finish()
        self._draw()

    def idle(self) -> bool:
        return not self.match.thinking() and not self.match.hinting()

    def commands(self) -> CommandTable:
        return CommandTable(self._commands())

    def status(self) -> Status:
        state = self.state
        names = self._names()
        if state.is_terminal():
            counter = "Game over"
        elif state.current_player() < 0:
            counter = "Dealing"
        else:
            counter = f"Round {state.round} · {names[state.current_player()]} to play"
        return Status(self.title, counter, self.message, self.tone, help=HELP)

    def status_line(self) -> str:
        state = self.state
        winner = "-" if state.winner is None else str(state.winner)
        return (
            f"status={state.phase.value} round={state.round} events={len(state.log)} "
            f"winner={winner} seats={state.rules.seats}"
        )

    def on_pick(self, node: Node | None) -> object | None:
        return None

    def on_hover(self, node: Node | None) -> None:
        return None

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
        state = self.state
        out = state.out()
        for seat, name in enumerate(self._names()):
            size = state.hand_sizes[seat]
            where = ", out" if seat in out else ""
            commands.append(
                Command(
                    f"seat-{seat}",
                    lambda: None,
                    f"{name}: {COLOR_WORDS[seat]} token, {size} cards{where}",
                    group="list",
                    enabled=lambda: False,
                    why_disabled="The seats at the table, clockwise from you.",
                )
            )
        if self.human and state.phase not in (Phase.ENVELOPE, Phase.DEAL):
            for card in state.hands[HUMAN]:
                kind = deck.categories[deck.category_of(card)].name
                commands.append(
                    Command(
                        f"hand-{card}",
                        lambda: None,
                        f"Your {kind}: {deck.name(card)}",
                        group="list",
                        enabled=lambda: False,
                        why_disabled="A card in your hand.",
                    )
                )
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
        self.play(action)

    def undo(self) -> None:
        self.match.undo()
        self._say("Back to your previous decision.")

    def redo(self) -> None:
        self.match.redo()

    def new_game(self) -> None:
        self.match.close()
        self.dealer = (self.dealer + 1) % self.game.seats
        self.seed = None
        self.recorded = False
        self.match = self._new_match()
        self.drawn = None
        self._say("A new deal.")

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

    def _draw(self) -> None:
        """Lay the table out for the current state (only when it changed)."""
        scene = self.scene
        state = self.state
        key = (state.key(), self.human)
        if scene is None or key == self.drawn:
            return
        self.drawn = key
        for node in list(scene):
            if node.tags.get("clue"):
                scene.remove(node.name)
        seats = state.rules.seats
        rx, rz = scene.number("radius_x"), scene.number("radius_z")
        step, rest = scene.number("card_step"), scene.number("card_rest")
        deck = state.rules.deck
        viewer = HUMAN if self.human else None

        def place(seat: int, scale: float) -> tuple[float, float, float]:
            angle = math.pi / 2 + 2 * math.pi * seat / seats
            return (rx * scale * math.cos(angle), math.atan2(math.cos(angle), math.sin(angle)),
                    rz * scale * math.sin(angle))  # fmt: skip

        def card(name: str, x: float, z: float, face: int | None, turn: float) -> None:
            color = BACK if face is None else FACES[deck.category_of(face) % len(FACES)]
            node = scene.spawn("card", name, position=[x, rest, z], color=list(color))
            node.rotation = quat_from_axis_angle((0.0, 1.0, 0.0), turn)
            node.tags["clue"] = True

        for seat in range(seats):
            x, turn, z = place(seat, 1.0)
            token = scene.spawn("seat", f"seat-{seat}", position=[x * 1.35, 0.1, z * 1.35],
                                color=list(SEAT_COLORS[seat]))  # fmt: skip
            token.tags["clue"] = True
            token.highlight = 0.6 if seat == state.current_player() else 0.0
            hand = state.hands[seat] if seat < len(state.hands) else ()
            for i, c in enumerate(hand):
                offset = (i - (len(hand) - 1) / 2) * step
                cx = x + offset * math.cos(turn)
                cz = z - offset * math.sin(turn)
                card(f"hand-{seat}-{i}", cx, cz, c if seat == viewer or state.is_terminal()
                     else None, turn)  # fmt: skip
        envelope = scene.spawn("envelope", "envelope", position=[0.0, 0.01, -0.2])
        envelope.tags["clue"] = True
        if state.is_terminal():
            for i, c in enumerate(state.envelope):
                card(f"envelope-{i}", (i - 1) * step, 1.0, c, 0.0)
            envelope.material.color = (0.55, 0.44, 0.25, 1.0)  # opened
        last = next((e for e in reversed(state.log) if isinstance(e, Suggestion)), None)
        if state.asking is not None:  # a suggestion still being answered
            last = Suggestion(state.asking.seat, state.asking.cards, state.asking.passed)
        if last is not None and not (
            state.asking is None and state.log and isinstance(state.log[-1], Accusation)
        ):
            x, turn, z = place(last.seat, 0.45)
            for i, c in enumerate(last.cards):
                card(f"named-{i}", x + (i - 1) * step, z, c, 0.0)
            for p in last.passed:
                px, _, pz = place(p, 0.7)
                token = scene.spawn("pass", f"pass-{p}", position=[px, 0.06, pz])
                token.tags["clue"] = True
            if last.refuter is not None:
                ax, _, az = place(last.refuter, 0.62)
                bx, _, bz = place(last.seat, 0.62)
                seen = last.shown if viewer in (last.seat, last.refuter) else None
                card("shown", (ax + bx) / 2, (az + bz) / 2, seen, 0.0)


def _stop() -> Any:
    from game.logic.game import Stop

    return Stop()


HELP = (
    "Find the envelope's three cards. Pick them at the top right, then Suggest (S); the "
    "first seat to your left holding one shows it to you. Accuse (A) when sure. F3: the "
    "notebook."
)
