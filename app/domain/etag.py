"""Strong entity tags for session resources."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from app.domain.stored_json import renderable


def session_etag(public: Mapping[str, Any]) -> str:
    """A strong, quoted ETag hashing the public Session representation (without ``system_prompt``).

    Any visible change — title, counters, ``last_active`` after a new message, end state — changes it;
    the system prompt body is left out so ``?include=system_prompt`` does not change the tag.
    """
    body = {k: v for k, v in public.items() if k != "system_prompt"}
    try:
        encoded = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    except (TypeError, RecursionError):  # a part orjson refuses: hash what the response shows for it
        encoded = orjson.dumps(renderable(body), option=orjson.OPT_SORT_KEYS, default=str)
    digest = hashlib.sha256(encoded).hexdigest()
    return f'"{digest[:32]}"'


def parse_if_match(header: str) -> list[str]:
    """The entity tags of an ``If-Match`` header (``*`` kept as is, whitespace trimmed)."""
    return [tag.strip() for tag in header.split(",") if tag.strip()]


def if_match_satisfied(tags: Iterable[str], current: str) -> bool:
    """Strong comparison (RFC 9110 §13.1.1): ``*`` or an identical strong tag; weak tags never match."""
    return any(tag == "*" or tag == current for tag in tags)
