"""``hermes serve``: the only command that starts the server (and the only one importing the app)."""

from __future__ import annotations

import typer


def serve(
    host: str | None = typer.Option(None, help="Bind address (default HERMES_HOST or 127.0.0.1)"),
    port: int | None = typer.Option(None, help="Port (default HERMES_PORT or 8643)"),
) -> None:
    """Start the server on $HERMES_HOME/state.db."""
    import uvicorn

    from app.api.server import server_config
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
    uvicorn.Server(server_config(app, settings)).run()
