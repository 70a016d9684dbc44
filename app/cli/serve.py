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
    allow_second_server: bool = typer.Option(
        False,
        "--allow-second-server",
        envvar="HERMES_ALLOW_SECOND_SERVER",
        help="Start even when another server already serves this state.db",
    ),
) -> None:
    """Start the server on $HERMES_HOME/state.db (or the PostgreSQL database HERMES_DATABASE_URL names)."""
    import uvicorn

    from app.api.server import server_config
    from app.main import create_app
    from app.runtime import tune_for_serving
    from app.settings import Settings
    from app.storage import instance_lock
    from app.storage.backends import BackendUnavailable, describe, postgres_backend
    from app.storage.files import make_private_dirs

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
    if settings.database_url is not None:
        try:
            postgres_backend(settings.database_url)
        except BackendUnavailable as exc:
            typer.echo(f"hermes serve: {exc}", err=True)
            raise typer.Exit(ExitCode.ERROR) from exc
    # Servers sharing a PostgreSQL database are replicas by design; only a SQLite file wants one server.
    elif not allow_second_server:
        make_private_dirs(settings.home)
        try:
            # Held (open) until the process exits; the kernel releases it then, whatever the exit.
            instance_lock.hold(settings.db_path)
        except instance_lock.AlreadyServed as exc:
            holder = f" (pid {exc.holder})" if exc.holder else ""
            typer.echo(
                f"hermes serve: another hermes-sessions server{holder} is already serving "
                f"{settings.db_path}. Stop it first, or pass --allow-second-server "
                "(HERMES_ALLOW_SECOND_SERVER=1) to run both.",
                err=True,
            )
            raise typer.Exit(ExitCode.ERROR) from exc
    token = "HERMES_API_TOKEN" if settings.api_token is not None else str(settings.token_path)
    if settings.auth_disabled:
        token = "none (auth disabled)"
    app = create_app(settings)
    base = f"http://{settings.host}:{settings.port}"
    # Like Jupyter's: a link that signs one browser in to the page, once, within minutes (never the token).
    page = f"{base}/" if settings.auth_disabled else f"{base}/login?code={app.state.web_signins.mint_code()}"
    typer.echo(
        f"hermes-sessions on {base}\n"
        f"  database: {describe(settings)}\n"
        f"  token:    {token}\n"
        f"  web page: {page}  (one-time link; later: hermes open)",
        err=True,
    )
    tune_for_serving()
    # Installed before uvicorn captures the signals, so they are the handlers it restores and re-raises to.
    signal.signal(signal.SIGTERM, _stopped)
    signal.signal(signal.SIGINT, _stopped)
    try:
        uvicorn.Server(server_config(app, settings)).run()
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
