"""Generate the Python client in ``openapi/client`` from ``openapi/openapi.json`` (``make client``).

openapi-python-client pins ``typer<0.28`` while the project pins typer 0.29, so the generator lives in its
own virtualenv under ``.venv/opc-tool`` (created on first use). Its ruff post-hooks run the project's ruff
(``.venv/bin`` first on PATH) in isolated mode, so the output does not depend on where it is written: the
staleness test generates into a temporary directory and compares byte for byte.

Usage: ``python openapi/generate_client.py [OUTPUT_DIR]`` (default ``openapi/client``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "openapi" / "openapi.json"
CONFIG = ROOT / "openapi" / "client.config.yaml"
DEFAULT_OUTPUT = ROOT / "openapi" / "client"
GENERATOR = "openapi-python-client==0.29.1"
TOOL_VENV = ROOT / ".venv" / "opc-tool"
TOOL = TOOL_VENV / "bin" / "openapi-python-client"


def ensure_generator() -> Path:
    """The generator's executable, installed into its own virtualenv when missing."""
    if not TOOL.exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(TOOL_VENV)
        subprocess.run([str(TOOL_VENV / "bin" / "pip"), "install", "-q", GENERATOR], check=True)
    return TOOL


def generate(output: Path, spec: Path = SPEC) -> None:
    """Write the client for ``spec`` into ``output`` (replacing it)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    command = [
        str(ensure_generator()),
        "generate",
        "--path",
        str(spec),
        "--output-path",
        str(output),
        "--meta",
        "none",
        "--overwrite",
        "--config",
        str(CONFIG),
    ]
    subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    generate(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUTPUT)
