"""The ``hermes`` command. It talks to the server over HTTP; only ``serve`` starts the server itself.

``-c/--continue`` takes an optional value (``hermes -c`` or ``hermes -c "my project"``), which click cannot
express; :func:`split_continue` rewrites ``-c NAME`` into a hidden ``--continue-name NAME`` first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import typer
from typer import _click  # typer vendors click; its core classes take this Context
from typer.core import TyperCommand, TyperGroup

from app import __version__

# Imported for their side effect: each registers its commands on the `sessions` group.
from app.cli.commands import browse, search, sync, transfer  # noqa: F401
from app.cli.commands import gateway as gateway_cmds
from app.cli.commands import handoff as handoff_cmd
from app.cli.commands import maintenance as maintenance_cmds
from app.cli.commands import resume as resume_cmds
from app.cli.commands import sessions as sessions_cmds
from app.cli.commands import web as web_cmds
from app.cli.context import get_env
from app.cli.errors import EXIT_CODES_HELP, CliError, ExitCode
from app.cli.output import note
from app.cli.serve import serve

_CONTINUE_FLAGS = ("-c", "--continue")


def split_continue(args: list[str], commands: frozenset[str] = frozenset()) -> list[str]:
    """Turn ``-c NAME`` / ``--continue NAME`` / ``--continue=NAME`` into ``--continue-name NAME``.

    A following word is a name unless it is an option or (at the top level) a sub-command.
    """
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            out.extend(args[i:])
            break
        if arg.startswith("--continue="):
            out += ["--continue-name", arg.split("=", 1)[1]]
        elif arg in _CONTINUE_FLAGS:
            nxt = args[i + 1] if i + 1 < len(args) else None
            if nxt is not None and not nxt.startswith("-") and nxt not in commands:
                out += ["--continue-name", nxt]
                i += 1
            else:
                out.append(arg)
        else:
            out.append(arg)
        i += 1
    return out


def _report(exc: CliError) -> typer.Exit:
    note(exc.message)
    return typer.Exit(int(exc.exit_code))


class HermesGroup(TyperGroup):
    """Root group: optional-value ``-c`` and :class:`CliError` → message on stderr + exit code."""

    def parse_args(self, ctx: _click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, split_continue(args, frozenset(self.commands)))

    def invoke(self, ctx: _click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CliError as exc:
            raise _report(exc) from exc
        except KeyboardInterrupt as exc:
            raise _report(CliError("Interrupted.", ExitCode.INTERRUPTED)) from exc


class ChatCommand(TyperCommand):
    """``hermes chat`` with the same optional-value ``-c``."""

    def parse_args(self, ctx: _click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, split_continue(args))


app = typer.Typer(
    cls=HermesGroup,
    help="Hermes sessions: talk to the hermes-sessions server (start it with `hermes-sessions serve`). "
    "-c/-r show a session's recap and id; this client does not chat: to continue a conversation, run the "
    "agent (`hermes --resume ID`).",
    epilog="\b\n" + EXIT_CODES_HELP,  # \b: click keeps the table's lines as they are
    context_settings={"help_option_names": ["-h", "--help"]},
    # Plain help, as the agent's argparse prints it: rich panels label every flag `<bool>`.
    rich_markup_mode=None,
)
app.add_typer(sessions_cmds.app, name="sessions")
app.add_typer(gateway_cmds.app, name="gateway")

ContinueOpt = typer.Option(
    False,
    "--continue",
    "-c",
    help="Show the recap and id of the most recent CLI session, or of the one named: -c NAME",
)
ContinueNameOpt = typer.Option(None, "--continue-name", hidden=True)
ResumeOpt = typer.Option(
    None, "--resume", "-r", help="Show a session's recap and id: by id, unique prefix, title or 'latest'"
)

QueryOpt = typer.Option(
    None, "--query", "-q", help="A user message to store: the first of a new session, or the next of -c/-r"
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"hermes-sessions {__version__}")
        raise typer.Exit()


VersionOpt = typer.Option(
    False, "--version", "-V", is_eager=True, callback=_print_version, help="Print the version and exit"
)


@app.callback(invoke_without_command=True)
def root(
    ctx: typer.Context,
    continue_: bool = ContinueOpt,
    continue_name: str | None = ContinueNameOpt,
    resume: str | None = ResumeOpt,
    version: bool = VersionOpt,
    token: str | None = typer.Option(
        None,
        "--token",
        help="The server's API token (default: HERMES_API_TOKEN, else $HERMES_HOME/api_token)",
    ),
) -> None:
    """Hermes sessions over HTTP. `-c [NAME]` / `-r ID` show a session's recap and id; this client does
    not chat: to continue a conversation, run the agent (`hermes --resume ID`)."""
    if token is not None:
        env = get_env(ctx)
        env.config = replace(env.config, token=token, token_source="--token")
    if ctx.invoked_subcommand is not None:
        if continue_ or continue_name is not None or resume is not None:
            raise typer.BadParameter("-c/-r go before no sub-command (or use `hermes chat -c`)")
        return
    if resume_cmds.run_resume(ctx, continue_, continue_name, resume) is None:
        typer.echo(ctx.get_help())


@app.command("chat", cls=ChatCommand)
def chat(
    ctx: typer.Context,
    continue_: bool = ContinueOpt,
    continue_name: str | None = ContinueNameOpt,
    resume: str | None = ResumeOpt,
    query: str | None = QueryOpt,
) -> None:
    """Show a session's recap and id (-c [NAME] / -r ID), or store a new CLI session's first message (-q).

    This client talks to no model: to continue a conversation, run the agent (`hermes --resume ID`). Looking
    never writes: -c/-r show the session; only -q stores something (and so reopens an ended one).
    """
    shown = resume_cmds.run_resume(ctx, continue_, continue_name, resume)
    if shown is None:
        resume_cmds.start_chat(ctx, query)
    elif query is not None:
        resume_cmds.append_query(get_env(ctx).api(), shown, query)


app.command("title")(resume_cmds.title)
app.command("new")(resume_cmds.new)
app.command("end")(resume_cmds.end)
app.command("handoff")(handoff_cmd.handoff)
app.command("serve")(serve)
app.command("open")(web_cmds.open_page)
# The agent has `hermes insights` at the top level as well as under `sessions`.
app.command("insights")(maintenance_cmds.insights)


@app.command("exit-codes")
def exit_codes() -> None:
    """Explain the exit codes."""
    typer.echo(EXIT_CODES_HELP)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
