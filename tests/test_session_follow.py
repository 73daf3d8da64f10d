"""Every session follows its open scene the same way (game.registry.FollowsScene): a game is
in progress while the scene has one, else when one is kept for Continue."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.logic.options import Option, OptionsSchema
from game.registry import FollowsScene, MemorySession
from game.session import Session
from game.settings import Settings, Store

SCHEMA = OptionsSchema((Option("size", int, 3, minimum=1, maximum=9, help="size"),))


@pytest.mark.parametrize("kind", ["memory", "file"])
def test_a_session_asks_its_scene_then_its_kept_game(kind: str, tmp_path: Path) -> None:
    if kind == "memory":
        session: FollowsScene = MemorySession()
    else:
        session = Session("river", SCHEMA, Settings(), Store(tmp_path))
    assert isinstance(session, FollowsScene) and not session.in_progress()
    playing: list[dict[str, int] | None] = [{"cursor": 2}]

    def current() -> dict[str, int] | None:
        return playing[0]

    def other() -> None:
        return None

    session.follow(current)
    assert session.in_progress()
    playing[0] = None
    assert not session.in_progress()
    session.unfollow(other)  # another scene's leaving changes nothing
    assert session.current is current
    session.unfollow(current)
    assert session.current is None and not session.in_progress()
