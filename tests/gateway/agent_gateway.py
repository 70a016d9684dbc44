"""The agent's own gateway routing (hermes-agent 0.19.0 ``SessionStore``), driven over stdin/stdout by
the interop tests: one long-lived store in its own process, as ``hermes gateway`` holds it.

Each input line is a JSON message source; the store routes it and records the message as the gateway
does, then answers ``{"session_key", "session_id"}`` on one line.
"""

from __future__ import annotations

import json
import sys

from gateway.config import Platform, load_gateway_config
from gateway.session import SessionSource, SessionStore
from hermes_constants import get_hermes_home


def main() -> None:
    config = load_gateway_config()
    store = SessionStore(get_hermes_home() / "sessions", config)
    for line in sys.stdin:
        message = json.loads(line)
        source = SessionSource(
            platform=Platform(message["platform"]),
            chat_id=message.get("chat_id", ""),
            chat_type=message.get("chat_type", "dm"),
            user_id=message.get("user_id"),
            thread_id=message.get("thread_id"),
        )
        entry = store.get_or_create_session(source)
        if store._db is not None:
            store._db.append_message(entry.session_id, role="user", content=message.get("text", "hi"))
        store.update_session(entry.session_key)
        print(json.dumps({"session_key": entry.session_key, "session_id": entry.session_id}), flush=True)


if __name__ == "__main__":
    main()
