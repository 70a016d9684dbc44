"""The Alembic history both backends run (``migrations/``): where it lives, the newest revision, and the
upgrade to it."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.script import ScriptDirectory

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


def history_config() -> Config:
    """An Alembic configuration naming the history, without a database yet."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


@cache
def history() -> ScriptDirectory:
    """The history's revision scripts, read once per process: a process that opens several stores (the
    CLI's maintenance commands, an embedding program) would otherwise load every revision file again for
    each one."""
    return ScriptDirectory.from_config(history_config())


def head_revision() -> str:
    """The newest revision this build knows."""
    head = history().get_current_head()
    assert head is not None
    return head


def upgrade_to_head(cfg: Config) -> None:
    """What ``alembic.command.upgrade(cfg, "head")`` does (``cfg`` carries the connection in its
    attributes), over the history read once per process."""
    script = history()

    def revisions(rev: Any, context: Any) -> Any:
        return script._upgrade_revs("head", rev)

    with EnvironmentContext(cfg, script, fn=revisions, destination_rev="head"):
        script.run_env()
