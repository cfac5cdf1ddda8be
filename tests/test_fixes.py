"""The fix engine (``lint_rules.fixes``): passes, conflicts, re-parsing, bytes, writing."""

from __future__ import annotations

import codecs
import os
import re
import stat
from pathlib import Path

import pytest

from lint_rules import fixes
from lint_rules.config import Settings
from lint_rules.engine import check_source
from lint_rules.fixes import (
    MAX_PASSES,
    FileChangedError,
    apply_fixes,
    fix_file,
    fix_source,
    unified_diff,
    write_atomic,
)
from lint_rules.model import Applicability, Diagnostic, Edit, Fix, Location, Severity

COUNT_TOOL = "def count(conv):\n    return 3\n"
LATIN_1 = "# -*- coding: latin-1 -*-\ndef count(conv):\n    x = 'café'\n    return 3\n"


def edit(content: str, row: int, column: int, end_row: int, end_column: int) -> Edit:
    return Edit(
        content=content,
        location=Location(row=row, column=column),
        end_location=Location(row=end_row, column=end_column),
    )


def diagnostic(code: str, row: int, column: int, end_column: int, *edits: Edit) -> Diagnostic:
    return Diagnostic(
        code=code,
        name=code.lower(),
        message=f"{code} message",
        severity=Severity.ERROR,
        filename="x.py",
        location=Location(row=row, column=column),
        end_location=Location(row=row, column=end_column),
        fix=Fix(message="fix", applicability=Applicability.SAFE, edits=edits) if edits else None,
    )


def wrap(code: str, row: int, column: int, end_column: int, name: str = "str") -> Diagnostic:
    """A diagnostic whose fix wraps columns [column, end_column) of ``row`` in ``name(...)``."""
    return diagnostic(
        code,
        row,
        column,
        end_column,
        edit(f"{name}(", row, column, row, column),
        edit(")", row, end_column, row, end_column),
    )


def polyai_check(path: str) -> fixes.Checker:
    def check(text: str) -> list[Diagnostic]:
        return check_source(text, path, Settings())

    return check


# ------------------------------------------------------------------ one pass


def test_edits_keep_the_users_parentheses_and_never_glue_tokens() -> None:
    # Wrapping the value inside the user's parentheses keeps them.
    text, applied, deferred = apply_fixes("return(3)\n", [wrap("T", 1, 8, 9).fix])  # type: ignore[list-item]
    assert (text, applied, deferred) == ("return(str(3))\n", 1, 0)
    # A fix that replaces them must not produce `returnstr(3)` (which parses!).
    replace = Fix(
        message="m", applicability=Applicability.SAFE, edits=(edit("str(3)", 1, 7, 1, 10),)
    )
    assert apply_fixes("return(3)\n", [replace])[0] == "return str(3)\n"
    # ...nor glue a number to the keyword after it.
    replace_end = Fix(
        message="m", applicability=Applicability.SAFE, edits=(edit("x", 1, 10, 1, 11),)
    )
    assert apply_fixes("y = a if 1else b\n", [replace_end])[0] == "y = a if x else b\n"


def test_a_line_break_in_an_edit_follows_the_files_line_endings() -> None:
    fix = Fix(
        message="m",
        applicability=Applicability.SAFE,
        edits=(edit("(\n    3\n)", 2, 12, 2, 13),),
    )
    assert apply_fixes("def f():\r\n    return 3\r\n", [fix])[0] == (
        "def f():\r\n    return (\r\n    3\r\n)\r\n"
    )


def test_rows_end_at_crlf_lf_and_a_lone_cr_like_cpythons() -> None:
    source = "a = 1\rb = 2\r\nc = 3\nd = 4"
    fix = wrap("T", 4, 5, 6).fix
    assert fix is not None
    assert apply_fixes(source, [fix])[0] == "a = 1\rb = 2\r\nc = 3\nd = str(4)"
    assert fixes.line_offsets(source) == [0, 6, 13, 19]


def test_overlapping_fixes_wait_and_identical_fixes_apply_once() -> None:
    first, second = wrap("A", 1, 5, 6), wrap("B", 1, 5, 6, name="float")
    same_as_first = wrap("C", 1, 5, 6)
    assert first.fix is not None and second.fix is not None and same_as_first.fix is not None
    text, applied, deferred = apply_fixes("x = 3\n", [first.fix, second.fix, same_as_first.fix])
    assert (text, applied, deferred) == ("x = str(3)\n", 2, 1)


def test_a_malformed_fix_is_never_applied() -> None:
    outside = Fix(message="m", applicability=Applicability.SAFE, edits=(edit("x", 5, 1, 5, 2),))
    past_line = Fix(message="m", applicability=Applicability.SAFE, edits=(edit("x", 1, 9, 1, 9),))
    crossed = Fix(
        message="m",
        applicability=Applicability.SAFE,
        edits=(edit("a", 1, 1, 1, 4), edit("b", 1, 2, 1, 3)),
    )
    assert apply_fixes("x = 3\ny\n", [outside, past_line, crossed]) == ("x = 3\ny\n", 0, 3)


# ------------------------------------------------------------------ fixed point


def test_two_fixes_on_one_node_the_second_applies_on_the_next_pass() -> None:
    # Two rules wrap the same `3`: their insertions collide, so one waits a pass
    # and then wraps what the first produced. Nothing is dropped.
    def check(text: str) -> list[Diagnostic]:
        found = []
        if "str(" not in text:
            found.append(wrap("A", 1, 5, 6))
        if "repr(" not in text:
            start = text.index("3") if "str(" not in text else text.index("str(")
            end = start + 1 if "str(" not in text else text.index(")") + 1
            found.append(wrap("B", 1, start + 1, end + 1, name="repr"))
        return found

    result = fix_source("x = 3\n", check)
    assert result.source == "x = repr(str(3))\n"
    assert [d.code for d in result.fixed] == ["A", "B"]
    assert (result.passes, result.remaining, result.rejected, result.converged) == (2, [], [], True)


def test_a_fix_whose_output_does_not_parse_is_dropped_and_reported() -> None:
    broken = diagnostic("BAD", 2, 12, 13, edit("str(", 2, 12, 2, 12))  # no closing paren
    good = wrap("GOOD", 3, 12, 13)

    def check(text: str) -> list[Diagnostic]:
        found = [broken] if "str(" not in text.splitlines()[1] else []
        return found + ([good] if "str(" not in text.splitlines()[2] else [])

    source = "def f():\n    return 3\n    return 4\n"
    result = fix_source(source, check)
    assert result.source == "def f():\n    return 3\n    return str(4)\n"
    assert [d.code for d in result.fixed] == ["GOOD"]
    assert [(r.diagnostic.code, r.reason.split(":")[0]) for r in result.rejected] == [
        ("BAD", "the fixed code would not parse")
    ]
    assert [d.code for d in result.remaining] == ["BAD"]  # still reported, not fixed
    assert result.remaining[0].fix is None  # not fixable: `--fix` would reject it again
    assert result.converged


def test_passes_are_bounded_and_what_is_left_is_reported() -> None:
    def check(text: str) -> list[Diagnostic]:  # a rule that is never satisfied
        end = len(text.rstrip("\n")) + 1
        return [wrap("LOOP", 1, 5, end)]

    result = fix_source("x = 3\n", check)
    assert result.passes == MAX_PASSES
    assert not result.converged
    assert [d.code for d in result.left_over] == ["LOOP"]
    assert result.source == "x = " + "str(" * MAX_PASSES + "3" + ")" * MAX_PASSES + "\n"


def test_unsafe_fixes_apply_only_when_asked(tmp_path: Path) -> None:
    path = str(tmp_path / "functions" / "end_call.py")
    source = 'def end_call(conv):\n    return {"utterence": "Bye", "hangup": True}\n'
    assert not fix_source(source, polyai_check(path)).changed
    fixed = fix_source(source, polyai_check(path), unsafe=True)
    assert fixed.source == source.replace("utterence", "utterance")


def test_noqa_suppressed_diagnostics_are_not_fixed(tmp_path: Path) -> None:
    path = str(tmp_path / "functions" / "count.py")
    source = "def count(conv):\n    return 3  # noqa: TRV101\n"
    result = fix_source(source, polyai_check(path))
    assert (result.changed, result.fixed, result.remaining) == (False, [], [])


# ------------------------------------------------------------------ bytes


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(
            b"def count(conv):\r\n    # \xc3\xa9t\xc3\xa9\r\n    return 3\r\n",
            b"def count(conv):\r\n    # \xc3\xa9t\xc3\xa9\r\n    return str(3)\r\n",
            id="crlf",
        ),
        pytest.param(
            b"def count(conv):\r    return 3\r", b"def count(conv):\r    return str(3)\r", id="cr"
        ),
        pytest.param(
            codecs.BOM_UTF8 + "def count(conv):\n    # café\n    return 3\n".encode(),
            codecs.BOM_UTF8 + "def count(conv):\n    # café\n    return str(3)\n".encode(),
            id="bom",
        ),
        pytest.param(
            LATIN_1.encode("latin-1"),
            LATIN_1.replace("return 3", "return str(3)").encode("latin-1"),
            id="latin-1-cookie",
        ),
        pytest.param(
            b"def count(conv):\n    return 3", b"def count(conv):\n    return str(3)", id="no-eol"
        ),
    ],
)
def test_bytes_round_trip(data: bytes, expected: bytes, tmp_path: Path) -> None:
    path = str(tmp_path / "functions" / "count.py")
    outcome = fix_file(path, data, polyai_check(path))
    assert outcome.problems == []
    assert outcome.fixed_bytes == expected
    again = fix_file(path, expected, polyai_check(path))
    assert again.fixed_bytes is None  # idempotent


def test_undecodable_file_is_reported_not_fixed(tmp_path: Path) -> None:
    path = str(tmp_path / "functions" / "count.py")
    outcome = fix_file(path, b"# coding: nope\n" + COUNT_TOOL.encode(), polyai_check(path))
    assert outcome.result is None and outcome.fixed_bytes is None
    assert "cannot decode" in outcome.problems[0].message


# ------------------------------------------------------------------ writing


def test_write_atomic_keeps_the_mode_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "count.py"
    target.write_text(COUNT_TOOL)
    target.chmod(0o751)
    inode = target.stat().st_ino
    write_atomic(str(target), b"new\n", expected=COUNT_TOOL.encode())
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o751
    assert target.stat().st_ino != inode  # replaced, not rewritten in place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["count.py"]


def test_write_atomic_follows_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_text(COUNT_TOOL)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    write_atomic(str(link), b"new\n", expected=COUNT_TOOL.encode())
    assert link.is_symlink() and target.read_bytes() == b"new\n"


def test_write_atomic_refuses_a_file_that_changed(tmp_path: Path) -> None:
    target = tmp_path / "count.py"
    target.write_text("edited meanwhile\n")
    with pytest.raises(FileChangedError):
        write_atomic(str(target), b"new\n", expected=COUNT_TOOL.encode())
    assert target.read_text() == "edited meanwhile\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["count.py"]


def test_write_atomic_cleans_up_when_the_replace_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "count.py"
    target.write_text(COUNT_TOOL)

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PermissionError):
        write_atomic(str(target), b"new\n", expected=COUNT_TOOL.encode())
    assert target.read_text() == COUNT_TOOL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["count.py"]


# ------------------------------------------------------------------ diff


def test_unified_diff_is_rufffs_shape() -> None:
    diff = unified_diff(COUNT_TOOL, COUNT_TOOL.replace("3", "str(3)"), "functions/count.py")
    assert diff == (
        "--- functions/count.py\n"
        "+++ functions/count.py\n"
        "@@ -1,2 +1,2 @@\n"
        " def count(conv):\n"
        "-    return 3\n"
        "+    return str(3)\n"
    )
    no_eol = unified_diff("x = 3", "x = str(3)", "a.py")
    assert (
        re.findall(r"\\ No newline at end of file\n", no_eol)
        == ["\\ No newline at end of file\n"] * 2
    )


def _apply_unified_diff(before: str, diff: str) -> str:
    """Apply ``diff`` to ``before`` as ``patch`` would, checking every context line."""
    old = fixes.split_lines(before)
    out: list[str] = []
    at = 0
    lines = fixes.split_lines(diff)[2:]
    for line in lines:
        if line.startswith("@@"):
            start, _, length = line.split()[1][1:].partition(",")
            # "-s,0" inserts after line s; any other range begins at line s.
            target = int(start) if length == "0" else int(start) - 1
            out += old[at:target]
            at = target
        elif line[0] in " -":
            assert old[at] == line[1:], (old[at], line)
            if line[0] == " ":
                out.append(old[at])
            at += 1
        else:
            out.append(line[1:])
    return "".join(out + old[at:])


def test_unified_diff_of_many_changes_is_linear_and_agrees_with_difflib() -> None:
    import difflib
    import random

    rng = random.Random(7)
    for _ in range(200):
        before_lines = [f"line {rng.randrange(12)}\n" for _ in range(rng.randrange(0, 30))]
        after_lines = list(before_lines)
        for _ in range(rng.randrange(0, 6)):
            where = rng.randrange(len(after_lines) + 1)
            choice = rng.randrange(3)
            if choice == 0:
                after_lines.insert(where, f"new {rng.randrange(5)}\n")
            elif after_lines and where < len(after_lines):
                if choice == 1:
                    del after_lines[where]
                else:
                    after_lines[where] = f"changed {rng.randrange(5)}\n"
        before, after = "".join(before_lines), "".join(after_lines)
        diff = unified_diff(before, after, "a.py")
        assert (diff == "") == (before == after)
        if diff:
            assert _apply_unified_diff(before, diff) == after
    # The fix engine's usual edit (lines changed in place) reads exactly like difflib's.
    source = "".join(f"def f{i}(conv):\n    return {i}\n\n" for i in range(50))
    fixed = "".join(
        f"def f{i}(conv):\n    return {f'str({i})' if i % 7 == 0 else i}\n\n" for i in range(50)
    )
    expected = "".join(
        difflib.unified_diff(
            source.splitlines(True), fixed.splitlines(True), fromfile="a.py", tofile="a.py"
        )
    )
    assert unified_diff(source, fixed, "a.py") == expected


def test_selection_agrees_with_pairwise_overlap_on_random_spans() -> None:
    import random

    rng = random.Random(11)
    for _ in range(300):
        plans = []
        for index in range(rng.randrange(1, 12)):
            spans = []
            for _ in range(rng.randrange(1, 3)):
                start = rng.randrange(20)
                end = start + rng.choice((0, 0, 1, 2, 4))
                spans.append((start, end, f"x{index}"))
            plans.append(fixes._Plan(index, tuple(spans)))
        taken_spans: list[tuple[int, int]] = []
        expected_taken = []
        for plan in plans:
            mine = [(start, end) for start, end, _ in plan.spans]
            if any(fixes._overlaps(a, b) for a in mine for b in taken_spans):
                continue
            taken_spans += mine
            expected_taken.append(plan.index)
        assert [plan.index for plan in fixes._select(plans).taken] == expected_taken


def test_syntax_newer_than_this_python_is_still_fixed(tmp_path: Path) -> None:
    # PEP 695 (3.12): LibCST parses it; an older CPython cannot compile it before
    # the fix either, so only LibCST judges the result.
    path = str(tmp_path / "functions" / "count.py")
    source = "type Minutes = int\n\n\ndef count(conv):\n    return 3\n"
    result = fix_source(source, polyai_check(path))
    assert result.source == source.replace("return 3", "return str(3)")
    assert result.rejected == []
