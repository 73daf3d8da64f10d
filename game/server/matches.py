"""One match as the host holds it (:class:`ServerMatch`): the rules' :class:`Match` with every
seat a person's to it (the host plays computer seats itself), the server's :class:`Seat` list,
the clients following it, and what each of them receives (:mod:`game.server.views`)."""

from __future__ import annotations

import functools
import hashlib
import random
import secrets
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from game import registry
from game.logic.contract import CHANCE, TERMINAL, Agent, Game, State, Stop, sample_chance
from game.logic.match import Match, ReplayError, Step
from game.server import views
from game.server.protocol import encode
from game.server.store import KeptMatch

__all__ = ["Seat", "ServerMatch", "seated_options", "welcome_games"]


@dataclass
class Seat:
    """A seat of a match: ``open`` (a person's, not taken yet), ``person`` (taken: held by the
    token whose SHA-256 is ``token``) or ``agent`` (the computer plays ``agent``)."""

    kind: str
    agent: str | None = None
    name: str = ""
    token: str | None = None

    @classmethod
    def asked(cls, item: str | dict[str, str]) -> Seat:
        """The seat a ``create`` message's ``seats`` item asks for."""
        if isinstance(item, dict):
            return cls("agent", agent=item["agent"], name=item["agent"])
        return cls("open")

    def take(self, name: str) -> str:
        """A person takes this seat: returns its new token (kept only as its digest)."""
        token = secrets.token_urlsafe(24)
        self.kind, self.name = "person", name
        self.token = hashlib.sha256(token.encode()).hexdigest()
        return token

    def kept(self) -> dict[str, Any]:
        return {"kind": self.kind, "agent": self.agent, "name": self.name, "token": self.token}

    @classmethod
    def from_kept(cls, data: dict[str, Any]) -> Seat:
        return cls(data["kind"], data.get("agent"), data.get("name", ""), data.get("token"))


class ServerMatch:
    """A match of the host; see the module docstring."""

    def __init__(self, kept: KeptMatch, entry: registry.Entry, game: Game[Any]) -> None:
        self.code, self.entry, self.game = kept.code, entry, game
        self.options, self.rules = kept.options, kept.rules
        # The start is public (clients of a public game replay from it); the chance is not.
        self.start_seed, self.seed = kept.start_seed, kept.seed
        self.seats = [Seat.from_kept(s) for s in kept.seats]
        self.ended_by = kept.ended_by
        start = game.initial_state(random.Random(kept.start_seed))
        self.match: Match[Any] = Match(game, [None] * game.seats, seed=kept.seed, start=start)
        self.hides = views.game_hides(game, [start])
        self.clients: dict[Hashable, int | None] = {}
        self.job: tuple[int, Stop] | None = None  # the ply a computer seat thinks for
        self.undo: dict[str, Any] | None = None  # an undo asked and not yet answered by all
        self._agents: dict[int, Agent[Any]] = {}

    @classmethod
    def made(cls, kept: KeptMatch, entry: registry.Entry, game: Game[Any]) -> ServerMatch:
        """A new match: its first chance steps played."""
        match = cls(kept, entry, game)
        match.play_chance()
        return match

    @classmethod
    def resumed(cls, kept: KeptMatch) -> ServerMatch:
        """A kept match rebuilt from its record; raises an error (UnknownGameError,
        ReplayError, ValueError) when it no longer rebuilds as it was."""
        entry = registry.get(kept.game)
        game = entry.game(kept.options)
        if len(kept.seats) != game.seats:
            raise ReplayError(f"{len(kept.seats)} seats kept, the game has {game.seats}")
        match = cls(kept, entry, game)
        steps = [Step(s["seat"], None, s["text"], s["forced"], s["forfeit"]) for s in kept.steps]
        match.match.replay(steps)
        if kept.key_digest is not None and match.key_digest() != kept.key_digest:
            raise ReplayError("the replayed record does not reach the kept position")
        match.note_hidden()
        return match

    # -- what there is ----------------------------------------------------------------------

    @property
    def state(self) -> State[Any]:
        return self.match.state

    @property
    def ply(self) -> int:
        return self.match.cursor

    @property
    def over(self) -> bool:
        return self.ended_by is not None or self.match.over

    def key_digest(self) -> str:
        return hashlib.sha256(repr(self.state.key()).encode()).hexdigest()

    def steps_from(self, ply: int) -> list[dict[str, Any]]:
        """The record's steps from ``ply`` on, as the store keeps them."""
        return [
            KeptMatch.step(s.seat, s.text, s.forced, s.forfeit) for s in self.match.record[ply:]
        ]

    def agent(self, seat: int) -> Agent[Any]:
        """The computer player of ``seat`` (made once per match)."""
        if seat not in self._agents:
            name = self.seats[seat].agent
            assert name is not None
            self._agents[seat] = self.entry.make_agent(name, self.game.options)
        return self._agents[seat]

    def undo_target(self, seat: int) -> int | None:
        """The ply of ``seat``'s last own move (an undo goes back to before it), or None."""
        for ply in range(self.ply - 1, -1, -1):
            step = self.match.record[ply]
            if not step.forced and step.seat == seat:
                return ply
        return None

    # -- changing it ------------------------------------------------------------------------

    def play_chance(self) -> None:
        """Play the chance steps due now. Each is drawn from the private seed and its ply
        alone, so the match draws the same whether or not the server was restarted since
        (a restarted random stream would deal the start's draws again, which the record
        shows everyone), and an undo never draws again what it took back."""
        while not self.match.over and self.state.current_player() == CHANCE:
            draw = random.Random(f"{self.seed}:{self.ply}")
            self.match.play_any(sample_chance(self.state, draw))
        self.note_hidden()

    def note_hidden(self) -> None:
        """Once a position hides something from a seat, the match is a hiding one for good."""
        if not self.hides and views.hides_now(self.state):
            self.hides = True

    def cut(self, ply: int) -> None:
        """Back to ply ``ply`` (a refused step left nothing behind it)."""
        if self.ply > ply:
            self.match.jump(ply)

    def stop_thinking(self) -> None:
        if self.job is not None:
            self.job[1].set()
            self.job = None

    # -- what each client receives ----------------------------------------------------------

    def public_seats(self) -> list[dict[str, Any]]:
        held = set(self.clients.values())
        return [
            {
                "seat": n,
                "kind": s.kind,
                "name": s.name or self.game.seat_name(n),
                "agent": s.agent,
                "connected": s.kind == "agent" or n in held,
            }
            for n, s in enumerate(self.seats)
        ]

    def _end(self) -> dict[str, Any]:
        state = self.state
        over = self.over
        result = self.ended_by if self.ended_by is not None else self.match.result_text() or None
        return {
            "to_move": TERMINAL if over else state.current_player(),
            "over": over,
            "result": result if over else None,
            "ended_by": self.ended_by,
            "returns": list(state.returns()),
        }

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """The ``snapshot`` message's fields for ``seat`` (None: a spectator)."""
        state = self.state
        fields: dict[str, Any] = {
            "code": self.code,
            "game": self.entry.id,
            "options": self.options,
            "rules": self.rules,
            "seats": self.public_seats(),
            "you": seat,
            "record": [views.step_for(s.seat, s.text, seat, self.hides) for s in self.match.record],
            "ply": self.ply,
            **self._end(),
            "view": views.view_of(state, seat),
        }
        if not self.hides:
            fields["start_seed"] = self.start_seed
        if seat is not None and seat == fields["to_move"]:
            fields["legal"] = views.legal_texts(state)
        return fields

    def update(self, ply: int, seat: int | None, *, stepped: bool = True) -> str:
        """The ``update`` message for the step that made the record ``ply`` long, as
        ``seat`` (None: a spectator) receives it; not ``stepped``: the match ended with no
        step (a resignation), ``step`` is null."""
        step = None
        if stepped and ply > 0:
            done = self.match.record[ply - 1]
            step = views.step_for(done.seat, done.text, seat, self.hides)
        fields: dict[str, Any] = {"code": self.code, "ply": ply, "step": step}
        state = self.match.state_at(ply)
        if ply == self.ply:
            fields |= self._end()
        else:
            fields |= {"to_move": state.current_player(), "over": False, "result": None}
            fields |= {"ended_by": None, "returns": list(state.returns())}
        if self.hides and not (ply == self.ply and self.over):
            fields |= views.view_fields(state, seat, True)
        elif self.hides:
            fields["view"] = views.view_of(state, seat)
        return encode("update", **fields)


def seated_options(
    entry: registry.Entry, options: dict[str, Any], seats: list[Seat]
) -> dict[str, Any]:
    """``options`` with the options that seat a computer for the window (``entry.opponents``:
    Reversi's ``black`` and ``white``) saying who the server seats: one option a seat, each
    the seat's agent or a person, where the game has one such option a seat and that value
    among its choices. The server plays the seats list, never these options; they only say
    the same to whoever reads them."""
    if len(entry.opponents) != len(seats):
        return options
    said = dict(options)
    for name, seat in zip(entry.opponents, seats, strict=True):
        value = seat.agent if seat.kind == "agent" else registry.PERSON
        if value in (entry.options[name].choices or ()):
            said[name] = value
    return entry.options.validate(said)


@functools.cache
def welcome_games() -> list[dict[str, Any]]:
    """Every registered game for ``welcome``: id, title, seats with the default options (null
    where the game must be made, and a description compiled, to know), agents, options."""
    games = []
    for entry in registry.all_entries():
        seats = None
        if isinstance(entry.make_game, type):
            seats = entry.game({}).seats
        defaults = entry.options.validate({})
        games.append(
            {
                "id": entry.id,
                "title": entry.title,
                "seats": seats,
                "agents": sorted(entry.agents()),
                "options": views.to_json(defaults),
            }
        )
    return games
