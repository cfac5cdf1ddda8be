"""benchmarks/compare_refs.py runs end to end (a smoke test: HEAD against the working tree)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.interpreter_neutral  # a benchmark tool's table, like run.py's

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "compare_refs.py"


def compare(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--base", "HEAD", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_compare_prints_the_per_code_table_and_exits_0(tmp_path: Path) -> None:
    tree = tmp_path / "examples"
    shutil.copytree(ROOT / "examples", tree)
    out = tmp_path / "out"
    result = compare("--new", "worktree", "--max-list", "5", "--out", str(out), str(tree))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "base: HEAD = " in result.stdout
    assert f"=== {tree}" in result.stdout
    assert "code      before   after   delta" in result.stdout
    assert "TRV101" in result.stdout
    assert {p.name for p in (out / "examples").iterdir()} >= {"base.json", "new.json", "diff.txt"}


def test_a_failing_run_exits_2_with_its_stderr(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text("def f():\n    return 1\n")
    result = compare("--select", "NOT-A-CODE", str(tmp_path))
    assert result.returncode == 2
    assert "Unknown rule selector: `NOT-A-CODE`" in result.stderr
