"""``hermes open``: a one-time sign-in link for the web page, made with the CLI's token."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.cli.config import CliConfig
from tests.cli.conftest import Run, in_process_env, invoke
from tests.conftest import TOKEN


def test_open_prints_a_link_that_signs_in_once(run: Run, client: TestClient) -> None:
    done = run("open", "--print")
    assert done.exit_code == 0, done.output
    url = done.output.strip()
    assert url.startswith("http://testserver/login?code=") and TOKEN not in url
    anon = TestClient(client.app, base_url="http://testserver")
    first = anon.get(url, follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/"
    assert "hermes_page=" in first.headers["set-cookie"]
    again = TestClient(client.app, base_url="http://testserver").get(url, follow_redirects=False)
    assert again.status_code == 401


def test_open_hands_the_link_to_the_browser(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []

    def browser(url: str) -> bool:
        opened.append(url)
        return True

    monkeypatch.setattr(webbrowser, "open", browser)
    done = run("open")
    assert done.exit_code == 0 and done.output == ""
    assert len(opened) == 1 and opened[0].startswith("http://testserver/login?code=")


def test_open_with_a_wrong_token_is_refused(client: TestClient, home: Path) -> None:
    config = CliConfig(url="http://testserver", token="wrong", home=home, resume_display="full")
    anon = TestClient(client.app, base_url="http://testserver", headers={"Authorization": "Bearer wrong"})
    done = invoke(in_process_env(config, anon), "open", "--print")
    assert done.exit_code != 0 and "login?code=" not in done.output
