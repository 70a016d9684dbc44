"""Gateway routing (docs/gateway-routing.md): which session a platform message belongs to, resets by
policy, ``/new``, ``/resume``, ``/stop``, and :class:`Gateway`, the service the routes call. Its
configuration files (``gateway_config``), ``sessions.json`` mirror (``gateway_mirror``) and expiry watcher
(``gateway_expiry``) live beside it.

Every transition behaves like hermes-agent 0.19.0's ``SessionStore`` and stores
the same rows: the ``gateway_routing`` entry, the session row the gateway creates, ends, reopens and
re-peers. The difference is cost: a routed message reads and rewrites its own entry only (the agent
rewrites the whole scope and the whole mirror on every save), and the mirror is rewritten by
:class:`SessionsMirror` at most once a second.

The functions taking ``tx`` run inside one writer job, so a routing decision and everything it writes
commit together (the writer serialises them, which also gives the agent's single-flight per key).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from app.domain import gateway_entries as entries
from app.domain.gateway_handoff import destination, synthetic_turn
from app.domain.gateway_keys import (
    GATEWAY_PLATFORMS,
    ChatType,
    MessageSource,
    build_session_key,
    profile_of_key,
)
from app.domain.gateway_resume import resume_refusal
from app.domain.records import ChatPeer
from app.domain.reset_policy import (
    GatewayConfig,
    ResetReason,
    background_active,
    is_expired,
    reset_notice,
    route_reason,
)
from app.errors import (
    HermesError,
    InvalidChatType,
    NoHomeChannel,
    RouteNotFound,
    UnknownPlatform,
)
from app.services import handoff as handoff_svc
from app.services.events import EventType, emit
from app.services.gateway_config import GatewayConfigFiles
from app.services.gateway_expiry import EXPIRY_FIRST_S, EXPIRY_GRACE_S, EXPIRY_INTERVAL_S, ExpiryWatcher
from app.services.gateway_mirror import SessionsMirror
from app.services.lineage import resolve
from app.services.platforms import get_platform
from app.storage import gateway_files as files
from app.storage.leadership import ALWAYS_LEADER, Leadership
from app.storage.protocols import Store, Tx

log = logging.getLogger(__name__)

T = TypeVar("T")

RESET_HEADER = "✨ Session reset! Starting fresh."
NEW_TITLED_HEADER = "✨ New session started: {title}"


def check_platform(platform: str) -> None:
    """422 ``unknown_platform`` unless a gateway can route from ``platform``."""
    if platform not in GATEWAY_PLATFORMS:
        raise UnknownPlatform(platform, GATEWAY_PLATFORMS)


def check_chat_type(chat_type: str) -> None:
    """422 ``invalid_chat_type`` unless ``chat_type`` is dm, group, channel or thread."""
    if chat_type not in {c.value for c in ChatType}:
        raise InvalidChatType(chat_type)


@dataclass(frozen=True)
class RouteRequest:
    """One message to route: where it came from, the key it maps to and what may block a reset."""

    source: MessageSource
    session_key: str
    background: bool


def _routed(
    key: str,
    entry: dict[str, Any],
    *,
    created: bool = False,
    reason: str | None = None,
    notice: str | None = None,
) -> dict[str, Any]:
    """What ``POST /gateway/route`` answers: the key, the session it now maps to and why, and its entry."""
    return {
        "session_key": key,
        "session_id": entry["session_id"],
        "created": created,
        "reset_reason": reason,
        "notice": notice,
        "entry": entry,
    }


# -- transactions ---------------------------------------------------------------------------------


def _load(tx: Tx, scope: str, session_key: str) -> dict[str, Any] | None:
    """A key's entry, held by this write transaction: a concurrent router of the key waits for its commit."""
    raw = tx.gateway.claim_entry(scope, session_key)
    return None if raw is None else entries.parse_entry(raw)


def _save(tx: Tx, scope: str, entry: dict[str, Any]) -> None:
    tx.gateway.put_entry(scope, entry["session_key"], entries.dump(entry))


def _end(tx: Tx, session_id: str, reason: str) -> None:
    if tx.gateway.promote_to_reset(session_id, reason):
        emit(tx, EventType.session_ended, session_id, {"session_id": session_id, "end_reason": reason})


def _reopen(tx: Tx, session_id: str) -> None:
    if tx.gateway.reopen(session_id):
        fields = {"session_id": session_id, "fields": ["end_reason", "ended_at"]}
        emit(tx, EventType.session_updated, session_id, fields)


def _chat_peer(platform: str, session_key: str, origin: Mapping[str, Any] | None) -> ChatPeer:
    origin = origin or {}
    return ChatPeer(
        source=platform,
        session_key=session_key,
        user_id=origin.get("user_id"),
        chat_id=origin.get("chat_id"),
        chat_type=origin.get("chat_type"),
        thread_id=origin.get("thread_id"),
    )


def _peer(
    tx: Tx,
    session_id: str,
    session_key: str,
    platform: str,
    origin: Mapping[str, Any] | None,
    display_name: str | None,
) -> None:
    """``_record_gateway_session_peer``: the row's source, user, key and chat columns follow the chat."""
    if origin is None:
        return
    if tx.gateway.record_peer(
        session_id,
        _chat_peer(platform, session_key, origin),
        display_name=display_name or origin.get("chat_name"),
        origin_json=json.dumps(dict(origin)),
    ):
        fields = ["source", "user_id", "session_key", "chat_id", "chat_type", "thread_id", "display_name"]
        emit(tx, EventType.session_updated, session_id, {"session_id": session_id, "fields": fields})


def _create_row(tx: Tx, entry: dict[str, Any], platform: str, profile: str | None) -> None:
    origin = entry.get("origin")
    peer = _chat_peer(platform, entry["session_key"], origin)
    tx.gateway.create_session(entry["session_id"], peer, profile)
    _peer(tx, entry["session_id"], entry["session_key"], platform, origin, entry.get("display_name"))


def _recover(
    tx: Tx, config: GatewayConfig, key: str, source: MessageSource, now: datetime
) -> dict[str, Any] | None:
    """A lost entry rebuilt from the newest recoverable row of the same key or peer (reopened)."""
    found = tx.gateway.find_recoverable(
        ChatPeer(
            source=source.platform,
            session_key=key,
            user_id=source.user_id,
            chat_id=source.chat_id,
            chat_type=source.chat_type,
            thread_id=source.thread_id,
        )
    )
    if found is None:
        return None
    session_id, started_at, row_key = found
    if not config.multiplex_profiles and row_key and row_key != key:
        # Without multiplexing, another profile's row for the same peer is not ours to revive.
        row_profile = profile_of_key(str(row_key))
        if row_profile is not None and row_profile != "default":
            return None
    _reopen(tx, session_id)
    try:
        created = datetime.fromtimestamp(float(started_at)) if started_at else now
    except (TypeError, ValueError, OverflowError, OSError):
        created = now
    return entries.new_entry(
        key,
        session_id,
        now,
        created_at=created,
        origin=entries.origin_dict(source),
        display_name=source.chat_name,
        platform=source.platform,
        chat_type=source.chat_type,
    )


def route(tx: Tx, scope: str, config: GatewayConfig, request: RouteRequest, now: datetime) -> dict[str, Any]:
    """Route one message (``get_or_create_session``): keep, heal, reset, recover or create."""
    key, source = request.session_key, request.source
    policy = config.policy_for(source.platform, source.chat_type)
    entry = _load(tx, scope, key)
    reason: ResetReason | None = None
    ended_id: str | None = None
    had_activity = False
    if entry is not None:
        current = entry["session_id"]
        exists, end_reason = tx.gateway.end_reason(current)
        # Only a session ended by compression has a continuation to follow.
        tip = tx.lineage.compression_tip(current) if end_reason == "compression" else current
        if tip != current:
            # The agent heals the mapping to the compression continuation and skips the reset checks
            # for that message (its "another thread handled it" branch).
            entry["session_id"] = tip
            return _touch(tx, scope, entry, now, consumed=False)
        stale = exists and end_reason is not None
        reason = route_reason(
            entries.entry_state(entry),
            policy,
            now,
            background=request.background,
            freshness_s=config.auto_continue_freshness_s,
        )
        if reason is None and not stale:
            return _touch(tx, scope, entry, now, consumed=True)
        if reason is not None:
            ended_id, had_activity = current, entries.had_activity(entry)
    new: dict[str, Any] | None = None
    if ended_id is None:
        new = _recover(tx, config, key, source, now)
    created = new is None
    if new is None:
        new = entries.new_entry(
            key,
            entries.gateway_session_id(now),
            now,
            origin=entries.origin_dict(source),
            display_name=source.chat_name,
            platform=source.platform,
            chat_type=source.chat_type,
            was_auto_reset=reason is not None,
            auto_reset_reason=reason,
            reset_had_activity=had_activity,
        )
    _save(tx, scope, new)
    if ended_id is not None and reason is not None:
        _end(tx, ended_id, reason.value)
    if created:
        _create_row(tx, new, source.platform, source.profile)
    notice = None if reason is None else reset_notice(reason, policy, source.platform, had_activity)
    return _routed(key, new, created=created, reason=None if reason is None else reason.value, notice=notice)


def _touch(tx: Tx, scope: str, entry: dict[str, Any], now: datetime, *, consumed: bool) -> dict[str, Any]:
    """Activity on a kept entry. Its reset flags were for the first message after a reset (the agent's
    runner clears them once that turn is handled), so a later message clears them."""
    entry["updated_at"] = now.isoformat()
    if consumed:
        for flag in ("was_auto_reset", "is_fresh_reset"):
            if entry.get(flag):
                entry[flag] = False
        if entry.get("auto_reset_reason") is not None:
            entry["auto_reset_reason"] = None
    _save(tx, scope, entry)
    return _routed(entry["session_key"], entry)


def _require(tx: Tx, scope: str, session_key: str) -> dict[str, Any]:
    entry = _load(tx, scope, session_key)
    if entry is None:
        raise RouteNotFound(session_key)
    return entry


def reset_route(tx: Tx, scope: str, session_key: str, title: str | None, now: datetime) -> dict[str, Any]:
    """``/new [title]``: a fresh session on the chat (``is_fresh_reset``), the old one ended
    ``session_reset``. A refused title still resets, with the agent's note appended to the reply."""
    old = _require(tx, scope, session_key)
    platform = old.get("platform") or "unknown"
    origin = old.get("origin") if isinstance(old.get("origin"), dict) else None
    new = entries.new_entry(
        session_key,
        entries.gateway_session_id(now),
        now,
        origin=origin,
        display_name=old.get("display_name"),
        platform=old.get("platform"),
        chat_type=str(old.get("chat_type") or "dm"),
        is_fresh_reset=True,
    )
    _save(tx, scope, new)
    _end(tx, old["session_id"], "session_reset")
    _create_row(tx, new, platform, (origin or {}).get("profile"))
    reply = RESET_HEADER
    if title and title.strip():
        try:
            cleaned = tx.titles.clean_title(title.strip())
        except HermesError as exc:
            reply += f"\n⚠️ Title rejected: {exc.detail}"
        else:
            if cleaned is None:
                reply += "\n⚠️ Title is empty after cleanup — session started untitled."
            else:
                try:
                    tx.titles.set_title(new["session_id"], cleaned)
                    reply = NEW_TITLED_HEADER.format(title=cleaned)
                except HermesError as exc:
                    reply += f"\n⚠️ {exc.detail} — session started untitled."
    return {
        "session_key": session_key,
        "session_id": new["session_id"],
        "previous_session_id": old["session_id"],
        "reply": reply,
        "entry": new,
    }


def _point_at(tx: Tx, scope: str, old: dict[str, Any], target: str, now: datetime) -> dict[str, Any]:
    """``switch_session``: the chat's entry now names ``target`` (reopened, re-peered to the chat); the
    session it held is ended ``session_switch``."""
    session_key = old["session_key"]
    origin = old.get("origin") if isinstance(old.get("origin"), dict) else None
    new = entries.new_entry(
        session_key,
        target,
        now,
        origin=origin,
        display_name=old.get("display_name"),
        platform=old.get("platform"),
        chat_type=str(old.get("chat_type") or "dm"),
    )
    _save(tx, scope, new)
    _end(tx, old["session_id"], "session_switch")
    _reopen(tx, target)
    _peer(tx, target, session_key, str(old.get("platform") or "unknown"), origin, new.get("display_name"))
    return new


def _refusal(
    tx: Tx, scope: str, config: GatewayConfig, chat: dict[str, Any], target: str, ref: str
) -> str | None:
    """The agent's ``/resume`` ownership guard (app.domain.gateway_resume) for the chat's entry."""
    origin = chat.get("origin")
    current = origin if isinstance(origin, dict) else {"platform": chat.get("platform")}
    raw = tx.gateway.entry_for_session(scope, target)
    live = None if raw is None else entries.parse_entry(raw)
    live_origin = None if live is None or not isinstance(live.get("origin"), dict) else live["origin"]
    return resume_refusal(
        current,
        live_origin,
        tx.gateway.owner_columns(target),
        ref,
        group_per_user=config.group_sessions_per_user,
        thread_per_user=config.thread_sessions_per_user,
    )


def switch_route(
    tx: Tx, scope: str, config: GatewayConfig, session_key: str, ref: str, now: datetime
) -> dict[str, Any]:
    """``/resume <ref>``: point the chat at an existing session (its compression tip), reopened and
    re-peered; the session it leaves is ended ``session_switch``. A session of another user or chat is
    refused as the agent refuses it (``switched`` false, the agent's reply). 404 ``route_not_found``,
    ``session_not_found``; 409 ``ambiguous_session_ref`` with candidates."""
    old = _require(tx, scope, session_key)
    target = str(resolve(tx, ref, latest=False, sources=()).session["id"])
    refused = _refusal(tx, scope, config, old, target, ref)
    if refused is not None:
        return {
            "session_key": session_key,
            "session_id": old["session_id"],
            "previous_session_id": old["session_id"],
            "switched": False,
            "reply": refused,
            "entry": old,
        }
    if old["session_id"] == target:
        return {
            "session_key": session_key,
            "session_id": target,
            "previous_session_id": target,
            "switched": False,
            "reply": f"📌 Already on session **{ref}**.",
            "entry": old,
        }
    new = _point_at(tx, scope, old, target, now)
    title = tx.gateway.title_of(target) or ref
    count = tx.gateway.user_message_count(target)
    if not count:
        reply = f"↻ Resumed session **{title}**. Conversation restored."
    else:
        plural = "s" if count != 1 else ""
        reply = f"↻ Resumed session **{title}** ({count} message{plural}). Conversation restored."
    return {
        "session_key": session_key,
        "session_id": target,
        "previous_session_id": old["session_id"],
        "switched": True,
        "reply": reply,
        "entry": new,
    }


def complete_handoff(
    tx: Tx,
    scope: str,
    config: GatewayConfig,
    session_id: str,
    thread: Any,
    key_for: Callable[[MessageSource], str],
    now: datetime,
) -> dict[str, Any]:
    """The handoff watcher's completion, in one transaction: running → completed, then the destination
    chat (the thread the gateway created, ``thread.thread_id``, else the home channel) is routed and
    pointed at the handed-off session, which is reopened and re-peered to that chat; the session the
    chat held is ended ``session_switch``. Answers the handoff, the destination key and the synthetic
    turn text the gateway dispatches."""
    handoff = handoff_svc.complete_handoff(tx, session_id, thread)
    platform = str(handoff["platform"])
    home = get_platform(tx, platform)["home_channel"]
    if home is None:
        raise NoHomeChannel(platform)
    new_thread = thread.get("thread_id") if isinstance(thread, dict) else None
    dest = destination(
        platform,
        str(home["chat_id"]),
        home.get("name"),
        None if new_thread in (None, "") else str(new_thread),
    )
    key = key_for(dest)
    held = route(tx, scope, config, RouteRequest(dest, key, background=False), now)
    entry = _require(tx, scope, key)
    if entry["session_id"] != session_id:
        _point_at(tx, scope, entry, session_id, now)
    title = tx.gateway.title_of(session_id) or session_id[:8]
    return {
        **handoff,
        "session_key": key,
        "previous_session_id": held["session_id"],
        "synthetic_turn": synthetic_turn(title),
    }


def record_turn(
    tx: Tx, scope: str, session_key: str, last_prompt_tokens: int | None, now: datetime
) -> dict[str, Any]:
    """``update_session`` after a turn: activity (``updated_at``), the prompt tokens the turn reported
    (what makes a later automatic reset "had activity", so its notice is shown) and the row re-peered."""
    entry = _require(tx, scope, session_key)
    entry["updated_at"] = now.isoformat()
    if last_prompt_tokens is not None:
        entry["last_prompt_tokens"] = last_prompt_tokens
    _save(tx, scope, entry)
    origin = entry.get("origin") if isinstance(entry.get("origin"), dict) else None
    platform = str(entry.get("platform") or (origin or {}).get("platform") or "unknown")
    _peer(tx, entry["session_id"], session_key, platform, origin, entry.get("display_name"))
    return entry


def suspend_route(tx: Tx, scope: str, session_key: str) -> dict[str, Any]:
    """``/stop``: the next message on the chat starts a new session (reason ``suspended``)."""
    entry = _require(tx, scope, session_key)
    entry["suspended"] = True
    _save(tx, scope, entry)
    return entry


def get_route(tx: Tx, scope: str, session_key: str) -> dict[str, Any]:
    """One routing entry, 404 ``route_not_found`` (a read: nothing is held)."""
    raw = tx.gateway.get_entry(scope, session_key)
    entry = None if raw is None else entries.parse_entry(raw)
    if entry is None:
        raise RouteNotFound(session_key)
    return entry


def list_routes(
    tx: Tx,
    scope: str,
    *,
    after: str | None,
    limit: int,
    platform: str | None,
    session_id: str | None,
) -> tuple[list[dict[str, Any]], str | None]:
    """A page of entries in key order and the key to continue after (``None`` at the end)."""
    rows = tx.gateway.page_entries(
        scope, after=after, limit=limit + 1, platform=platform, session_id=session_id
    )
    more = len(rows) > limit
    rows = rows[:limit]
    page = [e for _, raw in rows if (e := entries.parse_entry(raw)) is not None]
    return page, (rows[-1][0] if more and rows else None)


@dataclass(frozen=True)
class Expiring:
    """An entry the expiry watcher found expired and not yet finalised."""

    session_key: str
    session_id: str


def find_expiring(
    tx: Tx,
    scope: str,
    config: GatewayConfig,
    now: datetime,
    background: Callable[[str], bool],
) -> list[Expiring]:
    """Entries whose policy has expired them (no background process blocking) and not yet finalised."""
    found = []
    for key, raw in tx.gateway.iter_entries(scope):
        entry = entries.parse_entry(raw)
        if entry is None or entry.get("expiry_finalized"):
            continue
        policy = config.policy_for(entry.get("platform"), entry.get("chat_type"))
        if is_expired(entries.updated_at(entry), policy, now, background=background(key)):
            found.append(Expiring(key, entry["session_id"]))
    return found


def announce_expiring(tx: Tx, expiring: list[Expiring]) -> None:
    """``session.expiring`` for each: an agent gets the chance to save memories and skills first."""
    for item in expiring:
        emit(
            tx,
            EventType.session_expiring,
            item.session_id,
            {"session_id": item.session_id, "session_key": item.session_key},
        )


def finalize_expired(
    tx: Tx,
    scope: str,
    config: GatewayConfig,
    expiring: list[Expiring],
    now: datetime,
    background: Callable[[str], bool],
) -> int:
    """``set_expiry_finalized`` for the entries still expired now (a message since the announcement
    keeps its session): entry flag set and ``model_override`` dropped, row ``expiry_finalized=1`` and
    ended ``session_reset`` (first writer wins)."""
    done = 0
    for item in expiring:
        entry = _load(tx, scope, item.session_key)
        if entry is None or entry["session_id"] != item.session_id or entry.get("expiry_finalized"):
            continue
        policy = config.policy_for(entry.get("platform"), entry.get("chat_type"))
        if not is_expired(entries.updated_at(entry), policy, now, background=background(item.session_key)):
            continue
        entry["expiry_finalized"] = True
        entry.pop("model_override", None)
        _save(tx, scope, entry)
        tx.gateway.set_expiry_finalized(item.session_id)
        _end(tx, item.session_id, "session_reset")
        done += 1
    return done


def _origin_source(origin: Any) -> MessageSource | None:
    if not isinstance(origin, dict) or origin.get("platform") not in GATEWAY_PLATFORMS:
        return None
    text = {
        k: origin.get(k)
        for k in ("chat_name", "user_id", "user_name", "user_id_alt", "thread_id", "chat_topic")
    }
    if not all(v is None or isinstance(v, str) for v in text.values()):
        return None
    return MessageSource(
        platform=str(origin["platform"]),
        chat_type=str(origin.get("chat_type") or "dm"),
        chat_id=str(origin.get("chat_id") or ""),
        **text,
    )


def prune_stale(tx: Tx, scope: str, config: GatewayConfig, now: datetime) -> int:
    """``_prune_stale_sessions_locked`` (the agent runs it when its gateway starts): an entry whose row
    was ended is repointed to a recoverable row of the same chat, else dropped. Returns how many changed.

    Each candidate's entry is claimed (as a route claims it) and judged again as it is then: a route of the
    chat that committed meanwhile (another lane, another replica) pointed it at a live session, which a
    prune judging the entry it first read would drop, or overwrite with an older row."""
    changed = 0
    candidates = [
        key
        for key, raw in list(tx.gateway.iter_entries(scope))
        if (seen := entries.parse_entry(raw)) is not None and _ended(tx, seen)
    ]
    for key in candidates:
        entry = _load(tx, scope, key)
        if entry is None or not _ended(tx, entry):
            continue
        source = _origin_source(entry.get("origin"))
        recovered = None if source is None else _recover(tx, config, key, source, now)
        if recovered is not None and recovered["session_id"] != entry["session_id"]:
            _save(tx, scope, recovered)
        else:
            tx.gateway.delete_entries(scope, [key])
        changed += 1
    return changed


def _ended(tx: Tx, entry: dict[str, Any]) -> bool:
    """Whether an entry points at a session row that was ended."""
    exists, end_reason = tx.gateway.end_reason(entry["session_id"])
    return exists and end_reason is not None


def prune_entries(
    tx: Tx, scope: str, max_age_days: int, now: datetime, background: Callable[[str], bool]
) -> int:
    """``prune_old_entries``: drop entries idle longer than ``max_age_days`` (0 disables), keeping
    suspended ones and those with an active background process. A key is claimed and judged again before
    it goes, so a route of it committed meanwhile keeps it (see :func:`prune_stale`)."""
    if max_age_days <= 0:
        return 0
    cutoff = now.timestamp() - max_age_days * 86400

    def idle(key: str, entry: dict[str, Any] | None) -> bool:
        if entry is None or entry.get("suspended") or background(key):
            return False
        return entries.updated_at(entry).timestamp() < cutoff

    candidates = [
        key for key, raw in list(tx.gateway.iter_entries(scope)) if idle(key, entries.parse_entry(raw))
    ]
    stale = [key for key in candidates if idle(key, _load(tx, scope, key))]
    # Their processes (if any were stored) no longer block anything.
    tx.gateway.delete_processes(scope, stale)
    return tx.gateway.delete_entries(scope, stale)


def store_processes(tx: Tx, scope: str, session_key: str, started_at: list[float] | None) -> None:
    """Keep the last list of live background processes a caller reported for a chat (``None``: no
    report, the stored list stands). Stored, so a restart still honours them."""
    if started_at is not None:
        tx.gateway.put_processes(scope, session_key, started_at)


def blocking(tx: Tx, scope: str, config: GatewayConfig) -> Callable[[str], bool]:
    """Whether a chat's stored background processes still block its reset, read once for a whole pass."""
    stored = tx.gateway.all_processes(scope)
    now = time.time()
    return lambda key: background_active(stored.get(key, ()), now, config.bg_max_age_s)


class Gateway:
    """The routing service of one server process: cached config (re-read when a file changes), the
    mirror and the expiry watcher."""

    def __init__(
        self,
        db: Store,
        home: Path,
        *,
        expiry_first_s: float = EXPIRY_FIRST_S,
        expiry_interval_s: float = EXPIRY_INTERVAL_S,
        expiry_grace_s: float = EXPIRY_GRACE_S,
        leadership: Leadership = ALWAYS_LEADER,
    ) -> None:
        self.db = db
        self.leadership = leadership
        self.home = home
        self.sessions_dir = home / "sessions"
        self.scope = db.routing_scope
        self.config_files = GatewayConfigFiles(home)
        self.mirror = SessionsMirror(
            db, self.scope, self.sessions_dir / "sessions.json", lambda: self.config(), home
        )
        self._expiry_grace_s = expiry_grace_s
        # Late-bound, so a replaced ``expire_once`` (a test's) is the one the watcher runs.
        self.watcher = ExpiryWatcher(
            lambda: self.prune_stale(),
            lambda: self.expire_once(),
            leadership,
            first_s=expiry_first_s,
            interval_s=expiry_interval_s,
        )

    # configuration

    def config(self) -> GatewayConfig:
        """The effective configuration (see :class:`GatewayConfigFiles`)."""
        return self.config_files.config()

    def put_config(self, body: dict[str, Any]) -> GatewayConfig:
        """Store settings where the agent reads them (see :meth:`GatewayConfigFiles.put`)."""
        return self.config_files.put(body)

    # keys and processes

    def session_key(
        self,
        source: MessageSource,
        group_per_user: bool | None,
        thread_per_user: bool | None,
        profile: str | None,
    ) -> str:
        """The key of a message; unset flags come from the configuration, as the agent's store reads them.
        A named ``profile`` selects the key namespace (the agent's multiplexing gateway passes the profile
        a message was routed to; without one, ``agent:main``)."""
        config = self.config()
        home = self.home

        def read_mappings(identifier: str) -> list[str]:
            # Only WhatsApp identifiers are looked up; other platforms never touch the disk here.
            return files.lid_mappings(files.whatsapp_session_dir(home), identifier)

        return build_session_key(
            source,
            group_sessions_per_user=config.group_sessions_per_user
            if group_per_user is None
            else group_per_user,
            thread_sessions_per_user=config.thread_sessions_per_user
            if thread_per_user is None
            else thread_per_user,
            profile=profile,
            read_mappings=read_mappings,
        )

    async def _write(self, job: Callable[[Tx], T]) -> T:
        """Run ``job`` in a writer transaction (the mirror hears of what it changed from the commit)."""
        return await self.db.write(job)

    # operations

    async def route(
        self,
        source: MessageSource,
        *,
        group_per_user: bool | None = None,
        thread_per_user: bool | None = None,
        profile: str | None = None,
        background_processes: list[float] | None = None,
    ) -> dict[str, Any]:
        """Route one message."""
        check_platform(source.platform)
        check_chat_type(source.chat_type)
        key = self.session_key(source, group_per_user, thread_per_user, profile)
        config = self.config()

        def run(tx: Tx) -> dict[str, Any]:
            store_processes(tx, self.scope, key, background_processes)
            started = tx.gateway.processes_of(self.scope, key)
            active = background_active(started, time.time(), config.bg_max_age_s)
            return route(tx, self.scope, config, RouteRequest(source, key, active), datetime.now())

        return await self._write(run)

    async def reset(self, session_key: str, title: str | None) -> dict[str, Any]:
        """``/new [title]``."""
        return await self._write(lambda tx: reset_route(tx, self.scope, session_key, title, datetime.now()))

    async def switch(self, session_key: str, ref: str) -> dict[str, Any]:
        """``/resume <ref>``."""
        config = self.config()
        return await self._write(
            lambda tx: switch_route(tx, self.scope, config, session_key, ref, datetime.now())
        )

    async def complete_handoff(self, session_id: str, thread: Any) -> dict[str, Any]:
        """``POST /handoff/{id}/complete``: settle the handoff and bind its destination chat."""
        config = self.config()

        def key_for(dest: MessageSource) -> str:
            # The watcher keys with the platform's own flags, which default to per-user groups and
            # shared threads (this server keeps no per-platform routing flags).
            return self.session_key(dest, True, False, None)

        return await self._write(
            lambda tx: complete_handoff(tx, self.scope, config, session_id, thread, key_for, datetime.now())
        )

    async def turn(self, session_key: str, last_prompt_tokens: int | None) -> dict[str, Any]:
        """A turn finished on a routed chat."""
        return await self._write(
            lambda tx: record_turn(tx, self.scope, session_key, last_prompt_tokens, datetime.now())
        )

    async def suspend(self, session_key: str) -> dict[str, Any]:
        """``/stop``."""
        return await self._write(lambda tx: suspend_route(tx, self.scope, session_key))

    async def expire_once(self, grace_s: float | None = None) -> int:
        """One pass of the expiry watcher: announce, wait ``grace_s``, finalise what is still expired,
        then prune old entries. Returns how many sessions were finalised."""
        config = self.config()
        expiring = await self.db.read(
            lambda tx: find_expiring(tx, self.scope, config, datetime.now(), blocking(tx, self.scope, config))
        )
        done = 0
        if expiring:
            await self.db.write(lambda tx: announce_expiring(tx, expiring))
            await asyncio.sleep(self._expiry_grace_s if grace_s is None else grace_s)
            done = await self.db.write(
                lambda tx: finalize_expired(
                    tx, self.scope, config, expiring, datetime.now(), blocking(tx, self.scope, config)
                )
            )
        await self.db.write(
            lambda tx: prune_entries(
                tx,
                self.scope,
                config.session_store_max_age_days,
                datetime.now(),
                blocking(tx, self.scope, config),
            )
        )
        return done

    async def start(self) -> None:
        """Start the mirror and the expiry watcher; the watcher runs while this process leads the replicas
        (the mirror is this host's file, so every replica keeps its own)."""
        await self.mirror.start()
        self.watcher.start()

    async def stop(self) -> None:
        """Stop the watcher and write the mirror one last time if it is behind."""
        await self.watcher.stop()
        await self.mirror.stop()

    async def prune_stale(self) -> int:
        """Drop or repoint entries whose session was ended while no gateway ran (startup self-heal)."""
        config = self.config()
        return await self.db.write(lambda tx: prune_stale(tx, self.scope, config, datetime.now()))
