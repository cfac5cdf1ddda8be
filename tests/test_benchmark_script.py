"""The benchmark script runs end to end (a smoke test, not a timing: no assertion on speed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.interpreter_neutral
def test_quick_benchmark_runs_and_prints_the_targets() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/run.py",
            *("--quick", "--skip-fixit", "--skip-lsp", "--corpus", "tools"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "toolret cold (--no-cache)" in result.stdout
    assert "toolret cold / bare LibCST parse" in result.stdout


@pytest.mark.interpreter_neutral
def test_language_server_benchmark_runs_and_prints_its_table() -> None:
    pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/lsp_latency.py",
            *("--runs", "1", "--lines", "200", "--settle", "0.5", "--apps", "3"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "fresh: didOpen after initialized → first diagnostics" in result.stdout
    assert "warm: didClose + didOpen → first diagnostics" in result.stdout
    assert "warm: didChange of 1 line" in result.stdout
    assert "save: didSave of main.py → behaviors.py" in result.stdout


@pytest.mark.interpreter_neutral  # the engine under fuzzing: tests/test_fuzz.py, every Python
def test_fuzz_campaign_runs_all_three_halves_clean(tmp_path: Path) -> None:
    # The campaign with a CI budget: programs of every family, mutants of the examples
    # and notebook mutants, each in a worker process; exit 1 when any case has a problem.
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/campaign.py",
            *("--programs", "16", "--mutants", "40", "--notebooks", "80"),
            *("--jobs", "1", "--timeout", "30", "--reduce-budget", "0"),
            *("--out", str(tmp_path / "reproducers")),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    for half in ("programs: 16 cases", "mutants: 40 cases", "notebooks: 80 cases"):
        assert f"== {half}" in result.stdout
