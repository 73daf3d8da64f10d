"""Timed tweens and the tween manager: exact arrival, frame counts, leftovers, callbacks."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.tweens import (
    Call,
    MoveTo,
    Parallel,
    RotateBy,
    RotateTo,
    Sequence,
    Tween,
    TweenError,
    TweenManager,
    Wait,
)

Vec = npt.NDArray[np.float32]


class Node:
    """A stand-in scene node whose setters record every assignment."""

    def __init__(
        self,
        position: tuple[float, float, float] = (0.0, 0.0, 0.0),
        rotation: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0),
    ) -> None:
        self._position = np.array(position, dtype=np.float32)
        self._rotation = np.array(rotation, dtype=np.float32)
        self.positions: list[Vec] = []
        self.rotations: list[Vec] = []

    @property
    def position(self) -> Vec:
        return self._position

    @position.setter
    def position(self, value: Vec) -> None:
        assert value.dtype == np.float32 and value.shape == (3,)
        self._position = value
        self.positions.append(value)

    @property
    def rotation(self) -> Vec:
        return self._rotation

    @rotation.setter
    def rotation(self, value: Vec) -> None:
        assert value.dtype == np.float32 and value.shape == (4,)
        self._rotation = value
        self.rotations.append(value)


def _ticks(tween: Tween, dt: float, limit: int = 100_000) -> int:
    """Step ``tween`` until done; return how many steps it took."""
    for n in range(1, limit + 1):
        tween.step(dt)
        if tween.done:
            return n
    raise AssertionError("tween did not finish")


def _quat(axis: tuple[float, float, float], angle: float) -> npt.NDArray[np.float64]:
    a = np.array(axis, dtype=np.float64)
    a /= np.linalg.norm(a)
    return np.array([*(a * math.sin(angle / 2)), math.cos(angle / 2)])


def _same_turn(q: npt.ArrayLike, expected: npt.ArrayLike, atol: float = 1e-6) -> bool:
    q, expected = np.asarray(q, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    return bool(np.allclose(q, expected, atol=atol) or np.allclose(q, -expected, atol=atol))


# --- MoveTo ----------------------------------------------------------------------------------


def test_move_arrives_exactly_and_never_overshoots() -> None:
    node = Node()
    move = MoveTo(node, (1.0, 0.0, 0.0), speed=1.0)
    leftovers = [move.step(0.3) for _ in range(4)]
    assert move.done
    xs = [float(p[0]) for p in node.positions]
    assert xs == pytest.approx([0.3, 0.6, 0.9, 1.0])
    assert all(x <= 1.0 for x in xs)
    assert np.array_equal(node.position, np.array([1.0, 0.0, 0.0], dtype=np.float32))
    assert leftovers[:3] == [0.0, 0.0, 0.0]
    assert leftovers[3] == pytest.approx(0.2)


def test_move_assigns_new_arrays() -> None:
    node = Node()
    first = node.position
    move = MoveTo(node, (0.0, 2.0, 0.0), speed=1.0)
    for _ in range(5):
        move.step(0.5)
    assert np.array_equal(first, np.zeros(3, dtype=np.float32))  # never changed in place
    assert len({id(p) for p in node.positions}) == len(node.positions) == 4


@pytest.mark.parametrize(
    ("distance", "speed", "dt"),
    [(1.0, 1.0, 0.1), (3.0, 2.0, 1 / 60), (5.0, 1.5, 0.016), (0.3, 1.0, 0.1), (7.0, 3.5, 1.0)],
)
def test_move_frame_count(distance: float, speed: float, dt: float) -> None:
    node = Node((1.0, 2.0, 3.0))
    move = MoveTo(node, (1.0 + distance, 2.0, 3.0), speed=speed)
    assert _ticks(move, dt) == math.ceil(distance / (speed * dt))


def test_move_diagonal_frame_count_and_arrival() -> None:
    node = Node((-1.0, 0.5, 2.0))
    target = (2.0, -3.5, 0.0)
    move = MoveTo(node, target, speed=2.0)
    d = float(np.linalg.norm(np.subtract(target, (-1.0, 0.5, 2.0), dtype=np.float64)))
    assert _ticks(move, 1 / 60) == math.ceil(d / (2.0 / 60))
    assert np.array_equal(node.position, np.array(target, dtype=np.float32))


def test_move_duration_mode() -> None:
    node = Node()
    move = MoveTo(node, (2.0, 0.0, -4.0), duration=1.0)
    assert _ticks(move, 0.25) == 4
    assert [p.tolist() for p in node.positions] == [
        [0.5, 0.0, -1.0],
        [1.0, 0.0, -2.0],
        [1.5, 0.0, -3.0],
        [2.0, 0.0, -4.0],
    ]
    assert _ticks(MoveTo(Node(), (1.0, 1.0, 1.0), duration=1.0), 0.1) == 10  # no drift to 11


def test_move_of_zero_length_or_time_finishes_at_once() -> None:
    node = Node((1.0, 1.0, 1.0))
    assert MoveTo(node, (1.0, 1.0, 1.0), speed=3.0).step(0.25) == 0.25
    assert MoveTo(node, (5.0, 1.0, 1.0), duration=0.0).step(0.25) == 0.25
    assert node.position.tolist() == [5.0, 1.0, 1.0]


def test_move_reads_target_now_and_start_when_started() -> None:
    node = Node()
    target = np.array([4.0, 0.0, 0.0], dtype=np.float32)
    move = MoveTo(node, target, speed=1.0)
    target[0] = 100.0  # the caller's array is copied
    node.position = np.array([2.0, 0.0, 0.0], dtype=np.float32)  # moved before the first step
    assert _ticks(move, 1.0) == 2
    assert node.position.tolist() == [4.0, 0.0, 0.0]


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"speed": 1.0, "duration": 1.0}, {"speed": 0.0}, {"speed": -1.0}, {"duration": -1.0}],
)
def test_move_rejects_bad_timing(kwargs: dict[str, float]) -> None:
    with pytest.raises(TweenError):
        MoveTo(Node(), (1.0, 0.0, 0.0), **kwargs)


def test_move_rejects_bad_target_and_node() -> None:
    with pytest.raises(TweenError, match="target"):
        MoveTo(Node(), (1.0, 0.0), speed=1.0)
    with pytest.raises(TweenError, match="target"):
        MoveTo(Node(), (1.0, float("nan"), 0.0), speed=1.0)
    with pytest.raises(TweenError, match="position"):
        MoveTo(object(), (1.0, 0.0, 0.0), speed=1.0)  # type: ignore[arg-type]
    assert issubclass(TweenError, ValueError)


def test_step_rejects_negative_dt() -> None:
    with pytest.raises(TweenError, match="dt"):
        Wait(1.0).step(-0.1)
    with pytest.raises(TweenError, match="dt"):
        TweenManager().update(float("inf"))


@settings(max_examples=200, deadline=None)
@given(
    start=st.tuples(*[st.floats(-10, 10, width=32)] * 3),
    target=st.tuples(*[st.floats(-10, 10, width=32)] * 3),
    speed=st.floats(1.0, 100.0),
    dt=st.floats(0.005, 0.1),
)
def test_move_property_exact_arrival_no_overshoot(
    start: tuple[float, float, float],
    target: tuple[float, float, float],
    speed: float,
    dt: float,
) -> None:
    node = Node(start)
    goal = np.array(target, dtype=np.float32)
    d = float(np.linalg.norm(goal.astype(np.float64) - node.position.astype(np.float64)))
    bound = max(1, math.ceil(d / (speed * dt)))
    move = MoveTo(node, goal, speed=speed)
    last = d
    ticks = 0
    while not move.done:
        move.step(dt)
        ticks += 1
        assert ticks <= bound
        now = float(np.linalg.norm(goal.astype(np.float64) - node.position.astype(np.float64)))
        assert now <= last
        last = now
    assert np.array_equal(node.position, goal)
    # Finishing early would mean moving faster than asked (allowing for the float tolerance).
    assert ticks >= math.ceil(d / (speed * dt) * (1 - 1e-6)) or d == 0.0


# --- Sequence, Parallel, Wait, Call ----------------------------------------------------------


def test_sequence_carries_leftover_time() -> None:
    node = Node()
    log: list[str] = []
    first = MoveTo(node, (1.0, 0.0, 0.0), speed=1.0)
    second = MoveTo(node, (1.0, 1.0, 0.0), speed=1.0)
    first.on_done = lambda: log.append("first")
    second.on_done = lambda: log.append("second")
    seq = Sequence(first, second)
    assert _ticks(seq, 0.3) == 7
    assert log == ["first", "second"]
    assert node.position.tolist() == [1.0, 1.0, 0.0]
    # The fourth tick ends the first move with 0.2 s left, which the second uses at once.
    assert node.positions[3].tolist() == [1.0, 0.0, 0.0]
    assert node.positions[4].tolist() == [1.0, pytest.approx(0.2), 0.0]
    assert len(node.positions) == 8


def test_sequence_order_and_calls_in_one_tick() -> None:
    log: list[str] = []
    seq = Sequence(Call(lambda: log.append("a")), Wait(0.0), Call(lambda: log.append("b")))
    assert seq.step(0.1) == pytest.approx(0.1)
    assert seq.done
    assert log == ["a", "b"]
    assert Sequence().step(0.5) == 0.5


def test_sequence_waits_for_each_child() -> None:
    log: list[str] = []
    seq = Sequence(
        Wait(0.25), Call(lambda: log.append("a")), Wait(0.25), Call(lambda: log.append("b"))
    )
    seq.step(0.1)
    seq.step(0.1)
    assert log == []
    seq.step(0.1)  # 0.3: the first wait ends with 0.05 left, which the second starts with
    assert log == ["a"]
    seq.step(0.1)
    assert log == ["a"]
    seq.step(0.1)  # 0.5 s in all: both waits are over
    assert log == ["a", "b"]
    assert seq.done


def test_parallel_finishes_with_the_last_child() -> None:
    a, b = Node(), Node()
    log: list[str] = []
    long = MoveTo(a, (1.0, 0.0, 0.0), speed=1.0)
    short = MoveTo(b, (0.0, 0.5, 0.0), speed=1.0)
    long.on_done = lambda: log.append("long")
    short.on_done = lambda: log.append("short")
    par = Parallel(long, short)
    results = [par.step(0.3) for _ in range(4)]
    assert par.done
    assert log == ["short", "long"]
    assert results[:3] == [0.0, 0.0, 0.0]
    assert results[3] == pytest.approx(0.2)  # the short one finished earlier: it left all 0.3
    assert a.position.tolist() == [1.0, 0.0, 0.0]
    assert b.position.tolist() == [0.0, 0.5, 0.0]


def test_parallel_returns_smallest_leftover_of_the_same_tick() -> None:
    par = Parallel(Wait(0.2), Wait(0.25), Wait(0.1))
    assert par.step(0.3) == pytest.approx(0.05)
    assert Parallel().step(0.3) == 0.3


def test_parallel_inside_sequence_hands_on_leftover() -> None:
    log: list[str] = []
    seq = Sequence(Parallel(Wait(0.5), Wait(0.2)), Call(lambda: log.append("after")))
    seq.step(0.3)
    assert log == []
    seq.step(0.3)
    assert log == ["after"]
    assert seq.done


def test_wait_counts_time_without_drift() -> None:
    assert _ticks(Wait(1.0), 0.1) == 10
    wait = Wait(0.25)
    assert [wait.step(0.1) for _ in range(3)] == [0.0, 0.0, pytest.approx(0.05)]
    assert wait.step(0.1) == 0.1  # a finished tween uses no more time
    with pytest.raises(TweenError, match="seconds"):
        Wait(-1.0)


def test_call_runs_once_and_takes_no_time() -> None:
    calls: list[int] = []
    call = Call(lambda: calls.append(1))
    assert call.step(0.2) == 0.2
    assert call.step(0.2) == 0.2
    assert calls == [1]
    with pytest.raises(TweenError):
        Call(3)  # type: ignore[arg-type]


def test_start_runs_once_on_first_step() -> None:
    starts: list[int] = []

    class Probe(Tween):
        def start(self) -> None:
            starts.append(1)

        def advance(self, dt: float) -> float | None:
            return None

    probe = Probe()
    assert starts == []
    probe.step(0.1)
    probe.step(0.1)
    assert starts == [1]
    assert not probe.done


# --- TweenManager ---------------------------------------------------------------------------


def test_callbacks_fire_once_child_then_own_then_manager() -> None:
    log: list[str] = []
    child = Wait(0.2)
    child.on_done = lambda: log.append("child")
    seq = Sequence(child)
    seq.on_done = lambda: log.append("sequence")
    manager = TweenManager()
    assert manager.run(seq, on_done=lambda: log.append("manager")) is seq
    for _ in range(10):
        manager.update(0.1)
    assert log == ["child", "sequence", "manager"]
    assert manager.busy == 0


def test_run_starts_on_next_update() -> None:
    node = Node()
    manager = TweenManager()
    manager.run(MoveTo(node, (1.0, 0.0, 0.0), speed=1.0))
    assert node.positions == []
    assert manager.busy == 1  # counts from the moment it is handed over
    manager.update(0.5)
    assert node.position.tolist() == [0.5, 0.0, 0.0]


def test_busy_is_a_count_of_overlapping_actions() -> None:
    a, b = Node(), Node()
    manager = TweenManager()
    manager.run(MoveTo(a, (1.0, 0.0, 0.0), speed=1.0))
    manager.update(0.5)
    manager.run(MoveTo(b, (1.0, 0.0, 0.0), speed=1.0))
    assert manager.busy == 2
    assert manager.running == 2
    manager.update(0.5)  # the first one ends; the second is half way
    assert manager.busy == 1
    assert b.position.tolist() == [0.5, 0.0, 0.0]
    manager.update(0.5)
    assert manager.busy == 0
    assert manager.running == 0


def test_cancel_all_fires_nothing() -> None:
    node = Node()
    log: list[str] = []
    manager = TweenManager()
    move = MoveTo(node, (1.0, 0.0, 0.0), speed=1.0)
    move.on_done = lambda: log.append("move")
    manager.run(move, on_done=lambda: log.append("manager"))
    manager.run(Wait(0.1), on_done=lambda: log.append("pending"))
    manager.update(0.5)
    assert log == ["pending"]
    manager.run(Wait(0.0), on_done=lambda: log.append("never"))
    manager.cancel_all()
    assert manager.busy == 0
    for _ in range(5):
        manager.update(0.5)
    assert log == ["pending"]
    assert node.position.tolist() == [0.5, 0.0, 0.0]


def test_cancel_all_from_a_callback_stops_the_rest_of_the_tick() -> None:
    node = Node()
    log: list[str] = []
    manager = TweenManager()
    manager.run(Wait(0.1), on_done=manager.cancel_all)
    manager.run(MoveTo(node, (1.0, 0.0, 0.0), speed=1.0), on_done=lambda: log.append("move"))
    manager.update(1.0)
    assert node.positions == []
    assert manager.busy == 0
    assert log == []


def test_action_cancelling_in_its_own_callback_skips_the_manager_callback() -> None:
    manager = TweenManager()
    log: list[str] = []
    wait = Wait(0.1)
    wait.on_done = manager.cancel_all
    manager.run(wait, on_done=lambda: log.append("manager"))
    manager.update(0.2)
    assert log == []


def test_cancel_one_action() -> None:
    manager = TweenManager()
    log: list[str] = []
    first = manager.run(Wait(1.0), on_done=lambda: log.append("first"))
    manager.run(Wait(1.0), on_done=lambda: log.append("second"))
    assert manager.cancel(first) is True
    assert manager.cancel(first) is False
    assert manager.busy == 1
    manager.update(1.0)
    assert log == ["second"]


def test_action_run_from_a_callback_starts_next_update() -> None:
    node = Node()
    manager = TweenManager()
    follow = MoveTo(node, (0.0, 1.0, 0.0), speed=1.0)

    def start_follow() -> None:
        manager.run(follow)

    manager.run(Wait(0.1), on_done=start_follow)
    manager.update(0.3)  # the wait ends with time to spare, but the new move waits its turn
    assert not follow.started
    assert node.positions == []
    assert manager.busy == 1
    manager.update(0.5)
    assert node.position.tolist() == [0.0, 0.5, 0.0]
    manager.update(0.5)
    assert manager.busy == 0


def test_run_refuses_an_action_twice() -> None:
    manager = TweenManager()
    wait = manager.run(Wait(1.0))
    with pytest.raises(TweenError):
        manager.run(wait)
    manager.update(1.0)
    with pytest.raises(TweenError):
        manager.run(wait)
    with pytest.raises(TweenError):
        manager.run(lambda: None)  # type: ignore[arg-type]


def test_callback_exception_propagates_and_fires_once() -> None:
    manager = TweenManager()
    calls: list[int] = []

    def boom() -> None:
        calls.append(1)
        raise RuntimeError("boom")

    manager.run(Wait(0.1), on_done=boom)
    with pytest.raises(RuntimeError):
        manager.update(0.2)
    manager.update(0.2)
    assert calls == [1]
    assert manager.busy == 0


# --- RotateTo, RotateBy ----------------------------------------------------------------------


def test_rotate_to_reaches_target_by_slerp() -> None:
    node = Node()
    target = _quat((0.0, 0.0, 1.0), math.pi / 2)
    turn = RotateTo(node, target, duration=1.0)
    assert _ticks(turn, 0.25) == 4
    assert np.array_equal(node.rotation, target.astype(np.float32))
    assert _same_turn(node.rotations[1], _quat((0.0, 0.0, 1.0), math.pi / 4))
    for q in node.rotations:
        assert float(np.linalg.norm(q)) == pytest.approx(1.0, abs=1e-6)


def test_rotate_to_takes_the_shorter_way() -> None:
    start = _quat((0.0, 1.0, 0.0), 0.2)
    node = Node(rotation=tuple(start))
    target = -_quat((0.0, 1.0, 0.0), 0.6)  # the same turn as +q, written with the other sign
    turn = RotateTo(node, target, duration=1.0)
    turn.step(0.5)
    assert _same_turn(node.rotation, _quat((0.0, 1.0, 0.0), 0.4))
    turn.step(0.5)
    assert turn.done
    assert _same_turn(node.rotation, target)


def test_rotate_to_normalises_target_and_rejects_zero() -> None:
    node = Node()
    RotateTo(node, (0.0, 0.0, 0.0, 2.0), duration=0.0).step(0.1)
    assert node.rotation.tolist() == [0.0, 0.0, 0.0, 1.0]
    with pytest.raises(TweenError, match="target"):
        RotateTo(node, (0.0, 0.0, 0.0, 0.0), duration=1.0)
    with pytest.raises(TweenError, match="rotation"):
        RotateTo(object(), (0.0, 0.0, 0.0, 1.0), duration=1.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("angle", [math.pi, -math.pi])
def test_rotate_by_flips_a_disc_the_given_way(angle: float) -> None:
    node = Node()
    flip = RotateBy(node, (1.0, 0.0, 0.0), angle, duration=0.4)
    assert _ticks(flip, 0.1) == 4
    assert _same_turn(node.rotation, _quat((1.0, 0.0, 0.0), math.pi))
    assert _same_turn(node.rotations[1], _quat((1.0, 0.0, 0.0), angle / 2))


def test_rotate_by_composes_with_the_start_orientation() -> None:
    start = _quat((0.0, 0.0, 1.0), math.pi / 2)
    node = Node(rotation=tuple(start))
    flip = RotateBy(node, (0.0, 0.0, 2.0), math.pi / 2, duration=1.0)  # axis need not be unit
    _ticks(flip, 0.5)
    assert _same_turn(node.rotation, _quat((0.0, 0.0, 1.0), math.pi))


def test_rotate_by_turns_about_the_world_axis_after_the_start_orientation() -> None:
    """Two different axes, so the order of the quaternion product shows: the node's corners
    end where the rotation matrices (Rodrigues' formula, no quaternions) put them: first the
    start orientation, then the turn about the world axis."""

    def matrix(axis: tuple[float, float, float], angle: float) -> npt.NDArray[np.float64]:
        k = np.array(axis, dtype=np.float64) / np.linalg.norm(axis)
        cross = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
        return np.eye(3) + math.sin(angle) * cross + (1 - math.cos(angle)) * cross @ cross

    def turned(q: npt.ArrayLike, v: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        x, y, z, w = np.asarray(q, dtype=np.float64)
        u = np.array([x, y, z])
        return v + 2.0 * np.cross(u, np.cross(u, v) + w * v)

    node = Node(rotation=tuple(_quat((0.0, 0.0, 1.0), math.pi / 2)))
    _ticks(RotateBy(node, (1.0, 0.0, 0.0), 0.7, duration=1.0), 1.0)
    expected = matrix((1.0, 0.0, 0.0), 0.7) @ matrix((0.0, 0.0, 1.0), math.pi / 2)
    for corner in np.eye(3):
        assert np.allclose(turned(node.rotation, corner), expected @ corner, atol=1e-6)
