"""Dependency aliases, so route signatures read like sentences."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.settings import Settings
from app.storage.database import Database


async def get_db(request: Request) -> Database:
    """The process's open database."""
    db: Database = request.app.state.db
    return db


async def get_settings(request: Request) -> Settings:
    """The settings the app was created with."""
    settings: Settings = request.app.state.settings
    return settings


DB = Annotated[Database, Depends(get_db)]
AppSettings = Annotated[Settings, Depends(get_settings)]
