"""The API's models document the rows storage hands up: where one restates the other (for OpenAPI's
descriptions, defaults and order), the two stay in step."""

from __future__ import annotations

from dataclasses import fields

from app.api.schemas.maintenance import SelectedSession
from app.api.schemas.messages import MessagePublic
from app.storage.rows import MessageRow, PruneCandidate


def test_a_message_shows_the_row_type() -> None:
    assert set(MessagePublic.model_fields) == set(MessageRow.__annotations__)


def test_a_selected_session_shows_the_candidates_members() -> None:
    # The route copies these members off each candidate by the schema's names.
    assert set(SelectedSession.model_fields) <= {f.name for f in fields(PruneCandidate)}
