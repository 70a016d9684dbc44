"""Dependency aliases, so route signatures read like sentences.

Everything the lifespan starts (``app.main``) is reached the same way: an alias below, never
``request.app.state`` in a route. The aliases read the attribute the lifespan set on ``app.state``.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from prometheus_client import CollectorRegistry

from app.services.auto_prune import AutoPruner
from app.services.events import EventHub
from app.services.fts_indexer import FtsIndexer
from app.services.gateway import Gateway
from app.services.titling.worker import AutoTitler
from app.settings import Settings
from app.storage.protocols import Store
from app.web.signin import SignIns

T = TypeVar("T")


def _app_state(name: str, kind: type[T]) -> Any:
    """A dependency answering ``request.app.state.<name>`` (an instance of ``kind``)."""

    # async: FastAPI would run a plain function on a worker thread, for an attribute read.
    async def dependency(request: Request) -> T:
        value: T = getattr(request.app.state, name)
        return value

    dependency.__name__ = f"get_{name}"
    dependency.__doc__ = f"The process's {kind.__name__} (``app.state.{name}``)."
    return Depends(dependency)


DB = Annotated[Store, _app_state("db", Store)]
AppSettings = Annotated[Settings, _app_state("settings", Settings)]
Hub = Annotated[EventHub, _app_state("event_hub", EventHub)]
GatewayService = Annotated[Gateway, _app_state("gateway", Gateway)]
Pruner = Annotated[AutoPruner, _app_state("auto_pruner", AutoPruner)]
Indexer = Annotated[FtsIndexer, _app_state("fts_indexer", FtsIndexer)]
Titler = Annotated[AutoTitler, _app_state("auto_titler", AutoTitler)]
MetricsRegistry = Annotated[CollectorRegistry, _app_state("metrics_registry", CollectorRegistry)]
WebSignIns = Annotated[SignIns, _app_state("web_signins", SignIns)]
