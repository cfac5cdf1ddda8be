"""TRV004 (unused-noqa, ruff's RUF100) through ``toolret check``: what it reports, with
ruff 0.17's messages, its fix, ``external``, and where it stays silent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import Result

from tests.conftest import Invoke

SERVER = """\
from fastmcp import FastMCP

mcp = FastMCP("orders")


@mcp.tool
def status(order: str) -> str:
    return order{comment}
"""

POLYAI = "def count_bookings(conv):\n    return len(conv.state.bookings){comment}\n"


def _write(root: Path, comment: str, *, polyai: bool = False) -> Path:
    if polyai:
        path = root / "functions" / "count_bookings.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(POLYAI.format(comment=comment), encoding="utf-8")
    else:
        path = root / "server.py"
        path.write_text(SERVER.format(comment=comment), encoding="utf-8")
    return path


def _concise(invoke: Invoke, *args: str) -> Result:
    return invoke("check", "--isolated", "--output-format", "concise", *args)


def _trv004(result: Result) -> list[str]:
    return [line for line in result.stdout.splitlines() if " TRV004 " in line]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_off_by_default_and_reported_when_selected(here: Path, toolret_cli: Invoke) -> None:
    _write(here, "  # noqa: TRV601")
    assert _concise(toolret_cli, "server.py").exit_code == 0
    result = _concise(toolret_cli, "--extend-select", "TRV004", "server.py")
    assert result.exit_code == 1
    assert _trv004(result) == [
        "server.py:8:19: TRV004 [*] Unused `noqa` directive (unused: `TRV601`)"
    ]


def test_a_directive_that_suppresses_is_not_reported(here: Path, toolret_cli: Invoke) -> None:
    _write(here, "  # noqa: TRV101", polyai=True)
    result = _concise(toolret_cli, "--extend-select", "TRV004", ".")
    assert result.exit_code == 0, result.stdout


@pytest.mark.parametrize(
    ("comment", "message"),
    [
        ("  # noqa", "Unused blanket `noqa` directive"),
        ("  # noqa: TRV606", "Unused `noqa` directive (non-enabled: `TRV606`)"),
        (
            "  # noqa: TRV601, TRV601",
            "Unused `noqa` directive (unused: `TRV601`; duplicated: `TRV601`)",
        ),
        ("  # noqa: TRV110", "Unused `noqa` directive (unknown: `TRV110`)"),
        ("  # noqa: TRV6", "Unused `noqa` directive (unused: `TRV6`)"),
        (
            "  # noqa: E501, TRV601, TRV606, TRV110",
            "Unused `noqa` directive (unused: `TRV601`; non-enabled: `TRV606`; unknown: `TRV110`)",
        ),
    ],
)
def test_ruffs_message_forms(here: Path, toolret_cli: Invoke, comment: str, message: str) -> None:
    _write(here, comment)
    result = _concise(toolret_cli, "--extend-select", "TRV004", "server.py")
    assert _trv004(result) == [f"server.py:8:19: TRV004 [*] {message}"]


@pytest.mark.parametrize(
    "comment",
    [
        "  # noqa: E501",  # another tool's code: ruff's RUF100 ignores codes it does not know
        "  # noqa: TRV004, TRV601",  # lists TRV004 itself (ruff: RUF100 listed on the line)
        "  # noqa: TRV",  # a prefix that covers TRV004
    ],
)
def test_codes_it_does_not_judge(here: Path, toolret_cli: Invoke, comment: str) -> None:
    _write(here, comment)
    result = _concise(toolret_cli, "--extend-select", "TRV004", "server.py")
    assert _trv004(result) == [], result.stdout


def test_file_directive_for_trv004_turns_it_off(here: Path, toolret_cli: Invoke) -> None:
    path = _write(here, "  # noqa: TRV601")
    path.write_text("# toolret: noqa: TRV004\n" + path.read_text(), encoding="utf-8")
    result = _concise(toolret_cli, "--extend-select", "TRV004", "server.py")
    assert _trv004(result) == []


def test_unused_file_directive(here: Path, toolret_cli: Invoke) -> None:
    path = _write(here, "")
    path.write_text("# ruff: noqa: TRV601\n" + path.read_text(), encoding="utf-8")
    result = _concise(toolret_cli, "--extend-select", "TRV004", "server.py")
    assert _trv004(result) == [
        "server.py:1:1: TRV004 [*] Unused `noqa` directive (unused: `TRV601`)"
    ]
    assert (
        toolret_cli(
            "check", "--isolated", "--extend-select", "TRV004", "--fix", "server.py"
        ).exit_code
        == 0
    )
    assert path.read_text(encoding="utf-8") == SERVER.format(comment="")


def test_per_file_ignores_make_a_code_non_enabled(here: Path, toolret_cli: Invoke) -> None:
    _write(here, "  # noqa: TRV101", polyai=True)
    (here / "toolret.toml").write_text(
        'extend-select = ["TRV004"]\n[per-file-ignores]\n"functions/*" = ["TRV101"]\n'
    )
    result = toolret_cli("check", "--output-format", "concise", ".")
    assert _trv004(result) == [
        "functions/count_bookings.py:2:38: TRV004 [*] Unused `noqa` directive "
        "(non-enabled: `TRV101`)"
    ]


@pytest.mark.parametrize("table", ["", "[lint]\n"])
def test_external_codes_are_never_reported(here: Path, toolret_cli: Invoke, table: str) -> None:
    _write(here, "  # noqa: TRV601, TRV110")
    (here / "toolret.toml").write_text(
        f'{table}extend-select = ["TRV004"]\nexternal = ["TRV6", "TRV11"]\n'
    )
    result = toolret_cli("check", "--output-format", "concise", "server.py")
    assert result.exit_code == 0, result.stdout


def test_external_is_validated_with_its_position(here: Path, toolret_cli: Invoke) -> None:
    _write(here, "")
    (here / "toolret.toml").write_text('[lint]\nexternal = ["TRV", "e501"]\n')
    result = toolret_cli("check", "server.py")
    assert result.exit_code == 2
    assert "toolret.toml:2:20: `e501` is not a rule code or code prefix" in result.stderr


@pytest.mark.parametrize(
    ("comment", "fixed"),
    [
        ("  # noqa: TRV601", ""),
        ("  # noqa: E501, TRV601", "  # noqa: E501"),
        ("  # noqa: TRV601 legacy reason", "  # legacy reason"),
        ("  # noqa: TRV601  # type: ignore", "  # type: ignore"),
    ],
)
def test_fix_removes_the_unused_code_or_the_comment(
    here: Path, toolret_cli: Invoke, comment: str, fixed: str
) -> None:
    path = _write(here, comment)
    result = toolret_cli("check", "--isolated", "--extend-select", "TRV004", "--fix", "server.py")
    assert result.exit_code == 0, result.stdout
    assert path.read_text(encoding="utf-8") == SERVER.format(comment=fixed)


def test_fix_deletes_a_directive_alone_on_its_line(here: Path, toolret_cli: Invoke) -> None:
    path = _write(here, "")
    path.write_text(path.read_text() + "# noqa: TRV601\n", encoding="utf-8")
    assert (
        toolret_cli(
            "check", "--isolated", "--extend-select", "TRV004", "--fix", "server.py"
        ).exit_code
        == 0
    )
    assert path.read_text(encoding="utf-8") == SERVER.format(comment="")


def test_add_noqa_then_fix_the_code_then_the_leftover_is_reported(
    here: Path, toolret_cli: Invoke
) -> None:
    path = _write(here, "", polyai=True)
    added = toolret_cli("check", "--isolated", "--add-noqa", ".")
    assert added.exit_code == 0, added.stderr
    assert path.read_text() == POLYAI.format(comment="  # noqa: TRV101")
    # The finding is fixed by hand; the directive stays behind.
    path.write_text(path.read_text().replace("len(conv.state.bookings)", "'none'"))
    result = _concise(toolret_cli, "--extend-select", "TRV004", ".")
    assert _trv004(result) == [
        "functions/count_bookings.py:2:20: TRV004 [*] Unused `noqa` directive (unused: `TRV101`)"
    ]
    fixed = toolret_cli("check", "--isolated", "--extend-select", "TRV004", "--fix", ".")
    assert fixed.exit_code == 0, fixed.stdout
    assert path.read_text() == "def count_bookings(conv):\n    return 'none'\n"


def test_json_gives_a_safe_fix(here: Path, toolret_cli: Invoke) -> None:
    _write(here, "  # noqa: TRV601")
    result = toolret_cli(
        "check", "--isolated", "--extend-select", "TRV004", "--output-format", "json", "server.py"
    )
    (found,) = json.loads(result.stdout)
    assert found["code"] == "TRV004" and found["name"] == "unused-noqa"
    assert found["location"] == {"row": 8, "column": 19}
    assert found["end_location"] == {"row": 8, "column": 33}
    assert found["fix"]["message"] == "Remove unused `noqa` directive"
    assert found["fix"]["applicability"] == "safe"
    assert found["fix"]["edits"] == [
        {
            "content": "",
            "location": {"row": 8, "column": 17},
            "end_location": {"row": 8, "column": 33},
        }
    ]


def test_ignore_noqa_does_not_change_the_judgement(here: Path, toolret_cli: Invoke) -> None:
    _write(here, "  # noqa: TRV101", polyai=True)
    result = _concise(toolret_cli, "--extend-select", "TRV004", "--ignore-noqa", ".")
    assert "TRV101" in result.stdout
    assert _trv004(result) == []  # the directive does suppress TRV101 (ruff's RUF100 too)


def test_not_judged_when_the_file_does_not_parse(here: Path, toolret_cli: Invoke) -> None:
    path = _write(here, "  # noqa: TRV601")
    path.write_text(path.read_text() + "def broken(:\n", encoding="utf-8")
    result = _concise(toolret_cli, "--extend-select", "TRV004", "server.py")
    assert "TRV001" in result.stdout
    assert _trv004(result) == []


@pytest.mark.parametrize("select", ["TRV004", "TRV004,TRV002"])
def test_not_judged_when_a_rule_crashed(
    here: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch, select: str
) -> None:
    from lint_rules.rules import get_rule

    rule = get_rule("TRV601")
    assert rule is not None

    def crash(self: object, context: object, settings: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(rule, "check", crash)
    _write(here, "  # noqa: TRV601")
    args = ["--extend-select", select]
    if "TRV002" not in select:
        args += ["--ignore", "TRV002"]
    result = _concise(toolret_cli, "--no-cache", *args, "server.py")
    assert _trv004(result) == [], result.stdout


def test_notebook_cell_with_an_unused_directive(here: Path, toolret_cli: Invoke) -> None:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Orders"]},
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": SERVER.format(comment="  # noqa: TRV601").rstrip("\n").splitlines(True),
        },
    ]
    notebook = {
        "cells": cells,
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = here / "orders.ipynb"
    path.write_text(json.dumps(notebook, indent=1) + "\n", encoding="utf-8")
    result = _concise(toolret_cli, "--extend-select", "TRV004", "orders.ipynb")
    assert _trv004(result) == [
        "orders.ipynb:cell 2:8:19: TRV004 [*] Unused `noqa` directive (unused: `TRV601`)"
    ]
    fixed = toolret_cli("check", "--isolated", "--extend-select", "TRV004", "--fix", "orders.ipynb")
    assert fixed.exit_code == 0, fixed.stdout
    source = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][1]["source"])
    assert source == SERVER.format(comment="").rstrip("\n")
