"""The gateway's settings as the agent keeps them: ``config.yaml`` (the default reset policy and the flags),
``gateway.json`` (per-type and per-platform overrides) and a few environment variables, re-read only when
one of them changed, and written back where the agent reads them."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.domain.reset_policy import GatewayConfig, parse_config
from app.errors import ConfigUnreadable
from app.storage import gateway_files as files


def config_public(config: GatewayConfig) -> dict[str, Any]:
    """``GET /gateway/config``."""
    return {
        "session_reset": config.default_policy.to_dict(),
        "reset_by_type": {k: v.to_dict() for k, v in config.by_type.items()},
        "reset_by_platform": {k: v.to_dict() for k, v in config.by_platform.items()},
        "group_sessions_per_user": config.group_sessions_per_user,
        "thread_sessions_per_user": config.thread_sessions_per_user,
        "write_sessions_json": config.write_sessions_json,
        "multiplex_profiles": config.multiplex_profiles,
    }


@dataclass
class _ConfigCache:
    stamp: tuple[float | None, float | None] = (None, None)
    config: GatewayConfig = field(default_factory=GatewayConfig)
    env: tuple[tuple[str, str | None], ...] = ()


_ENV_KEYS = (
    "SESSION_IDLE_MINUTES",
    "SESSION_RESET_HOUR",
    "GATEWAY_MULTIPLEX_PROFILES",
    "HERMES_AUTO_CONTINUE_FRESHNESS",
)


class GatewayConfigFiles:
    """The effective configuration of one home's gateway, cached by the files' modification times."""

    def __init__(self, home: Path) -> None:
        self.config_path = home / "config.yaml"
        self.gateway_json_path = home / "gateway.json"
        self._cache = _ConfigCache()
        # Two PUTs would otherwise each read the file and the second write would drop the first's change.
        self._lock = threading.Lock()

    def config(self) -> GatewayConfig:
        """The effective configuration; re-parsed only when config.yaml, gateway.json or the env changed."""
        stamp = (files.mtime(self.config_path), files.mtime(self.gateway_json_path))
        env = tuple((k, os.environ.get(k)) for k in _ENV_KEYS)
        cache = self._cache
        if cache.stamp != stamp or cache.env != env:
            config = parse_config(
                files.read_yaml(self.config_path), files.read_json(self.gateway_json_path), dict(os.environ)
            )
            self._cache = _ConfigCache(stamp, config, env)
        return self._cache.config

    def put(self, body: dict[str, Any]) -> GatewayConfig:
        """Store settings where the agent reads them: the default policy and the flags in config.yaml,
        the per-type and per-platform overrides in gateway.json (the agent reads them only there)."""
        with self._lock:
            return self._put(body)

    def _put(self, body: dict[str, Any]) -> GatewayConfig:
        keys = ("session_reset", "group_sessions_per_user", "thread_sessions_per_user", "write_sessions_json")
        changes = {key: body[key] for key in keys if body.get(key) is not None}
        if not files.update_yaml(self.config_path, changes):
            raise ConfigUnreadable(self.config_path)
        if body.get("reset_by_type") is not None or body.get("reset_by_platform") is not None:
            legacy = files.read_json_for_update(self.gateway_json_path)
            if legacy is None:
                raise ConfigUnreadable(self.gateway_json_path)
            for key in ("reset_by_type", "reset_by_platform"):
                if body.get(key) is not None:
                    legacy[key] = body[key]
            files.write_json(self.gateway_json_path, legacy)
        self._cache = _ConfigCache()
        return self.config()
