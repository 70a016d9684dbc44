"""Runtime configuration: one settings class, every variable prefixed ``HERMES_``."""

from __future__ import annotations

import ipaddress
from functools import cached_property
from pathlib import Path
from typing import Annotated, ClassVar, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


# URL schemes HERMES_DATABASE_URL accepts (libpq's two spellings).
POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")


class _InHome:
    """A path under ``Settings.home``, read as an attribute of the settings."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, settings: Settings | None, owner: type | None = None) -> Path:
        if settings is None:
            raise AttributeError(self.name)
        return settings.home / self.name


class Settings(BaseSettings):
    """Everything the server reads from its environment.

    ``HERMES_HOME`` defaults to ``~/.hermes`` exactly like the agent, so the
    server opens the same ``state.db`` the agent writes.
    """

    model_config = SettingsConfigDict(env_prefix="HERMES_", extra="ignore")

    home: Path = Field(default_factory=lambda: Path.home() / ".hermes")
    host: str = "127.0.0.1"
    port: int = Field(default=8643, ge=1, le=65535)
    api_token: SecretStr | None = None
    auth_disabled: bool = False

    # Unset: the agent's SQLite file $HERMES_HOME/state.db. A postgresql:// URL: that PostgreSQL database
    # instead (app.storage.backends.open_store), which any number of servers may share.
    database_url: str | None = None

    db_synchronous: Literal["OFF", "NORMAL", "FULL", "EXTRA"] = "NORMAL"
    busy_timeout_ms: int = Field(default=5000, ge=0)
    # How long a write may wait for another process's lock before the client gets 503.
    write_lock_budget_s: float = Field(default=10.0, gt=0)
    write_batch_max: int = Field(default=256, ge=1)
    reader_threads: int = Field(default=8, ge=1, le=64)
    # Processes rendering export chunks (0: render on a reader thread); see app/storage/sqlite/render_pool.py.
    export_workers: int = Field(default=2, ge=0, le=16)

    # One JSON line per request on the ``hermes.access`` logger (uvicorn's own access log stays off: its
    # formatting cost a large share of the CPU of a single-message append; docs/benchmarks.md).
    access_log: bool = True

    # The MCP server at /mcp offers its write tools (session_title, session_pin) only when this is set:
    # a client given the token for recall should not rename or pin sessions unless asked for.
    mcp_write: bool = False

    # Host names (without port) a request may address, besides loopback, IP literals and HERMES_HOST:
    # the DNS-rebinding guard. Comma-separated in the environment; ``*`` turns the guard off.
    allowed_hosts: Annotated[list[str], NoDecode] = Field(default_factory=list)

    # One copy of an agent's state.db, beside it, before our first migration touches it.
    adoption_backup: bool = True

    max_body_bytes: int = Field(default=10 * 1024 * 1024, ge=1024)
    # Request bodies held by all requests together (declared Content-Length, or bytes streamed so far);
    # beyond it a request is answered 503 server_busy before its body is read. Unset: 4x max_body_bytes.
    max_inflight_body_bytes: int | None = Field(default=None, ge=1024)
    # The request line and headers of one request, in bytes (414 / 431 beyond).
    max_header_bytes: int = Field(default=32 * 1024, ge=1024, le=60 * 1024)
    # A connection must deliver a request's complete headers within this time (from connecting, or
    # from the request's first byte on a kept-alive connection); 408 and closed otherwise.
    header_timeout_s: float = Field(default=10.0, gt=0)
    # The longest silence allowed while a request body is being received; 408 request_timeout beyond.
    body_timeout_s: float = Field(default=30.0, gt=0)
    # Open connections (event streams included); further connections get 503 server_busy.
    max_connections: int = Field(default=1000, ge=1)
    max_attachment_bytes: int = Field(default=25 * 1024 * 1024, ge=1024)

    # Auto-prune (the agent's ``sessions:`` block of config.yaml). Unset here means "as config.yaml says";
    # a value set here wins over the file. See app/config_file.py.
    sessions_auto_prune: bool | None = None
    sessions_retention_days: float | None = Field(default=None, ge=0)
    sessions_vacuum_after_prune: bool | None = None
    sessions_min_interval_hours: float | None = Field(default=None, ge=0)
    # VACUUM after a prune only when at least this share of the file's pages is free.
    sessions_vacuum_min_free_ratio: float | None = Field(default=None, ge=0, le=1)
    # How often the in-server scheduler wakes to see whether a run is due.
    auto_prune_check_s: float = Field(default=3600.0, gt=0)

    # Automatic session titles (config.yaml ``titles: {auto: ...}``); a value set here wins over the file.
    titles_auto: bool | None = None
    # An OpenAI-compatible chat-completions endpoint proposing titles; unset means the local generator.
    aux_model_url: str | None = None
    aux_model: str | None = None
    aux_api_key: SecretStr | None = None
    aux_timeout_s: float = Field(default=10.0, gt=0)

    # Event log (SSE): how often streams look for events another process wrote, the keep-alive comment
    # interval, and retention (older than N days, or beyond the newest N rows, pruned every minute so a
    # busy server's log never grows far past the cap).
    events_poll_s: float = Field(default=1.0, gt=0)
    events_keepalive_s: float = Field(default=15.0, gt=0)
    events_retention_days: float = Field(default=7.0, gt=0)
    events_max_rows: int = Field(default=100_000, ge=1)
    events_prune_interval_s: float = Field(default=60.0, gt=0)

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("database_url")
    @classmethod
    def _postgresql_only(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(POSTGRESQL_SCHEMES):
            raise ValueError(
                "HERMES_DATABASE_URL must be a postgresql:// URL (unset it to use $HERMES_HOME/state.db)."
            )
        return value

    @model_validator(mode="after")
    def _refuse_public_bind_without_auth(self) -> Settings:
        if self.auth_disabled and not _is_loopback(self.host):
            raise ValueError(
                f"Refusing to bind {self.host} with authentication disabled: anyone on the network could "
                "read and change every session. Bind 127.0.0.1 or enable auth (unset HERMES_AUTH_DISABLED)."
            )
        return self

    @property
    def inflight_body_cap(self) -> int:
        """The effective cap on request-body bytes in flight across all requests."""
        return self.max_inflight_body_bytes or 4 * self.max_body_bytes

    @cached_property
    def db_path(self) -> Path:
        """The agent's database file."""
        return self.home / "state.db"

    # Where the generated bearer token lives (mode 0600).
    token_path: ClassVar[_InHome] = _InHome("api_token")
    # The agent's config file (its ``sessions:`` block configures auto-prune).
    config_path: ClassVar[_InHome] = _InHome("config.yaml")
    # Where ``POST /maintenance/backup`` writes consistent copies of state.db.
    backups_dir: ClassVar[_InHome] = _InHome("backups")
    # The agent's legacy per-session transcript files (``<id>.jsonl``).
    sessions_dir: ClassVar[_InHome] = _InHome("sessions")
