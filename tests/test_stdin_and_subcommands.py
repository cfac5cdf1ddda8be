"""stdin as ruff reads it, ``--watch`` failing first, ``--preview`` / ``-v``, and ruff's
subcommand names (``server``, ``version``, ``clean``, ``rule --all``) - all through the CLI."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from lint_rules import __version__
from tests.conftest import Invoke

INT_TOOL = "def count_bookings(conv):\n    return len(conv.state.bookings)\n"
STR_TOOL = "def count_bookings(conv):\n    return str(len(conv.state.bookings))\n"
FIXED = STR_TOOL


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean PolyAI function on disk, and ``generated/`` excluded by the config."""
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "count_bookings.py").write_text(STR_TOOL)
    (tmp_path / "pyproject.toml").write_text('[tool.toolret]\nextend-exclude = ["generated"]\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- item 6: stdin ------------------------------------------------------------


def test_stdin_filename_without_a_dash_reads_stdin(project: Path, toolret_cli: Invoke) -> None:
    # The file on disk is clean: only stdin's text has the finding.
    result = toolret_cli(
        "check",
        "--output-format",
        "concise",
        "--stdin-filename",
        "functions/count_bookings.py",
        input=INT_TOOL,
    )
    assert result.exit_code == 1, result.output
    assert "functions/count_bookings.py:2:12: TRV101" in result.stdout


def test_a_path_beside_stdin_filename_is_ignored_with_a_warning(
    project: Path, toolret_cli: Invoke
) -> None:
    result = toolret_cli(
        "check",
        "--output-format",
        "concise",
        "--stdin-filename",
        "functions/count_bookings.py",
        "functions",
        input=INT_TOOL,
    )
    assert result.exit_code == 1
    assert "TRV101" in result.stdout
    assert "warning: Ignoring file functions in favor of standard input." in result.stderr


@pytest.mark.parametrize("dash", [("-",), ()])
def test_force_excluded_stdin_reports_nothing(
    project: Path, toolret_cli: Invoke, dash: tuple[str, ...]
) -> None:
    name = "generated/functions/count_bookings.py"
    result = toolret_cli(
        "check", *dash, "--force-exclude", "--stdin-filename", name, input=INT_TOOL
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == "All checks passed!\n"
    as_json = toolret_cli(
        "check", "--output-format", "json", "--force-exclude", "--stdin-filename", name,
        input=INT_TOOL,
    )  # fmt: skip
    assert (as_json.exit_code, json.loads(as_json.stdout)) == (0, [])
    # Without --force-exclude, a name given explicitly is checked, as in ruff.
    checked = toolret_cli("check", "-", "--stdin-filename", name, input=INT_TOOL)
    assert checked.exit_code == 1 and "TRV101" in checked.stdout


def test_force_exclude_from_the_config_applies_to_stdin(project: Path, toolret_cli: Invoke) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.toolret]\nextend-exclude = ["generated"]\nforce-exclude = true\n'
    )
    name = "generated/functions/count_bookings.py"
    result = toolret_cli("check", "--stdin-filename", name, input=INT_TOOL)
    assert (result.exit_code, result.stdout) == (0, "All checks passed!\n")


@pytest.mark.parametrize(
    "command", [("check", "--fix"), ("fix",), ("check", "--fix-only"), ("check", "--diff")]
)
def test_fixing_a_force_excluded_stdin_gives_the_input_back(
    project: Path, toolret_cli: Invoke, command: tuple[str, ...]
) -> None:
    name = "generated/functions/count_bookings.py"
    result = toolret_cli(*command, "--force-exclude", "--stdin-filename", name, input=INT_TOOL)
    assert result.exit_code == 0, result.output
    # as in ruff, the code unchanged on stdout (nothing at all with --diff)
    assert result.stdout == ("" if "--diff" in command else INT_TOOL)


@pytest.mark.parametrize("command", [("check", "--fix"), ("fix",)])
def test_fixing_stdin_without_a_dash(
    project: Path, toolret_cli: Invoke, command: tuple[str, ...]
) -> None:
    name = "functions/count_bookings.py"
    result = toolret_cli(*command, "--stdin-filename", name, input=INT_TOOL)
    assert result.exit_code == 0, result.output
    assert result.stdout == FIXED
    assert (project / name).read_text() == STR_TOOL  # the file on disk is not touched


# -- item 10: --watch fails first, ruff's subcommands ----------------------------


def test_watch_without_watchfiles_fails_before_checking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "count_bookings.py").write_text(INT_TOOL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "watchfiles", None)  # importing it raises ImportError
    result = toolret_cli("check", "--watch", "--output-format", "concise", ".")
    assert result.exit_code == 2
    assert "pip install -e 'path/to/toolret[watch]'" in result.stderr
    assert "TRV101" not in result.stdout and "Watching" not in result.stdout
    assert "Starting linter" not in result.stdout
    assert not (tmp_path / ".toolret_cache").exists()  # no check ran


def test_server_is_the_language_server(toolret_cli: Invoke) -> None:
    result = toolret_cli("server", "--help")
    assert result.exit_code == 0, result.output
    assert "Usage: main server" in result.stdout or "server [OPTIONS]" in result.stdout
    assert "language server" in result.stdout
    assert "server" in toolret_cli("--help").stdout


def test_version_subcommand(toolret_cli: Invoke) -> None:
    result = toolret_cli("version")
    assert (result.exit_code, result.stdout) == (0, f"toolret {__version__}\n")
    as_json = toolret_cli("version", "--output-format", "json")
    assert json.loads(as_json.stdout) == {"version": __version__, "commit_info": None}


def test_rule_all(toolret_cli: Invoke) -> None:
    from lint_rules.rules import all_rules

    codes = [rule.code for rule in all_rules()]
    text = toolret_cli("rule", "--all")
    assert text.exit_code == 0
    for code in codes:
        assert f"({code})" in text.stdout or code in text.stdout
    assert text.stdout == "\n".join(toolret_cli("rule", code).stdout for code in codes)
    as_json = toolret_cli("rule", "--all", "--output-format", "json")
    assert [item["code"] for item in json.loads(as_json.stdout)] == codes
    assert toolret_cli("rule").exit_code == 2
    assert toolret_cli("rule", "--all", "TRV101").exit_code == 2
    assert toolret_cli("rule", "TRV101").exit_code == 0


def test_clean_removes_the_caches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    monkeypatch.delenv("TOOLRET_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "count_bookings.py").write_text(STR_TOOL)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.py").write_text("x = 1\n")
    assert toolret_cli("check", ".").exit_code == 0
    monkeypatch.chdir(tmp_path / "sub")
    assert toolret_cli("check", ".").exit_code == 0
    monkeypatch.chdir(tmp_path)
    (tmp_path / "toolret.toml").write_text('cache-dir = "my-cache"\n')
    assert toolret_cli("check", ".").exit_code == 0
    caches = [tmp_path / ".toolret_cache", tmp_path / "sub" / ".toolret_cache"]
    assert all(path.is_dir() for path in [*caches, tmp_path / "my-cache"])
    keep = tmp_path / "not-a-cache"
    keep.mkdir()
    (keep / "data.txt").write_text("mine")
    result = toolret_cli("clean")
    assert result.exit_code == 0, result.output
    assert "Removing cache at: .toolret_cache" in result.stderr
    assert f"Removing cache at: {Path('sub', '.toolret_cache')}" in result.stderr
    assert not any(path.exists() for path in [*caches, tmp_path / "my-cache"])
    assert (keep / "data.txt").read_text() == "mine"
    # a cache-dir that is not a toolret cache is never removed
    (tmp_path / "toolret.toml").write_text('cache-dir = "not-a-cache"\n')
    assert toolret_cli("clean").exit_code == 0
    assert (keep / "data.txt").read_text() == "mine"


# -- item 7's flags: --preview, -v -------------------------------------------------


def test_preview_is_accepted_and_changes_nothing(project: Path, toolret_cli: Invoke) -> None:
    plain = toolret_cli("check", "--output-format", "json", ".")
    for flag in ("--preview", "--no-preview"):
        result = toolret_cli("check", flag, "--output-format", "json", ".")
        assert (result.exit_code, result.stdout) == (plain.exit_code, plain.stdout)
    assert "no preview rules" in toolret_cli("check", "--help").stdout


def test_verbose_says_which_config_governs_each_path(project: Path, toolret_cli: Invoke) -> None:
    (project / "other").mkdir()
    (project / "other" / "toolret.toml").write_text("")
    (project / "other" / "tool.py").write_text("x = 1\n")
    result = toolret_cli("check", "-v", ".")
    assert result.exit_code == 0, result.output
    root = project / "pyproject.toml"
    assert f"[toolret][DEBUG] Using configuration file (via parent) at: {root}" in result.stderr
    checked = project / "functions" / "count_bookings.py"
    assert f"Checking: {checked} (settings: {root})" in result.stderr
    nested = project / "other" / "toolret.toml"
    assert f"Checking: {project / 'other' / 'tool.py'} (settings: {nested})" in result.stderr
    assert "Checked 2 files in: " in result.stderr
    assert "DEBUG" not in toolret_cli("check", ".").stderr
    assert "DEBUG" not in toolret_cli("check", "-v", "-q", ".").stderr
