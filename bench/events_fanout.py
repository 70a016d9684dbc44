"""What event-stream listeners cost writers: append throughput and latency with 0 and with N listeners.

One ``hermes serve`` process; the same closed-loop append load (``APPENDERS`` clients, one message per
request) runs in alternating rounds without listeners and with ``LISTENERS`` open ``GET /events`` streams.
The listeners live in a child process of their own (reading and discarding frames, counting events), so
their reading does not share the appenders' event loop. Printed: each configuration's median figures over
its rounds and the ratio of mean append latency with listeners to without (target: close to 1).

    .venv/bin/python -m bench.events_fanout [--listeners 200] [--seconds 4] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import time
from multiprocessing.connection import Connection
from typing import Any

import orjson

from bench.common import TOKEN, LeanClient, bench_home, json_body, median, percentile, print_figures, serve

APPENDERS = 8


async def _appends(port: int, sessions: list[str], seconds: float) -> dict[str, float]:
    latencies: list[float] = []
    clock = time.perf_counter
    stop_at = clock() + seconds
    body = json_body({"role": "user", "content": "an ordinary message of a few words"})

    async def worker(session_id: str) -> None:
        client = await LeanClient(port).connect()
        path = f"/sessions/{session_id}/messages"
        try:
            while (t0 := clock()) < stop_at:
                status, answer = await client.request("POST", path, body)
                if status != 201:
                    raise RuntimeError(f"append answered {status}: {answer[:300]!r}")
                latencies.append(clock() - t0)
        finally:
            client.close()

    await asyncio.gather(*(worker(s) for s in sessions))
    return {
        "msgs_per_s": len(latencies) / seconds,
        "mean_ms": sum(latencies) / len(latencies) * 1000,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
    }


async def _listen(port: int, n: int, pipe: Connection) -> None:
    received = 0
    request = (f"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\r\n").encode()

    async def one() -> None:
        nonlocal received
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request)
        await reader.readuntil(b"\r\n\r\n")
        while chunk := await reader.read(65536):
            received += chunk.count(b"\nevent: ")

    tasks = [asyncio.ensure_future(one()) for _ in range(n)]
    await asyncio.sleep(1.0)  # every stream is open and past its first frame
    pipe.send("open")
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, pipe.recv)  # "stop"
    pipe.send(received)
    pipe.send(time.process_time())
    for task in tasks:
        task.cancel()


def _listener_process(port: int, n: int, pipe: Connection) -> None:
    asyncio.run(_listen(port, n, pipe))


def _create_sessions(port: int) -> list[str]:
    async def create() -> list[str]:
        client = await LeanClient(port).connect()
        ids = []
        for _ in range(APPENDERS):
            status, body = await client.request("POST", "/sessions", json_body({"source": "cli"}))
            assert status == 201, body
            ids.append(orjson.loads(body)["id"])
        client.close()
        return ids

    return asyncio.run(create())


def run(listeners: int = 200, seconds: float = 4.0, rounds: int = 2) -> dict[str, Any]:
    """Alternate rounds without and with ``listeners`` streams; the median figures of each."""
    results: dict[int, list[dict[str, float]]] = {0: [], listeners: []}
    delivered = 0
    with bench_home() as home, serve(home) as server:
        sessions = _create_sessions(server.port)
        asyncio.run(_appends(server.port, sessions, 1.0))  # warm-up
        for _ in range(rounds):
            for n in (0, listeners):
                if n == 0:
                    results[0].append(asyncio.run(_appends(server.port, sessions, seconds)))
                    continue
                parent, child = multiprocessing.Pipe()
                proc = multiprocessing.Process(target=_listener_process, args=(server.port, n, child))
                proc.start()
                assert parent.recv() == "open"
                figures = asyncio.run(_appends(server.port, sessions, seconds))
                time.sleep(0.5)  # let the last events reach the listeners
                parent.send("stop")
                received = int(parent.recv())
                proc.join(timeout=10)
                figures["events_per_listener"] = received / n
                figures["listener_cpu_s"] = float(parent.recv())
                delivered += received
                results[n].append(figures)
    summary: dict[str, Any] = {}
    for n, runs in results.items():
        for key in runs[0]:
            summary[f"{n}_listeners_{key}"] = median([r[key] for r in runs])
    summary["latency_ratio"] = summary[f"{listeners}_listeners_mean_ms"] / summary["0_listeners_mean_ms"]
    summary["throughput_ratio"] = (
        summary["0_listeners_msgs_per_s"] / summary[f"{listeners}_listeners_msgs_per_s"]
    )
    return summary


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--listeners", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    summary = run(args.listeners, args.seconds, args.rounds)
    print_figures(
        f"append with 0 and {args.listeners} event-stream listeners ({APPENDERS} appenders)", summary
    )


if __name__ == "__main__":
    main()
