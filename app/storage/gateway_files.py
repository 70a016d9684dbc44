"""The gateway's files under ``$HERMES_HOME``: config.yaml and legacy gateway.json (what the agent's
``load_gateway_config`` reads), the WhatsApp bridge's ``lid-mapping-*.json`` files, and the
``sessions/sessions.json`` mirror of the routing index (written atomically: temp file, fsync, rename, in a
``sessions/`` that is the home's own).

config.yaml is the user's file: it is edited round-trip (ruamel.yaml), so its comments, anchors, quoting and
key order stay as they were, and only the keys set change."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import yaml
from ruamel.yaml import YAML
from ruamel.yaml import YAMLError as RoundTripError
from ruamel.yaml.comments import CommentedMap

from app.storage.commit_notice import Changes
from app.storage.files import make_private_dirs
from app.storage.repos.gateway import Gateway
from app.storage.sqlite.driver import sqlite3

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


def _round_trip() -> YAML:
    editor = YAML(typ="rt")
    editor.preserve_quotes = True
    # The agent's reader (PyYAML) takes duplicate keys, the last one winning; so does this edit.
    editor.allow_duplicate_keys = True
    editor.width = 4096  # long lines stay on one line rather than being folded
    return editor


def _assign(mapping: CommentedMap, key: str, value: Any) -> None:
    """``mapping[key] = value``, keeping the comments of the entries of a nested mapping that stay. A mapping
    that carries an anchor is replaced instead: its aliases elsewhere keep the old values."""
    current = mapping.get(key)
    if not (isinstance(current, CommentedMap) and isinstance(value, dict)) or current.anchor.value:
        mapping[key] = value
        return
    for name in [k for k in current if k not in value]:
        del current[name]
    for name, item in value.items():
        _assign(current, name, item)


def update_yaml(path: Path, changes: dict[str, Any]) -> bool:
    """Set top-level keys of a YAML mapping file in place, everything else kept as written (a missing or
    empty file becomes a mapping of ``changes``). ``False``, and nothing written, when the file is not a
    readable YAML mapping (rewriting it would lose what the user wrote)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError):
        return False
    editor = _round_trip()
    try:
        data = editor.load(text)
    except (RoundTripError, ValueError):
        return False
    if data is None:
        data = CommentedMap()
    if not isinstance(data, CommentedMap):
        return False
    for key, value in changes.items():
        _assign(data, key, value)
    _replace_atomically(path, lambda h: editor.dump(data, h), f".{path.stem}_")
    return True


def read_json_for_update(path: Path) -> dict[str, Any] | None:
    """As :func:`read_yaml_for_update`, for a JSON object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


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


def _replace_atomically(path: Path, write: Any, prefix: str, *, binary: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), suffix=".tmp", prefix=prefix)
    try:
        with contextlib.suppress(FileNotFoundError):
            # A replaced file keeps its permissions (mkstemp would make it owner-only).
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8") as handle:
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


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Replace a JSON file atomically, indented like the agent's."""
    _replace_atomically(path, lambda h: json.dump(data, h, indent=2), f".{path.stem}_")


@dataclass
class _Mirror:
    """What a worker process keeps between two rewrites of one mirror: each entry already encoded."""

    fragments: dict[str, bytes] = field(default_factory=dict)
    since: float = 0.0
    rebuilt_at: float = 0.0


_MIRRORS: dict[tuple[str, str], _Mirror] = {}
# Rows written within this many seconds before the newest one seen are read again next time, so a clock
# step or a write racing the previous read is never missed.
_OVERLAP_S = 1.0
# Another writer's transaction can stamp its rows well before it commits (it may wait for the lock);
# re-encoding everything now and then bounds how long such rows could be missed.
_REBUILD_EVERY_S = 30.0


def _fragment(key: str, raw: str) -> bytes | None:
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    # The entry indented one level deeper, exactly as json.dump(indent=2) nests it under its key
    # (JSON strings never hold a raw newline, so every newline is layout).
    body = orjson.dumps(value, option=orjson.OPT_INDENT_2).replace(b"\n", b"\n  ")
    return b"  " + orjson.dumps(key) + b": " + body


MirrorRows = tuple[list[tuple[str, str, float]], set[str]]
"""``(changed, present)``: the rows of a scope written since a moment, and every key of the scope, read in
one snapshot."""


MIRROR_TEMP_PREFIX = ".sessions_"


def mirror_dir_is_own(directory: Path, home: Path) -> bool:
    """Whether ``directory`` (``sessions/``) is inside ``home`` once symlinks are followed: a ``sessions/``
    linked elsewhere is never written through (nor cleaned)."""
    if directory.resolve().is_relative_to(home.resolve()):
        return True
    log.warning("%s leads outside %s; the sessions.json mirror is not written there", directory, home)
    return False


def remove_mirror_leftovers(path: Path, home: Path) -> None:
    """Delete the temporary files a rewrite of the mirror at ``path`` left when its process died mid-write."""
    directory = path.parent
    if not directory.is_dir() or not mirror_dir_is_own(directory, home):
        return
    for leftover in directory.glob(f"{MIRROR_TEMP_PREFIX}*.tmp"):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()


def write_mirror_from_db(db_path: str, scope: str, path: str, readme: str, home: str) -> None:
    """Rewrite ``sessions.json`` from the ``gateway_routing`` rows of ``scope``, on a read-only
    connection of its own. Meant for a worker process, which keeps every entry encoded between calls and
    re-encodes only rows written since the last rewrite (and drops keys that are gone), so a rewrite of
    100,000 entries costs little more than writing the file."""

    def read(since: float) -> MirrorRows:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30, isolation_level=None)
        try:
            conn.execute("BEGIN")  # one snapshot for the changed rows and the key set
            routing = Gateway(conn, Changes())
            changed = routing.changed_since(scope, since)
            present = routing.keys(scope)
            conn.execute("COMMIT")
        finally:
            conn.close()
        return changed, present

    write_mirror(db_path, scope, path, readme, read, home)


def write_mirror(
    store: str, scope: str, path: str, readme: str, read: Callable[[float], MirrorRows], home: str
) -> None:
    """Rewrite ``sessions.json`` from what ``read(since)`` returns, re-encoding only the rows written since
    the previous rewrite for the same ``(store, scope)`` in this process (blocking). ``sessions/`` is made
    0700 when missing; one that leads outside ``home`` is left alone."""
    directory = Path(path).parent
    if not mirror_dir_is_own(directory, Path(home)):
        return
    make_private_dirs(directory)
    mirror = _MIRRORS.setdefault((store, scope), _Mirror())
    if time.monotonic() - mirror.rebuilt_at > _REBUILD_EVERY_S:
        mirror.since, mirror.rebuilt_at = 0.0, time.monotonic()
    changed, present = read(mirror.since)
    for key in [k for k in mirror.fragments if k not in present]:
        del mirror.fragments[key]
    for key, raw, _updated in changed:
        fragment = _fragment(key, raw)
        if fragment is None:
            mirror.fragments.pop(key, None)
        else:
            mirror.fragments[key] = fragment
    if changed:
        mirror.since = max(updated for _k, _r, updated in changed) - _OVERLAP_S
    head = b"  " + orjson.dumps("_README") + b": " + orjson.dumps(readme)
    document = b"{\n" + b",\n".join([head, *mirror.fragments.values()]) + b"\n}"
    _replace_atomically(Path(path), lambda h: h.write(document), MIRROR_TEMP_PREFIX, binary=True)


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
