"""Lifecycle tests (prune, import, export, stats, retention) run on both backends."""

from __future__ import annotations

from tests import agent_mirror

settings = agent_mirror.settings
client = agent_mirror.client
