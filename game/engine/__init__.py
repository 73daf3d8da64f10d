"""The game-agnostic engine: director, actions, scenes, renderer, HUD, overlay."""
