"""Title generators: the local one (no network) and an OpenAI-compatible chat-completions endpoint."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Protocol

from app.domain.auto_title import MAX_TITLE_CHARS, local_title, sanitize_or_none
from app.domain.titles import TitleTooLong
from app.settings import Settings

log = logging.getLogger(__name__)

_PROMPT = (
    "Write a short descriptive title (3 to 7 words) for the conversation below, in the language of the"
    " user's message. Reply with the title only: no quotes, no trailing punctuation."
)
# How much of each message the endpoint sees: the opening is what a title is about.
_EXCERPT_CHARS = 2000
_QUOTES = "\"'“”‘’«»「」『』`*"
_TRAILING = " .,;:!?。！？，；：…-"
_PREFIX = re.compile(r"^\s*(?:title|titre|tiêu đề|标题)\s*[:：]\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Proposal:
    """A proposed title and the generator that actually produced it (``local`` after a fallback)."""

    title: str
    generator: str


class TitleGenerator(Protocol):
    """Proposes a title for a session's first exchange."""

    name: str

    async def generate(self, user: str, assistant: str) -> Proposal:
        """A clean title (passes ``sanitize_title``); never raises."""
        ...


class LocalTitleGenerator:
    """The most telling words of the exchange; instant and offline."""

    name = "local"

    async def generate(self, user: str, assistant: str) -> Proposal:
        """See :func:`app.domain.auto_title.local_title`."""
        return Proposal(local_title(user, assistant), self.name)


def clean_reply(reply: Any) -> str | None:
    """A model's reply as a title, or ``None`` when it is not one (empty, multi-line essay, too long)."""
    if not isinstance(reply, str):
        return None
    text = reply.strip()
    if not text or "\n" in text:
        return None
    text = _PREFIX.sub("", text).strip(_QUOTES + " ").rstrip(_TRAILING).strip(_QUOTES + " ")
    if not text or len(text) > MAX_TITLE_CHARS or len(text.split()) > 12:
        return None
    try:
        return sanitize_or_none(text)
    except TitleTooLong:
        return None


class EndpointTitleGenerator:
    """Asks an OpenAI-compatible ``/chat/completions`` endpoint; any failure falls back to local."""

    name = "endpoint"

    def __init__(
        self, url: str, model: str, api_key: str | None, timeout_s: float, fallback: TitleGenerator
    ) -> None:
        self._url = url
        self._model = model
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout_s
        self._fallback = fallback

    async def generate(self, user: str, assistant: str) -> Proposal:
        """The endpoint's title, else the fallback's (HTTP error, timeout, bad JSON or a reply unfit)."""
        # Imported here, as in _ask: a server without a title endpoint starts without httpx.
        import httpx

        try:
            title = await self._ask(user, assistant)
        except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
            log.info("title endpoint failed (%s: %s); using the local generator", type(exc).__name__, exc)
            title = None
        if title is None:
            return await self._fallback.generate(user, assistant)
        return Proposal(title, self.name)

    async def _ask(self, user: str, assistant: str) -> str | None:
        payload = {
            "model": self._model,
            "messages": [
                {"role": "system", "content": _PROMPT},
                {
                    "role": "user",
                    "content": f"User: {user[:_EXCERPT_CHARS]}\n\nAssistant: {assistant[:_EXCERPT_CHARS]}",
                },
            ],
            "max_tokens": 32,
            "temperature": 0.2,
        }
        import httpx

        async with httpx.AsyncClient(timeout=self._timeout) as client:
            response = await client.post(self._url, json=payload, headers=self._headers)
            response.raise_for_status()
            data = response.json()
        return clean_reply(data["choices"][0]["message"]["content"])


def chat_completions_url(base: str) -> str:
    """``https://host/v1`` -> ``https://host/v1/chat/completions``; a full endpoint URL is kept."""
    base = base.rstrip("/")
    return base if base.endswith("/chat/completions") else f"{base}/chat/completions"


def build_generator(settings: Settings) -> TitleGenerator:
    """The endpoint generator when ``HERMES_AUX_MODEL_URL`` and ``HERMES_AUX_MODEL`` are set, else local."""
    local = LocalTitleGenerator()
    if not settings.aux_model_url or not settings.aux_model:
        return local
    key = settings.aux_api_key.get_secret_value() if settings.aux_api_key else None
    return EndpointTitleGenerator(
        chat_completions_url(settings.aux_model_url), settings.aux_model, key, settings.aux_timeout_s, local
    )
