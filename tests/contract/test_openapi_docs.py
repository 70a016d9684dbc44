"""The OpenAPI document is written for integrators: every operation present when the test runs has a human
summary, every parameter a description, every body an example valid against its schema, and every error
response the stable codes it can carry."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from app.openapi_export import generate

ROOT = Path(__file__).resolve().parents[2]
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
PROBLEM_MEDIA_TYPE = "application/problem+json"
FASTAPI_DEFAULT_DESCRIPTION = "Successful Response"
CODE = re.compile(r"`([a-z][a-z0-9_]*)`")

Operation = tuple[str, str, dict[str, Any]]


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    """The document generated from the code as it is now (new routes included)."""
    return generate()


def _operations(spec: dict[str, Any]) -> Iterator[Operation]:
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method in HTTP_METHODS:
                yield f"{method.upper()} {path}", method, op


def _bodies(op: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """(where, media type, media object, the request body or response holding it) of an operation."""
    request = op.get("requestBody")
    if request is not None:
        for media_type, media in request.get("content", {}).items():
            yield "request body", media_type, media, request
    for status, response in op.get("responses", {}).items():
        for media_type, media in response.get("content", {}).items():
            yield f"response {status}", media_type, media, response


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].removeprefix("#/components/schemas/")
        schema = spec["components"]["schemas"][name]
    return schema


def _schema_has_examples(spec: dict[str, Any], schema: dict[str, Any]) -> bool:
    """Examples on the schema itself, or on every alternative of a union (null aside)."""
    schema = _resolve(spec, schema)
    if schema.get("examples") or "example" in schema:
        return True
    branches = [b for b in schema.get("anyOf", schema.get("oneOf", [])) if b.get("type") != "null"]
    return bool(branches) and all(_schema_has_examples(spec, branch) for branch in branches)


def _media_examples(media: dict[str, Any]) -> list[Any]:
    examples = [example["value"] for example in media.get("examples", {}).values() if "value" in example]
    if "example" in media:
        examples.append(media["example"])
    return examples


def _is_json(media_type: str) -> bool:
    return media_type == "application/json" or media_type.endswith("+json")


def _validator(spec: dict[str, Any], schema: dict[str, Any]) -> Any:
    # The whole components section rides along so that "#/components/schemas/..." references resolve.
    return jsonschema_rs.Draft202012Validator({**schema, "components": spec["components"]})


def test_every_operation_has_a_human_summary(spec: dict[str, Any]) -> None:
    bad = []
    for where, _, op in _operations(spec):
        summary = op.get("summary", "")
        generated = op.get("operationId", "").replace("_", " ").title()
        if not summary.strip() or summary in {generated, op.get("operationId")}:
            bad.append(f"{where}: {summary!r}")
    assert not bad, f"set summary= on the route (a phrase like 'Create a session'): {bad}"


def test_every_parameter_has_a_description(spec: dict[str, Any]) -> None:
    bad = [
        f"{where} {param['in']} {param['name']}"
        for where, _, op in _operations(spec)
        for param in op.get("parameters", [])
        if not (param.get("description") or "").strip()
    ]
    assert not bad, f"give these parameters a description= (Query/Path/Header): {bad}"


def test_every_json_body_has_an_example(spec: dict[str, Any]) -> None:
    bad = [
        f"{where} {body_where} {media_type}"
        for where, _, op in _operations(spec)
        for body_where, media_type, media, _ in _bodies(op)
        if _is_json(media_type)
        and not _media_examples(media)
        and not _schema_has_examples(spec, media.get("schema", {}))
    ]
    assert not bad, (
        f"add examples to the body's model (model_config json_schema_extra examples) or its media type: {bad}"
    )


def test_every_other_body_has_an_example_or_says_what_it_is(spec: dict[str, Any]) -> None:
    bad = [
        f"{where} {body_where} {media_type}"
        for where, _, op in _operations(spec)
        for body_where, media_type, media, holder in _bodies(op)
        if not _is_json(media_type)
        and media_type != PROBLEM_MEDIA_TYPE
        and not _media_examples(media)
        and (holder.get("description") or FASTAPI_DEFAULT_DESCRIPTION) == FASTAPI_DEFAULT_DESCRIPTION
    ]
    assert not bad, f"streams and files need an example string or a description of their format: {bad}"


def test_media_type_examples_are_valid(spec: dict[str, Any]) -> None:
    bad: list[str] = []
    for where, _, op in _operations(spec):
        for body_where, media_type, media, _ in _bodies(op):
            if not _is_json(media_type) or "schema" not in media:
                continue
            validator = _validator(spec, media["schema"])
            for example in _media_examples(media):
                bad.extend(f"{where} {body_where}: {e.message}" for e in validator.iter_errors(example))
    assert not bad, f"examples must match their schemas (schemathesis sends them): {bad}"


def test_schema_examples_are_valid(spec: dict[str, Any]) -> None:
    bad: list[str] = []
    for name, schema in spec["components"]["schemas"].items():
        validator = _validator(spec, {"$ref": f"#/components/schemas/{name}"})
        for example in schema.get("examples", []):
            bad.extend(f"{name}: {e.message}" for e in validator.iter_errors(example))
    assert not bad, f"model examples must match their models (schemathesis sends them): {bad}"


def _raised_codes() -> str:
    return "\n".join(path.read_text() for path in (ROOT / "app").rglob("*.py"))


def test_error_responses_list_their_codes(spec: dict[str, Any]) -> None:
    source = _raised_codes()
    bad = []
    for where, _, op in _operations(spec):
        for status, response in op.get("responses", {}).items():
            problem = response.get("content", {}).get(PROBLEM_MEDIA_TYPE)
            if not status.startswith(("4", "5")) or problem is None:
                continue
            description = response.get("description", "")
            listed = CODE.findall(description.partition("Codes:")[2])
            if not listed:
                bad.append(f"{where} {status}: no 'Codes: `...`' in its description")
            examples = problem.get("examples", {})
            for code in listed:
                value = examples.get(code, {}).get("value", {})
                if value.get("code") != code or value.get("status") != int(status) or not value.get("detail"):
                    bad.append(f"{where} {status}: no example body for `{code}` (with status and detail)")
                if f'"{code}"' not in source:
                    bad.append(f"{where} {status}: `{code}` is raised nowhere in app/")
    assert not bad, (
        "document errors with app.api.operations.operation(...) and give every error class its sentence "
        f"in app/errors.py: {bad}"
    )
