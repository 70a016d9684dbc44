"""Where the CLI finds its server and token: environment first, then files under ``$HERMES_HOME``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from app.cli.errors import CliError, ExitCode

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = "8643"


@dataclass(frozen=True)
class CliConfig:
    """The settings one CLI invocation runs with."""

    url: str
    token: str | None
    home: Path
    resume_display: str = "full"
    token_source: str = ""
    """Where ``token`` came from, for an error message: ``HERMES_API_TOKEN``, the file or ``--token``."""

    def auth_advice(self) -> str:
        """What to say when the server refuses this configuration's token (or its lack of one)."""
        file = self.home / "api_token"
        if self.token is None:
            found = f"No token to sign in with: {file} does not exist or is empty."
        else:
            found = f"The server did not accept the token from {self.token_source or file}."
        return (
            f"{found} Give the token of the server at {self.url} with --token, HERMES_API_TOKEN, or in "
            "$HERMES_HOME/api_token (the server writes its own there on its first start)."
        )

    @property
    def recap_enabled(self) -> bool:
        """``display.resume_display: minimal`` turns the "Previous Conversation" panel off."""
        return self.resume_display != "minimal"


def _read_token(home: Path) -> str | None:
    try:
        token = (home / "api_token").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return token or None


def _resume_display(home: Path) -> str:
    """``display.resume_display`` from the agent's config.yaml (``full`` when absent or unreadable)."""
    path = home / "config.yaml"
    if not path.is_file():
        return "full"
    import yaml  # only for a home that has the file: the parser is a noticeable share of a command's start

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return "full"
    display = data.get("display") if isinstance(data, dict) else None
    value = display.get("resume_display") if isinstance(display, dict) else None
    return str(value).strip().lower() if value else "full"


def load_config(env: Mapping[str, str] | None = None) -> CliConfig:
    """Read ``HERMES_URL``, ``HERMES_API_TOKEN`` (else ``$HERMES_HOME/api_token``) and config.yaml.

    Without ``HERMES_URL`` the client dials the loopback port ``hermes serve`` binds by the same environment
    (``HERMES_PORT``), so one exported variable moves both.
    """
    environ = os.environ if env is None else env
    home = Path(environ.get("HERMES_HOME") or Path.home() / ".hermes").expanduser()
    if environ.get("HERMES_URL"):
        url = _checked_url(environ["HERMES_URL"])
    else:
        url = f"http://{DEFAULT_HOST}:{_checked_port(environ.get('HERMES_PORT') or DEFAULT_PORT)}"
    token, source = environ.get("HERMES_API_TOKEN") or None, "HERMES_API_TOKEN"
    if token is None:
        token, source = _read_token(home), str(home / "api_token")
    return CliConfig(
        url=url, token=token, home=home, resume_display=_resume_display(home), token_source=source
    )


def _checked_url(url: str) -> str:
    """``HERMES_URL`` without its trailing slash; one httpx cannot dial is a usage error, said in a sentence
    (httpx's own complaint would come as a traceback, or as an unreachable server)."""
    parts = urlsplit(url.strip())
    try:
        valid = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:  # a port that is not a number, or out of range
        valid = False
    if not valid:
        raise CliError(
            f"HERMES_URL must be the server's URL, such as http://127.0.0.1:{DEFAULT_PORT}, not '{url}'.",
            ExitCode.USAGE,
        )
    return url.strip().rstrip("/")


def _checked_port(port: str) -> int:
    if not port.strip().isdigit() or not 1 <= int(port) <= 65535:
        raise CliError(f"HERMES_PORT must be a port number (1 to 65535), not '{port}'.", ExitCode.USAGE)
    return int(port)
