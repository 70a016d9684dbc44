"""Field types shared by request schemas."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator
from pydantic_core import PydanticCustomError

from app.domain.text import find_invalid_char


def _check_text(value: str) -> str:
    problem = find_invalid_char(value)
    if problem is not None:
        raise PydanticCustomError("invalid_text", "text contains {problem}", {"problem": problem})
    return value


def check_text_tree(value: Any) -> Any:
    """Walk JSON-like structures (tool calls, model_config) and refuse bad text anywhere inside."""
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
"""Any JSON value whose strings are all :data:`SafeText`."""
