"""The ``sessions:`` and ``titles:`` blocks of ``$HERMES_HOME/config.yaml``, merged with ``HERMES_`` settings.

```yaml
sessions:
  auto_prune: false
  retention_days: 90
  vacuum_after_prune: true
  min_interval_hours: 24
titles:
  auto: true
```

A ``HERMES_SESSIONS_*`` (or ``HERMES_TITLES_AUTO``) variable wins over the file; the file wins over the
defaults. A missing or broken file never stops the server: it logs a warning and the defaults apply.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import yaml

from app.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AutoPruneConfig:
    """Effective auto-prune configuration."""

    enabled: bool = False
    retention_days: float = 90.0
    vacuum_after_prune: bool = True
    min_interval_hours: float = 24.0
    vacuum_min_free_ratio: float = 0.25
    check_interval_s: float = 3600.0


def _file_section(settings: Settings, name: str = "sessions") -> dict[str, Any]:
    path = settings.config_path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        log.warning("cannot read %s: %s; defaults apply", path, exc)
        return {}
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        log.warning("%s is not valid YAML (%s); defaults apply", path, exc)
        return {}
    section = data.get(name) if isinstance(data, dict) else None
    return section if isinstance(section, dict) else {}


def _number(value: Any, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return default
    return float(value)


def _flag(value: Any, default: bool) -> bool:
    return value if isinstance(value, bool) else default


def load_auto_prune_config(settings: Settings) -> AutoPruneConfig:
    """Read config.yaml's ``sessions:`` block and apply the ``HERMES_SESSIONS_*`` overrides."""
    base = AutoPruneConfig()
    section = _file_section(settings)
    enabled = _flag(section.get("auto_prune"), base.enabled)
    retention = _number(section.get("retention_days"), base.retention_days)
    vacuum = _flag(section.get("vacuum_after_prune"), base.vacuum_after_prune)
    interval = _number(section.get("min_interval_hours"), base.min_interval_hours)
    ratio = min(_number(section.get("vacuum_min_free_ratio"), base.vacuum_min_free_ratio), 1.0)
    return AutoPruneConfig(
        enabled=enabled if settings.sessions_auto_prune is None else settings.sessions_auto_prune,
        retention_days=retention
        if settings.sessions_retention_days is None
        else settings.sessions_retention_days,
        vacuum_after_prune=(
            vacuum if settings.sessions_vacuum_after_prune is None else settings.sessions_vacuum_after_prune
        ),
        min_interval_hours=(
            interval if settings.sessions_min_interval_hours is None else settings.sessions_min_interval_hours
        ),
        vacuum_min_free_ratio=(
            ratio
            if settings.sessions_vacuum_min_free_ratio is None
            else settings.sessions_vacuum_min_free_ratio
        ),
        check_interval_s=settings.auto_prune_check_s,
    )


def load_titles_auto(settings: Settings) -> bool:
    """Whether sessions get automatic titles: ``HERMES_TITLES_AUTO``, else ``titles.auto``, else on."""
    if settings.titles_auto is not None:
        return settings.titles_auto
    return _flag(_file_section(settings, "titles").get("auto"), True)


JOURNAL_MODES = ("wal", "delete", "truncate", "persist")
"""The ``database.journal_mode`` values a new file may be created with (the agent's own choices)."""


def load_journal_mode(settings: Settings) -> str:
    """The journal mode a state.db this server creates starts in: ``database.journal_mode``, else WAL.

    Only a new file follows it: an existing file keeps whatever mode it has, as the agent's own builds do."""
    value = _file_section(settings, "database").get("journal_mode")
    if isinstance(value, str) and value.lower() in JOURNAL_MODES:
        return value.lower()
    if value is not None:
        log.warning("database.journal_mode %r is not one of %s; WAL applies", value, ", ".join(JOURNAL_MODES))
    return "wal"
