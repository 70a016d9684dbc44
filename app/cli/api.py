"""A thin layer over an injected ``httpx.Client``: error mapping to exit codes, nothing else.

Tests inject ``fastapi.testclient.TestClient`` (a subclass of ``httpx2.Client``, with the same ``request`` and
``stream``) so the CLI drives the app in-process; in real use the client points at ``HERMES_URL``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from app.cli.config import CliConfig
from app.cli.errors import ApiError, CliError, ExitCode

if TYPE_CHECKING:
    import httpx

Params = Mapping[str, Any] | list[tuple[str, Any]] | None

MAX_BODY_BYTES = 10 * 1024 * 1024 - 64 * 1024
"""A request body the CLI builds (a sync batch, an import's piece) stays under this, just under the server's
default limit of 10 MiB (an import's piece the server still refuses goes again in halves)."""

_STATUS_EXIT = {
    401: ExitCode.AUTH,
    403: ExitCode.AUTH,
    404: ExitCode.NOT_FOUND,
    409: ExitCode.CONFLICT,
    412: ExitCode.CONFLICT,
}


def make_http_client(config: CliConfig) -> httpx.Client:
    """The real client: base URL, bearer token, generous read timeout for exports and imports."""
    import httpx  # a command that never sends a request starts without it

    headers = {"Authorization": f"Bearer {config.token}"} if config.token else {}
    return httpx.Client(base_url=config.url, headers=headers, timeout=httpx.Timeout(30.0, read=300.0))


def _problem(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def api_error(response: httpx.Response, feature: str, auth_advice: str = "") -> ApiError:
    """Turn an error response into the exception (and exit code) the CLI reports; a refused token is told
    in ``auth_advice``'s words (which token, where a good one goes)."""
    status = response.status_code
    body = _problem(response)
    code = str(body.get("code") or "")
    detail = str(body.get("detail") or body.get("title") or response.reason_phrase or f"HTTP {status}")
    # A route the server does not have answers the generic not_found / method_not_allowed: an older server.
    if (status == 404 and code in ("not_found", "")) or status == 405:
        message = (
            f"This server does not support {feature} yet ({response.request.method} {response.url.path})."
        )
        return ApiError(message, ExitCode.ERROR, status, code or "not_found", body)
    if status in (401, 403):
        detail = auth_advice or f"{detail} Set HERMES_API_TOKEN or check $HERMES_HOME/api_token."
    exit_code = _STATUS_EXIT.get(status, ExitCode.ERROR)
    if code == "idempotency_key_reused":
        exit_code = ExitCode.CONFLICT
    elif code == "agent_file_read_only":
        exit_code = ExitCode.READ_ONLY
    return ApiError(detail, exit_code, status, code, body)


class Api:
    """Requests against the sessions server; every failure becomes a :class:`CliError`."""

    def __init__(self, http: httpx.Client, base_url: str, auth_advice: str = "") -> None:
        self.http = http
        self.base_url = base_url
        self.auth_advice = auth_advice

    def _unreachable(self, exc: httpx.TransportError) -> CliError:
        return CliError(
            f"Cannot reach the hermes-sessions server at {self.base_url} ({exc}). "
            "Start it with `hermes-sessions serve` or set HERMES_URL.",
            ExitCode.UNREACHABLE,
        )

    def request(
        self,
        method: str,
        path: str,
        *,
        feature: str,
        params: Params = None,
        json: Any = None,
        content: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """Send one request; raise :class:`ApiError` for 4xx/5xx answers."""
        import httpx

        try:
            response = self.http.request(
                method, path, params=params, json=json, content=content, headers=headers
            )
        except httpx.TransportError as exc:
            raise self._unreachable(exc) from exc
        if response.status_code >= 400:
            raise api_error(response, feature, self.auth_advice)
        return response

    def get(self, path: str, *, feature: str, params: Params = None) -> Any:
        """GET and decode the JSON body."""
        return self.request("GET", path, feature=feature, params=params).json()

    def send(self, method: str, path: str, *, feature: str, json: Any = None, params: Params = None) -> Any:
        """Send a JSON body; decode the JSON answer (``None`` for 204)."""
        response = self.request(method, path, feature=feature, json=json, params=params)
        return None if response.status_code == 204 or not response.content else response.json()

    @contextmanager
    def stream(self, path: str, *, feature: str, params: Params = None) -> Iterator[httpx.Response]:
        """GET a streamed body (the JSONL export) without loading it into memory."""
        import httpx

        try:
            with self.http.stream("GET", path, params=params) as response:
                if response.status_code >= 400:
                    response.read()
                    raise api_error(response, feature, self.auth_advice)
                yield response
        except httpx.TransportError as exc:
            raise self._unreachable(exc) from exc
