"""Every export test that serves runs on both backends: the real agent writes ``$HERMES_HOME/state.db``,
which on PostgreSQL is mirrored into the database before each request (``tests/agent_mirror.py``), so the
agent's own exporters stay the oracle."""

from __future__ import annotations

from tests import agent_mirror

# Both backends, the agent's file mirrored into PostgreSQL before each request.
settings = agent_mirror.settings
client = agent_mirror.client
