"""A small store filled over the HTTP API, the same on both backends: sessions from two sources, with
titles, a long one (read shows its head and tail), and words the searches below look for."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from tests.conftest import TOKEN


@dataclass(frozen=True)
class Filled:
    """The ids of what :func:`fill` stored."""

    nginx: str
    postgres: str
    long: str
    telegram: str
    anchor: int


def _client(base_url: str) -> httpx.Client:
    return httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)


def create(client: httpx.Client, title: str, source: str = "cli") -> str:
    """A new session's id."""
    response = client.post("/sessions", json={"title": title, "source": source})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def append(client: httpx.Client, session_id: str, *turns: tuple[str, str]) -> list[int]:
    """Append ``(role, content)`` turns in one batch; their ids."""
    messages = [{"role": role, "content": content} for role, content in turns]
    response = client.post(f"/sessions/{session_id}/messages", json={"messages": messages})
    assert response.status_code == 201, response.text
    return [item["id"] for item in response.json()["items"]]


def fill(base_url: str) -> Filled:
    """Store the sessions the MCP tests search, list and read."""
    with _client(base_url) as client:
        nginx = create(client, "nginx log rotation")
        append(
            client,
            nginx,
            ("user", "How do I rotate the nginx logs every night?"),
            ("assistant", "Use logrotate with a daily rule for /var/log/nginx/*.log."),
            ("tool", "logrotate 3.21.0 installed"),
            ("user", "And compress the old nginx files?"),
            ("assistant", "Add compress and delaycompress to the rule."),
        )
        postgres = create(client, "postgres vacuum")
        append(
            client,
            postgres,
            ("user", "Why is autovacuum slow on the events table?"),
            ("assistant", "Raise autovacuum_vacuum_cost_limit; nginx is not involved."),
        )
        long = create(client, "a long debugging session")
        ids = append(
            client,
            long,
            *[
                ("user" if i % 2 == 0 else "assistant", f"step {i} of the kernel panic hunt")
                for i in range(40)
            ],
        )
        telegram = create(client, "groceries", source="telegram")
        append(client, telegram, ("user", "remind me to buy oat milk"), ("assistant", "Noted: oat milk."))
    return Filled(nginx=nginx, postgres=postgres, long=long, telegram=telegram, anchor=ids[20])
