"""A session's stored shape is written once: the row type (``SessionRow``) is the list the select list, the
API schema and the own-table members are held to (docs/storage.md, "Adding a stored field on sessions")."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from fastapi.testclient import TestClient

from app.api.schemas.sessions import SessionPublic, SessionUpdate
from app.storage.hermes_schema import declared_columns
from app.storage.repos import sessions
from app.storage.repos.own_fields import OWN_MEMBERS
from app.storage.rows import SessionRow
from tests.sessions.conftest import create

MEMBERS = set(SessionRow.__annotations__)


def test_every_selected_column_is_the_agents() -> None:
    # A member that is neither computed nor in a table of ours would be read from the agent's row.
    assert set(sessions._COLUMNS) <= set(declared_columns()["sessions"])


def test_computed_and_own_members_are_members_of_the_row_type() -> None:
    assert sessions._COMPUTED <= MEMBERS
    assert set(OWN_MEMBERS) <= MEMBERS


def test_the_api_schema_shows_the_row_type() -> None:
    shown = {field.alias or name for name, field in SessionPublic.model_fields.items()}
    assert shown == MEMBERS


def test_own_members_are_settable_and_have_an_example() -> None:
    settable = {field.alias or name for name, field in SessionUpdate.model_fields.items()}
    assert set(OWN_MEMBERS) <= settable
    example = SessionPublic.model_json_schema()["examples"][0]
    assert set(OWN_MEMBERS) <= set(example)


def test_a_session_shows_the_row_type(client: TestClient) -> None:
    session = create(client)
    assert set(session) == MEMBERS - {"system_prompt"}
    listed = client.get("/sessions").json()["items"]
    assert [set(item) for item in listed] == [MEMBERS - {"system_prompt"}]


# A table of session members declared before the app is imported, as own_schema would declare one: nothing
# else names the member, yet the session shows it, the write path stores it and its row goes with the
# session.
# The trial opens the file beside the server through the server's own SQLite library: two SQLite copies in one
# process do not see each other's POSIX locks, so one may reset the WAL index the other has mapped (SIGBUS).
_TRIAL = """
import json, sys
from pathlib import Path
from app.storage.sqlite.driver import sqlite3
from sqlalchemy import REAL, Text
from sqlmodel import Field, SQLModel
from app.storage.own_schema import SESSION_MEMBERS, create_table_sql

class TrialMembers(SQLModel, table=True):
    __tablename__ = "hs_trial_members"
    __table_args__ = {"info": SESSION_MEMBERS, "sqlite_with_rowid": False}
    session_id: str = Field(sa_type=Text, primary_key=True)
    last_read_at: float | None = Field(default=None, sa_type=REAL)

from fastapi.testclient import TestClient
from app.main import create_app
from app.settings import Settings

home = Path(sys.argv[1])
out = {}
with TestClient(create_app(Settings(home=home, api_token="t")), headers={"Authorization": "Bearer t"}) as c:
    raw = sqlite3.connect(home / "state.db")
    raw.execute(create_table_sql(TrialMembers.__table__))
    raw.commit()
    sid = c.post("/sessions", json={}).json()["id"]
    out["created"] = c.get(f"/sessions/{sid}").json()["last_read_at"]
    db = c.app.state.db
    db.write_sync(lambda tx: tx.sessions.set_own_fields(sid, {"last_read_at": 12.5, "title": "x"}))
    out["read"] = c.get(f"/sessions/{sid}").json()["last_read_at"]
    out["listed"] = c.get("/sessions").json()["items"][0]["last_read_at"]
    out["title"] = c.get(f"/sessions/{sid}").json()["title"]
    db.write_sync(lambda tx: tx.sessions.set_own_fields(sid, {"last_read_at": None}))
    out["cleared"] = c.get(f"/sessions/{sid}").json()["last_read_at"]
    db.write_sync(lambda tx: tx.sessions.set_own_fields(sid, {"last_read_at": 3.0}))
    c.delete(f"/sessions/{sid}")
    out["left"] = raw.execute("SELECT COUNT(*) FROM hs_trial_members").fetchone()[0]
print(json.dumps(out))
"""


def test_a_table_of_members_is_all_a_stored_member_needs(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_TRIAL), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.splitlines()[-1])
    assert found == {"created": None, "read": 12.5, "listed": 12.5, "title": None, "cleared": None, "left": 0}
