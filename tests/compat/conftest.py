"""Compatibility fixtures: agent files of every version, built once per test session (see agent_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compat.agent_files import AgentFiles


@pytest.fixture(scope="session")
def agent_files(tmp_path_factory: pytest.TempPathFactory) -> AgentFiles:
    """Template agent files, each built on first use and copied into a test's home."""
    root: Path = tmp_path_factory.mktemp("agent-files")
    return AgentFiles(root)
