"""``session_search`` over MCP against ``GET /search``: the same discover queries (limit 3, window 5), the
same server, the same run.

The MCP call is what an MCP client sends once connected: one JSON-RPC ``tools/call`` message, ``POST /mcp``
with ``Accept: application/json, text/event-stream`` (the server is stateless, so no session header). Both
go over the same keep-alive connection of the lean client, interleaved call by call so drift on the shared
machine hits both alike; each answer is checked to be the same search (the tool's ``success`` member aside).
The figure is the median per query and the median of those medians. Target (issue 39): MCP within 1.3x of
``GET /search``. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, SMALL, StoreSpec, copy_store
from bench.common import LeanClient, bench_home, median, print_figures, serve
from bench.search import QUERIES

WARMUP = 3
MCP_HEADERS = b"Accept: application/json, text/event-stream\r\n"


def tool_call(query: str) -> bytes:
    """The JSON-RPC message of one ``session_search`` discover call."""
    arguments = {"query": query, "limit": 3, "window": 5}
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    return orjson.dumps({**message, "params": {"name": "session_search", "arguments": arguments}})


def same_search(http_body: bytes, mcp_body: bytes) -> bool:
    """Whether the tool answered what ``GET /search`` answered."""
    result = orjson.loads(mcp_body)["result"]
    found = orjson.loads(result["content"][0]["text"])
    return not result.get("isError") and found.pop("success") is True and found == orjson.loads(http_body)


async def measure(port: int, calls: int) -> dict[str, tuple[float, float]]:
    """Median seconds per call of each query: (GET /search, MCP)."""
    client = await LeanClient(port).connect()
    times: dict[str, tuple[float, float]] = {}
    try:
        for q in QUERIES:
            path = "/search?" + urlencode({"q": q, "limit": 3, "window": 5})
            message = tool_call(q)
            http_samples, mcp_samples = [], []
            for i in range(WARMUP + calls):
                started = time.perf_counter()
                status, http_body = await client.request("GET", path)
                between = time.perf_counter()
                mcp_status, mcp_body = await client.request("POST", "/mcp", message, MCP_HEADERS)
                ended = time.perf_counter()
                if status != 200 or mcp_status != 200 or not same_search(http_body, mcp_body):
                    raise RuntimeError(f"{q!r}: HTTP {status}, MCP {mcp_status}: {mcp_body[:300]!r}")
                if i >= WARMUP:
                    http_samples.append(between - started)
                    mcp_samples.append(ended - between)
            times[q] = (median(http_samples), median(mcp_samples))
    finally:
        client.close()
    return times


def run(calls: int = 20, spec: StoreSpec = LARGE) -> dict[str, float]:
    """Measure every query both ways against one server; print and return the figures."""
    with bench_home() as home:
        copy_store(spec, home)
        with serve(home) as server:
            times = asyncio.run(measure(server.port, calls))
    for q, (http_s, mcp_s) in times.items():
        print_figures(
            f"session_search {q!r}",
            {"get_search_ms": http_s * 1000, "mcp_ms": mcp_s * 1000, "mcp_over_get": mcp_s / http_s},
        )
    http_median = median([t[0] for t in times.values()])
    mcp_median = median([t[1] for t in times.values()])
    summary = {
        "get_search_median_ms": http_median * 1000,
        "mcp_median_ms": mcp_median * 1000,
        "mcp_over_get": mcp_median / http_median,
        "worst_query_mcp_over_get": max(m / h for h, m in times.values()),
    }
    print_figures(
        f"session_search over MCP vs GET /search ({spec.messages:,} messages, {len(QUERIES)} queries, "
        f"{calls} calls each)",
        summary,
    )
    print("  target: mcp_over_get <= 1.3")
    return summary


def main() -> None:
    """Command line: ``python bench/mcp_search.py [--calls N] [--store s10k|s500k]``."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--store", default=LARGE.name, help="cached store name")
    args = parser.parse_args()
    run(args.calls, {SMALL.name: SMALL, LARGE.name: LARGE}[args.store])


if __name__ == "__main__":
    main()
