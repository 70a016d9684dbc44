"""``Idempotency-Key`` for creating use cases: the answer is stored in the same transaction as the effect,
so a retry after a crash either replays the committed answer or runs the effect afresh.

A use case hands :meth:`Idempotency.run` its writer job and how its result is answered; with a key, the
first answer is recorded and a retry with the same body replays it, the same key with another body is 422
``idempotency_key_reused``, and a retry while the first is running is 409 ``request_in_flight``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from app.errors import IdempotencyKeyReused, RequestInFlight
from app.storage.protocols import Store, Tx
from app.storage.rows import StoredAnswer

T = TypeVar("T")


@dataclass(frozen=True)
class Reply:
    """A use case's answer as its caller sends it: status, encoded body, headers; ``replayed`` when it is
    the stored answer of an earlier request with the same key."""

    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    replayed: bool = False


@dataclass(frozen=True)
class RetryKey:
    """What identifies a retry: the client's key, the request's method and path, and its body's digest."""

    key: str
    method: str
    path: str
    body_sha256: str


Render = Callable[[T], Reply]
"""How a use case's result is answered (run after the effect, in its transaction when there is a key)."""


class InFlight:
    """The keys of this process whose first request is still running."""

    def __init__(self) -> None:
        self.slots: set[tuple[str, str, str]] = set()


@dataclass(frozen=True)
class Idempotency:
    """One request's idempotency: its key (``None``: none given) and the process's running keys."""

    in_flight: InFlight
    key: RetryKey | None = None

    async def run(self, db: Store, effect: Callable[[Tx], T], render: Render[T]) -> Reply:
        """Run ``effect`` on the writer and answer ``render(result)``, or replay the answer stored for the
        key. Without a key the store runs ``effect`` itself (an :class:`~app.storage.protocols.AppendJob`
        keeps its shape); with one, the key's lookup comes first, in the same job."""
        key = self.key
        if key is None:
            return render(await db.write(effect))
        slot = (key.key, key.method, key.path)
        running = self.in_flight.slots
        if slot in running:
            raise RequestInFlight()
        running.add(slot)

        def once(tx: Tx) -> Reply:
            stored = tx.idempotency.find(*slot)
            if stored is not None:
                if stored.body_sha256 != key.body_sha256:
                    raise IdempotencyKeyReused()
                return Reply(stored.status, stored.body, stored.headers, replayed=True)
            reply = render(effect(tx))
            tx.idempotency.store(
                *slot, StoredAnswer(key.body_sha256, reply.status, reply.body, reply.headers)
            )
            return reply

        try:
            return await db.write(once)
        finally:
            running.discard(slot)
