"""``hermes serve`` tunes its process: frozen start-up heap, 1 ms GIL switch interval."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def test_tuning_applies_to_the_process(tmp_path: Path) -> None:
    code = (
        "import gc, sys\n"
        "from app.main import create_app\n"
        "from app.runtime import SWITCH_INTERVAL_S, tune_for_serving\n"
        "create_app()\n"
        "assert gc.get_freeze_count() == 0\n"
        "tune_for_serving()\n"
        "assert sys.getswitchinterval() == SWITCH_INTERVAL_S\n"
        "assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()\n"
    )
    env = {**os.environ, "HERMES_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
