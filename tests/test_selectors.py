"""A rule selector that selects no rule is an error (exit 2), on the command line and in config.

A typo such as ``TRV110`` for ``TRV101`` used to be a warning and the run went on
without the rule: in CI that silently disables a check. ruff refuses it too.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from lint_rules.catalog import CODE_PREFIXES, DEFAULT_ENABLED
from lint_rules.flake8_plugin import ToolretChecker
from tests.conftest import Invoke

PREFIXES = ", ".join(f"`{p}`" for p in CODE_PREFIXES)
"""The registered prefixes, as the selector error lists them."""

TOOL = """\
from agents import function_tool


@function_tool
def lookup(city: str) -> str:
    return "sunny"
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tool.py").write_text(TOOL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# -- the command line --------------------------------------------------------


@pytest.mark.parametrize("flag", ["--select", "--extend-select", "--ignore"])
@pytest.mark.parametrize(
    ("selector", "hint"),
    [
        ("TRV999", ""),
        ("TRV110", " (did you mean `TRV101`?)"),
        ("TRV95", ""),  # a prefix that selects nothing
        ("TRV99", ""),
        ("trv101", " (did you mean `TRV101`?)"),
    ],
)
def test_unknown_selector_on_the_command_line_exits_2(
    project: Path, toolret_cli: Invoke, flag: str, selector: str, hint: str
) -> None:
    result = toolret_cli("check", "--no-cache", flag, selector, ".")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"toolret: error: invalid value '{selector}' for '{flag} <RULE_CODE>': "
        f"Unknown rule selector: `{selector}`{hint}\n"
    )


def test_one_bad_code_in_a_comma_list_is_enough(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("check", "--no-cache", "--select", "TRV1,TRV2,TRV109", ".")
    assert result.exit_code == 2
    assert "invalid value 'TRV109' for '--select <RULE_CODE>'" in result.stderr
    assert "(did you mean" in result.stderr


def test_a_malformed_selector_says_what_is_expected(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("check", "--no-cache", "--ignore", "E501", ".")
    assert result.exit_code == 2
    assert result.stderr == (
        "toolret: error: invalid value 'E501' for '--ignore <RULE_CODE>': "
        "Unknown rule selector: `E501` (expected `ALL` or "
        f"a code prefix ({PREFIXES}) followed by up to three "
        "digits, e.g. `TRV1`, `TRV101`)\n"
    )


def test_every_bad_flag_value_is_reported(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli(
        "check", "--no-cache", "--select", "TRV999", "--extend-select", "TRV95", "."
    )
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "toolret: error: invalid value 'TRV999' for '--select <RULE_CODE>': "
        "Unknown rule selector: `TRV999`",
        "toolret: error: invalid value 'TRV95' for '--extend-select <RULE_CODE>': "
        "Unknown rule selector: `TRV95`",
    ]


@pytest.mark.parametrize(
    "selector",
    ["ALL", "TRV", "TRV1", "TRV10", "TRV101", "TRV9", "TRV90", *sorted(DEFAULT_ENABLED)],
)
def test_valid_selectors_still_work(project: Path, toolret_cli: Invoke, selector: str) -> None:
    result = toolret_cli("check", "--no-cache", "--extend-select", selector, ".")
    assert result.exit_code in (0, 1), result.stderr
    assert "Unknown rule selector" not in result.stderr
    assert "selects no rule" not in result.stderr


def test_every_prefix_of_a_code_is_valid(project: Path, toolret_cli: Invoke) -> None:
    prefixes = sorted({code[:n] for code in DEFAULT_ENABLED for n in range(3, 6)})
    result = toolret_cli("check", "--no-cache", "--ignore", ",".join(prefixes), ".")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""


def test_fix_refuses_an_unknown_selector_too(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("fix", "--no-cache", "--select", "TRV999", ".")
    assert result.exit_code == 2
    assert "Unknown rule selector: `TRV999`" in result.stderr
    assert (project / "tool.py").read_text(encoding="utf-8") == TOOL


# -- config files ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "position"),
    [
        ("toolret.toml", 'select = ["TRV999"]\n', "1:11"),
        (".toolret.toml", 'ignore = ["TRV1", "TRV999"]\n', "1:19"),
        ("pyproject.toml", '[tool.toolret]\nextend-select = ["TRV999"]\n', "2:18"),
        ("pyproject.toml", '[tool.toolret.lint]\nignore = ["TRV999"]\n', "2:11"),
        (
            "pyproject.toml",
            '[tool.toolret.per-file-ignores]\n"tests/*" = ["TRV999"]\n',
            "2:14",
        ),
        (
            "toolret.toml",
            '[extend-per-file-ignores]\n"a.py" = ["TRV101", "TRV999"]\n',
            "2:21",
        ),
        ("toolret.toml", '[lint.per-file-ignores]\n"a.py" = ["TRV999"]\n', "2:11"),
    ],
)
def test_unknown_selector_in_a_config_file_exits_2(
    project: Path, toolret_cli: Invoke, name: str, text: str, position: str
) -> None:
    write(project / name, text)
    result = toolret_cli("check", "--no-cache", ".")
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == f"toolret: invalid configuration in {name}"
    assert lines[1] == f"{name}:{position}: Unknown rule selector: `TRV999`"


def test_a_prefix_that_selects_nothing_is_refused_in_config(
    project: Path, toolret_cli: Invoke
) -> None:
    write(project / "toolret.toml", 'extend-select = ["TRV95"]\n')
    result = toolret_cli("check", "--no-cache", ".")
    assert result.exit_code == 2
    assert "toolret.toml:1:18: Unknown rule selector: `TRV95`" in result.stderr


def test_config_typo_gets_a_suggestion(project: Path, toolret_cli: Invoke) -> None:
    write(project / "toolret.toml", 'ignore = ["TRV110"]\n')
    result = toolret_cli("check", "--no-cache", ".")
    assert result.exit_code == 2
    assert result.stderr == (
        "toolret: invalid configuration in toolret.toml\n"
        "toolret.toml:1:11: Unknown rule selector: `TRV110` (did you mean `TRV101`?)\n"
        "  |\n"
        '1 | ignore = ["TRV110"]\n'
        "  |           ^^^^^^^^\n"
    )


def test_show_files_refuses_an_unknown_selector(project: Path, toolret_cli: Invoke) -> None:
    write(project / "toolret.toml", 'ignore = ["TRV999"]\n')
    result = toolret_cli("check", "--show-files", ".")
    assert result.exit_code == 2
    assert "Unknown rule selector: `TRV999`" in result.stderr


def test_valid_prefixes_in_config_still_work(project: Path, toolret_cli: Invoke) -> None:
    write(project / "toolret.toml", 'select = ["ALL"]\nignore = ["TRV1", "TRV20", "TRV301"]\n')
    result = toolret_cli("check", "--no-cache", ".")
    assert result.exit_code in (0, 1), result.stderr
    assert result.stderr == ""


# -- the flake8 plugin -------------------------------------------------------


def test_flake8_reports_an_unknown_selector_as_trv002(project: Path) -> None:
    """flake8 owns selection there, but reads the same file: one TRV002 at line 1 (a
    plugin cannot stop flake8's run), with the position on one line."""
    write(project / "toolret.toml", 'ignore = ["TRV110"]\n')
    ToolretChecker._project = ToolretChecker._resolver = None
    try:
        path = project / "tool.py"
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        results = list(ToolretChecker(None, lines, str(path)).run())
    finally:
        ToolretChecker._project = ToolretChecker._resolver = None
    assert [(row, column, text) for row, column, text, _ in results] == [
        (
            1,
            0,
            "TRV002 toolret.toml:1:11: Unknown rule selector: `TRV110` (did you mean `TRV101`?)",
        )
    ]
