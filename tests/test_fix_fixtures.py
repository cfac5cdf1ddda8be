"""Fix fixtures: for each fixable rule, a project before and after ``toolret fix``.

``tests/fixtures/fixes/<CASE>/before/`` is copied to a temporary directory and
fixed with ``--select <CASE's codes>`` (``TRV105-TRV106`` selects both, and
shows a fix that only becomes possible after another one applied); unsafe
rules are fixed with ``--unsafe-fixes``. The result must equal ``after/``
byte for byte, fixing again must change nothing (idempotence), and the LibCST
codemod must produce the same files. The directories keep the layout PolyAI
recognises tool functions by (``functions/<name>.py``,
``flows/<flow>/functions/<name>.py``).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest
from click.testing import Result
from libcst.codemod import CodemodContext

from lint_rules.codemods import ToolretFixCommand
from lint_rules.model import Applicability
from lint_rules.rules import all_rules, get_rule

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "fixes"
CASES = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())


def files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def options(case: str) -> list[str]:
    codes = case.split("-")
    unsafe = any(
        (rule := get_rule(code)) is not None and rule.fix_applicability is Applicability.UNSAFE
        for code in codes
    )
    return ["--no-cache", "--select", ",".join(codes), *(["--unsafe-fixes"] if unsafe else [])]


def test_every_fixable_rule_has_a_fixture() -> None:
    fixable = {rule.code for rule in all_rules() if rule.fix_applicability is not None}
    covered = {code for case in CASES for code in case.split("-")}
    assert fixable <= covered, f"add tests/fixtures/fixes/<CODE>/ for {sorted(fixable - covered)}"
    for case in CASES:
        assert files(FIXTURES / case / "before").keys() == files(FIXTURES / case / "after").keys()
        assert files(FIXTURES / case / "before") != files(FIXTURES / case / "after")


@pytest.mark.parametrize("case", CASES)
def test_fix_turns_before_into_after(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Callable[..., Result]
) -> None:
    invoke = toolret_cli
    work = tmp_path / case
    shutil.copytree(FIXTURES / case / "before", work)
    monkeypatch.chdir(work)

    first = invoke("fix", *options(case), ".")
    assert first.exit_code == 0, first.output
    assert "remaining" in first.stdout and "0 remaining" in first.stdout
    assert files(work) == files(FIXTURES / case / "after")

    again = invoke("fix", *options(case), ".")
    assert again.exit_code == 0, again.output
    assert again.stdout == "All checks passed!\n"
    assert files(work) == files(FIXTURES / case / "after")

    diff = invoke("fix", *options(case), "--diff", ".")
    assert (diff.exit_code, diff.stdout) == (0, "")


@pytest.mark.parametrize("case", CASES)
def test_codemod_turns_before_into_after(case: str, tmp_path: Path) -> None:
    work = tmp_path / case
    shutil.copytree(FIXTURES / case / "before", work)
    flags = options(case)
    codes = flags[flags.index("--select") + 1]
    for relative, expected in files(FIXTURES / case / "after").items():
        path = work / relative
        for _ in range(2):  # the second run proves idempotence
            command = ToolretFixCommand(
                CodemodContext(filename=str(path)),
                unsafe_fixes="--unsafe-fixes" in flags,
                select=[codes],
            )
            output = command.transform_module(cst.parse_module(path.read_bytes()))
            path.write_bytes(output.bytes)
            assert path.read_bytes() == expected
