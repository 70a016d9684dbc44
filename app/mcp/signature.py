"""A tool's parameters taken from a request model, so a tool that mirrors a route's query (the session
listing's thirty filters) takes the same names, types, limits and descriptions, written once."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from pydantic import BaseModel, Field


def parameters_of(model: type[BaseModel]) -> inspect.Signature:
    """Keyword parameters, one per field of ``model``: its type with its constraints, its description (what
    the tool's input schema shows the model) and its default."""
    params = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=field.default,
            annotation=Annotated[(field.annotation, *field.metadata, Field(description=field.description))],
        )
        for name, field in model.model_fields.items()
    ]
    return inspect.Signature(params)


def with_parameters(fn: Any, model: type[BaseModel]) -> Any:
    """``fn`` (taking ``**kwargs``) presented with the parameters of ``model``."""
    fn.__signature__ = parameters_of(model)
    return fn
