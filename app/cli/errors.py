"""Documented exit codes and the one exception type commands raise to leave with a message."""

from __future__ import annotations

from enum import IntEnum

EXIT_CODES_HELP = """Exit codes:
    0  success
    1  server error, unexpected error, or no session to act on (bare -c, -r latest)
    2  usage error (bad arguments or options)
    3  not found (unknown session id, prefix or title)
    4  authentication failed (give the server's token: --token, HERMES_API_TOKEN or $HERMES_HOME/api_token)
    5  conflict (title in use, ambiguous prefix, changed concurrently)
    6  server unreachable (start it with `hermes-sessions serve`)
    7  handoff failed or timed out (the session stays here)
    8  sync source unusable (not SQLite, damaged, not an agent file, or objects this build does not know)
    9  serve: the PostgreSQL database cannot be reached (host, port, role, password or database)
   10  the server serves its agent file read-only (objects this build does not know): reads still work
  130  interrupted (Ctrl-C)"""


class ExitCode(IntEnum):
    """Process exit status of ``hermes`` (see ``EXIT_CODES_HELP``)."""

    OK = 0
    ERROR = 1
    USAGE = 2
    NOT_FOUND = 3
    AUTH = 4
    CONFLICT = 5
    UNREACHABLE = 6
    HANDOFF_FAILED = 7
    BAD_SOURCE = 8
    STORE_UNREACHABLE = 9
    READ_ONLY = 10
    INTERRUPTED = 130


class CliError(Exception):
    """Stop the command: print ``message`` on stderr and exit with ``exit_code``."""

    def __init__(self, message: str, exit_code: ExitCode = ExitCode.ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class ApiError(CliError):
    """The server answered with an error (problem+json); ``code`` is its stable machine code."""

    def __init__(self, message: str, exit_code: ExitCode, status: int, code: str, body: dict[str, object]):
        super().__init__(message, exit_code)
        self.status = status
        self.code = code
        self.body = body
