"""System prompts kept once each, as the agent keeps them."""

from __future__ import annotations

import hashlib


def prompt_hash(prompt: str) -> str:
    """The key the agent stores a system prompt under: the SHA-256 of its UTF-8 text, in hex."""
    return hashlib.sha256(prompt.encode("utf-8")).hexdigest()
