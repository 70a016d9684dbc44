"""The gateway's files under ``$HERMES_HOME``: config.yaml and legacy gateway.json (what the agent's
``load_gateway_config`` reads), the WhatsApp bridge's ``lid-mapping-*.json`` files, and the
``sessions/sessions.json`` mirror of the routing index (written atomically: temp file, fsync, rename)."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson
import yaml

from app.storage.repos import gateway as repo

log = logging.getLogger(__name__)


def read_yaml(path: Path) -> dict[str, Any]:
    """A YAML mapping, or ``{}`` when the file is missing, unreadable or not a mapping (the agent then
    falls back to its defaults too)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        log.warning("cannot read %s (%s); gateway defaults apply", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object, or ``{}`` when the file is missing or broken."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        log.warning("cannot read %s (%s); ignored", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


def mtime(path: Path) -> float | None:
    """A file's modification time (nanosecond precision as a float), ``None`` when absent."""
    try:
        return path.stat().st_mtime_ns / 1e9
    except OSError:
        return None


def _replace_atomically(path: Path, write: Any, prefix: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), suffix=".tmp", prefix=prefix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError as exc:
            log.debug("could not remove %s: %s", tmp, exc)
        raise


def write_yaml(path: Path, data: dict[str, Any]) -> None:
    """Replace a YAML file atomically (its other keys are the caller's to keep)."""
    _replace_atomically(
        path, lambda h: yaml.safe_dump(data, h, sort_keys=False, allow_unicode=True), f".{path.stem}_"
    )


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Replace a JSON file atomically, indented like the agent's."""
    _replace_atomically(path, lambda h: json.dump(data, h, indent=2), f".{path.stem}_")


def write_sessions_json(path: Path, readme: str, entries: Iterable[tuple[str, str]]) -> None:
    """The mirror: ``_README`` first, then every entry (``entry_json`` decoded), indented by 2 like the
    agent's. orjson, not ``json.dump(indent=2)`` (pure Python, seconds at 100,000 entries): the same
    document, with non-ASCII text as UTF-8 rather than ``\\u`` escapes."""
    data: dict[str, Any] = {"_README": readme}
    for key, raw in entries:
        try:
            data[key] = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
    encoded = orjson.dumps(data, option=orjson.OPT_INDENT_2)
    _replace_atomically(path, lambda h: h.write(encoded.decode()), ".sessions_")


def write_mirror_from_db(db_path: str, scope: str, path: str, readme: str) -> None:
    """Rewrite ``sessions.json`` from the ``gateway_routing`` rows of ``scope``, on a read-only
    connection of its own: meant for a worker process, so a mirror of tens of megabytes never holds the
    server's interpreter (decoding and encoding 100,000 entries takes it most of a second)."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30)
    try:
        write_sessions_json(Path(path), readme, repo.iter_entries(conn, scope))
    finally:
        conn.close()


def whatsapp_session_dir(home: Path) -> Path:
    """``whatsapp/session`` when it holds anything (older installs), else ``platforms/whatsapp/session``."""
    legacy = home / "whatsapp" / "session"
    try:
        if legacy.is_dir():
            if any(legacy.iterdir()):
                return legacy
        elif legacy.exists():
            return legacy
    except PermissionError:
        return legacy
    except OSError:
        pass
    return home / "platforms" / "whatsapp" / "session"


def lid_mappings(session_dir: Path, identifier: str) -> list[str]:
    """The aliases ``lid-mapping-<identifier>.json`` and its ``_reverse`` twin hold (each a JSON string)."""
    found: list[str] = []
    for suffix in ("", "_reverse"):
        path = session_dir / f"lid-mapping-{identifier}{suffix}.json"
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            log.debug("cannot read %s: %s", path, exc)
            continue
        found.append(str(value or ""))
    return found
