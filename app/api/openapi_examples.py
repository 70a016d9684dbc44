"""Keep the nulls in the models' OpenAPI examples.

FastAPI encodes the finished document with ``exclude_none=True``, which also strips every ``null`` out of the
examples, so an example of a model with required nullable fields (most response models) would no longer
match its schema. This puts the models' examples back as written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _model_examples() -> dict[str, list[list[Any]]]:
    """The examples of every model of this app, by class name (several classes may share a name)."""
    found: dict[str, list[list[Any]]] = {}
    stack: list[type[BaseModel]] = [BaseModel]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        extra = cls.model_config.get("json_schema_extra")
        if callable(extra) and cls.__module__.startswith("app."):
            # A function that writes the examples (``schemas.common.model_examples``): its result.
            extra = {"examples": cls.model_json_schema().get("examples")}
        if cls.__module__.startswith("app.") and isinstance(extra, dict) and "examples" in extra:
            examples = extra["examples"]
            if isinstance(examples, list):
                found.setdefault(cls.__name__, []).append(examples)
    return found


def restore_example_nulls(spec: dict[str, Any]) -> dict[str, Any]:
    """Put each component schema's examples back as its model wrote them, nulls included. A component is
    matched to a model by name and by its stripped examples, so a same-named model is never taken for it."""
    candidates = _model_examples()
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        stripped = schema.get("examples")
        if stripped is None:
            continue
        for examples in candidates.get(name, []):
            if _without_nulls(examples) == stripped:
                schema["examples"] = examples
                break
    return spec


def keep_example_nulls(app: FastAPI) -> None:
    """Make ``app.openapi()`` (and so ``/openapi.json``) serve the models' examples with their nulls."""
    generate: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        return restore_example_nulls(generate())

    app.openapi = openapi  # type: ignore[method-assign]
