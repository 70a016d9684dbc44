"""The CLI in a real pseudo-terminal (pexpect), against a real server: the progress display of prune and
archive, the questions destructive commands ask after saying what they will do (``n`` changes nothing), and
the ``sessions browse`` picker (type to filter, arrows, Enter) opening a session without changing its row."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from app.settings import Settings
from tests.cli.conftest import snapshot_rows
from tests.conftest import TOKEN, LiveServer

HERMES = str(Path(sys.executable).with_name("hermes"))
DOWN = "\x1bOB"  # xterm in keypad-transmit mode, which curses turns on


def _settings(server: LiveServer) -> Settings:
    """The settings the live server (always SQLite) serves with."""
    return Settings(home=server.home, api_token=TOKEN)


def _env(server: LiveServer) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
    return {
        **env,
        "HERMES_URL": server.base_url,
        "HERMES_API_TOKEN": TOKEN,
        "HERMES_HOME": str(server.home),
        "TERM": "xterm",
    }


def _spawn(server: LiveServer, *args: str) -> pexpect.spawn:
    return pexpect.spawn(
        HERMES, list(args), env=_env(server), encoding="utf-8", timeout=30, dimensions=(30, 160)
    )


@pytest.fixture
def live_server(emptied_server: LiveServer) -> LiveServer:
    """These tests share one server, emptied before each (tests/cli/conftest.py)."""
    return emptied_server


@pytest.fixture
def cron(live_server: LiveServer) -> list[str]:
    """Three ended cron sessions with a message each, and one open cli session."""
    ids = []
    with live_server.client() as http:
        for index in range(3):
            sid = http.post("/sessions", json={"source": "cron", "title": f"job {index}"}).json()["id"]
            http.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "run the job"})
            http.post(f"/sessions/{sid}/end", json={"end_reason": "cron_complete"})
            ids.append(sid)
        http.post("/sessions", json={"source": "cli", "title": "keep me"})
    return ids


@pytest.fixture
def untouched(live_server: LiveServer, cron: list[str]) -> Iterator[None]:
    """Asserts that every session and message row is exactly as before the test."""
    before = snapshot_rows(_settings(live_server))
    yield
    assert snapshot_rows(_settings(live_server)) == before


def test_prune_shows_what_it_will_delete_asks_and_shows_progress(
    live_server: LiveServer, cron: list[str]
) -> None:
    child = _spawn(live_server, "sessions", "prune", "--source", "cron")
    child.expect_exact("3 session(s) match (source 'cron'; oldest ")
    child.expect_exact("3 message(s) in all")
    summary = child.before
    child.expect_exact("Delete these 3 session(s) (oldest ")
    child.expect_exact("[y/N] ")
    assert all(sid in summary for sid in cron)
    child.sendline("y")
    child.expect_exact("\x1b[?25l")  # the progress display took the terminal (cursor hidden)
    child.expect_exact("Pruned 3 session(s).")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    with live_server.client() as http:
        assert http.get("/sessions", params={"source": "cron"}).json()["items"] == []
        assert [s["title"] for s in http.get("/sessions").json()["items"]] == ["keep me"]


@pytest.mark.usefixtures("untouched")
@pytest.mark.parametrize(
    ("command", "summary"),
    [
        (("prune", "--source", "cron"), "3 session(s) match (source 'cron'; oldest "),
        (("archive", "--title", "job"), "3 session(s) match (title contains 'job'; oldest "),
    ],
    ids=["prune", "archive"],
)
def test_answering_no_to_prune_or_archive_changes_nothing(
    live_server: LiveServer, command: tuple[str, ...], summary: str
) -> None:
    child = _spawn(live_server, "sessions", *command)
    child.expect_exact(summary)
    child.expect_exact("[y/N] ")
    child.sendline("n")
    child.expect_exact("Cancelled.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "\x1b[?25l" not in (child.before or "")


@pytest.mark.usefixtures("untouched")
def test_answering_no_to_delete_changes_nothing(live_server: LiveServer, cron: list[str]) -> None:
    child = _spawn(live_server, "sessions", "delete", cron[0])
    child.expect_exact(f"Delete session '{cron[0]}' and all its messages? [y/N] ")
    child.sendline("n")
    child.expect_exact("Cancelled.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def _browse(server: LiveServer, keys: list[str]) -> str:
    """Run the picker, filter by ``beta``, press ``keys`` then Enter; the id it resumed."""
    child = _spawn(server, "sessions", "browse")
    child.expect_exact("Filter: _")
    # Keys reach curses in order through the terminal's buffer; no need to wait for each redraw.
    child.send("beta")
    for key in keys:
        child.send(key)
    child.send("\r")
    child.expect(r"Resuming session: (\S+)\r\n")
    chosen = str(child.match.group(1))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return chosen


@pytest.mark.usefixtures("cron")
def test_browse_navigates_opens_a_session_and_changes_nothing(live_server: LiveServer) -> None:
    with live_server.client() as http:
        betas = []
        for name in ("beta one", "beta two"):
            sid = http.post("/sessions", json={"source": "cli", "title": name}).json()["id"]
            http.post(f"/sessions/{sid}/messages", json={"role": "user", "content": f"hello {name}"})
            http.post(f"/sessions/{sid}/end", json={"end_reason": "cron_complete"})
            betas.append(sid)
    before = snapshot_rows(_settings(live_server))
    first = _browse(live_server, [])
    second = _browse(live_server, [DOWN])
    assert {first, second} == set(betas)  # the filter left the two, the arrow moved to the other one
    assert (
        snapshot_rows(_settings(live_server)) == before
    )  # still ended, still cron_complete: opening is reading


def test_archive_shows_what_it_will_archive_asks_and_shows_progress(
    live_server: LiveServer, cron: list[str]
) -> None:
    child = _spawn(live_server, "sessions", "archive", "--source", "cron")
    child.expect_exact("3 session(s) match (source 'cron'; oldest ")
    child.expect_exact("Archive these 3 session(s) (oldest ")
    summary = child.before
    child.expect_exact("[y/N] ")
    assert all(sid in summary for sid in cron) and "job 0" in summary
    child.sendline("y")
    child.expect_exact("\x1b[?25l")  # the progress display took the terminal (cursor hidden)
    child.expect_exact("Archiving")
    child.expect_exact("3/3")
    child.expect_exact("Archived 3 session(s). They're hidden from listings but fully recoverable")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    with live_server.client() as http:
        assert http.get("/sessions", params={"source": "cron"}).json()["items"] == []
        archived = http.get("/sessions", params={"source": "cron", "include_archived": "true"}).json()
        assert sorted(s["id"] for s in archived["items"]) == sorted(cron)
        assert all(s["archived"] for s in archived["items"])
        assert [s["title"] for s in http.get("/sessions").json()["items"]] == ["keep me"]
