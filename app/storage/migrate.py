"""The Alembic history both backends run (``migrations/``): where it lives and the newest revision."""

from __future__ import annotations

from pathlib import Path

from alembic.config import Config
from alembic.script import ScriptDirectory

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


def history_config() -> Config:
    """An Alembic configuration naming the history, without a database yet."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def head_revision() -> str:
    """The newest revision this build knows."""
    head = ScriptDirectory.from_config(history_config()).get_current_head()
    assert head is not None
    return head
