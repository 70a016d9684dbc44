"""A stateful hypothesis model of the store: random appends, batches, rewinds, forks, ends, deletes, prunes
and imports against the app, checked after every step against a plain Python model (sessions -> messages with
active flags, message_count, titles), and both FTS indexes checked against the content table.

Sizes are modest in the normal run; ``HERMES_SOAK=1`` runs many more and longer examples.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from app.main import create_app
from app.settings import Settings
from tests.conftest import TOKEN
from tests.reliability.soundness import connect, integrity_problems
from tests.sizes import sized

PRUNE_REASON = "model_done"
ROLES = st.sampled_from(["user", "assistant"])
# Arbitrary text around each message's unique token: no surrogates or control characters (the API refuses
# them with 422, tested elsewhere), anything else including CJK and punctuation FTS5 must not choke on.
NOISE = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)


@dataclass
class Msg:
    """A message as the model knows it."""

    id: int
    role: str
    content: str
    token: str
    active: bool = True


@dataclass
class Sess:
    """A session as the model knows it: ``message_count`` is every row, active or not (rewind keeps it)."""

    title: str | None
    messages: list[Msg] = field(default_factory=list)
    ended: bool = False
    end_reason: str | None = None
    parent: str | None = None


class StoreModel(RuleBasedStateMachine):
    """The app (in-process, real state.db in a temp dir) against :class:`Sess` objects."""

    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="hermes-model-"))
        home = self.tmp / "home"
        home.mkdir()
        self.path = home / "state.db"
        app = create_app(Settings(home=home, api_token=TOKEN, titles_auto=False))
        self.client = TestClient(app, headers={"Authorization": f"Bearer {TOKEN}"})
        self.client.__enter__()
        self.sessions: dict[str, Sess] = {}
        self.counter = itertools.count(1)

    # -- helpers -------------------------------------------------------------------------------------

    def _content(self, noise: str) -> tuple[str, str]:
        token = f"tok{next(self.counter)}q"
        return token, f"{noise} {token} {noise[::-1]}"

    # Sessions in the order they were created, never sorted by id: ids carry the clock and random hex, so an
    # order by id differs between runs and hypothesis could not replay (or shrink) a failing example.
    def _open_ids(self) -> list[str]:
        return [s for s, v in self.sessions.items() if not v.ended]

    def _adopt_messages(self, sid: str, tokens: list[str]) -> list[Msg]:
        """Read back a session the server wrote in bulk (import, fork) as model messages."""
        resp = self.client.get(f"/sessions/{sid}/messages", params={"include_inactive": True, "limit": 1000})
        assert resp.status_code == 200, resp.text
        items = resp.json()["items"]
        assert len(items) == len(tokens), (sid, len(items), len(tokens))
        return [
            Msg(i["id"], i["role"], i["content"], t, i["active"]) for i, t in zip(items, tokens, strict=True)
        ]

    # -- rules ---------------------------------------------------------------------------------------

    @initialize()
    def first_session(self) -> None:
        self.create(titled=True)

    @rule(titled=st.booleans())
    def create(self, titled: bool) -> None:
        title = f"title {next(self.counter)}" if titled else None
        resp = self.client.post("/sessions", json={"source": "cli", "title": title})
        assert resp.status_code == 201, resp.text
        self.sessions[resp.json()["id"]] = Sess(title)

    @precondition(lambda self: bool(self.sessions))
    @rule(data=st.data(), role=ROLES, noise=NOISE)
    def append(self, data: st.DataObject, role: str, noise: str) -> None:
        sid = data.draw(st.sampled_from(list(self.sessions)))
        token, content = self._content(noise)
        resp = self.client.post(f"/sessions/{sid}/messages", json={"role": role, "content": content})
        if self.sessions[sid].ended:
            assert resp.status_code == 409 and resp.json()["code"] == "session_ended", resp.text
            return
        assert resp.status_code == 201, resp.text
        (item,) = resp.json()["items"]
        assert item["content"] == content
        self.sessions[sid].messages.append(Msg(item["id"], role, content, token))

    @precondition(lambda self: bool(self._open_ids()))
    @rule(data=st.data(), batch=st.lists(st.tuples(ROLES, NOISE), min_size=1, max_size=12))
    def append_batch(self, data: st.DataObject, batch: list[tuple[str, str]]) -> None:
        sid = data.draw(st.sampled_from(self._open_ids()))
        made = [(role, *self._content(noise)) for role, noise in batch]
        body = {"messages": [{"role": role, "content": content} for role, _, content in made]}
        resp = self.client.post(f"/sessions/{sid}/messages", json=body)
        assert resp.status_code == 201, resp.text
        items = resp.json()["items"]
        assert [i["content"] for i in items] == [content for _, _, content in made]
        ids = [i["id"] for i in items]
        assert ids == sorted(ids) and ids[0] > max(
            (m.id for s in self.sessions.values() for m in s.messages), default=0
        )
        self.sessions[sid].messages.extend(
            Msg(i["id"], role, content, token) for i, (role, token, content) in zip(items, made, strict=True)
        )

    @precondition(
        lambda self: any(m.active and m.role == "user" for s in self.sessions.values() for m in s.messages)
    )
    @rule(data=st.data())
    def rewind(self, data: st.DataObject) -> None:
        targets = [
            (sid, m.id)
            for sid, s in self.sessions.items()
            for m in s.messages
            if m.active and m.role == "user"
        ]
        sid, target = data.draw(st.sampled_from(targets))
        resp = self.client.post(f"/sessions/{sid}/rewind", json={"message_id": target})
        assert resp.status_code == 200, resp.text
        hidden = [m for m in self.sessions[sid].messages if m.id >= target and m.active]
        for m in hidden:
            m.active = False
        assert resp.json()["rewound_count"] == len(hidden), resp.text

    @precondition(lambda self: bool(self.sessions))
    @rule(data=st.data(), upto=st.booleans())
    def fork(self, data: st.DataObject, upto: bool) -> None:
        sid = data.draw(st.sampled_from(list(self.sessions)))
        parent = self.sessions[sid]
        copied = [m for m in parent.messages if m.active]
        body: dict[str, Any] = {}
        if upto and copied:
            cut = data.draw(st.sampled_from([m.id for m in copied]))
            copied = [m for m in copied if m.id <= cut]
            body["message_id"] = cut
        resp = self.client.post(f"/sessions/{sid}/fork", json=body)
        assert resp.status_code == 201, resp.text
        child = resp.json()
        assert child["parent_session_id"] == sid
        assert (child["title"] is None) == (parent.title is None), (parent.title, child["title"])
        if not parent.ended:
            parent.ended, parent.end_reason = True, "branched"
        made = Sess(child["title"], parent=sid)
        made.messages = self._adopt_messages(child["id"], [m.token for m in copied])
        assert [(m.role, m.content, m.active) for m in made.messages] == [
            (m.role, m.content, True) for m in copied
        ]
        self.sessions[child["id"]] = made

    @precondition(lambda self: bool(self._open_ids()))
    @rule(data=st.data(), prunable=st.booleans())
    def end(self, data: st.DataObject, prunable: bool) -> None:
        sid = data.draw(st.sampled_from(self._open_ids()))
        reason = PRUNE_REASON if prunable else "user_exit"
        resp = self.client.post(f"/sessions/{sid}/end", json={"end_reason": reason})
        assert resp.status_code == 200, resp.text
        self.sessions[sid].ended, self.sessions[sid].end_reason = True, reason

    @precondition(lambda self: bool(self.sessions))
    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        sid = data.draw(st.sampled_from(list(self.sessions)))
        resp = self.client.delete(f"/sessions/{sid}")
        assert resp.status_code == 204, resp.text
        self._forget(sid)

    @rule(dry_run=st.booleans())
    def prune(self, dry_run: bool) -> None:
        doomed = sorted(sid for sid, s in self.sessions.items() if s.end_reason == PRUNE_REASON)
        resp = self.client.post("/maintenance/prune", json={"end_reason": PRUNE_REASON, "dry_run": dry_run})
        assert resp.status_code == 200, resp.text
        out = resp.json()
        assert out["pruned"] == len(doomed), (out, doomed)
        assert out["messages"] == sum(len(self.sessions[sid].messages) for sid in doomed), out
        if dry_run:
            assert sorted(out["ids"]) == doomed
            return
        for sid in doomed:
            self._forget(sid)

    @rule(messages=st.lists(st.tuples(ROLES, NOISE), max_size=10), ended=st.booleans())
    def import_session(self, messages: list[tuple[str, str]], ended: bool) -> None:
        sid = f"imp-{next(self.counter)}"
        made = [(role, *self._content(noise)) for role, noise in messages]
        line: dict[str, Any] = {
            "id": sid,
            "source": "cli",
            "started_at": 1_700_000_000.0,
            "messages": [{"role": role, "content": content} for role, _, content in made],
        }
        if ended:
            line |= {"ended_at": 1_700_000_100.0, "end_reason": PRUNE_REASON}
        resp = self.client.post(
            "/import", content=orjson.dumps(line), headers={"Content-Type": "application/jsonl"}
        )
        assert resp.status_code == 200, resp.text
        assert resp.json()["imported"] == 1 and resp.json()["messages"] == len(made), resp.text
        sess = Sess(None, ended=ended, end_reason=PRUNE_REASON if ended else None)
        sess.messages = self._adopt_messages(sid, [token for _, token, _ in made])
        assert [(m.role, m.content) for m in sess.messages] == [(r, c) for r, _, c in made]
        self.sessions[sid] = sess

    def _forget(self, sid: str) -> None:
        del self.sessions[sid]
        for s in self.sessions.values():
            if s.parent == sid:
                s.parent = None  # children survive a deleted or pruned parent, orphaned

    # -- checks --------------------------------------------------------------------------------------

    @invariant()
    def server_matches_model(self) -> None:
        listed = self.client.get(
            "/sessions", params={"limit": 200, "status": "all", "include_children": True}
        )
        assert listed.status_code == 200, listed.text
        assert {s["id"] for s in listed.json()["items"]} == set(self.sessions)
        for sid, want in self.sessions.items():
            got = self.client.get(f"/sessions/{sid}").json()
            assert got["title"] == want.title, (sid, got["title"], want.title)
            assert got["message_count"] == len(want.messages), (sid, got["message_count"], len(want.messages))
            assert got["parent_session_id"] == want.parent, sid
            assert (got["ended_at"] is not None) == want.ended, sid
            msgs = self.client.get(
                f"/sessions/{sid}/messages", params={"include_inactive": True, "limit": 1000}
            )
            stored = [(m["id"], m["role"], m["content"], m["active"]) for m in msgs.json()["items"]]
            assert stored == [(m.id, m.role, m.content, m.active) for m in want.messages], sid
            active = self.client.get(f"/sessions/{sid}/messages", params={"limit": 1000}).json()["items"]
            assert [m["id"] for m in active] == [m.id for m in want.messages if m.active], sid

    def _tokens(self) -> dict[str, tuple[set[int], set[int]]]:
        """token -> (ids of every message carrying it, ids of the active ones): a fork copies tokens."""
        out: dict[str, tuple[set[int], set[int]]] = {}
        for s in self.sessions.values():
            for m in s.messages:
                every, active = out.setdefault(m.token, (set(), set()))
                every.add(m.id)
                if m.active:
                    active.add(m.id)
        return out

    @invariant()
    def fts_matches_content(self) -> None:
        problems = integrity_problems(self.path)
        assert not problems, problems
        conn = connect(self.path)
        try:
            for token, (every, _) in self._tokens().items():
                for table, query in (("messages_fts", token), ("messages_fts_trigram", f'"{token}"')):
                    sql = f"SELECT rowid FROM {table} WHERE {table} MATCH ?"
                    hits = {r[0] for r in conn.execute(sql, (query,))}
                    assert hits == every, (table, token, hits, every)
        finally:
            conn.close()

    def _search_finds(self, token: str, active: set[int]) -> None:
        found = self.client.get("/search", params={"q": token, "limit": 50})
        assert found.status_code == 200, found.text
        matched = {r["match_message_id"] for r in found.json()["results"]}
        # Rewound messages are hidden from search; an active one is found (one hit per lineage).
        assert matched <= active and bool(matched) == bool(active), (token, active, matched)

    @precondition(lambda self: any(s.messages for s in self.sessions.values()))
    @rule(data=st.data())
    def search(self, data: st.DataObject) -> None:
        tokens = self._tokens()
        token = data.draw(st.sampled_from(sorted(tokens)))
        self._search_finds(token, tokens[token][1])

    def teardown(self) -> None:
        try:
            for token, (_, active) in self._tokens().items():
                self._search_finds(token, active)
        finally:
            self.client.__exit__(None, None, None)
            shutil.rmtree(self.tmp, ignore_errors=True)


TestStoreModel = StoreModel.TestCase
TestStoreModel.settings = settings(
    max_examples=sized(8, 300),
    stateful_step_count=sized(20, 60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
