"""What Cluedo's two scenes share (the game against the computer detectives and the assistant
for a real table): the card table with its faces and labels, the name of the card under the
mouse, the notebook and its sheet (worked out on threads of their own in a window), the
sheet's toggle and its "why" answers, and the arguments of the ``choose`` and ``why``
commands (a card by name or number; a holder by seat name, number or ``envelope``).

A scene subclasses :class:`CardTableScene` and gives :meth:`~CardTableScene.names`,
:meth:`~CardTableScene._view` (what your seat has seen) and :meth:`~CardTableScene.places`
(the table for its current state); :meth:`~CardTableScene.redraw` brings the table to it.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from game.engine.commands import Command
from game.engine.controller import Host, Sheet, Tone, release
from game.engine.scene import Node, Scene, load_scene
from game.games.clue.faces import FRAME_BUDGET, CardFaceLayer
from game.games.clue.moves import LIST_ROOM, event_list_commands
from game.games.clue.panel import why_text
from game.games.clue.table import Placement, Ring, Table
from game.hall.scene import GameScene
from game.logic.clue.deck import Deck
from game.logic.clue.events import View
from game.logic.clue.exact import NotebookCache
from game.logic.clue.notebook import Notebook
from game.logic.numbers import parse_whole
from game.logic.pacing import paced, pause
from game.logic.quoting import clip, excerpt
from game.resources import asset_path

__all__ = ["CardTableScene"]

log = logging.getLogger(__name__)

#: The most characters the banner shows of one message.
BANNER_CHARS = 2000
#: The scene file's numbers the table is laid out with.
NUMBERS = ("radius_x", "radius_z", "card_step", "card_rest")


class CardTableScene(GameScene):
    """The shared half of a Cluedo scene controller; see the module docstring."""

    name = "clue"

    def __init__(self, deck: Deck, message: str) -> None:
        self.deck = deck
        self.host: Host | None = None
        self.scene: Scene | None = None
        self.faces: CardFaceLayer | None = None
        self.table: Table | None = None
        self.drawn: Any = None
        self.show_notebook = True
        self.message = message
        self.tone = Tone.INFO
        self._hover_label: list[tuple[str, Any]] = []
        #: In a window the notebook's long work is done on threads of its own, between
        #: frames (:meth:`_count`, :meth:`work_in_background`): its counts (a sweep of the deals)
        #: and its likeliest envelope (a sweep per choice of envelope), which held up the frame the
        #: table opened in and the frame each event came in, and why a cell is so (a
        #: deduction per event: most of a second late in a long game).
        self.notebook_in_background = False
        self._books = NotebookCache()
        self._sheet: tuple[Any, Sheet] | None = None
        self._lock = threading.Lock()  # the notebook cache, shared with the thread
        #: The last notebook worked out on the thread, with its view's key (None: none yet).
        self._counted: tuple[Any, Notebook | None] | None = None
        #: The last thread :meth:`work_in_background` started for each kind of work ("notebook",
        #: "why", ...).
        self.background_threads: dict[str, threading.Thread] = {}
        self._background_asked: dict[str, tuple[object, Any]] = {}  # each kind's last request
        #: What the threads worked out, for the drawing thread to hand on.
        self._background_answers: list[tuple[str, tuple[object, Any], Callable[[], None]]] = []

    # -- what a scene gives -----------------------------------------------------------------

    def names(self) -> list[str]:
        raise NotImplementedError

    def _view(self) -> View:
        """The view of the table the notebook is of (your seat's)."""
        raise NotImplementedError

    def places(self, ring: Ring) -> tuple[Any, list[Placement]]:
        """A key that changes when the table must change, and the table's places."""
        raise NotImplementedError

    # -- the scene --------------------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "clue.toml"))
        if host.ctx is not None:
            # In a window the faces are painted a little each frame (see clue_faces).
            self.faces = CardFaceLayer(host.ctx, self.deck, gradual=not host.headless)
            self.scene.layers.append(self.faces)
        self.table = Table(self.scene, host.tweens, self.faces)
        self.drawn = None
        self.redraw(animate=False)
        return self.scene

    def exit(self) -> None:
        release(self.faces)
        self.faces = self.table = None
        self.host = None

    def redraw(self, animate: bool = True) -> None:
        """Bring the table to the current state (nothing when it has not changed), and paint
        a little more of the card faces while some are left (a window's gradual faces)."""
        if self.faces is not None:
            self.faces.paint(FRAME_BUDGET)
        if self.table is None:
            return
        scene = self.table.scene
        ring = Ring(len(self.names()), {k: scene.number(k) for k in NUMBERS})
        key, places = self.places(ring)
        if key == self.drawn:
            return
        self.drawn = key
        self.table.show(places, animate)

    def jump(self) -> None:
        """The table at once as the state is now (after undo, redo or a new game)."""
        if self.host is not None:
            self.host.tweens.cancel_all()
        self.drawn = None
        self.redraw(animate=False)

    def on_hover(self, node: Node | None) -> None:
        """Name the face-up card under the mouse."""
        place = self.table.place_of(node) if self.table is not None else None
        if node is None or place is None or place.face < 0 or not place.face_up:
            self._hover_label = []
            return
        x, y, z = (float(v) for v in node.position)
        point = np.array([x, y + 0.4, z - 0.75 * place.scale], "f4")
        self._hover_label = [(self.deck.name(place.face), point)]

    def world_labels(self) -> list[tuple[str, Any]]:
        """Each seat's name by its token, "passed" over a pass token, who showed the card
        that answered, and the name of the face-up card under the mouse."""
        labels = self.table.labels() if self.table is not None else []
        return labels + self._hover_label

    def move_list(self) -> list[Command]:
        """The move list of the events your seat has seen (:mod:`game.games.clue.moves`):
        beside the docked notebook only in a window wide enough."""
        if self.show_notebook and self.host is not None and self.host.area_size()[0] < LIST_ROOM:
            return []
        return event_list_commands(self._view(), self.names(), self.say)

    # -- the notebook -----------------------------------------------------------------------

    def notebook(self) -> Notebook:
        """The notebook of what your seat has seen (kept between events, extended with each
        new one), worked out here and now."""
        with self._lock:
            return self._books.of(self._view())

    def shown_notebook(self) -> Notebook | None:
        """The notebook the sheet shows: worked out here when headless; in a window, on a
        thread of its own (:meth:`_count`) with its likeliest envelope, and None until then."""
        if not self.notebook_in_background:
            return self.notebook()
        key = self._view_key()
        counted = self._counted
        if counted is not None and counted[0] == key:
            # None: the thread failed; the sheet works it out itself then.
            return counted[1] if counted[1] is not None else self.notebook()
        asked = self._background_asked.get("notebook")
        if asked is None or asked[1] != key:  # not asked for yet
            self._count()
        return None

    def last_counted(self) -> Notebook | None:
        """The last notebook the thread worked out, while it is one of this table's earlier
        views (the same hand, its events the first of now's); None otherwise."""
        counted = self._counted
        if counted is None or counted[1] is None:
            return None
        book, view = counted[1], self._view()
        if book.view.hand != view.hand or book.view.hand_sizes != view.hand_sizes:
            return None
        return book if view.events[: len(book.view.events)] == book.view.events else None

    def _view_key(self) -> Any:
        """What the notebook depends on: your seat's view (a change of phase that adds no
        event keeps the notebook and its sheet)."""
        view = self._view()
        return (view.seat, view.hand, view.hand_sizes, view.deck.id, view.events)

    def _count(self) -> None:
        """Work out the notebook of the view now and its likeliest envelope on a thread of
        its own (:meth:`work_in_background`), waiting at each sweep for the frame being drawn to
        end."""
        view, key = self._view(), self._view_key()

        def work() -> Notebook | None:
            try:
                pause()  # the frame that asked for it first
                with self._lock:
                    book = self._books.of(view)
                book.best_accusation()
                return book
            except Exception as exc:  # the sheet works it out itself then
                log.warning("working out the notebook failed: %s", exc)
                return None

        def done(book: Notebook | None) -> None:
            self._counted = (key, book)

        self.work_in_background("notebook", "Could not work out the notebook", work, done)

    def notebook_sheet(self, chosen: tuple[int, ...]) -> Sheet:
        """The notebook's sheet, the ``chosen`` cards marked (kept while nothing on it
        changes). In a window, while the thread works out the notebook, the last one it
        worked out of this table (or your hand alone) with a line that says so."""
        from game.games.clue.panel import notebook_sheet, waiting_sheet

        book = self.shown_notebook()
        shown = book if book is not None else self.last_counted()
        key = (self._view_key(), chosen, id(shown), book is None)
        if self._sheet is None or self._sheet[0] != key:
            names = self.names()
            if shown is None:
                sheet = waiting_sheet(self._view(), names, chosen)
            else:
                sheet = notebook_sheet(shown, names, chosen, working=book is None)
            self._sheet = (key, sheet)
        return self._sheet[1]

    def toggle_notebook(self) -> None:
        self.show_notebook = not self.show_notebook

    def why(self, cell: tuple[int, int]) -> None:
        """Say in the banner why the card of ``cell`` is (or is not) with its holder."""
        card, holder = cell
        book = self.shown_notebook()
        if book is None:
            self.say("The notebook is being worked out: click again in a moment.", Tone.HINT)
            return
        names = self.names()
        self.say(f"Working out why: {self.deck.name(card)}...", Tone.HINT)
        self.work_in_background(
            "why",
            "Could not work out why",
            lambda: why_text(book, card, holder, names),
            lambda text: self.say(text, Tone.HINT),
        )

    def work_in_background(
        self, name: str, failed: str, work: Callable[[], Any], done: Callable[[Any], None]
    ) -> None:
        """``done(work())``: at once when headless; in a window ``work`` runs on a thread of
        its own (``clue-NAME``, paced between frames) and :meth:`take_answers` calls
        ``done`` in the next frame, unless ``name`` was asked for again since. A failure is
        said in the banner after ``failed``; the table goes on."""
        if not self.notebook_in_background:
            done(work())
            return
        token = (object(), self._view_key())  # the answer is for the table as it is now
        self._background_asked[name] = token
        host = self.host

        def run() -> None:
            answer: Callable[[], None]
            try:
                with paced(host.between_frames) if host else contextlib.nullcontext():
                    result = work()
                answer = functools.partial(done, result)
            except Exception as exc:  # said in the banner; the table goes on
                log.warning("%s: %s", failed, exc)
                answer = functools.partial(self.say, f"{failed}: {exc}", Tone.WARN)
            self._background_answers.append((name, token, answer))

        thread = threading.Thread(target=run, name=f"clue-{name}", daemon=True)
        self.background_threads[name] = thread
        thread.start()

    def take_answers(self) -> None:
        """Hand on what the threads of :meth:`work_in_background` worked out (each frame): the last
        one asked for of each kind, while what you have seen is still what it was asked
        about (an answer about an earlier game, case or event is dropped)."""
        while self._background_answers:
            name, token, answer = self._background_answers.pop(0)
            if self._background_asked.get(name) is token and token[1] == self._view_key():
                answer()

    def parse_card(self, text: str) -> int:
        """A card by its name (or the start of one) or its number."""
        text = text.strip()
        number = parse_whole(text)
        if number is not None and 0 <= number < self.deck.n_cards:
            return number
        return self.deck.card(text)

    def parse_cell(self, text: str) -> tuple[int, int]:
        """``CARD/HOLDER``: a card, and a seat (its name or number) or ``envelope``."""
        card_text, slash, holder_text = text.rpartition("/")
        if not slash:
            raise ValueError(f"write CARD/HOLDER, not {excerpt(text)}")
        names = self.names()
        wanted = holder_text.strip().casefold()
        folded = [n.casefold() for n in names]
        number = parse_whole(wanted)
        if number is not None and 0 <= number <= len(names):
            holder = number
        elif wanted in ("envelope", "env"):
            holder = len(names)
        elif wanted in folded:
            holder = folded.index(wanted)
        else:
            raise ValueError(
                f"no holder {excerpt(holder_text.strip())}: {', '.join(names)} or envelope"
            )
        return self.parse_card(card_text), holder

    def say(self, text: str, tone: Tone = Tone.INFO) -> None:
        """Show ``text`` in the banner, cut to :data:`BANNER_CHARS` (a message quoting a
        file's megabyte line took the banner most of a minute to lay out)."""
        self.message, self.tone = clip(text, BANNER_CHARS), tone
