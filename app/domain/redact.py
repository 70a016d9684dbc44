"""Secret redaction for exports: the agent's forced pass (``agent.redact`` with ``force=True``), then ours.

An export run with ``redact`` masks everything the agent's ``hermes sessions export --redact`` masks (its
passes run first, in its order, each behind a cheap substring check; a later pass sees the output of the
earlier ones): vendor key prefixes, ``KEY=value`` / ``key: value`` / ``"key": "value"`` assignments with a
secret-like name, authorization and API-key headers, Telegram bot tokens, private key blocks, passwords in
database URLs, bare tokens in URL userinfo, JWTs, secret fields of a whole-text form body, and phone numbers.

Then what the agent leaves and a user expects hidden (:data:`_OUR_PASSES`): the password of any URL's userinfo
(``https://user:pass@host``, ``redis://:pass@host``), secret query parameters (``?api_key=...``), assignments
of any case and spacing (``aws_secret_access_key = ...``), and JSON members by a secret-like name
(``"client_secret": ...``, numbers too). Parsed JSON (tool-call arguments, ``reasoning_details``,
``model_config``) is masked by member name as well. And not only messages: a session's own text (title,
model, system prompt, ``model_config``, cwd, branch) goes through the same passes. E-mail addresses are
kept, as the agent keeps them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

# Vendor prefixes of API keys and tokens, each with the body it is followed by.
_VENDOR_KEYS = (
    ("sk-", r"[A-Za-z0-9_-]{10,}"),
    ("ghp_", r"[A-Za-z0-9]{10,}"),
    ("github_pat_", r"[A-Za-z0-9_]{10,}"),
    ("gho_", r"[A-Za-z0-9]{10,}"),
    ("ghu_", r"[A-Za-z0-9]{10,}"),
    ("ghs_", r"[A-Za-z0-9]{10,}"),
    ("ghr_", r"[A-Za-z0-9]{10,}"),
    ("xapp-", r"\d+-[A-Za-z0-9-]{10,}"),
    ("xox", r"[baprs]-[A-Za-z0-9-]{10,}"),
    ("AIza", r"[A-Za-z0-9_-]{30,}"),
    ("pplx-", r"[A-Za-z0-9]{10,}"),
    ("fal_", r"[A-Za-z0-9_-]{10,}"),
    ("fc-", r"[A-Za-z0-9]{10,}"),
    ("bb_live_", r"[A-Za-z0-9_-]{10,}"),
    ("gAAAA", r"[A-Za-z0-9_=-]{20,}"),
    ("AKIA", r"[A-Z0-9]{16}"),
    ("sk_live_", r"[A-Za-z0-9]{10,}"),
    ("sk_test_", r"[A-Za-z0-9]{10,}"),
    ("rk_live_", r"[A-Za-z0-9]{10,}"),
    ("SG", r"\.[A-Za-z0-9_-]{10,}"),
    ("hf_", r"[A-Za-z0-9]{10,}"),
    ("r8_", r"[A-Za-z0-9]{10,}"),
    ("npm_", r"[A-Za-z0-9]{10,}"),
    ("pypi-", r"[A-Za-z0-9_-]{10,}"),
    ("dop_v1_", r"[A-Za-z0-9]{10,}"),
    ("doo_v1_", r"[A-Za-z0-9]{10,}"),
    ("am_", r"[A-Za-z0-9_-]{10,}"),
    ("sk_", r"[A-Za-z0-9_]{10,}"),
    ("tvly-", r"[A-Za-z0-9]{10,}"),
    ("exa_", r"[A-Za-z0-9]{10,}"),
    ("gsk_", r"[A-Za-z0-9]{10,}"),
    ("syt_", r"[A-Za-z0-9]{10,}"),
    ("retaindb_", r"[A-Za-z0-9]{10,}"),
    ("hsk-", r"[A-Za-z0-9]{10,}"),
    ("mem0_", r"[A-Za-z0-9]{10,}"),
    ("brv_", r"[A-Za-z0-9]{10,}"),
    ("xai-", r"[A-Za-z0-9]{30,}"),
    ("ntn_", r"[A-Za-z0-9]{10,}"),
    ("fw-", r"[A-Za-z0-9]{30,}"),
    ("fw_", r"[A-Za-z0-9]{30,}"),
    ("fpk_", r"[A-Za-z0-9]{30,}"),
)
_VENDOR_PREFIXES = tuple(prefix for prefix, _ in _VENDOR_KEYS)
_VENDOR_KEY = re.compile(
    r"(?<![A-Za-z0-9_-])(" + "|".join(re.escape(p) + body for p, body in _VENDOR_KEYS) + r")(?![A-Za-z0-9_-])"
)

_ENV_SECRET_WORD = r"(?:API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)"
_ENV_ASSIGNMENT = re.compile(rf"([A-Z0-9_]{{0,50}}{_ENV_SECRET_WORD}[A-Z0-9_]{{0,50}})\s*=\s*(['\"]?)(\S+)\2")
_CONFIG_SECRET_WORD = r"(?:api[ _.\-]?key|token|secret|passwd|password|credential|auth)"
_CONFIG_VALUE = r"(['\"]?)([^\s&]+?)\2(?=[\s&]|$)"
_DOTTED_ASSIGNMENT = re.compile(
    rf"((?:[A-Za-z0-9_\-]+\.)+[A-Za-z0-9_.\-]*{_CONFIG_SECRET_WORD}[A-Za-z0-9_.\-]*"
    rf"|[A-Za-z0-9_.\-]*{_CONFIG_SECRET_WORD}[A-Za-z0-9_.\-]*\.[A-Za-z0-9_.\-]+)={_CONFIG_VALUE}",
    re.IGNORECASE,
)
_LINE_START_ASSIGNMENT = re.compile(
    rf"(^[ \t]*(?:export[ \t]+)?[A-Za-z0-9_\-]*{_CONFIG_SECRET_WORD}[A-Za-z0-9_\-]*)={_CONFIG_VALUE}",
    re.IGNORECASE | re.MULTILINE,
)
# A value naming an environment lookup is code, not a secret.
_ENV_LOOKUP = re.compile(r"^(?:os\.(?:getenv|environ)|process\.env|\$ENV\{)")
_JSON_SECRET_FIELD = re.compile(
    r'("(?:api_?[Kk]ey|token|secret|password|access_token|refresh_token|auth_token|bearer|secret_value'
    r'|raw_secret|secret_input|key_material)")\s*:\s*"([^"]+)"',
    re.IGNORECASE,
)
_YAML_ASSIGNMENT = re.compile(
    r"(^[ \t]*[A-Za-z0-9_.\-]*(?:api[ _.\-]?key|token|secret|passwd|password|credential)[A-Za-z0-9_.\-]*)"
    r"(:[ \t]*)(?!['\"])([^\s&]+)",
    re.IGNORECASE | re.MULTILINE,
)
_AUTHORIZATION = re.compile(r"((?:Proxy-)?Authorization:\s*)([A-Za-z][\w.+-]*\s+)?([^\s\"']+)", re.IGNORECASE)
_KEY_HEADER = re.compile(
    r"((?:x-api-key|x-goog-api-key|api-key|apikey|x-api-token|x-auth-token|x-access-token)\s*:\s*)(\S+)",
    re.IGNORECASE,
)
_TELEGRAM_TOKEN = re.compile(r"(bot)?(\d{8,}):([-A-Za-z0-9_]{30,})")
_PRIVATE_KEY = re.compile(r"-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?-----END[A-Z ]*PRIVATE KEY-----")
_DATABASE_URL = re.compile(
    r"((?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis|amqp)://[^:\s]+:)([^@\s]+)(@)", re.IGNORECASE
)
_URL_BARE_TOKEN = re.compile(
    r"((?:https?|wss?|git|ssh|ftp|ftps|sftp)://)([^\s:@/]{8,})(@[^\s]+)", re.IGNORECASE
)
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_=-]{4,}){0,2}")
_FORM_BODY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*=[^&\s]*(?:&[A-Za-z_][A-Za-z0-9_.-]*=[^&\s]*)+$")
_FORM_SECRET_KEYS = frozenset(
    {
        "access_token",
        "refresh_token",
        "id_token",
        "token",
        "api_key",
        "apikey",
        "client_secret",
        "password",
        "auth",
        "jwt",
        "session",
        "secret",
        "key",
        "code",
        "signature",
        "x-amz-signature",
    }
)
_PHONE = re.compile(r"(\+[1-9]\d{6,14})(?![A-Za-z0-9])")


def mask(token: str) -> str:
    """A token shortened for display: under 18 characters fully hidden, else its first 6 and last 4."""
    if len(token) < 18:
        return "***"
    return f"{token[:6]}...{token[-4:]}"


def _assignment(m: re.Match[str]) -> str:
    name, quote, value = m.group(1), m.group(2), m.group(3)
    if _ENV_LOOKUP.match(value):
        return m.group(0)
    return f"{name}={quote}{mask(value)}{quote}"


def _json_field(m: re.Match[str]) -> str:
    if _ENV_LOOKUP.match(m.group(2)):
        return m.group(0)
    return f'{m.group(1)}: "{mask(m.group(2))}"'


def _yaml_field(m: re.Match[str]) -> str:
    if _ENV_LOOKUP.match(m.group(3)):
        return m.group(0)
    return f"{m.group(1)}{m.group(2)}{mask(m.group(3))}"


def _form_body(text: str) -> str:
    if "\n" in text or not _FORM_BODY.match(text.strip()):
        return text
    pairs = []
    for pair in text.strip().split("&"):
        key, sep, _ = pair.partition("=")
        pairs.append(f"{key}=***" if sep and key.lower() in _FORM_SECRET_KEYS else pair)
    return "&".join(pairs)


def _phone(m: re.Match[str]) -> str:
    phone = m.group(1)
    if len(phone) <= 8:
        return phone[:2] + "****" + phone[-2:]
    return phone[:4] + "****" + phone[-4:]


def _assignments(text: str) -> str:
    text = _ENV_ASSIGNMENT.sub(_assignment, text)
    if "://" in text:  # URLs keep their query strings
        return text
    text = _DOTTED_ASSIGNMENT.sub(_assignment, text)
    return _LINE_START_ASSIGNMENT.sub(_assignment, text)


def _urls(text: str) -> str:
    text = _DATABASE_URL.sub(lambda m: f"{m.group(1)}***{m.group(3)}", text)
    return _URL_BARE_TOKEN.sub(lambda m: f"{m.group(1)}{mask(m.group(2))}{m.group(3)}", text)


# (applies to the text?, pass), in order.
_PASSES: tuple[tuple[Callable[[str], bool], Callable[[str], str]], ...] = (
    (
        lambda t: any(p in t for p in _VENDOR_PREFIXES),
        lambda t: _VENDOR_KEY.sub(lambda m: mask(m.group(1)), t),
    ),
    (lambda t: "=" in t, _assignments),
    (lambda t: ":" in t and '"' in t, lambda t: _JSON_SECRET_FIELD.sub(_json_field, t)),
    (lambda t: ":" in t and "://" not in t, lambda t: _YAML_ASSIGNMENT.sub(_yaml_field, t)),
    (
        lambda t: "uthorization" in t or "UTHORIZATION" in t,
        lambda t: _AUTHORIZATION.sub(lambda m: m.group(1) + (m.group(2) or "") + mask(m.group(3)), t),
    ),
    (lambda t: ":" in t, lambda t: _KEY_HEADER.sub(lambda m: m.group(1) + mask(m.group(2)), t)),
    (lambda t: ":" in t, lambda t: _TELEGRAM_TOKEN.sub(lambda m: f"{m.group(1) or ''}{m.group(2)}:***", t)),
    (lambda t: "BEGIN" in t and "-----" in t, lambda t: _PRIVATE_KEY.sub("[REDACTED PRIVATE KEY]", t)),
    (lambda t: "://" in t, _urls),
    (lambda t: "eyJ" in t, lambda t: _JWT.sub(lambda m: mask(m.group(0)), t)),
    (lambda t: "&" in t and "=" in t, _form_body),
    (lambda t: "+" in t, lambda t: _PHONE.sub(_phone, t)),
)


_SECRET_WORDS = frozenset(
    {"token", "secret", "password", "passwd", "pwd", "passphrase", "credential", "credentials", "apikey"}
    | {"authorization", "auth", "cookie", "signature", "sig"}
)
_SECRET_PAIRS = frozenset(
    {("api", "key"), ("private", "key"), ("access", "key"), ("secret", "key"), ("session", "key")}
    | {("client", "secret"), ("signing", "key"), ("encryption", "key"), ("master", "key")}
)
# A name ending so describes the secret (its count, kind, where it comes from), not the secret itself.
_DESCRIBING_WORDS = frozenset(
    {"count", "counts", "type", "types", "limit", "url", "uri", "endpoint", "name", "id", "path", "file"}
    | {"env", "header", "source", "length", "expires", "expiry", "at", "usage", "budget"}
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD_SPLIT = re.compile(r"[^a-z0-9]+")


def secret_name(name: str) -> bool:
    """Whether a member, parameter or variable called ``name`` holds a secret (``api_key``, ``apiKey``,
    ``AWS_SECRET_ACCESS_KEY``, ``client_secret``, ``access_token``; not ``max_tokens``, ``token_count``,
    ``api_key_env``)."""
    words = [w for w in _WORD_SPLIT.split(_CAMEL.sub("_", name).lower()) if w]
    if not words or words[-1] in _DESCRIBING_WORDS:
        return False
    return any(w in _SECRET_WORDS for w in words) or any(
        p in _SECRET_PAIRS for p in itertools.pairwise(words)
    )


def _masked(value: str) -> str:
    # A value the agent's passes masked already stays as they left it.
    return value if value == "***" or _ALREADY_MASKED.fullmatch(value) else mask(value)


_ALREADY_MASKED = re.compile(r".{6}\.\.\..{4}", re.DOTALL)
_URL_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@?#]*:)([^\s@/?#]+)(@)")
_QUERY_PARAMETER = re.compile(r"([?&;])([A-Za-z0-9_.\-\[\]]{1,64})=([^&#\s\"'<>]+)")
_QUERY_SECRETS = frozenset({"key", "code", "x-amz-signature", "x-amz-credential", "x-amz-security-token"})
_ANY_ASSIGNMENT = re.compile(
    r"(?<![A-Za-z0-9_.\-])([A-Za-z_][A-Za-z0-9_.\-]{0,63})([ \t]*(?:=|:(?!//))[ \t]*)(['\"]?)([^\s'\"&,;]+)\3"
)
_ESCAPED_JSON_MEMBER = re.compile(
    r'\\"([A-Za-z0-9_.\- ]{1,64})\\"(\s*:\s*)(?:\\"((?:[^"\\]|\\[^"])*)\\"|(-?\d[\d.eE+\-]*))'
)
_JSON_MEMBER = re.compile(r'"([A-Za-z0-9_.\- ]{1,64})"(\s*:\s*)(?:"((?:[^"\\]|\\.)*)"|(-?\d[\d.eE+\-]*))')


def _query_parameter(m: re.Match[str]) -> str:
    name = m.group(2)
    if not (secret_name(name) or name.lower() in _QUERY_SECRETS):
        return m.group(0)
    return f"{m.group(1)}{name}={_masked(m.group(3))}"


def _any_assignment(m: re.Match[str]) -> str:
    name, value = m.group(1), m.group(4)
    if not secret_name(name) or _ENV_LOOKUP.match(value) or value.startswith("${"):
        return m.group(0)
    return f"{name}{m.group(2)}{m.group(3)}{_masked(value)}{m.group(3)}"


def _json_members(quote: str) -> Callable[[re.Match[str]], str]:
    def member(m: re.Match[str]) -> str:
        name = m.group(1)
        if not secret_name(name):
            return m.group(0)
        text, number = m.group(3), m.group(4)
        head = f"{quote}{name}{quote}{m.group(2)}"
        if text is not None:
            return m.group(0) if _ENV_LOOKUP.match(text) else f"{head}{quote}{_masked(text)}{quote}"
        return f"{head}{quote}***{quote}" if number is not None else m.group(0)

    return member


def _json(text: str) -> str:
    text = _JSON_MEMBER.sub(_json_members('"'), text)
    # JSON inside a JSON string (tool-call arguments in a stored ``tool_calls`` text): its quotes escaped.
    return _ESCAPED_JSON_MEMBER.sub(_json_members('\\"'), text) if '\\"' in text else text


# What the agent's passes leave and a user expects hidden, applied to their output, in order.
_OUR_PASSES: tuple[tuple[Callable[[str], bool], Callable[[str], str]], ...] = (
    (
        lambda t: "://" in t and "@" in t,
        lambda t: _URL_PASSWORD.sub(lambda m: f"{m.group(1)}***{m.group(3)}", t),
    ),
    (
        lambda t: "=" in t and ("?" in t or "&" in t or ";" in t),
        lambda t: _QUERY_PARAMETER.sub(_query_parameter, t),
    ),
    (lambda t: '"' in t and ":" in t, _json),
    (lambda t: "=" in t or ":" in t, lambda t: _ANY_ASSIGNMENT.sub(_any_assignment, t)),
)


def agent_redact_text(text: str) -> str:
    """``text`` as the agent's ``redact_sensitive_text(text, force=True)`` leaves it."""
    for applies, apply in _PASSES:
        if not text:
            return text
        if applies(text):
            text = apply(text)
    return text


def redact_text(text: str) -> str:
    """``text`` with every secret shape masked: the agent's passes, then ours on their output."""
    text = agent_redact_text(text)
    for applies, apply in _OUR_PASSES:
        if text and applies(text):
            text = apply(text)
    return text


def _mask_all(value: Any) -> Any:
    if isinstance(value, list):
        return [_mask_all(v) for v in value]
    if isinstance(value, dict):
        return {k: _mask_all(v) for k, v in value.items()}
    if value is None or isinstance(value, bool):
        return value
    return _masked(value) if isinstance(value, str) else "***"


def redact_value(value: Any) -> Any:
    """Every string inside ``value`` (lists and dict values, recursively) redacted, and every value of a
    member with a secret-like name (:func:`secret_name`) masked whole; keys are kept."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _mask_all(v) if secret_name(str(k)) else redact_value(v) for k, v in value.items()}
    return value


def redact_message(message: dict[str, Any]) -> dict[str, Any]:
    """A message with every string field redacted (the agent's ``redact_session_data`` does as much to each
    message of an export)."""
    return {k: redact_value(v) for k, v in message.items()}


_SESSION_KEYS_KEPT = frozenset({"id", "session_id", "parent_session_id", "source", "messages"})
"""A session's columns that name things rather than hold anyone's text (its messages are redacted apart)."""


def redact_session(session: dict[str, Any]) -> dict[str, Any]:
    """A session's own columns redacted like a message's (title, model, system prompt, ``model_config``,
    cwd, branch, ...), which the agent's export leaves as they are."""
    return {k: v if k in _SESSION_KEYS_KEPT else redact_value(v) for k, v in session.items()}
