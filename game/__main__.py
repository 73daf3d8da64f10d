"""``python -m game`` is the ``gamehall`` command."""

from __future__ import annotations

import sys

from game.cli import main

sys.exit(main())
