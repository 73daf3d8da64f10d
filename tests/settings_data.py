"""What the settings tests share: a game's options schema as a registry entry declares it,
and a Settings value with every field changed from its default."""

from __future__ import annotations

from game.logic.options import Option, OptionsSchema
from game.settings import Settings, WindowSettings

#: A game's options as a registry entry declares them (the real games' are tested apart).
SCHEMAS = {
    "river": OptionsSchema(
        (
            Option("priests", int, 3, minimum=1, maximum=200),
            Option("devils", int, 3, minimum=1, maximum=200),
            Option("capacity", int, 2, minimum=1, maximum=12),
        )
    )
}


def custom_settings() -> Settings:
    return Settings(
        window=WindowSettings(width=1600, height=900, x=-20, y=40),
        last_game="reversi",
        shadows=False,
        show_fps=True,
        games={"river": {"priests": 4, "devils": 4, "capacity": 3}},
    )
