"""The benchmark script runs end to end (a smoke test, not a timing: no assertion on speed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quick_benchmark_runs_and_prints_the_targets() -> None:
    result = subprocess.run(
        [sys.executable, "benchmarks/run.py", "--quick", "--skip-fixit", "--corpus", "tools"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "toolret cold (--no-cache)" in result.stdout
    assert "toolret cold / bare LibCST parse" in result.stdout
