"""``hermes serve``: the only command that starts the server (and the only one importing the app)."""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import TYPE_CHECKING

import typer

from app.cli.errors import ExitCode

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

    from app.settings import Settings
    from app.storage.protocols import Store


def _stopped(signum: int, frame: FrameType | None) -> None:
    """After a graceful shutdown uvicorn re-raises the signal that stopped it; a requested stop is success."""
    raise SystemExit(0)


def _refuse(message: str, code: ExitCode) -> typer.Exit:
    typer.echo(f"hermes serve: {message}", err=True)
    return typer.Exit(code)


# Their values may carry a password: a refusal names the variable, never what it holds.
_SECRET_SETTINGS = frozenset({"api_token", "database_url"})


def _setting_problem(error: ErrorDetails) -> str:
    """One sentence naming the environment variable, instead of pydantic's report on ``Settings`` fields
    (its field names, its documentation link)."""
    message = error["msg"].removeprefix("Value error, ").rstrip(".") + "."
    if error["type"] == "value_error" or not error["loc"]:  # our own checks name the variable themselves
        return message
    field = str(error["loc"][0])
    shown = "" if field in _SECRET_SETTINGS else f"={error['input']!r}"
    return f"HERMES_{field.upper()}{shown}: {message}"


def found_line(settings: Settings, store: Store, sessions: int) -> str:
    """What the server found where it looked, so a mistyped ``HERMES_HOME`` shows as a new, empty store and
    an agent's file met for the first time names its backup."""
    from app.storage.backends import describe

    where, opened = describe(settings), store.opened
    if opened.created:
        return f"created a new, empty store at {where}"
    if store.files is None:
        return f"serving the {store.backend} database {where}: {sessions} sessions"
    if opened.adopted:
        schema = "no schema version" if opened.adopted_schema is None else f"schema v{opened.adopted_schema}"
        backup = "no backup taken (HERMES_ADOPTION_BACKUP=false)"
        if opened.backup is not None:
            backup = f"backup at {opened.backup}"
        return f"serving an existing agent file at {where}: {sessions} sessions, {schema}; {backup}"
    return f"serving an existing store at {where}: {sessions} sessions, schema v{store.agent_schema_version}"


def _banner(settings: Settings, mint_code: Callable[[], str]) -> Callable[[Store], Awaitable[None]]:
    """The coroutine function the app calls once started: the banner, with what opening the store found
    and a one-time sign-in link for the web page (``mint_code`` makes its code)."""

    async def announce(store: Store) -> None:
        from app.services.maintenance import stats

        counts = await stats(store)
        token = "HERMES_API_TOKEN" if settings.api_token is not None else str(settings.token_path)
        if settings.auth_disabled:
            token = "none (auth disabled)"
        base = f"http://{settings.host}:{settings.port}"
        # As Jupyter does: a link that signs one browser in to the page, once, within minutes (never the
        # token).
        page = f"{base}/" if settings.auth_disabled else f"{base}/login?code={mint_code()}"
        lines = [
            f"hermes-sessions on {base}",
            f"  {found_line(settings, store, int(counts['sessions']))}",
            f"  token:    {token}",
            f"  web page: {page}  (one-time link; later: hermes-sessions open)",
        ]
        if store.files is not None:
            lines.append(f"  sqlite:   {store.engine_version} (bundled with hermes-sessions)")
        refused = store.refusal()
        if refused is not None:
            lines.append(f"  read-only: {refused.detail}")
        typer.echo("\n".join(lines), err=True)

    return announce


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
    from pydantic import ValidationError

    from app.api.server import listening_socket, server_config
    from app.main import create_app
    from app.runtime import tune_for_serving
    from app.settings import Settings
    from app.storage.backends import BackendUnavailable, StoreUnreachable, check_reachable
    from app.storage.files import make_private_dirs
    from app.storage.sqlite import instance_lock

    overrides: dict[str, object] = {}
    if host is not None:
        overrides["host"] = host
    if port is not None:
        overrides["port"] = port
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise _refuse(" ".join(_setting_problem(error) for error in exc.errors()), ExitCode.USAGE) from exc
    try:
        check_reachable(settings)
    except BackendUnavailable as exc:
        raise _refuse(str(exc), ExitCode.ERROR) from exc
    except StoreUnreachable as exc:
        raise _refuse(str(exc), ExitCode.STORE_UNREACHABLE) from exc
    # Bound before anything is created in the home: a start that cannot listen leaves no trace there.
    try:
        listener = listening_socket(settings.host, settings.port)
    except OSError as exc:
        raise _refuse(
            f"could not start on {settings.host}:{settings.port}: {exc.strerror or exc}. Is another server "
            "using the port? Pick another with --port or HERMES_PORT.",
            ExitCode.ERROR,
        ) from exc
    # Servers sharing a PostgreSQL database are replicas by design; only a SQLite file wants one server.
    if settings.database_url is None and not allow_second_server:
        make_private_dirs(settings.home)
        try:
            # Held (open) until the process exits; the kernel releases it then, whatever the exit.
            instance_lock.hold(settings.db_path)
        except instance_lock.AlreadyServed as exc:
            holder = f" (pid {exc.holder})" if exc.holder else ""
            raise _refuse(
                f"another hermes-sessions server{holder} is already serving {settings.db_path}. Stop it "
                "first, or pass --allow-second-server (HERMES_ALLOW_SECOND_SERVER=1) to run both.",
                ExitCode.ERROR,
            ) from exc
    app = create_app(settings, announce=_banner(settings, lambda: app.state.web_signins.mint_code()))
    tune_for_serving()
    # Installed before uvicorn captures the signals, so they are the handlers it restores and re-raises to.
    signal.signal(signal.SIGTERM, _stopped)
    signal.signal(signal.SIGINT, _stopped)
    try:
        uvicorn.Server(server_config(app, settings)).run(sockets=[listener])
    except SystemExit as exc:
        # uvicorn leaves with its own status 3 when the app cannot start, which is our "not found"; report
        # it in the table's terms.
        if exc.code in (0, None):
            raise
        raise _refuse("the server could not start (see the error above)", ExitCode.ERROR) from exc
