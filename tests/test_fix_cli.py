"""``toolret fix`` / ``check --fix`` / ``--diff`` and the LibCST codemod, end to end."""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest
from click.testing import Result

from lint_rules import fixes
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.config import Settings
from lint_rules.engine import check_source
from lint_rules.frameworks.polyai import trv101
from lint_rules.model import Applicability
from lint_rules.rules import EditSpec, FixSpec, wrap_in_str

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
Invoke = Callable[..., Result]

COUNT_TOOL = "def count(conv):\n    return 3  # the count\n"
LIST_TOOL = "def branches(conv):\n    return ['Camden', 'Soho']\n"  # TRV101 without a fix
BEHAVIOUR = """\
from agents import ToolsToFinalOutputResult


def return_count(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output=len(results))
"""
AGENT = """\
from agents import Agent

from app.behaviour import return_count

agent = Agent(name="Tickets", tool_use_behavior=return_count)
"""
CODEMOD_CONFIG = """\
generated_code_marker: '@generated'
formatter: []
blacklist_patterns: []
modules:
- 'libcst.codemod.commands'
- 'lint_rules.codemods'
repo_root: '.'
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    functions = tmp_path / "functions"
    functions.mkdir()
    (functions / "count.py").write_text(COUNT_TOOL)
    (functions / "branches.py").write_text(LIST_TOOL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )


# ------------------------------------------------------------------ exit codes and output


def test_fix_reports_what_remains_and_exits_1(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("fix", "--no-cache", "--output-format", "concise")
    assert result.exit_code == 1
    assert (project / "functions" / "count.py").read_text() == (
        "def count(conv):\n    return str(3)  # the count\n"
    )
    assert result.stdout.splitlines() == [
        "functions/branches.py:2:12: TRV101 PolyAI function `branches` returns `list`; "
        "Agent Studio accepts only a `str` or a `dict`",
        "Found 2 errors (1 fixed, 1 remaining).",
    ]
    assert result.stderr == ""


def test_check_fix_is_the_same_and_exits_0_when_nothing_remains(
    project: Path, toolret_cli: Invoke
) -> None:
    (project / "functions" / "branches.py").unlink()
    result = toolret_cli("check", "--fix", "--no-cache")
    assert (result.exit_code, result.stdout) == (0, "Found 1 error (1 fixed, 0 remaining).\n")
    again = toolret_cli("check", "--fix", "--no-cache")
    assert (again.exit_code, again.stdout) == (0, "All checks passed!\n")


def test_exit_non_zero_on_fix_and_exit_zero(project: Path, toolret_cli: Invoke) -> None:
    (project / "functions" / "branches.py").unlink()
    fixed = toolret_cli("fix", "--no-cache", "--exit-non-zero-on-fix")
    assert fixed.exit_code == 1
    nothing_to_fix = toolret_cli("fix", "--no-cache", "--exit-non-zero-on-fix")
    assert nothing_to_fix.exit_code == 0
    (project / "functions" / "branches.py").write_text(LIST_TOOL)
    assert toolret_cli("fix", "--no-cache", "--exit-zero").exit_code == 0


def test_bad_configuration_exits_2(project: Path, toolret_cli: Invoke) -> None:
    (project / "pyproject.toml").write_text("[tool.toolret]\nselekt = ['TRV1']\n")
    result = toolret_cli("fix", "--no-cache")
    assert result.exit_code == 2
    assert (project / "functions" / "count.py").read_text() == COUNT_TOOL


def test_unsafe_fixes_only_with_the_flag(project: Path, toolret_cli: Invoke) -> None:
    end_call = project / "functions" / "end_call.py"
    end_call.write_text('def end_call(conv):\n    return {"utterence": "Bye"}\n')
    safe = toolret_cli("fix", "--no-cache", "--select", "TRV105")
    assert safe.exit_code == 1
    assert "1 unsafe fix available with `--fix --unsafe-fixes`." in safe.stdout
    assert "utterence" in end_call.read_text()
    unsafe = toolret_cli("fix", "--no-cache", "--select", "TRV105", "--unsafe-fixes")
    assert unsafe.exit_code == 0
    assert end_call.read_text() == 'def end_call(conv):\n    return {"utterance": "Bye"}\n'


def test_noqa_line_is_not_fixed(project: Path, toolret_cli: Invoke) -> None:
    count = project / "functions" / "count.py"
    count.write_text("def count(conv):\n    return 3  # noqa: TRV101\n")
    result = toolret_cli("fix", "--no-cache", "functions/count.py")
    assert (result.exit_code, result.stdout) == (0, "All checks passed!\n")
    assert count.read_text() == "def count(conv):\n    return 3  # noqa: TRV101\n"


# ------------------------------------------------------------------ --diff


@pytest.mark.parametrize("command", [["fix", "--diff"], ["check", "--diff"]])
def test_diff_prints_and_writes_nothing(
    project: Path, toolret_cli: Invoke, command: list[str]
) -> None:
    count = project / "functions" / "count.py"
    before = count.stat()
    result = toolret_cli(*command, "--no-cache")
    assert result.exit_code == 1
    assert result.stdout == (
        "--- functions/count.py\n"
        "+++ functions/count.py\n"
        "@@ -1,2 +1,2 @@\n"
        " def count(conv):\n"
        "-    return 3  # the count\n"
        "+    return str(3)  # the count\n"
        "\n"
        "Would fix 1 error.\n"
    )
    after = count.stat()
    assert count.read_text() == COUNT_TOOL
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert sorted(p.name for p in count.parent.iterdir()) == ["branches.py", "count.py"]


def test_diff_exits_0_when_nothing_would_change(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("fix", "--diff", "--no-cache", "functions/branches.py")
    assert (result.exit_code, result.stdout) == (0, "")


# ------------------------------------------------------------------ safety


def test_file_modified_between_read_and_write_is_left_alone(
    project: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = project / "functions" / "count.py"
    edited = "def count(conv):\n    return 4  # edited in the editor meanwhile\n"
    real_fix_file = fixes.fix_file

    def fix_while_someone_saves(*args: object, **kwargs: object) -> fixes.FileFix:
        outcome = real_fix_file(*args, **kwargs)  # type: ignore[arg-type]
        count.write_text(edited)  # between our read and our write
        return outcome

    monkeypatch.setattr(fixes, "fix_file", fix_while_someone_saves)
    result = toolret_cli("fix", "--no-cache", "functions/count.py")
    assert count.read_text() == edited
    assert result.exit_code == 1  # nothing was fixed: the diagnostic remains
    assert "Found 1 error." in result.stdout
    assert result.stderr == (
        "error: functions/count.py: not fixed: the file changed while toolret was fixing it; "
        "it was left as it is (run the fix again)\n"
    )


def test_fix_that_would_not_parse_is_dropped_and_reported(
    project: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_wrap(expr: object, module: object) -> FixSpec:
        return FixSpec("Wrap", Applicability.SAFE, (EditSpec(expr, "str(", "before"),))  # type: ignore[arg-type]

    monkeypatch.setattr(trv101, "wrap_in_str", broken_wrap)
    result = toolret_cli("fix", "--no-cache", "functions/count.py")
    assert result.exit_code == 1
    assert (project / "functions" / "count.py").read_text() == COUNT_TOOL
    assert result.stderr.startswith(
        "error: functions/count.py:2:12: fix for TRV101 not applied: "
        "the fixed code would not parse: '(' was never closed"
    )
    assert "Found 1 error." in result.stdout


def test_a_rejected_fix_is_not_counted_as_fixable_after_fixing(
    project: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    # TRV101's fix breaks `return 3` (count.py) only; `return 4.5` is fixed as usual,
    # TRV105's unsafe fix stays available, branches.py's TRV101 has no fix.
    functions = project / "functions"
    (functions / "price.py").write_text("def price(conv):\n    return 4.5\n")
    (functions / "end_call.py").write_text('def end_call(conv):\n    return {"utterence": "Bye"}\n')

    def wrap_but_not_three(expr: cst.BaseExpression, module: ParsedModule) -> FixSpec | None:
        if isinstance(expr, cst.Integer) and expr.value == "3":
            return FixSpec("Wrap", Applicability.SAFE, (EditSpec(expr, "str(", "before"),))
        return wrap_in_str(expr, module)

    monkeypatch.setattr(trv101, "wrap_in_str", wrap_but_not_three)
    rejection = (
        "error: functions/count.py:2:12: fix for TRV101 not applied: "
        "the fixed code would not parse: '(' was never closed"
    )
    before = toolret_cli("check", "--no-cache", "--output-format", "concise")
    assert before.stdout.endswith(  # `check` alone cannot know: it tries no fix
        "Found 4 errors.\n"
        "[*] 2 fixable with `--fix` (1 unsafe fix available with `--fix --unsafe-fixes`).\n"
    )

    would = toolret_cli("fix", "--diff", "--no-cache")
    assert would.exit_code == 1
    assert would.stderr.startswith(rejection)
    assert "+    return str(4.5)\n" in would.stdout
    assert "functions/count.py" not in would.stdout
    assert would.stdout.endswith(
        "Would fix 1 error (1 additional fix available with `--unsafe-fixes`).\n"
    )

    fixed = toolret_cli("fix", "--no-cache", "--output-format", "concise")
    assert fixed.exit_code == 1
    assert fixed.stderr.startswith(rejection)
    assert (functions / "count.py").read_text() == COUNT_TOOL
    assert (functions / "price.py").read_text() == "def price(conv):\n    return str(4.5)\n"
    assert "[*]" not in fixed.stdout
    assert fixed.stdout.endswith(
        "Found 4 errors (1 fixed, 3 remaining).\n"
        "1 unsafe fix available with `--fix --unsafe-fixes`.\n"
    )

    again = toolret_cli("check", "--fix", "--no-cache", "--output-format", "json")
    assert again.exit_code == 1
    assert again.stderr.startswith(rejection)  # the warning is still printed
    fix_by_file = {Path(d["filename"]).name: d["fix"] for d in json.loads(again.stdout)}
    assert fix_by_file["count.py"] is None  # `--fix` would only reject it again
    assert fix_by_file["end_call.py"]["applicability"] == "unsafe"
    summary = toolret_cli("check", "--fix", "--no-cache", "--output-format", "concise")
    assert summary.stdout.endswith(
        "Found 3 errors.\n1 unsafe fix available with `--fix --unsafe-fixes`.\n"
    )


def test_write_failure_exits_2(
    project: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    result = toolret_cli("fix", "--no-cache", "functions/count.py")
    assert result.exit_code == 2
    assert "cannot write it" in result.stderr
    assert (project / "functions" / "count.py").read_text() == COUNT_TOOL


def test_crlf_bom_and_latin1_files_round_trip_through_the_cli(
    project: Path, toolret_cli: Invoke
) -> None:
    functions = project / "functions"
    (functions / "crlf.py").write_bytes(b"def crlf(conv):\r\n    return 3\r\n")
    (functions / "bom.py").write_bytes(b"\xef\xbb\xbfdef bom(conv):\n    return 3\n")
    latin = "# -*- coding: latin-1 -*-\ndef latin(conv):\n    x = 'café'\n    return 3\n"
    (functions / "latin.py").write_bytes(latin.encode("latin-1"))
    assert toolret_cli("fix", "--no-cache", "--select", "TRV101", "functions").exit_code == 1
    assert (functions / "crlf.py").read_bytes() == b"def crlf(conv):\r\n    return str(3)\r\n"
    assert (functions / "bom.py").read_bytes() == (
        b"\xef\xbb\xbfdef bom(conv):\n    return str(3)\n"
    )
    assert (functions / "latin.py").read_bytes() == latin.replace("3", "str(3)").encode("latin-1")


def test_cache_is_not_stale_after_fixing(project: Path, toolret_cli: Invoke) -> None:
    cache = ["--cache-dir", str(project / ".cache")]
    assert "TRV101 [*]" in toolret_cli("check", *cache, "--output-format", "concise").stdout
    toolret_cli("fix", *cache)
    after = toolret_cli("check", *cache, "--output-format", "json")
    remaining = json.loads(after.stdout)
    assert [Path(d["filename"]).name for d in remaining] == ["branches.py"]


def test_stdin_fix_writes_the_code_to_stdout(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli(
        "check", "--fix", "-", "--stdin-filename", "functions/count.py", input=COUNT_TOOL
    )
    assert result.exit_code == 0
    assert result.stdout == "def count(conv):\n    return str(3)  # the count\n"
    assert result.stderr == "Found 1 error (1 fixed, 0 remaining).\n"
    assert (project / "functions" / "count.py").read_text() == COUNT_TOOL


# ------------------------------------------------------------------ acceptance on examples/


_SAFE_RENAMES = {("isError", "is_error")}
"""The safe fixes that rename rather than insert (TRC002's key)."""


def inserted_text(old: str, new: str) -> list[str]:
    """What was inserted to turn ``old`` into ``new``; fails on any deletion or replacement
    but the safe renames."""
    for before, after in _SAFE_RENAMES:
        old = old.replace(f'"{before}"', f'"{after}"')
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    inserted = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        assert tag == "insert", f"{tag}: {old[i1:i2]!r} -> {new[j1:j2]!r}"
        inserted.append(new[j1:j2])
    return inserted


@pytest.fixture(scope="module")
def fixed_examples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("fixed") / "examples"
    shutil.copytree(EXAMPLES, work)
    result = run("-m", "lint_rules", "fix", "--no-cache", "examples", cwd=work.parent)
    assert result.returncode == 1, result.stderr  # the examples keep unfixable mistakes
    assert result.stderr == ""
    return work


def test_fix_then_check_leaves_only_diagnostics_without_a_safe_fix(fixed_examples: Path) -> None:
    result = run(
        "-m", "lint_rules", "check", "--no-cache", "--output-format", "json", "examples",
        cwd=fixed_examples.parent,
    )  # fmt: skip
    remaining = json.loads(result.stdout)
    assert remaining
    assert all(d["fix"] is None or d["fix"]["applicability"] != "safe" for d in remaining)


def test_the_examples_diff_is_only_the_safe_wraps(fixed_examples: Path) -> None:
    changed = 0
    for original in sorted(EXAMPLES.rglob("*")):
        if not original.is_file():
            continue
        old = original.read_text(encoding="utf-8")
        new = (fixed_examples / original.relative_to(EXAMPLES)).read_text(encoding="utf-8")
        if old == new:
            continue
        changed += 1
        assert len(old.splitlines()) == len(new.splitlines())  # formatting kept
        inserted = inserted_text(old, new)
        # the safe fixes: `x` → `str(x)`, `@mcp.tool` → `@mcp.tool()` (TRV601), and
        # `item.id` → `item.call_id` (TRR003)
        assert set(inserted) <= {")", "str(", "()", "call_"}, original
        assert inserted.count("str(") == inserted.count(")")
    assert changed >= 5  # the PolyAI and browser-use examples' int returns, at least


def test_libcst_codemod_fixes_the_examples_like_toolret_fix(
    fixed_examples: Path, tmp_path: Path
) -> None:
    """The documented config; every difference left must need a cross-file fact."""
    work = tmp_path / "examples"
    shutil.copytree(EXAMPLES, work)
    (tmp_path / ".libcst.codemod.yaml").write_text(CODEMOD_CONFIG)
    listed = run("-m", "libcst.tool", "list", cwd=tmp_path)
    assert "fix.ToolretFixCommand - " in listed.stdout
    result = run(
        "-m", "libcst.tool", "codemod", "fix.ToolretFixCommand", "--no-format",
        "--hide-progress", "examples",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Failed to codemod 0 files." in result.stderr
    # The codemod is at its fixed point for same-file facts (what it can see)...
    for path in sorted(work.rglob("*.py")):
        found = check_source(path.read_text(encoding="utf-8"), str(path), Settings(), Project())
        assert not fixes.fixes_to_apply(found), path
    # ...and what `toolret fix` still does on top of it needs whole-project facts.
    after_codemod = {p: p.read_bytes() for p in work.rglob("*") if p.is_file()}
    run("-m", "lint_rules", "fix", "--no-cache", "examples", cwd=tmp_path)
    for expected in sorted(fixed_examples.rglob("*")):
        if expected.is_file():
            actual = work / expected.relative_to(fixed_examples)
            assert actual.read_bytes() == expected.read_bytes(), actual
    cross_file = [p for p, data in after_codemod.items() if p.read_bytes() != data]
    assert all("openai_agents" in str(p) for p in cross_file), cross_file


def test_a_fix_that_changes_another_files_facts_is_followed_in_the_same_run(
    tmp_path: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Renaming `tool_use_behaviour=` (TRV310, unsafe) makes the agent name the
    # behaviour function of another module, whose int `final_output` TRV312 then
    # wraps: one `toolret fix`, and a second one has nothing left to do.
    (tmp_path / "pyproject.toml").write_text("")
    app = tmp_path / "app"
    app.mkdir()
    (app / "__init__.py").write_text("")
    behaviour = app / "behaviour.py"
    behaviour.write_text(BEHAVIOUR)
    agent = app / "agent.py"
    agent.write_text(AGENT.replace("tool_use_behavior", "tool_use_behaviour"))
    monkeypatch.chdir(tmp_path)

    first = toolret_cli("fix", "--no-cache", "--unsafe-fixes", "app")
    assert (first.exit_code, first.stdout) == (0, "Found 2 errors (2 fixed, 0 remaining).\n")
    assert agent.read_text() == AGENT
    assert behaviour.read_text() == BEHAVIOUR.replace("len(results)", "str(len(results))")
    again = toolret_cli("fix", "--no-cache", "--unsafe-fixes", "app")
    assert (again.exit_code, again.stdout) == (0, "All checks passed!\n")


def test_the_codemod_uses_same_file_facts_only(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    app = tmp_path / "app"
    app.mkdir()
    (app / "__init__.py").write_text("")
    (app / "behaviour.py").write_text(BEHAVIOUR)
    (app / "agent.py").write_text(AGENT)
    (tmp_path / ".libcst.codemod.yaml").write_text(CODEMOD_CONFIG)
    result = run(
        "-m", "libcst.tool", "codemod", "fix.ToolretFixCommand", "--no-format", "app",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert (app / "behaviour.py").read_text() == BEHAVIOUR  # its agent lives in agent.py


def test_codemod_by_class_path_and_without_no_format(tmp_path: Path) -> None:
    functions = tmp_path / "functions"
    functions.mkdir()
    (functions / "count.py").write_text(COUNT_TOOL)
    (tmp_path / ".libcst.codemod.yaml").write_text(CODEMOD_CONFIG)
    # `formatter: []` without `--no-format`: LibCST refuses, and writes nothing.
    refused = run(
        "-m", "libcst.tool", "codemod", "fix.ToolretFixCommand", "functions", cwd=tmp_path
    )
    assert refused.returncode == 1
    assert "No formatter configured" in refused.stderr
    assert (functions / "count.py").read_text() == COUNT_TOOL
    # `-x` names the class without the `modules` entry.
    (tmp_path / ".libcst.codemod.yaml").write_text("formatter: []\n")
    done = run(
        "-m", "libcst.tool", "codemod", "-x", "lint_rules.codemods.ToolretFixCommand",
        "--no-format", "functions",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (functions / "count.py").read_text() == COUNT_TOOL.replace("3", "str(3)")


def test_the_codemod_skips_what_the_configuration_excludes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import libcst as cst
    from libcst.codemod import CodemodContext, SkipFile

    from lint_rules.codemods import ToolretFixCommand

    (tmp_path / "pyproject.toml").write_text('[tool.toolret]\nextend-exclude = ["generated"]\n')
    kept = tmp_path / "functions" / "count.py"
    skipped = tmp_path / "generated" / "functions" / "count.py"
    monkeypatch.chdir(tmp_path)
    for path in (kept, skipped):
        path.parent.mkdir(parents=True)
        path.write_text(COUNT_TOOL)
    fixed = ToolretFixCommand(CodemodContext(filename=str(kept))).transform_module(
        cst.parse_module(COUNT_TOOL)
    )
    assert fixed.code == COUNT_TOOL.replace("3", "str(3)")
    with pytest.raises(SkipFile):
        ToolretFixCommand(CodemodContext(filename=str(skipped))).transform_module(
            cst.parse_module(COUNT_TOOL)
        )


def test_the_codemod_skips_what_gitignore_ignores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # libcst.tool walks without .gitignore; `toolret fix .` leaves these files alone.
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("gen/\nscratch_*.py\n")
    (tmp_path / "pyproject.toml").write_text("[tool.toolret]\n")
    for relative in ("functions/count.py", "gen/functions/count.py", "functions/scratch_a.py"):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(COUNT_TOOL)
    (tmp_path / ".libcst.codemod.yaml").write_text(CODEMOD_CONFIG)
    result = run(
        "-m", "libcst.tool", "codemod", "fix.ToolretFixCommand", "--no-format", ".",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "functions/count.py").read_text() == COUNT_TOOL.replace("3", "str(3)")
    assert (tmp_path / "gen/functions/count.py").read_text() == COUNT_TOOL
    assert (tmp_path / "functions/scratch_a.py").read_text() == COUNT_TOOL
    # With respect-gitignore = false, as `toolret fix` then, it fixes them too.
    (tmp_path / "pyproject.toml").write_text("[tool.toolret]\nrespect-gitignore = false\n")
    again = run(
        "-m", "libcst.tool", "codemod", "fix.ToolretFixCommand", "--no-format", ".",
        cwd=tmp_path,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "gen/functions/count.py").read_text() != COUNT_TOOL
