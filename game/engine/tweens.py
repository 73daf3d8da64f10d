"""Composable timed tweens: movement and turns that play out over several frames.

A tween is advanced with :meth:`Tween.step` by the frame time ``dt``; when it finishes before
using all of ``dt`` it returns the leftover, so a :class:`Sequence` hands that time to its next
child in the same frame and chained moves keep their pace. :class:`TweenManager` runs any number of
top-level tweens at once::

    manager = TweenManager()
    manager.run(Sequence(MoveTo(boat, far_bank, speed=2.0), Call(land)), on_done=next_turn)
    manager.update(dt)            # once per frame; ``manager.busy`` counts what still runs

Targets are duck-typed: movement needs a ``position`` attribute holding a float32 array of
shape (3,); turns need ``rotation``, a unit quaternion float32 array ``(x, y, z, w)``. Tweens
assign a new array each frame (``node.position = new``) and never change the old one in place,
so a property setter on the node sees every change. The node is read when the tween starts
(its first step), not when it is made, so a tween in a sequence starts from where the step
before it left the node.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import pyrr

from game.errors import GamehallError

logger = logging.getLogger(__name__)

Vec = npt.NDArray[np.float32]
Callback = Callable[[], None]

# Float sums of frame times drift by a few ulps; a tween whose end is this close (relative to
# its length) counts as reached, so 10 frames of 0.1 s finish a 1 s tween in 10, not 11.
_REL_EPS = 1e-9


class TweenError(GamehallError, ValueError):
    """A tween was made or run with an unusable value; the message names it."""


class Positioned(Protocol):
    """What :class:`MoveTo` needs: a float32 ``position`` of shape (3,)."""

    position: Vec


class Oriented(Protocol):
    """What :class:`RotateTo` and :class:`RotateBy` need: a unit quaternion ``(x, y, z, w)``."""

    rotation: Vec


class Tween:
    """Base of all tweens. Subclasses override :meth:`start` and :meth:`advance`.

    ``on_done`` is called exactly once, when the tween finishes (never when it is dropped by
    :meth:`TweenManager.cancel_all`). ``done`` turns True just before it is called.
    """

    def __init__(self) -> None:
        self.on_done: Callback | None = None
        self.done = False
        self.started = False

    def start(self) -> None:
        """Read the node and get ready; called once, on the first :meth:`step`."""

    def advance(self, dt: float) -> float | None:
        """Advance by ``dt``: return None while running, or the unused time once finished."""
        return dt

    def step(self, dt: float) -> float:
        """Advance by ``dt`` seconds; return the leftover (>0 only if it finished early).

        Starts the tween on the first call; a finished tween returns ``dt`` unused. Raises
        :class:`TweenError` when ``dt`` is negative or not finite.
        """
        if not (dt >= 0.0 and math.isfinite(dt)):
            raise TweenError(f"dt must be a finite number >= 0, not {dt!r}")
        if self.done:
            return dt
        if not self.started:
            self.started = True
            self.start()
        leftover = self.advance(dt)
        if leftover is None:
            return 0.0
        self.done = True
        if self.on_done is not None:
            self.on_done()
        return leftover


class _Timed(Tween):
    """A tween of known length: subclasses say how long in ``_begin`` and draw in ``_apply``."""

    def __init__(self) -> None:
        super().__init__()
        self._elapsed = 0.0
        self._total = 0.0

    def _begin(self) -> float:
        raise NotImplementedError

    def _apply(self, fraction: float) -> None:
        """Show the state ``fraction`` of the way (0 < fraction < 1) through."""

    def _finish(self) -> None:
        """Show the exact end state."""

    def start(self) -> None:
        self._total = self._begin()

    def advance(self, dt: float) -> float | None:
        total = self._total
        reached = self._elapsed + dt
        if reached >= total - _REL_EPS * total:
            self._elapsed = total
            self._finish()
            return max(0.0, reached - total)
        self._elapsed = reached
        self._apply(reached / total)
        return None


class Wait(_Timed):
    """Do nothing for ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = _check_time("seconds", seconds)

    def _begin(self) -> float:
        return self.seconds


class Call(Tween):
    """Call ``fn()`` once; takes no time, so the leftover is all of ``dt``."""

    def __init__(self, fn: Callback) -> None:
        super().__init__()
        if not callable(fn):
            raise TweenError(f"Call needs a callable, not {fn!r}")
        self.fn = fn

    def advance(self, dt: float) -> float | None:
        self.fn()
        return dt


class MoveTo(_Timed):
    """Move ``node`` in a straight line to ``target`` at constant speed.

    Give exactly one of ``speed`` (units per second) or ``duration`` (seconds). The target is
    read now, the start position when the tween starts. The node never passes the target: on
    the frame when the remaining distance is at most ``speed * dt`` it is set to exactly the
    target (as float32) and the unused time is returned. With ``speed``, a distance ``d`` at a
    fixed ``dt`` takes ``ceil(d / (speed * dt))`` frames.
    """

    def __init__(
        self,
        node: Positioned,
        target: npt.ArrayLike,
        *,
        speed: float | None = None,
        duration: float | None = None,
    ) -> None:
        super().__init__()
        if not hasattr(node, "position"):
            raise TweenError(f"MoveTo needs a node with a position, not {node!r}")
        if (speed is None) == (duration is None):
            raise TweenError(
                f"MoveTo needs exactly one of speed or duration, not {speed=} {duration=}"
            )
        if speed is not None and not (math.isfinite(speed) and speed > 0.0):
            raise TweenError(f"speed must be a finite number > 0, not {speed!r}")
        if duration is not None:
            _check_time("duration", duration)
        self.node = node
        self.target = _vector(target, 3, "target")
        self.speed = speed
        self.duration = duration
        self._start = np.zeros(3)
        self._delta = np.zeros(3)
        self._low = np.zeros(3)
        self._high = np.zeros(3)

    def _begin(self) -> float:
        start = np.asarray(self.node.position, dtype=np.float64)
        end = self.target.astype(np.float64)
        self._start = start
        self._delta = end - start
        # Clamping each coordinate between its start and end keeps rounding from ever carrying
        # the node past the target, so its distance to the target never grows.
        self._low = np.minimum(start, end)
        self._high = np.maximum(start, end)
        if self.duration is not None:
            return self.duration
        assert self.speed is not None
        return float(np.linalg.norm(self._delta)) / self.speed

    def _apply(self, fraction: float) -> None:
        where = np.clip(self._start + self._delta * fraction, self._low, self._high)
        self.node.position = where.astype(np.float32)

    def _finish(self) -> None:
        self.node.position = self.target.copy()


class RotateTo(_Timed):
    """Turn ``node`` to the orientation ``target`` (a quaternion ``(x, y, z, w)``) over time.

    Takes the shorter way round (spherical linear interpolation); ends on exactly ``target``
    normalised. The start orientation is read when the tween starts.
    """

    def __init__(self, node: Oriented, target: npt.ArrayLike, *, duration: float) -> None:
        super().__init__()
        if not hasattr(node, "rotation"):
            raise TweenError(f"RotateTo needs a node with a rotation, not {node!r}")
        self.node = node
        # Normalised in float64, then stored as the float32 the node will end on.
        self.target = _unit(_vector(target, 4, "target", np.float64), "target").astype(np.float32)
        self.duration = _check_time("duration", duration)
        self._from = np.array([0.0, 0.0, 0.0, 1.0])
        self._to = np.array([0.0, 0.0, 0.0, 1.0])

    def _begin(self) -> float:
        q0 = _unit(np.asarray(self.node.rotation, dtype=np.float64), "node rotation")
        q1 = self.target.astype(np.float64)
        if float(np.dot(q0, q1)) < 0.0:
            q1 = -q1  # q and -q are the same turn; this sign is the shorter way
        self._from, self._to = q0, q1
        return self.duration

    def _apply(self, fraction: float) -> None:
        self.node.rotation = _slerp(self._from, self._to, fraction).astype(np.float32)

    def _finish(self) -> None:
        self.node.rotation = self.target.copy()


class RotateBy(_Timed):
    """Turn ``node`` by ``angle`` radians about the world ``axis`` over ``duration`` seconds.

    Unlike :class:`RotateTo` the turn goes the given way and may exceed half a turn, which is
    what a disc flip needs (``RotateBy(disc, (1, 0, 0), math.pi, duration=0.4)``).
    """

    def __init__(
        self, node: Oriented, axis: npt.ArrayLike, angle: float, *, duration: float
    ) -> None:
        super().__init__()
        if not hasattr(node, "rotation"):
            raise TweenError(f"RotateBy needs a node with a rotation, not {node!r}")
        if not math.isfinite(angle):
            raise TweenError(f"angle must be finite, not {angle!r}")
        self.node = node
        self.axis = _unit(_vector(axis, 3, "axis", np.float64), "axis")
        self.angle = float(angle)
        self.duration = _check_time("duration", duration)
        self._from = np.array([0.0, 0.0, 0.0, 1.0])

    def _begin(self) -> float:
        self._from = _unit(np.asarray(self.node.rotation, dtype=np.float64), "node rotation")
        return self.duration

    def _apply(self, fraction: float) -> None:
        turn = pyrr.quaternion.create_from_axis_rotation(
            self.axis, self.angle * fraction, dtype=np.float64
        )
        # pyrr's cross is the Hamilton product: the node turns by _from first, then by turn.
        self.node.rotation = pyrr.quaternion.cross(turn, self._from).astype(np.float32)

    def _finish(self) -> None:
        self._apply(1.0)


class Sequence(Tween):
    """Run ``tweens`` one after another; time left over by one goes to the next, same frame."""

    def __init__(self, *tweens: Tween) -> None:
        super().__init__()
        self.tweens = _check_children("Sequence", tweens)
        self._index = 0

    def advance(self, dt: float) -> float | None:
        while self._index < len(self.tweens):
            child = self.tweens[self._index]
            dt = child.step(dt)
            if not child.done:
                return None
            self._index += 1
        return dt


class Parallel(Tween):
    """Run ``tweens`` together; finish when all have, returning the smallest leftover.

    A child that finished in an earlier frame used none of this frame, so counts as leaving all
    of ``dt``.
    """

    def __init__(self, *tweens: Tween) -> None:
        super().__init__()
        self.tweens = _check_children("Parallel", tweens)

    def advance(self, dt: float) -> float | None:
        leftover = dt
        finished = True
        for child in self.tweens:
            if child.done:
                continue
            rest = child.step(dt)
            if child.done:
                leftover = min(leftover, rest)
            else:
                finished = False
        return leftover if finished else None


class TweenManager:
    """Runs any number of top-level tweens, each advanced once per :meth:`update`.

    A tween handed to :meth:`run` takes its first step on the next :meth:`update`, also when
    :meth:`run` is called from a callback during an update. Exceptions from tweens or
    callbacks propagate out of :meth:`update`.
    """

    def __init__(self) -> None:
        self._running: list[_Entry] = []
        self._pending: list[_Entry] = []

    def run(self, tween: Tween, on_done: Callback | None = None) -> Tween:
        """Start ``tween`` on the next update; ``on_done`` runs after the tween's own.

        Returns ``tween``. Raises :class:`TweenError` when it has already started or is
        already being run.
        """
        if not isinstance(tween, Tween):
            raise TweenError(f"run needs an Tween, not {tween!r}")
        if tween.started or tween.done or self._tracks(tween):
            raise TweenError(f"{tween!r} has already been run; make a new one")
        self._pending.append(_Entry(tween, on_done))
        return tween

    def update(self, dt: float) -> None:
        """Advance every running tween by ``dt``; drop the finished ones."""
        if not (dt >= 0.0 and math.isfinite(dt)):
            raise TweenError(f"dt must be a finite number >= 0, not {dt!r}")
        self._running.extend(self._pending)
        self._pending = []
        # Iterate over a copy: callbacks may run or cancel tweens while we go.
        try:
            for entry in list(self._running):
                if entry.retired:
                    continue
                entry.tween.step(dt)
                # The tween's own callbacks may have retired it; then ours must not fire.
                if entry.tween.done and not entry.retired:
                    entry.retired = True  # finished: leaves the list, on_done fires once
                    if entry.on_done is not None:
                        entry.on_done()
        finally:
            self._running = [e for e in self._running if not e.retired]

    def cancel(self, tween: Tween) -> bool:
        """Drop ``tween`` without callbacks; return False when it was not running."""
        for entry in (*self._running, *self._pending):
            if entry.tween is tween and not entry.retired:
                entry.retired = True
                self._pending = [e for e in self._pending if not e.retired]
                return True
        return False

    def cancel_all(self) -> None:
        """Drop every tween, running or pending; no callbacks fire."""
        for entry in (*self._running, *self._pending):
            entry.retired = True
        self._running = []
        self._pending = []

    @property
    def busy(self) -> int:
        """How many top-level tweens are running or waiting to start (0 when idle)."""
        return self.running

    @property
    def running(self) -> int:
        """The same count as :attr:`busy`, for the debug overlay."""
        return sum(not e.retired for e in (*self._running, *self._pending))

    def _tracks(self, tween: Tween) -> bool:
        return any(e.tween is tween and not e.retired for e in (*self._running, *self._pending))


# --- private helpers: they trust their input -------------------------------------------------


@dataclass(slots=True)
class _Entry:
    tween: Tween
    on_done: Callback | None
    retired: bool = False


def _check_time(name: str, value: float) -> float:
    if not (math.isfinite(value) and value >= 0.0):
        raise TweenError(f"{name} must be a finite number >= 0, not {value!r}")
    return float(value)


def _check_children(kind: str, tweens: tuple[Any, ...]) -> tuple[Tween, ...]:
    for a in tweens:
        if not isinstance(a, Tween):
            raise TweenError(f"{kind} takes tweens, not {a!r}")
    return tweens


def _vector(
    value: npt.ArrayLike, size: int, name: str, dtype: type[np.floating[Any]] = np.float32
) -> npt.NDArray[Any]:
    try:
        arr = np.array(value, dtype=dtype)
    except (TypeError, ValueError):
        raise TweenError(f"{name} must be {size} numbers, not {value!r}") from None
    if arr.shape != (size,) or not np.all(np.isfinite(arr)):
        raise TweenError(f"{name} must be {size} finite numbers, not {value!r}")
    return arr


def _unit(q: npt.NDArray[Any], name: str) -> npt.NDArray[Any]:
    norm = float(np.linalg.norm(q))
    if not (norm > 0.0 and math.isfinite(norm)):
        raise TweenError(f"{name} must have non-zero length, not {q!r}")
    return (q / norm).astype(q.dtype)


def _slerp(
    q0: npt.NDArray[np.float64], q1: npt.NDArray[np.float64], t: float
) -> npt.NDArray[np.float64]:
    cos = min(1.0, float(np.dot(q0, q1)))
    if cos > 0.9995:
        # Nearly the same orientation: sin(theta) is tiny, a normalised lerp is exact enough.
        q = q0 + (q1 - q0) * t
        return np.asarray(q / np.linalg.norm(q), dtype=np.float64)
    theta = math.acos(cos)
    s = math.sin(theta)
    return np.asarray(
        q0 * (math.sin((1.0 - t) * theta) / s) + q1 * (math.sin(t * theta) / s), dtype=np.float64
    )
