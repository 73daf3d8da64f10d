"""What a game's command-line hooks are made of (``game/games/<id>/hooks.py``): the commands
a game adds to ``gamehall`` beyond ``play`` and ``shot`` (``solve``, ``bench``), each marked
with :func:`hook`, and what they say: result lines for stdout and :class:`Note` lines for
stderr, or a :class:`Refusal`. The game's registry entry finds its commands there
(:attr:`game.registry.Entry.hooks`); the CLI prints what they yield.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.errors import GamehallError

if TYPE_CHECKING:
    from game.registry import Entry

__all__ = ["CliHook", "Note", "Refusal", "Said", "hook"]


@dataclass(frozen=True)
class Note:
    """A line of a hook's output for the person rather than for scripts (the CLI prints it on
    stderr): a search's statistics, or with ``warning`` a word before long work, which the
    CLI prints after ``gamehall COMMAND GAME: ``."""

    text: str
    warning: bool = False


class Refusal(GamehallError, ValueError):
    """A hook's refusal of what it was asked (a position it cannot read, a solve that ran out
    of time): the CLI prints it after ``gamehall COMMAND GAME: ``, exit status 2."""


#: What a hook yields, in order: result lines (stdout) and notes (stderr).
Said = str | Note


@dataclass(frozen=True)
class CliHook:
    """A command-line command for one game: its help, its flags and what it runs.

    ``run(args, entry)`` yields its result as it goes: lines for stdout, the last one
    machine-readable (``crossings=11``, ``winrates=...``), and :class:`Note` lines for stderr.
    It prints nothing itself: the CLI prints what it yields as it comes (a long benchmark
    shows each figure when measured). It raises :class:`Refusal` (or another ValueError) for
    what it cannot do; Ctrl-C stops it with KeyboardInterrupt.
    For ``solve``, ``args.options`` holds the game's options as typed on the command line,
    checked by its schema, with the defaults for the rest (the command line adds every
    option's flag itself).
    """

    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, Entry], Iterable[Said]]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """A hook made by :func:`hook` travels (inside its entry, to a tournament's worker
        process) as the name it has in its module: that name holds the hook, not the function
        it decorated, so the function cannot travel by its name. Another hook travels as its
        fields."""
        module, name = getattr(self.run, "__module__", ""), getattr(self.run, "__name__", "")
        if getattr(sys.modules.get(module), name, None) is self:
            return (_hook_named, (module, name))
        return (CliHook, (self.help, self.add_arguments, self.run))


def hook(
    help: str, arguments: Callable[[argparse.ArgumentParser], None] | None = None
) -> Callable[[Callable[[argparse.Namespace, Entry], Iterable[Said]]], CliHook]:
    """Make the function it decorates a command of its game's command line: the command is
    the function's name (``solve``, ``bench``), ``help`` its line in ``--help`` and
    ``arguments`` adds its flags (none: the options' flags only). A game's ``hooks`` module
    marks its commands so, and its entry finds them there (:attr:`Entry.hooks`)."""

    def command(run: Callable[[argparse.Namespace, Entry], Iterable[Said]]) -> CliHook:
        return CliHook(help, arguments or _no_arguments, run)

    return command


def _hook_named(module: str, name: str) -> CliHook:
    """The hook ``name`` of the module ``module`` (imported)."""
    found = getattr(importlib.import_module(module), name)
    if not isinstance(found, CliHook):
        raise TypeError(f"{module}.{name} is not a command-line hook")
    return found


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """A command with no flags of its own (the options' flags are every game's)."""
