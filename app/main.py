"""Application factory: settings, storage lifecycle, middleware, error handlers and routers."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager, closing
from typing import Protocol, TypeVar

from fastapi import APIRouter, Depends, FastAPI
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from prometheus_client import CollectorRegistry

from app import __version__
from app.api.auth import require_token, resolve_token
from app.api.dashboard import routes as dashboard
from app.api.fast_paths import FastPaths
from app.api.instrumentation import HttpMetrics, MetricsMiddleware, StorageCollector
from app.api.middleware import EdgeMiddleware, HostPolicy
from app.api.openapi_examples import keep_example_nulls
from app.api.problem import install_handlers
from app.api.routes import (
    attachments,
    events,
    gateway,
    handoff,
    health,
    lineage,
    maintenance,
    messages,
    metrics,
    platforms,
    search,
    sessions,
    sync,
    transfer,
    web_links,
)
from app.config_file import load_auto_prune_config, load_titles_auto
from app.mcp import route as mcp_route
from app.mcp import transport as mcp_transport
from app.services.auto_prune import AutoPruner
from app.services.events import EventHub, EventPruner
from app.services.fts_indexer import FtsIndexer
from app.services.gateway import Gateway
from app.services.idempotency import InFlight
from app.services.titling.generators import build_generator
from app.services.titling.worker import AutoTitler
from app.settings import Settings
from app.storage.backends import open_store
from app.storage.protocols import Store
from app.web import actions as web_actions
from app.web import pages as web_pages
from app.web import signin_routes
from app.web.access import install_refusals
from app.web.signin import SignIns
from app.web.templating import STATIC

log = logging.getLogger(__name__)


def _operation_id(route: APIRoute) -> str:
    # Routes are named "sessions-list" etc.; the name is the stable operationId clients are generated from.
    return route.name


def create_app(
    settings: Settings | None = None, announce: Callable[[Store], Awaitable[None]] | None = None
) -> FastAPI:
    """Build the ASGI app. The database opens in the lifespan, so importing this module has no effects;
    ``announce(store)`` runs once everything has started (``hermes serve`` prints its banner there)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state = app.state
        async with AsyncExitStack() as stack:
            # Each component is stopped in the reverse order of its start, also when a later one fails to
            # start. Routes reach them through the aliases of app.api.deps, which read these attributes.
            state.db = db = stack.enter_context(closing(open_store(settings)))
            # Jobs that only write would be refused every time on a file a newer agent migrated.
            writes = not db.read_only
            # One SQLite server owns its file and leads; PostgreSQL replicas elect one leader
            # (app.storage.postgres.leader), and only its background jobs run.
            leadership = db.leadership
            auto_pruner = AutoPruner(db, load_auto_prune_config(settings), leadership)
            state.auto_pruner = await stack.enter_async_context(_running(auto_pruner, start=writes))
            # Both backends leave a bulk write's search indexing to this task (on PostgreSQL, the leader's).
            indexer = FtsIndexer(db, leadership=leadership)
            state.fts_indexer = await stack.enter_async_context(_running(indexer, start=writes))
            titler = AutoTitler(db, build_generator(settings), enabled=load_titles_auto(settings))
            state.auto_titler = await stack.enter_async_context(_running(titler, start=writes))
            pruner = EventPruner(
                db,
                retention_days=settings.events_retention_days,
                max_rows=settings.events_max_rows,
                interval_s=settings.events_prune_interval_s,
                leadership=leadership,
            )
            state.event_pruner = await stack.enter_async_context(_running(pruner, start=writes))
            hub = EventHub(db, poll_s=settings.events_poll_s)
            state.event_hub = await stack.enter_async_context(_running(hub))
            state.gateway = await stack.enter_async_context(
                _running(Gateway(db, settings.home, leadership=leadership))
            )
            state.mcp = await stack.enter_async_context(mcp_transport.serving(db, settings))
            if announce is not None:
                await announce(db)
            yield

    # /docs and /redoc with Swagger UI and ReDoc served from the package, not a CDN: this server usually
    # runs where there is no network.
    app = FastAPIOffline(
        title="hermes-sessions",
        version=__version__,
        summary="The Hermes agent's session history (state.db) as REST/JSON.",
        lifespan=lifespan,
        generate_unique_id_function=_operation_id,
    )
    keep_example_nulls(app)
    app.state.settings = settings
    app.state.api_token = resolve_token(settings)
    app.state.idempotency_in_flight = InFlight()
    install_handlers(app)

    app.include_router(health.router)
    app.include_router(metrics.router)
    protected = [Depends(require_token)]
    # First of the protected routes: a request is matched against the routes in order, one at a time, and
    # MCP clients send every tool call to this one path.
    app.include_router(mcp_route.router, dependencies=protected)
    # Then the API's: ahead of the page's and the dashboard's routers, which routed API requests (export,
    # search, ...) would otherwise try route by route first.
    # lineage first: its literal paths (/sessions/resolve) must win over /sessions/{session_id}.
    modules = (lineage, sessions, messages, attachments, search, transfer, maintenance)
    for module in (*modules, platforms, handoff, gateway, events, sync, web_links):
        app.include_router(module.router, dependencies=protected)
    # The page's reads and the agent dashboard's session API (its own token headers and error bodies):
    # their paths (/, /rows, /s/..., /api/...) share none with the API's (the dashboard's catch-all for
    # unknown /api/ paths ends its router).
    app.include_router(web_pages.router)
    app.include_router(dashboard.public)
    app.include_router(dashboard.router)
    # The web page at / signs browsers in with a cookie of its own (app.web.access), not the bearer token.
    app.state.web_signins = SignIns(app.state.api_token)
    install_refusals(app)
    for web in (signin_routes, web_actions):
        app.include_router(web.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # Middleware added first sits innermost. The fast paths sit inside the edge (request ids, body
    # limit, security headers) and the metrics, like every routed request.
    app.add_middleware(
        FastPaths,
        append_route=_route_named(messages.router, "messages-append"),
        list_route=_route_named(sessions.router, "sessions-list"),
        dashboard_list_route=_route_named(dashboard.router, "dashboard-sessions-list"),
    )
    app.add_middleware(
        EdgeMiddleware,
        max_body_bytes=settings.max_body_bytes,
        inflight_cap=settings.inflight_body_cap,
        body_timeout_s=settings.body_timeout_s,
        hosts=HostPolicy(settings.host, settings.allowed_hosts),
    )
    # Outermost, so refusals (421, 413, 503) and auth failures are counted and logged too.
    app.state.metrics_registry = registry = CollectorRegistry()
    registry.register(
        StorageCollector(
            lambda: getattr(app.state, "db", None),
            lambda: getattr(getattr(app.state, "event_pruner", None), "dropped", None),
        )
    )
    app.state.http_metrics = http_metrics = HttpMetrics(registry)
    app.add_middleware(MetricsMiddleware, metrics=http_metrics)
    return app


class _Service(Protocol):
    """A background component: started once the database is open, stopped before it closes."""

    def start(self) -> Awaitable[None] | None:
        """Start the component's tasks (some start synchronously, some must await their first read)."""

    async def stop(self) -> None:
        """Cancel the component's tasks and wait for them."""


S = TypeVar("S", bound=_Service)


@asynccontextmanager
async def _running(service: S, *, start: bool = True) -> AsyncIterator[S]:
    """``service``, started (unless ``start`` is false) for the duration of the block and stopped after it."""
    if not start:
        yield service
        return
    started = service.start()
    if started is not None:
        await started
    try:
        yield service
    finally:
        await service.stop()


def _route_named(router: APIRouter, name: str) -> APIRoute:
    return next(r for r in router.routes if isinstance(r, APIRoute) and r.name == name)
