"""The normal run's sizes and `make soak`'s: how many kill cycles, model steps or property examples a test
takes. `make test` keeps to its 15-minute budget with the smaller ones; `make soak` (``HERMES_SOAK=1``) runs
the same tests at the larger ones."""

from __future__ import annotations

import os

SOAK = os.environ.get("HERMES_SOAK", "") not in ("", "0")


def sized(ci: int, soak: int) -> int:
    """``ci`` in the normal test run, ``soak`` under ``HERMES_SOAK=1``."""
    return soak if SOAK else ci
