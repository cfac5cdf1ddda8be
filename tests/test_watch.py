"""``toolret check --watch``: a check, then another after each change, until interrupted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from lint_rules import cli

INT_TOOL = "def count(conv):\n    return 3\n"
STR_TOOL = "def count(conv):\n    return str(3)\n"


def _project(tmp_path: Path, text: str) -> Path:
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "count.py").write_text(text, encoding="utf-8")
    return tmp_path


def test_each_change_runs_the_check_again(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    toolret_cli: Callable[..., Result],
) -> None:
    project = _project(tmp_path, INT_TOOL)
    monkeypatch.chdir(project)
    seen: list[list[Path]] = []

    def changes(targets: list[Path], cache_dir: Path | None) -> Iterator[object]:
        seen.append(targets)
        (project / "functions" / "count.py").write_text(STR_TOOL, encoding="utf-8")
        yield {("modified", "functions/count.py")}  # then the watcher ends (Ctrl-C)

    monkeypatch.setattr(cli, "_watch_changes", changes)
    result = toolret_cli("check", "--watch", "--output-format", "concise", ".")
    assert result.exit_code == 0
    out = result.stdout
    assert seen == [[Path(".")]]
    assert out.count("Watching for file changes.") == 2
    assert "Starting linter in watch mode..." in out and "File change detected..." in out
    first, second = out.split("File change detected...")
    assert "TRV101" in first and "TRV101" not in second and "All checks passed!" in second


def test_a_bad_config_is_reported_and_the_watch_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Callable[..., Result]
) -> None:
    project = _project(tmp_path, INT_TOOL)
    monkeypatch.chdir(project)

    def changes(targets: list[Path], cache_dir: Path | None) -> Iterator[object]:
        (project / "toolret.toml").write_text('select = ["TRV999"]\n', encoding="utf-8")
        yield {("added", "toolret.toml")}
        (project / "toolret.toml").unlink()
        yield {("deleted", "toolret.toml")}

    monkeypatch.setattr(cli, "_watch_changes", changes)
    result = toolret_cli("check", "--watch", "--output-format", "concise", ".")
    assert result.exit_code == 0
    assert "TRV999" in result.stderr
    assert result.stdout.count("Watching for file changes.") == 3
    assert result.stdout.count("TRV101") == 2  # before, and after the config is fixed


@pytest.mark.parametrize("extra", [["--add-noqa"], ["--diff"], ["-"]])
def test_watch_refuses_what_cannot_be_watched(
    extra: list[str], toolret_cli: Callable[..., Result]
) -> None:
    result = toolret_cli("check", "--watch", *extra)
    assert result.exit_code == 2 and "--watch" in result.stderr


def _default_sigint() -> None:
    """Ctrl-C's default action in the watcher, whatever the suite inherited: a shell runs a
    background job (``pytest &``, as CI runs the other interpreters' suites) with SIGINT
    ignored, the watcher would inherit that, and Python keeps an ignored SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group")
def test_a_real_watch_sees_an_edit(tmp_path: Path) -> None:
    pytest.importorskip("watchfiles", reason="--watch needs the watch extra")
    project = _project(tmp_path, INT_TOOL)
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "lint_rules", "check", "--watch", "--output-format", "concise"],
        cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=_default_sigint,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            lines.append(line)
            if "Watching for file changes." in line:
                if any("File change detected..." in seen for seen in lines):
                    break
                time.sleep(0.5)  # the watcher is set up once the first run is over
                (project / "functions" / "count.py").write_text(STR_TOOL, encoding="utf-8")
        text = "".join(lines)
        assert "File change detected..." in text, text
        assert text.rsplit("File change detected...", 1)[1].count("TRV101") == 0
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)  # generous: a busy CI machine (suites side by side)
    assert process.returncode == 0
