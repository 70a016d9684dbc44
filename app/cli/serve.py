"""``hermes serve``: the only command that starts the server (and the only one importing the app)."""

from __future__ import annotations

import signal
from types import FrameType

import typer

from app.cli.errors import ExitCode


def _stopped(signum: int, frame: FrameType | None) -> None:
    """After a graceful shutdown uvicorn re-raises the signal that stopped it; a requested stop is success."""
    raise SystemExit(0)


def serve(
    host: str | None = typer.Option(None, help="Bind address (default HERMES_HOST or 127.0.0.1)"),
    port: int | None = typer.Option(None, help="Port (default HERMES_PORT or 8643)"),
) -> None:
    """Start the server on $HERMES_HOME/state.db."""
    import uvicorn

    from app.main import create_app
    from app.runtime import tune_for_serving
    from app.settings import Settings

    overrides: dict[str, object] = {}
    if host is not None:
        overrides["host"] = host
    if port is not None:
        overrides["port"] = port
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValueError as exc:
        typer.echo(f"hermes serve: {exc}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(
        f"hermes-sessions on http://{settings.host}:{settings.port} (db: {settings.db_path})", err=True
    )
    app = create_app(settings)
    tune_for_serving()
    # Installed before uvicorn captures the signals, so they are the handlers it restores and re-raises to.
    signal.signal(signal.SIGTERM, _stopped)
    signal.signal(signal.SIGINT, _stopped)
    try:
        uvicorn.run(
            app,
            host=settings.host,
            port=settings.port,
            log_level="info",
            access_log=settings.access_log,
            timeout_graceful_shutdown=10,
        )
    except SystemExit as exc:
        # uvicorn leaves with its own status 3 when it cannot start (a busy port, say), which is our
        # "not found"; report it in the table's terms.
        if exc.code in (0, None):
            raise
        typer.echo(
            f"hermes serve: could not start on {settings.host}:{settings.port} (see the error above; "
            "is another server using the port?)",
            err=True,
        )
        raise typer.Exit(ExitCode.ERROR) from exc
