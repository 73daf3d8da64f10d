"""A script run in a new Python process with this checkout importable, for what a test must
see from a process's very start: the modules a frame imports, the threads left at exit."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from tests.waiting import HANG_S

ROOT = Path(__file__).resolve().parents[1]


def run_script(
    script: str,
    folder: Path,
    *,
    importable: Path = ROOT,
    environ: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (Python source) in ``folder``, which it gets as its one argument, with
    the ``game`` package of ``importable`` (this checkout's unless told) and ``environ``
    added to the environment; its output is captured. A script that runs past
    :data:`~tests.waiting.HANG_S` fails the test."""
    env = {**os.environ, **(environ or {}), "PYTHONPATH": str(importable)}
    return subprocess.run(
        [sys.executable, "-c", script, str(folder)],
        cwd=folder, env=env, capture_output=True, text=True, timeout=HANG_S, check=False,
    )  # fmt: skip
