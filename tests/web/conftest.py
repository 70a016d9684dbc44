"""Real-browser fixtures: Debian's chromium driven by Playwright against ``hermes serve`` over loopback.

One server per test session on a ``state.db`` the real agent wrote (several sources, tool calls, a
compression chain, a branch, a delegate, an archived session, hostile text, 130 sessions), one browser for
every test, and a fresh signed-in context per test. Every context aborts any request that leaves the
server and records console errors: a test that caused either fails at teardown.
"""

from __future__ import annotations

import secrets
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import hermes_state
import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Route, sync_playwright

from app.storage.sqlite.driver import sqlite3
from tests.conftest import LiveServer, start_live_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# A token only these tests use, so finding it anywhere (a page, a URL, a log line) is unambiguous.
WEB_TOKEN = "web-" + secrets.token_urlsafe(24)
NEEDLE = "zanzibarquokka"
HOSTILE = {
    "title": "<img src=x onerror=alert('title')>",
    "model": "<script>alert('model')</script>javascript:alert(1)",
    "tool": "<img src=x onerror=alert('tool')>",
    "content": "<script>alert('content')</script> and <img src=x onerror=alert('img')> "
    "and [click](javascript:alert('link')) javascript:alert('bare')",
}


@dataclass
class WebServer:
    """The live server, its one-time link from the banner, and where its logs went."""

    live: LiveServer
    banner_link: str
    access_log: Path
    banner: str
    ids: dict[str, str] = field(default_factory=dict)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return self.live.base_url

    def api(self) -> httpx.Client:
        """The JSON API with the bearer token."""
        return httpx.Client(
            base_url=self.base_url, headers={"Authorization": f"Bearer {WEB_TOKEN}"}, timeout=30
        )


def _seed(path: Path) -> dict[str, str]:
    """Write the store with the real agent, oldest session first; returns the ids the tests look for."""
    db = hermes_state.SessionDB(db_path=path)
    ids: dict[str, str] = {}
    try:
        # The needle is the oldest chat, so the list shows it only on its third page of 50.
        db.create_session("needle", "cli", model="model-a", cwd="/work/needle-repo")
        db.append_message("needle", "user", f"where is the {NEEDLE} hiding?")
        db.append_message("needle", "assistant", f"The {NEEDLE} is on the third page.")
        db.end_session("needle", "user_exit")
        ids["needle"] = "needle"

        db.create_session("tools", "cli", model="model-b", cwd="/work/tools-repo")
        db.set_session_title("tools", "Listing the files")
        db.append_message("tools", "user", "list the files please")
        function = {"name": "terminal", "arguments": '{"command": "ls -la"}'}
        call = {"id": "call_1", "type": "function", "function": function}
        db.append_message("tools", "assistant", "Running ls.", tool_calls=[call], reasoning="I should list.")
        output = "total 8\nREADME.md\nsetup.py"
        db.append_message("tools", "tool", output, tool_call_id="call_1", tool_name="terminal")
        db.append_message("tools", "assistant", "Two files.")
        db.end_session("tools", "user_exit")
        ids["tools"] = "tools"

        db.create_session("comp_root", "cli", model="model-a")
        db.set_session_title("comp_root", "Long refactor")
        db.append_message("comp_root", "user", "start the refactor")
        db.end_session("comp_root", "compression")
        db.create_session("comp_tip", "cli", model="model-a", parent_session_id="comp_root")
        summary = "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted."
        db.append_message("comp_tip", "user", summary)
        db.append_message("comp_tip", "assistant", "Continuing the refactor.")
        db.create_session(
            "branch_child",
            "cli",
            model="model-a",
            parent_session_id="comp_tip",
            model_config={"_branched_from": "comp_tip"},
        )
        db.append_message("branch_child", "user", "try the other approach")
        db.create_session(
            "delegate_child",
            "subagent",
            model="model-a",
            parent_session_id="comp_tip",
            model_config={"_delegate_from": "comp_tip"},
        )
        db.append_message("delegate_child", "user", "sub-task: read the docs")
        ids.update(root="comp_root", tip="comp_tip", branch="branch_child", delegate="delegate_child")

        db.create_session("hostile", "telegram", model=HOSTILE["model"])
        db.set_session_title("hostile", HOSTILE["title"])
        db.append_message("hostile", "user", HOSTILE["content"])
        hostile_function = {"name": HOSTILE["tool"], "arguments": "{}"}
        hostile_call = {"id": "call_x", "type": "function", "function": hostile_function}
        db.append_message("hostile", "assistant", HOSTILE["content"], tool_calls=[hostile_call])
        db.append_message(
            "hostile", "tool", HOSTILE["content"], tool_call_id="call_x", tool_name=HOSTILE["tool"]
        )
        db.end_session("hostile", "user_exit")
        ids["hostile"] = "hostile"

        db.create_session("archived", "cli", model="model-a")
        db.set_session_title("archived", "An archived chat")
        db.append_message("archived", "user", "old news")
        db.end_session("archived", "user_exit")
        db.set_session_archived("archived", True)
        ids["archived"] = "archived"

        for n in range(110):
            sid = f"chat_{n:03d}"
            source = ("cli", "telegram", "discord")[n % 3]
            db.create_session(sid, source, model="model-c", cwd=f"/work/repo{n % 4}")
            db.append_message(sid, "user", f"question number {n}")
            db.append_message(sid, "assistant", f"answer number {n}")
            db.end_session(sid, "user_exit")
        for n in range(15):
            sid = f"cron_{n:03d}"
            db.create_session(sid, "cron", model="model-c")
            db.append_message(sid, "user", f"scheduled job {n}")
            db.end_session(sid, "cron_complete")
        for name in ("victim", "live", "pinme"):
            db.create_session(name, "cli", model="model-d")
            db.append_message(name, "user", f"this is the {name} session")
            ids[name] = name
    finally:
        db.close()
    # Spread the starts over days (order kept), so the list has day groups; the agent stamps them all now.
    now = time.time()
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT id FROM sessions ORDER BY started_at DESC, id DESC").fetchall()
        conn.executemany(
            "UPDATE sessions SET started_at = ? WHERE id = ?",
            [(now - index * 2 * 3600, sid) for index, (sid,) in enumerate(rows)],
        )
        conn.execute(
            "UPDATE messages SET timestamp = 30 * (id % 20) + "
            "(SELECT started_at FROM sessions s WHERE s.id = messages.session_id)"
        )
    return ids


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """``hermes serve`` on the seeded store, with its access log kept and its banner read."""
    home = tmp_path_factory.mktemp("web-home")
    ids = _seed(home / "state.db")
    access_log = home.parent / "access.log"
    with access_log.open("wb") as out:
        live = start_live_server(home, {"HERMES_API_TOKEN": WEB_TOKEN}, stdout=out)
        try:
            assert live.process.stderr is not None
            banner = ""
            while "web page:" not in banner:
                banner += live.process.stderr.readline().decode()
            link = banner.split("web page:", 1)[1].split()[0]
            yield WebServer(live, link, access_log, banner, ids)
        finally:
            live.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    """Debian's chromium (never a downloaded browser), headless, quiet about the network; every browser
    test skips where it is not installed."""
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    return {
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="module")
def browser(browser_type_launch_args: dict[str, Any]) -> Iterator[Browser]:
    """Chromium for one test module, its Playwright stopped when the module ends.

    pytest-playwright's own ``browser`` lives for the whole session, and Playwright's sync API keeps an
    event loop marked running in the thread while it lives: every later test in the same worker that
    calls ``asyncio.run`` would fail. Leaving after each module lets the rest of the suite run beside it.
    """
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(**browser_type_launch_args)
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Watch:
    """What a context did that it must not: requests elsewhere, console errors."""

    elsewhere: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)


def watched_context(browser: Browser, server: WebServer, watch: Watch) -> BrowserContext:
    """A new context that aborts and records any request not addressed to the server."""
    context = browser.new_context(base_url=server.base_url, viewport={"width": 1200, "height": 900})
    origin = urlsplit(server.base_url).netloc

    def guard(route: Route) -> None:
        url = route.request.url
        watch.urls.append(url)
        if urlsplit(url).netloc != origin:
            watch.elsewhere.append(url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", guard)
    context.set_default_timeout(10_000)
    return context


def watch_page(page: Page, watch: Watch) -> Page:
    """Record console errors and uncaught exceptions of ``page``."""

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            watch.errors.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda exc: watch.errors.append(str(exc)))
    return page


def sign_in(page: Page) -> None:
    """Sign in through the form, as a person pasting the token would."""
    page.goto("/login")
    page.get_by_label("API token").fill(WEB_TOKEN)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/")


@pytest.fixture
def watch() -> Watch:
    """This test's record of stray requests and console errors."""
    return Watch()


@pytest.fixture
def web(browser: Browser, web_server: WebServer, watch: Watch) -> Iterator[Page]:
    """A signed-in page in a fresh context; the test fails if it reached elsewhere or logged errors."""
    context = watched_context(browser, web_server, watch)
    page = watch_page(context.new_page(), watch)
    sign_in(page)
    try:
        yield page
    finally:
        context.close()
    assert watch.elsewhere == [], f"requests left the server: {watch.elsewhere}"
    assert watch.errors == [], f"console errors: {watch.errors}"
