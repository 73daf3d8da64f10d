"""Errors shared across Gamehall. Each names the bad value and where it came from."""

from __future__ import annotations


class GamehallError(Exception):
    """Base class for errors Gamehall reports to a person as one clear line."""


class AssetError(GamehallError, ValueError):
    """A shipped or user-supplied asset (scene, model, shader) is malformed."""


class NoDisplayError(GamehallError, RuntimeError):
    """A window was asked for on a machine with no display."""


#: The system libraries pyglet loads (by the name it looks for), what they are, and the
#: Debian/Ubuntu packages that bring them. Text needs FreeType, fontconfig and a font together.
_FONTS = "libfreetype6 fontconfig fonts-dejavu-core"
SYSTEM_LIBRARIES: dict[str, tuple[str, str]] = {
    "freetype": ("FreeType (text)", _FONTS),
    "fontconfig": ("fontconfig (finding fonts)", _FONTS),
    "EGL": ("EGL (drawing without a window)", "libegl1"),
    "GL": ("OpenGL", "libgl1"),
    "X11": ("X11 (the window)", "libx11-6"),
}


def missing_library(exc: ImportError) -> str | None:
    """One line saying which system packages to install, for the ImportError pyglet raises
    when it cannot load a system library (``Library "freetype" not found.``); None for any
    other ImportError.

    >>> line = missing_library(ImportError('Library "freetype" not found.'))
    >>> line.split(";")[0]
    'the system library FreeType (text) is missing'
    >>> line.split(": ")[-1]
    'sudo apt-get install libfreetype6 fontconfig fonts-dejavu-core)'
    >>> missing_library(ImportError("No module named 'nosuch'")) is None
    True
    """
    import re

    found = re.fullmatch(r'Library "([^"]+)" not found\.?', str(exc).strip())
    if found is None:
        return None
    name = found[1]
    what, packages = SYSTEM_LIBRARIES.get(name, (name, ""))
    if packages == _FONTS:
        need = "install FreeType, fontconfig and a font"
    else:
        need = f"install {name}" if not packages else "install it"
    where = f" (on Debian or Ubuntu: sudo apt-get install {packages})" if packages else ""
    return f"the system library {what} is missing; {need}{where}"
