"""Errors shared across Gamehall. Each names the bad value and where it came from."""

from __future__ import annotations


class GamehallError(Exception):
    """Base class for errors Gamehall reports to a person as one clear line."""


class AssetError(GamehallError, ValueError):
    """A shipped or user-supplied asset (scene, model, shader) is malformed."""


class NoDisplayError(GamehallError, RuntimeError):
    """A window was asked for on a machine with no display."""
