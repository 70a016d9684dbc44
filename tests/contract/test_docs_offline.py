"""/docs and /redoc with no network: assets come from the server, and a real browser renders them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.conftest import LiveServer

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
def live_server(module_server: LiveServer) -> LiveServer:
    """The doc pages are only read: one server serves the module."""
    return module_server


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_doc_pages_load_nothing_from_elsewhere(live_server: LiveServer, page: str) -> None:
    html = httpx.get(live_server.base_url + page, timeout=10).text
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources, html
    for source in sources:
        assert source.startswith("/"), f"{page} loads {source} from outside the server"
        assert httpx.get(live_server.base_url + source, timeout=10).status_code == 200, source


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_swagger_ui_renders_the_operations_offline(live_server: LiveServer, tmp_path: Path) -> None:
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            # No network: every host but loopback fails to resolve, as on a machine without one.
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            "--virtual-time-budget=15000",
            "--dump-dom",
            live_server.base_url + "/docs",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    dom = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    # Swagger UI draws one block per operation once it has loaded the bundle and the spec.
    assert dom.count('class="opblock-summary-path"') >= 20, dom[-2000:]
    assert "/sessions/{session_id}/messages" in dom
