"""The web page against the JSON API it is built on, in the same run on one copy of a store.

Each figure is the median of sequential calls over one keep-alive connection after a warm-up, the page's
and the API's calls alternating; the page is asked with its sign-in cookie, the API with the bearer token
(targets of issue 37):

- the list page's HTML against ``GET /sessions?limit=50`` (<= 2x);
- a 20,000-message session's first transcript page against the same page of ``GET .../messages``
  (``before`` the end, 60 messages; <= 2x);
- the search page against ``GET /search`` for the same query with the page's 50 results (<= 1.5x);
- a full page load of the list in headless Chromium, navigation to the load event, p50 (< 1 s); skipped
  without Debian's chromium.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, STORES, StoreSpec, copy_store
from bench.common import TOKEN, bench_home, median, percentile, print_figures, serve

WARMUP = 10
LONG_SESSION = "bench_long_session"
LONG_MESSAGES = 20_000
BATCH = 1000


def _add_long_session(api: httpx.Client) -> None:
    """A 20,000-message session, appended through the API as an agent would."""
    api.post("/sessions", json={"id": LONG_SESSION, "source": "cli", "title": "A very long session"})
    for start in range(0, LONG_MESSAGES, BATCH):
        batch = [
            {"role": "user" if n % 2 == 0 else "assistant", "content": f"message {n} of the long session"}
            for n in range(start, start + BATCH)
        ]
        answer = api.post(f"/sessions/{LONG_SESSION}/messages", json={"messages": batch})
        answer.raise_for_status()


def _get(client: httpx.Client, path: str) -> float:
    t0 = time.perf_counter()
    answer = client.get(path)
    elapsed = time.perf_counter() - t0
    if answer.status_code != 200:
        raise RuntimeError(f"GET {path} answered {answer.status_code}: {answer.text[:300]}")
    return elapsed


def _timed_pair(
    page: httpx.Client, page_path: str, api: httpx.Client, api_path: str, calls: int
) -> tuple[list[float], list[float]]:
    """Seconds per call of the page and of the API, alternating call by call so that drift in the
    machine's load falls on both alike (the order alternates too)."""
    ours: list[float] = []
    base: list[float] = []
    for i in range(WARMUP + calls):
        if i % 2:
            theirs, mine = _get(api, api_path), _get(page, page_path)
        else:
            mine, theirs = _get(page, page_path), _get(api, api_path)
        if i >= WARMUP:
            ours.append(mine)
            base.append(theirs)
    return ours, base


def _page_loads(base_url: str, cookie: str, loads: int) -> list[float]:
    """Seconds from navigation start to the load event of the list page, in headless Chromium."""
    from playwright.sync_api import sync_playwright

    timings = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=shutil.which("chromium"), args=["--no-sandbox", "--disable-gpu", "--no-first-run"]
        )
        context = browser.new_context()
        context.add_cookies([{"name": "hermes_page", "value": cookie, "url": base_url}])
        page = context.new_page()
        for i in range(WARMUP // 2 + loads):
            page.goto(base_url + "/", wait_until="load")
            seconds = page.evaluate(
                "() => { const n = performance.getEntriesByType('navigation')[0];"
                " return (n.loadEventEnd - n.startTime) / 1000; }"
            )
            if i >= WARMUP // 2:
                timings.append(float(seconds))
        browser.close()
    return timings


def run(spec: StoreSpec = LARGE, calls: int = 50, query: str = "deploy", loads: int = 20) -> dict[str, float]:
    """Measure every pair on one copy of the store; print and return the figures."""
    figures: dict[str, float] = {}
    with bench_home() as home:
        copy_store(spec, home)
        with serve(home) as server:
            api = server.client()
            _add_long_session(api)
            signed = httpx.post(server.base_url + "/login", data={"token": TOKEN}, timeout=60)
            cookie = signed.cookies["hermes_page"]
            page = httpx.Client(base_url=server.base_url, cookies={"hermes_page": cookie}, timeout=60)
            end = 2**63 - 1
            pairs = {
                "list": ("/?preset=all", "/sessions?limit=50"),
                "transcript": (
                    f"/s/{LONG_SESSION}",
                    f"/sessions/{LONG_SESSION}/messages?before={end}&limit=60",
                ),
                "search": (f"/?preset=all&q={query}", f"/search?q={query}&limit=50"),
            }
            for name, (page_path, api_path) in pairs.items():
                timings = _timed_pair(page, page_path, api, api_path, calls)
                ours, base = (median(t) * 1000 for t in timings)
                figures.update(
                    {f"{name}_page_ms": ours, f"{name}_api_ms": base, f"{name}_ratio": ours / base}
                )
            if shutil.which("chromium"):
                loads_s = _page_loads(server.base_url, cookie, loads)
                figures["browser_load_p50_ms"] = median(loads_s) * 1000
                figures["browser_load_p90_ms"] = percentile(loads_s, 90) * 1000
    print_figures(f"web page vs JSON API, {spec.name} ({spec.sessions:,} sessions), {calls} calls", figures)
    return figures


def main() -> None:
    """Command line: ``python bench/web_page.py [--store s500k] [--calls N] [--query WORD]``."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", choices=sorted(STORES), default=LARGE.name)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--query", default="deploy")
    args = parser.parse_args()
    run(STORES[args.store], args.calls, args.query)


if __name__ == "__main__":
    main()
