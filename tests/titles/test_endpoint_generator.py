"""The chat-completions generator against a real loopback server: success, and fallback on any failure."""

from __future__ import annotations

import asyncio
import time

import pytest

from app.domain.auto_title import local_title
from app.services.titling.generators import (
    EndpointTitleGenerator,
    LocalTitleGenerator,
    build_generator,
    chat_completions_url,
    clean_reply,
)
from app.settings import Settings
from tests.titles.chat_server import Behaviour, chat_server

USER = "How do I configure nginx as a reverse proxy for my Django app?"
ASSISTANT = "Use proxy_pass in a location block pointing at gunicorn."
LOCAL = local_title(USER, ASSISTANT)


def _generate(url: str, timeout_s: float = 20.0, key: str | None = "k-123") -> str:
    """The title generated; asserts the generator recorded matches where it came from."""
    generator = EndpointTitleGenerator(
        chat_completions_url(url), "tiny-model", key, timeout_s, LocalTitleGenerator()
    )
    proposal = asyncio.run(generator.generate(USER, ASSISTANT))
    assert proposal.generator == ("local" if proposal.title == LOCAL else "endpoint")
    return proposal.title


def test_success_uses_the_reply_and_sends_the_protocol() -> None:
    behaviour = Behaviour(title='"Nginx Reverse Proxy for Django."')
    with chat_server(behaviour) as url:
        assert _generate(url) == "Nginx Reverse Proxy for Django"
    request = behaviour.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == "Bearer k-123"
    assert request["body"]["model"] == "tiny-model"
    roles = [m["role"] for m in request["body"]["messages"]]
    assert roles == ["system", "user"]
    assert USER in request["body"]["messages"][1]["content"]


def test_timeout_falls_back_to_local() -> None:
    with chat_server(Behaviour(delay_s=1.5)) as url:
        started = time.monotonic()
        assert _generate(url, timeout_s=0.3) == LOCAL
        assert time.monotonic() - started < 1.2


@pytest.mark.parametrize("status", [500, 429, 401])
def test_http_errors_fall_back(status: int) -> None:
    with chat_server(Behaviour(status=status)) as url:
        assert _generate(url) == LOCAL


@pytest.mark.parametrize(
    "raw",
    [
        b"not json at all",
        b"{}",
        b'{"choices": []}',
        b'{"choices": [{"message": {"content": null}}]}',
        b'{"choices": [{"message": {"content": 42}}]}',
        b'{"choices": [{"message": {"content": "   "}}]}',
        b'{"choices": [{"message": {"content": "Line one\\nLine two is an essay"}}]}',
        b'{"choices": [{"message": {"content": "' + b"word " * 40 + b'"}}]}',
        b'{"choices": [{"message": {"content": "\\"...\\""}}]}',
        b"[1, 2, 3]",
    ],
)
def test_malformed_or_unfit_replies_fall_back(raw: bytes) -> None:
    with chat_server(Behaviour(raw_body=raw)) as url:
        assert _generate(url) == LOCAL


def test_connection_refused_falls_back() -> None:
    with chat_server(Behaviour()) as url:
        pass  # server stopped: nothing listens on the port any more
    assert _generate(url, key=None) == LOCAL


def test_clean_reply_strips_quotes_prefix_and_punctuation() -> None:
    assert clean_reply("Title: «Cài đặt Python»!") == "Cài đặt Python"
    assert clean_reply("「快速排序算法」。") == "快速排序算法"
    assert clean_reply("'Deploy to Fly.io'") == "Deploy to Fly.io"
    assert clean_reply("") is None


def test_build_generator_needs_url_and_model(tmp_path: object) -> None:
    assert build_generator(Settings(home=tmp_path)).name == "local"
    only_url = Settings(home=tmp_path, aux_model_url="http://127.0.0.1:9/v1")
    assert build_generator(only_url).name == "local"
    both = Settings(home=tmp_path, aux_model_url="http://127.0.0.1:9/v1", aux_model="m")
    assert build_generator(both).name == "endpoint"
    assert chat_completions_url("http://h/v1/chat/completions") == "http://h/v1/chat/completions"
