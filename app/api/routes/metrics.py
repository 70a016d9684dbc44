"""Prometheus scrape endpoint (no auth, like the health probes; kept out of the OpenAPI clients)."""

from __future__ import annotations

from fastapi import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app.api.deps import MetricsRegistry
from app.api.operations import api_router

router = api_router("health")


@router.get("/metrics", name="health-metrics", include_in_schema=False)
async def metrics(registry: MetricsRegistry) -> Response:
    """HTTP, writer and storage metrics in the Prometheus text format."""
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
