"""``toolret`` end to end: output shapes, exit codes, stdin, configuration errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

INT_TOOL = "def count_bookings(conv):\n    return len(conv.state.bookings)\n"
RUFF_JSON_KEYS = {
    "cell",
    "code",
    "end_location",
    "filename",
    "fix",
    "location",
    "message",
    "noqa_row",
    "url",
}


def toolret(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "lint_rules", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    functions = tmp_path / "functions"
    functions.mkdir()
    (functions / "count_bookings.py").write_text(INT_TOOL)
    (functions / "broken.py").write_text("def broken(conv):\n    return {'a': 1,\n")
    (tmp_path / "app.py").write_text("def unrelated(:\n")  # no signal: never reported
    return tmp_path


def test_syntax_error_and_finding_in_one_directory(project: Path) -> None:
    result = toolret("check", ".", "--output-format", "json", cwd=project)
    assert result.returncode == 1, result.stderr
    found = json.loads(result.stdout)
    assert [(Path(d["filename"]).name, d["code"]) for d in found] == [
        ("broken.py", "TRV001"),
        ("count_bookings.py", "TRV101"),
    ]


JSON_TOOL = (
    "import json\n\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('orders')\n\n\n"
    "@mcp.tool()\ndef order(order_id: str) -> str:\n"
    "    return json.dumps({'id': order_id, 'status': 'shipped'})\n"
)


def test_flake8_leaves_off_what_the_cli_leaves_off(tmp_path: Path) -> None:
    # TRV606 is off by default (an info rule the flake8 plugin's list once lacked):
    # flake8 reports it only when asked, as ``toolret check`` does.
    (tmp_path / "server.py").write_text(JSON_TOOL, encoding="utf-8")

    def flake8(*args: str) -> str:
        command = [sys.executable, "-m", "flake8", "--isolated", *args, "server.py"]
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        return done.stdout

    assert "TRV606" not in flake8()
    assert "TRV606" in flake8("--extend-select", "TRV606")


def test_flake8_does_not_crash_on_the_same_directory(project: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "E999,TRV", "."],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in result.stderr
    assert "functions/count_bookings.py:2:12: TRV101" in result.stdout
    assert "E999" in result.stdout


def test_json_has_exactly_ruffs_keys(project: Path) -> None:
    result = toolret("check", "functions/count_bookings.py", "--output-format", "json", cwd=project)
    (diagnostic,) = json.loads(result.stdout)
    assert RUFF_JSON_KEYS <= set(diagnostic) <= RUFF_JSON_KEYS | {"name", "severity"}
    assert diagnostic["location"] == {"column": 12, "row": 2}
    assert diagnostic["end_location"] == {"column": 36, "row": 2}
    assert diagnostic["fix"]["applicability"] == "safe"
    assert diagnostic["noqa_row"] == 2
    assert diagnostic["url"] is None  # no documentation site configured: no invented address
    assert os.path.isabs(diagnostic["filename"])


def test_json_lines_and_empty_json(project: Path) -> None:
    lines = toolret("check", "functions", "--output-format", "json-lines", cwd=project)
    assert [json.loads(line)["code"] for line in lines.stdout.splitlines()] == ["TRV001", "TRV101"]
    clean = toolret("check", "app.py", "--output-format", "json", cwd=project)
    assert clean.returncode == 0
    assert json.loads(clean.stdout) == []


def test_concise_matches_ruffs_line_shape(project: Path) -> None:
    result = toolret(
        "check", "functions/count_bookings.py", "--output-format", "concise", cwd=project
    )
    first = result.stdout.splitlines()[0]
    assert re.fullmatch(r"functions/count_bookings\.py:2:12: TRV101 \[\*\] .+", first), first
    assert "Found 1 error." in result.stdout


def test_full_output_shows_the_code_frame_and_fix_title(project: Path) -> None:
    result = toolret("check", "functions/count_bookings.py", cwd=project)
    assert "return len(conv.state.bookings)" in result.stdout
    assert "Wrap in `str()`" in result.stdout


def test_exit_zero_statistics_and_selection(project: Path) -> None:
    assert toolret("check", ".", "--exit-zero", cwd=project).returncode == 0
    assert toolret("check", ".", "--ignore", "TRV001,TRV101", cwd=project).returncode == 0
    stats = toolret("check", ".", "--statistics", cwd=project)
    assert "TRV101" in stats.stdout and stats.returncode == 1


def test_stdin_with_a_filename(project: Path) -> None:
    result = toolret(
        "check",
        "-",
        "--stdin-filename",
        "functions/count_bookings.py",
        "--output-format",
        "concise",
        cwd=project,
        stdin=INT_TOOL,
    )
    assert result.returncode == 1
    assert "count_bookings.py:2:12: TRV101" in result.stdout


def test_missing_path_is_trv003_and_bad_config_exits_2(project: Path) -> None:
    # As ruff (E902, exit 1): a missing path is a diagnostic, the other paths are checked.
    missing = toolret("check", "nope.py", ".", "--output-format", "concise", cwd=project)
    assert missing.returncode == 1
    assert "nope.py:1:1: TRV003 Cannot read file: No such file or directory" in missing.stdout
    assert "TRV101" in missing.stdout
    (project / "pyproject.toml").write_text('[tool.toolret]\nselct = ["TRV1"]\n')
    bad = toolret("check", ".", cwd=project)
    assert bad.returncode == 2
    assert "selct" in bad.stderr and "select" in bad.stderr and "pyproject.toml" in bad.stderr


def test_closest_config_applies(project: Path) -> None:
    (project / "functions" / "toolret.toml").write_text('ignore = ["TRV101"]\n')
    result = toolret("check", ".", "--output-format", "json", cwd=project)
    assert [d["code"] for d in json.loads(result.stdout)] == ["TRV001"]


def test_show_files_and_tool_functions(project: Path) -> None:
    files = toolret("check", ".", "--show-files", cwd=project)
    assert files.returncode == 0
    assert sorted(Path(line).name for line in files.stdout.splitlines()) == [
        "app.py",
        "broken.py",
        "count_bookings.py",
    ]
    tools = toolret("check", ".", "--show-tool-functions", cwd=project)
    assert "functions/count_bookings.py:1: count_bookings [PolyAI, tool]" in tools.stdout


def test_rule_and_rules(project: Path) -> None:
    page = toolret("rule", "TRV101", cwd=project)
    assert page.returncode == 0 and page.stdout.startswith("# polyai-invalid-return-type (TRV101)")
    listing = json.loads(toolret("rules", "--output-format", "json", cwd=project).stdout)
    assert {r["code"] for r in listing} >= {f"TRV10{n}" for n in range(1, 9)}
    assert toolret("rule", "TRV999", cwd=project).returncode == 2


def test_lsp_subcommand_is_wired(project: Path) -> None:
    result = toolret("lsp", "--help", cwd=project)
    assert result.returncode == 0 and "language server" in result.stdout


def test_output_file_and_every_format(project: Path) -> None:
    from lint_rules.cli import CHECK_FORMATS

    for fmt in CHECK_FORMATS:
        result = toolret(
            "check", "functions", "--output-format", fmt, "-o", f"out/{fmt}", cwd=project
        )
        assert result.returncode == 1, (fmt, result.stderr)
        assert result.stdout == ""
        assert "TRV101" in (project / "out" / fmt).read_text(encoding="utf-8"), fmt
    sarif = json.loads((project / "out" / "sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"


def test_statistics_with_an_unsupported_format_exits_2(project: Path) -> None:
    result = toolret("check", ".", "--statistics", "--output-format", "sarif", cwd=project)
    assert result.returncode == 2 and "statistics" in result.stderr.lower()


TOOLRET_SCRIPT = Path(sys.executable).with_name("toolret")
"""The installed ``toolret`` command (click names the completion variable after it)."""


@pytest.mark.skipif(not TOOLRET_SCRIPT.exists(), reason="the toolret command is not installed")
@pytest.mark.parametrize(
    ("shell", "marker"),
    [("bash", "complete -o"), ("zsh", "#compdef toolret"), ("fish", "complete --no-files")],
)
def test_shell_completion_scripts_as_the_readme_says(
    shell: str, marker: str, tmp_path: Path
) -> None:
    env = {**os.environ, "_TOOLRET_COMPLETE": f"{shell}_source"}
    done = subprocess.run(
        [str(TOOLRET_SCRIPT)],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and marker in done.stdout


@pytest.mark.skipif(not TOOLRET_SCRIPT.exists(), reason="the toolret command is not installed")
def test_shell_completion_completes_options(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "_TOOLRET_COMPLETE": "bash_complete",
        "COMP_WORDS": "toolret check --sel",
        "COMP_CWORD": "2",
    }
    done = subprocess.run(
        [str(TOOLRET_SCRIPT)],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "plain,--select" in done.stdout.splitlines()


def _colored(project: Path, *args: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    done = subprocess.run(
        [sys.executable, "-m", "lint_rules", "check", "functions/count_bookings.py", *args],
        cwd=project, env={**clean, **env}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    return done.stdout


@pytest.mark.parametrize("fmt", ["concise", "full"])
def test_colour_as_ruff_decides_it(project: Path, fmt: str) -> None:
    # Not a terminal: plain, unless FORCE_COLOR or --color always; NO_COLOR and --color
    # never win over a terminal; a report written to a file is never coloured.
    bold_red_code = "\x1b[1;31mTRV101\x1b[0m"
    assert "\x1b[" not in _colored(project, "--output-format", fmt)
    assert bold_red_code in _colored(project, "--output-format", fmt, FORCE_COLOR="1")
    assert bold_red_code in _colored(project, "--output-format", fmt, "--color", "always")
    assert "\x1b[" not in _colored(
        project, "--output-format", fmt, "--color", "never", FORCE_COLOR="1"
    )
    assert "\x1b[36m[*]\x1b[0m" in _colored(project, "--output-format", fmt, FORCE_COLOR="1")
    _colored(project, "--output-format", fmt, "-o", "report.txt", FORCE_COLOR="1")
    assert "\x1b[" not in (project / "report.txt").read_text(encoding="utf-8")


def test_machine_formats_are_never_coloured(project: Path) -> None:
    for fmt in ("json", "sarif", "github", "pylint"):
        assert "\x1b[" not in _colored(project, "--output-format", fmt, FORCE_COLOR="1")


def test_a_terminal_is_coloured_unless_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    from lint_rules import cli

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert cli._use_color(err=False, to_file=False)
    assert not cli._use_color(err=False, to_file=True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not cli._use_color(err=False, to_file=False)
