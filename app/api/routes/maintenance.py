"""Maintenance endpoints (see API.md)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["maintenance"])
