"""``from_row``: an API model carries a record's members, declared ones win, and the order is the class's own
members, then the record's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, NotRequired, TypedDict

import pytest
from pydantic import BaseModel, Field, ValidationError, field_validator

from app.api.schemas.maintenance import SelectedSession
from app.api.schemas.messages import MessagePublic
from app.api.schemas.row_models import from_row
from app.api.schemas.search import SearchMessage, SessionMeta
from app.api.schemas.sessions import SessionPublic, UsageUpdate
from app.services import search as search_svc
from app.storage.rows import MessageRow, PruneCandidate, SessionRow, Usage


class _Row(TypedDict):
    id: str
    count: int
    note: str | None
    extra: float
    later: NotRequired[int]


@dataclass(frozen=True)
class _Record:
    name: str
    size: int = 3
    label: str | None = None


def test_members_in_the_rows_order_with_declarations_in_their_place() -> None:
    @from_row(_Row)
    class Shown(BaseModel):
        """A shown row."""

        note: str | None = Field(default=None, description="a note")
        own: bool = True

    assert list(Shown.model_fields) == ["own", "id", "count", "note", "extra", "later"]
    schema = Shown.model_json_schema()
    assert schema["required"] == ["id", "count", "extra"]
    assert Shown(id="a", count=1, extra=2.0).model_dump()["later"] is None
    assert schema["properties"]["note"]["description"] == "a note"
    assert schema["description"] == "A shown row."
    assert Shown.__name__ == "Shown"
    assert Shown(id="a", count=1, extra=2.0).own is True
    with pytest.raises(ValidationError):
        Shown(id="a", count="many", extra=2.0)


def test_a_declared_alias_matches_the_member() -> None:
    @from_row(_Row, omit={"note", "extra", "later"})
    class Aliased(BaseModel):
        count_: int = Field(alias="count", description="how many")

    assert list(Aliased.model_fields) == ["id", "count_"]
    assert Aliased.model_json_schema()["required"] == ["id", "count"]


def test_ruled_types_and_dataclass_defaults() -> None:
    Small = Annotated[int, Field(ge=0, le=9)]

    @from_row(_Record, omit={"name"}, ruled={int: Small})
    class Body(BaseModel):
        pass

    assert list(Body.model_fields) == ["size", "label"]
    assert Body().model_dump() == {"size": 3, "label": None}
    assert Body.model_validate({"size": 9}).model_dump()["size"] == 9
    with pytest.raises(ValidationError):
        Body.model_validate({"size": 10})


def test_validators_are_refused() -> None:
    class Checked(BaseModel):
        count: int = 0

        @field_validator("count")
        @classmethod
        def positive(cls, value: int) -> int:
            return value

    with pytest.raises(TypeError, match="validators"):
        from_row(_Row)(Checked)


def _members(model: type[BaseModel]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]


@pytest.mark.parametrize(
    ("model", "row", "left_out"),
    [
        (SessionPublic, SessionRow, set()),
        (MessagePublic, MessageRow, set()),
        (SelectedSession, PruneCandidate, {"payload_bytes"}),
        (SearchMessage, search_svc.SearchMessage, set()),
        (SessionMeta, search_svc.SessionMeta, set()),
    ],
)
def test_the_api_presents_its_rows(model: type[BaseModel], row: Any, left_out: set[str]) -> None:
    members = [m for m in row.__annotations__ if m not in left_out]
    assert _members(model) == members


def test_the_usage_body_takes_a_usage_report_with_its_mode_first() -> None:
    assert _members(UsageUpdate) == ["mode", *(m for m in Usage.__annotations__ if m != "absolute")]
