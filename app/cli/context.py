"""Per-invocation state shared by every command: config and a lazily created API client."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import typer

from app.cli.api import Api, make_http_client
from app.cli.config import CliConfig, load_config

if TYPE_CHECKING:
    import httpx


@dataclass
class CliEnv:
    """What commands need. Tests build one with an injected ``http`` client (e.g. ``TestClient(app)``)."""

    config: CliConfig
    http: httpx.Client | None = None
    _api: Api | None = field(default=None, init=False, repr=False)
    _owned: httpx.Client | None = field(default=None, init=False, repr=False)

    def api(self) -> Api:
        """The API client, created on first use (commands that need no server never connect)."""
        if self._api is None:
            http = self.http
            if http is None:
                http = self._owned = make_http_client(self.config)
            self._api = Api(http, self.config.url, self.config.auth_advice())
        return self._api

    def close(self) -> None:
        """Close the client if this object created it (an injected one belongs to the caller)."""
        if self._owned is not None:
            self._owned.close()
            self._owned = None


def get_env(ctx: typer.Context) -> CliEnv:
    """The invocation's :class:`CliEnv`, created from the environment unless one was injected."""
    root = ctx.find_root()
    if not isinstance(root.obj, CliEnv):
        root.obj = CliEnv(config=load_config())
        root.call_on_close(root.obj.close)
    return root.obj
