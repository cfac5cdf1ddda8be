"""``toolret check --add-noqa``: ruff's way of adopting a linter on an existing codebase."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from lint_rules import add_noqa
from lint_rules.add_noqa import noqa_line

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

Invoke = Callable[..., Result]


def _tool(tmp_path: Path, body: str, name: str = "count_bookings") -> Path:
    functions = tmp_path / "functions"
    functions.mkdir(exist_ok=True)
    path = functions / f"{name}.py"
    path.write_text(f"def {name}(conv):\n{body}", newline="")
    return path


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".toolret_cache" not in path.parts
    }


def test_examples_adopted_then_clean_idempotent_and_kept_by_ruff(
    tmp_path: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "examples"
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns(".toolret_cache"))
    monkeypatch.chdir(tmp_path)
    before = toolret_cli("check", "-n", "examples", "--output-format", "json")
    assert before.exit_code == 1
    findings = json.loads(before.stdout)
    lines = {(d["filename"], d["noqa_row"]) for d in findings}
    ruff_before = _unused_noqa(copy)

    added = toolret_cli("check", "-n", "examples", "--add-noqa")
    assert added.exit_code == 0, added.stderr  # ruff's --add-noqa exits 0
    assert added.stdout == ""
    assert added.stderr == f"Added {len(lines)} noqa directives.\n"

    after = toolret_cli("check", "-n", "examples")
    assert after.exit_code == 0, after.stdout
    assert after.stdout == "All checks passed!\n"

    snapshot = _snapshot(copy)
    again = toolret_cli("check", "-n", "examples", "--add-noqa")
    assert again.exit_code == 0
    assert again.stdout == again.stderr == ""  # ruff prints nothing when nothing was added
    assert _snapshot(copy) == snapshot

    if ruff_before is not None:  # RUF100 keeps every added comment (TRV is external)
        assert _unused_noqa(copy) == ruff_before
        assert not any("TRV" in message for _, message in ruff_before)


def _unused_noqa(root: Path) -> set[tuple[str, str]] | None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        return None
    run = subprocess.run(
        [ruff, "check", "--no-cache", "--isolated", "--select", "RUF100", "--config",
         'lint.external = ["TRV"]', "--output-format", "json", str(root)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode in (0, 1), run.stderr
    return {(d["filename"], d["message"]) for d in json.loads(run.stdout)}


INT_RETURN = "    return len(conv.state.bookings){comment}\n"


@pytest.mark.parametrize(
    ("comment", "expected"),
    [
        ("", "  # noqa: TRV101"),
        # ruff 0.17: an existing comment stays, the directive follows it.
        ("  # explain", "  # explain  # noqa: TRV101"),
        # Merged into another tool's directive, codes sorted as ruff writes them.
        ("  # noqa: E501", "  # noqa: E501, TRV101"),
        ("  # NOQA:W291,E501", "  # noqa: E501, TRV101, W291"),
        ("  # type: ignore  # noqa: E501", "  # type: ignore  # noqa: E501, TRV101"),
        # Unlike ruff, the text after the codes is kept.
        ("  # noqa: E501 long URL", "  # noqa: E501, TRV101 long URL"),
    ],
)
def test_directive_added_or_merged(
    in_tmp: Path, toolret_cli: Invoke, comment: str, expected: str
) -> None:
    path = _tool(in_tmp, INT_RETURN.format(comment=comment))
    result = toolret_cli("check", "-n", "--add-noqa")
    assert result.exit_code == 0
    assert result.stderr == "Added 1 noqa directive.\n"
    assert path.read_text() == f"def count_bookings(conv):\n{INT_RETURN.format(comment=expected)}"
    assert toolret_cli("check", "-n").exit_code == 0


def test_two_diagnostics_on_one_line_make_one_directive() -> None:
    assert noqa_line("x = 1\n", ["TRV201", "TRV101", "TRV101"]) == "x = 1  # noqa: TRV101, TRV201\n"
    assert noqa_line("x = 1  # noqa\n", ["TRV101"]) == "x = 1  # noqa\n"  # blanket already
    assert noqa_line("x = 1  # noqa: TRV1\n", ["TRV101"]) == "x = 1  # noqa: TRV1\n"  # prefix


def test_reason_after_equals_and_a_path_after_a_space(in_tmp: Path, toolret_cli: Invoke) -> None:
    path = _tool(in_tmp, INT_RETURN.format(comment=""))
    result = toolret_cli("check", "-n", "--add-noqa=fix later", "functions")
    assert result.exit_code == 0, result.output
    assert path.read_text().endswith("  # noqa: TRV101 fix later\n")
    other = _tool(in_tmp, INT_RETURN.format(comment=""), name="count_rooms")
    # `--add-noqa PATH`: PATH is a path (ruff needs `=` for the reason too).
    assert toolret_cli("check", "-n", "--add-noqa", str(other)).exit_code == 0
    assert other.read_text().endswith("bookings)  # noqa: TRV101\n")


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings_kept(in_tmp: Path, toolret_cli: Invoke, newline: str) -> None:
    path = _tool(in_tmp, INT_RETURN.format(comment=""))
    path.write_bytes(path.read_bytes().replace(b"\n", newline.encode()))
    assert toolret_cli("check", "-n", "--add-noqa").exit_code == 0
    nl = newline.encode()
    added = b"    return len(conv.state.bookings)  # noqa: TRV101"
    assert path.read_bytes() == b"def count_bookings(conv):" + nl + added + nl


def test_encoding_kept(in_tmp: Path, toolret_cli: Invoke) -> None:
    functions = in_tmp / "functions"
    functions.mkdir()
    path = functions / "count_bookings.py"
    source = (
        "# -*- coding: latin-1 -*-\n"
        "def count_bookings(conv):\n"
        "    label = 'réservé'\n"
        "    return len(conv.state.bookings)\n"
    )
    path.write_bytes(source.encode("latin-1"))
    assert toolret_cli("check", "-n", "--add-noqa").exit_code == 0
    expected = source.replace("bookings)\n", "bookings)  # noqa: TRV101\n")
    assert path.read_bytes() == expected.encode("latin-1")


def test_multiline_string_gets_it_on_its_last_line(in_tmp: Path, toolret_cli: Invoke) -> None:
    path = _tool(in_tmp, '    return len("""\n# not a comment\n""")\n')
    result = toolret_cli("check", "-n", "--add-noqa")
    assert result.exit_code == 0
    assert path.read_text() == (
        'def count_bookings(conv):\n    return len("""\n# not a comment\n""")  # noqa: TRV101\n'
    )
    assert toolret_cli("check", "-n").exit_code == 0


def test_a_parse_error_is_never_given_a_directive(in_tmp: Path, toolret_cli: Invoke) -> None:
    # An unterminated string: TRV001 is never silenced (tests/test_unsuppressible.py), so
    # nothing is written and nothing is said; the check after still reports it.
    path = _tool(in_tmp, '    return "abc\n', name="broken")
    before = path.read_bytes()
    result = toolret_cli("check", "-n", "--add-noqa")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert path.read_bytes() == before
    assert toolret_cli("check", "-n").exit_code == 1


def test_only_comments_ever_change() -> None:
    source = 'x = """\nabc\n"""\ny = 1\n'
    diagnostic_rows = {2: ["TRV101"], 4: ["TRV101"]}
    result = add_noqa.add_noqa_to_source(source, _diagnostics(diagnostic_rows))
    assert result.source == 'x = """\nabc\n"""\ny = 1  # noqa: TRV101\n'
    assert (result.added, result.skipped) == (1, [2])


def _diagnostics(rows: dict[int, list[str]]) -> list[object]:
    from lint_rules.model import Diagnostic, Location, Severity

    return [
        Diagnostic(
            code=code,
            name="n",
            message="m",
            severity=Severity("error"),
            filename="f.py",
            location=Location(row=row, column=1),
            end_location=Location(row=row, column=2),
        )
        for row, codes in rows.items()
        for code in codes
    ]


def test_a_file_changed_meanwhile_is_left_alone(
    in_tmp: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _tool(in_tmp, INT_RETURN.format(comment=""))
    real = add_noqa.add_noqa_to_source

    def edit_meanwhile(*args: object, **kwargs: object) -> add_noqa.AddNoqaResult:
        outcome = real(*args, **kwargs)  # type: ignore[arg-type]
        path.write_text(path.read_text() + "# edited\n")
        return outcome

    monkeypatch.setattr(add_noqa, "add_noqa_to_source", edit_meanwhile)
    result = toolret_cli("check", "-n", "--add-noqa")
    assert "the file changed while toolret was adding noqa directives" in result.stderr
    assert path.read_text().endswith("bookings)\n# edited\n")
    assert "Added" not in result.stderr


@pytest.mark.parametrize(
    ("flag", "conflict"),
    [
        ("--fix", "--fix"),
        ("--diff", "--diff"),
        ("--statistics", "--statistics"),
        ("--ignore-noqa", "--ignore-noqa"),
    ],
)
def test_conflicting_flags_exit_2(
    in_tmp: Path, toolret_cli: Invoke, flag: str, conflict: str
) -> None:
    path = _tool(in_tmp, INT_RETURN.format(comment=""))
    result = toolret_cli("check", "-n", "--add-noqa", flag)
    assert result.exit_code == 2
    assert f"the argument '--add-noqa' cannot be used with '{conflict}'" in result.stderr
    assert "noqa" not in path.read_text()


def test_fix_only_is_ignored_with_a_warning_and_quiet_hides_the_count(
    in_tmp: Path, toolret_cli: Invoke
) -> None:
    path = _tool(in_tmp, INT_RETURN.format(comment=""))
    result = toolret_cli("check", "-n", "--add-noqa", "--fix-only")
    assert result.exit_code == 0
    assert result.stderr == (
        "warning: --fix is incompatible with --add-noqa.\nAdded 1 noqa directive.\n"
    )
    assert path.read_text().endswith("bookings)  # noqa: TRV101\n")  # not fixed: str(...)
    other = _tool(in_tmp, INT_RETURN.format(comment=""), name="count_rooms")
    quiet = toolret_cli("check", "-n", "-q", "--add-noqa")
    assert quiet.exit_code == 0
    assert quiet.stdout == quiet.stderr == ""
    assert other.read_text().endswith("  # noqa: TRV101\n")


def test_not_on_stdin(in_tmp: Path, toolret_cli: Invoke) -> None:
    for args in (("-",), ("--stdin-filename", "functions/x.py", "-")):
        result = toolret_cli("check", "-n", "--add-noqa", *args, input=INT_RETURN)
        assert result.exit_code == 2
        assert "the argument '--add-noqa' cannot be used on stdin" in result.stderr
