"""Write the OpenAPI document generated from the app (``make openapi``); a test fails when it drifts."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson

from app.main import create_app
from app.settings import Settings


def generate() -> dict[str, Any]:
    """The OpenAPI document of the app, independent of the machine it is generated on."""
    with tempfile.TemporaryDirectory() as home:
        spec: dict[str, Any] = create_app(Settings(home=Path(home), api_token="x")).openapi()
    return spec


def render() -> bytes:
    """Canonical bytes: sorted keys, two-space indent, trailing newline."""
    return orjson.dumps(generate(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"


def main() -> None:
    """Write the document to the path given on the command line."""
    Path(sys.argv[1]).write_bytes(render())


if __name__ == "__main__":
    main()
