"""Issue 19, items 2, 4 and 5: one file never takes the run down, never hangs it, and
``# noqa`` holds whatever the line endings.

Each test is built from a minimal reproducer of the issue; every bad file is one
TRV001/TRV002 for that file, and the run goes on.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lint_rules.cache import ResultCache
from lint_rules.config import ConfigError, SettingsResolver
from lint_rules.engine import check_source
from lint_rules.flake8_plugin import ToolretChecker


def run_toolret(
    *args: str, cwd: Path, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "lint_rules", *args],
        cwd=cwd, input=stdin, capture_output=True, check=False, timeout=60,
    )  # fmt: skip


def flake8_codes(path: Path) -> list[tuple[int, str]]:
    ToolretChecker._project = ToolretChecker._resolver = None
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return [
        (row, text.split(" ", 1)[0])
        for row, _, text, _ in ToolretChecker(None, lines, str(path)).run()
    ]


# ------------------------------------------------------------ item 5: CR-only noqa

NOQA_CASES = {
    "same line": "def count(conv):\n    x = 1\n    return 3  # noqa: TRV101\n",
    "after a string": 'def count(conv):\n    x = """a\nb"""\n    return 3  # noqa: TRV101\n',
    "end of a string run": 'def count(conv):\n    return """a\nb""", 3  # noqa: TRV101\n',
    "file level": "# ruff: noqa: TRV101\ndef count(conv):\n    return 3\n",
}


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
@pytest.mark.parametrize("source", NOQA_CASES.values(), ids=NOQA_CASES.keys())
def test_noqa_holds_for_every_line_ending(source: str, newline: str) -> None:
    assert check_source(source.replace("\n", newline), "functions/count.py") == []


@pytest.mark.parametrize("newline", ["\n", "\r"], ids=["LF", "CR"])
def test_a_noqa_for_another_code_still_reports_on_its_row(newline: str) -> None:
    source = "def count(conv):\n    x = 1\n    return 3  # noqa: TRV105\n".replace("\n", newline)
    assert [(d.code, d.location.row) for d in check_source(source, "functions/count.py")] == [
        ("TRV101", 3)
    ]


def test_toolret_fix_leaves_a_suppressed_cr_only_line_alone(tmp_path: Path) -> None:
    source = b"def count(conv):\r    x = 1\r    return 3  # noqa: TRV101\r"
    path = tmp_path / "functions" / "count.py"
    path.parent.mkdir()
    path.write_bytes(source)
    result = run_toolret("fix", ".", "--no-cache", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert path.read_bytes() == source


# ------------------------------------------------------------ item 2: config and cache


def test_a_config_nested_too_deeply_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "toolret.toml").write_text("select = " + "[" * 500 + "]" * 500 + "\n")
    with pytest.raises(ConfigError, match="nested too deeply"):
        SettingsResolver()(tmp_path / "functions" / "count.py")
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "count.py").write_text("def count(conv):\n    return 3\n")
    result = run_toolret("check", ".", "--no-cache", cwd=tmp_path)
    assert result.returncode == 2
    assert b"nested too deeply" in result.stderr and b"Traceback" not in result.stderr
    assert flake8_codes(tmp_path / "functions" / "count.py") == [(1, "TRV002")]


def test_a_cache_nested_too_deeply_is_ignored_and_replaced(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "count.py").write_text("def count(conv):\n    return 3\n")
    deep = ResultCache(cache).path
    deep.write_text('{"files": {}, "facts": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    assert ResultCache(cache).entry("x") is None
    result = run_toolret("check", ".", "--cache-dir", str(cache), cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert b"TRV101" in result.stdout
    assert "functions/count.py" in "".join(json.loads(deep.read_text())["files"])  # replaced
