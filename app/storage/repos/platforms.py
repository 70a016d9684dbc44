"""Gateway platform settings in ``hs_platforms``: enabled, home channel, thread support."""

from __future__ import annotations

from typing import Any

from app.storage.repos.repository import Repository
from app.storage.sqlite.driver import sqlite3

_COLUMNS = "platform, enabled, home_chat_id, home_name, threads, updated_at"


def _public(row: sqlite3.Row | tuple[Any, ...]) -> dict[str, Any]:
    platform, enabled, chat_id, name, threads, updated_at = tuple(row)
    home = None if chat_id is None else {"chat_id": chat_id, "name": name}
    return {
        "platform": platform,
        "enabled": bool(enabled),
        "home_channel": home,
        "threads": bool(threads),
        "updated_at": updated_at,
    }


class Platforms(Repository):
    """Per-platform gateway settings."""

    __slots__ = ()

    def fetch(self, platform: str) -> dict[str, Any] | None:
        """One platform's stored settings, or ``None`` if it was never configured."""
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM hs_platforms WHERE platform = {self.d.p}", (platform,)
        ).fetchone()
        return None if row is None else _public(row)

    def fetch_all(self) -> dict[str, dict[str, Any]]:
        """Every configured platform, by name."""
        rows = self.conn.execute(f"SELECT {_COLUMNS} FROM hs_platforms").fetchall()
        return {str(row[0]): _public(row) for row in rows}

    def upsert(
        self,
        platform: str,
        *,
        enabled: bool,
        home_channel: dict[str, str] | None,
        threads: bool,
        now: float,
    ) -> None:
        """Replace a platform's settings."""
        chat_id = None if home_channel is None else home_channel["chat_id"]
        name = None if home_channel is None else home_channel.get("name")
        self.conn.execute(
            "INSERT INTO hs_platforms (platform, enabled, home_chat_id, home_name, threads, updated_at)"
            f" VALUES ({self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p})"
            " ON CONFLICT(platform) DO UPDATE SET enabled"
            " = excluded.enabled, home_chat_id = excluded.home_chat_id, home_name = excluded.home_name,"
            " threads = excluded.threads, updated_at = excluded.updated_at",
            (platform, int(enabled), chat_id, name, int(threads), now),
        )
