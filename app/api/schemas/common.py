"""Field types and the base class shared by request schemas."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo
from pydantic_core import PydanticCustomError

from app.domain import field_rules
from app.domain.json_policy import INT64_MAX, INT64_MIN, MAX_TIMESTAMP, MIN_TIMESTAMP
from app.domain.text import find_invalid_char


class RequestModel(BaseModel):
    """Base of every request body: unknown members are refused (a typo such as ``dryRun`` must not be ignored
    and run a real prune), and types are strict (``true`` is not the integer 1, ``0`` is not ``false``)."""

    model_config = ConfigDict(extra="forbid", strict=True)


def _check_text(value: str) -> str:
    problem = find_invalid_char(value)
    if problem is not None:
        raise PydanticCustomError("invalid_text", "text contains {problem}", {"problem": problem})
    return value


def check_text_tree(value: Any) -> Any:
    """Walk JSON-like structures (tool calls, model_config) and refuse bad text anywhere inside.

    Recursive: bodies reach it only after the JSON policy bounded their depth (``app.api.json_body``).
    """
    if isinstance(value, str):
        return _check_text(value)
    if isinstance(value, dict):
        for k, v in value.items():
            check_text_tree(k)
            check_text_tree(v)
    elif isinstance(value, list):
        for item in value:
            check_text_tree(item)
    return value


SafeText = Annotated[str, AfterValidator(_check_text)]
"""A string with no NUL and no lone surrogate (422 ``invalid_text`` otherwise)."""

SafeJSON = Annotated[Any, BeforeValidator(check_text_tree)]
"""Any JSON value whose strings are all :data:`SafeText` (depth and numbers bounded by the JSON policy)."""

Int64 = Annotated[int, Field(ge=INT64_MIN, le=INT64_MAX)]
"""An integer SQLite stores as INTEGER."""

Count = Annotated[int, Field(ge=0, le=INT64_MAX)]
"""A non-negative integer SQLite stores as INTEGER."""

Timestamp = Annotated[float, Field(ge=MIN_TIMESTAMP, le=MAX_TIMESTAMP, allow_inf_nan=False)]
"""Epoch seconds between 1970-01-01 and 9999-12-31T23:59:59Z (what datetime can represent)."""


def field_rule(check: Callable[[str, Any], field_rules.FieldProblem | None]) -> BeforeValidator:
    """A body member judged by the rule import and sync apply to the same field
    (:mod:`app.domain.field_rules`), answering its code and sentence (422 ``invalid_value``)."""

    def validate(value: Any, info: ValidationInfo) -> Any:
        problem = check(info.field_name or "value", value)
        if problem is not None:
            raise PydanticCustomError(problem.code, problem.detail)
        return value

    return BeforeValidator(validate)


RuledTimestamp = Annotated[Timestamp, field_rule(field_rules.timestamp_problem)]
"""A :data:`Timestamp` of a body that import and sync also carry."""

RuledCount = Annotated[Count, field_rule(field_rules.count_problem)]
"""A :data:`Count` of a body that import and sync also carry."""


def _title_type(field: str, value: Any) -> field_rules.FieldProblem | None:
    # The length is judged where the title is cleaned, with the title already taken: 422 title_too_long.
    return field_rules.title_problem(value, field) if not isinstance(value, str) else None


Title = Annotated[SafeText, field_rule(_title_type)]
"""A title: text (or null where the member allows it)."""

MAX_FILTER_LENGTH = 1000

FilterText = Annotated[str, Field(max_length=MAX_FILTER_LENGTH), AfterValidator(_check_text)]
"""A :data:`SafeText` search filter of at most 1,000 characters (SQLite refuses LIKE patterns of 50,000)."""


def model_examples(*examples: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    """A model's ``json_schema_extra``: these examples, each completed with the example of every member that
    carries one (``Field(examples=[...])``), so a member added later has its example beside it."""

    def extra(schema: dict[str, Any]) -> None:
        beside = {
            name: member["examples"][0]
            for name, member in schema.get("properties", {}).items()
            if member.get("examples")
        }
        schema["examples"] = [{**beside, **example} for example in examples]

    return extra
