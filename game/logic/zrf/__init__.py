"""The reader of Zillions of Games' ZRF descriptions: a ``.zrf`` file's games and variants
turned into the same :class:`~game.logic.rules.design.Design` as the engine's own description
language, so that they play, count and draw as any described game (``docs/zrf.md``)."""
