"""Issue 19: bad or unusual input never corrupts code, crashes the run or hangs it.

Each test is built from a minimal reproducer of the issue.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import CodePosition, CodeRange

from lint_rules.analysis import module as module_module
from lint_rules.config import Settings
from lint_rules.engine import check_source
from lint_rules.fixes import apply_fixes, fixes_to_apply

BACKSLASH_LINE = "def bad(conv):\n    x = 1\n\\\n    if conv == 7 and 5:\n        return 3\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_backslash_only_line_does_not_shift_positions(newline: str) -> None:
    source = BACKSLASH_LINE.replace("\n", newline)
    (diagnostic,) = check_source(source, "functions/bad.py", Settings())
    assert (diagnostic.code, diagnostic.location.row, diagnostic.location.column) == (
        "TRV101",
        5,
        16,
    )
    fixed, applied, _ = apply_fixes(source, fixes_to_apply([diagnostic]))
    assert applied == 1
    assert fixed == source.replace("return 3", "return str(3)")


def test_a_backslash_line_inside_a_string_is_kept() -> None:
    source = 'def bad(conv):\n    s = """a\n\\\nb"""\n    return 3\n'
    assert module_module.libcst_source(source, ast.parse(source)) == source
    (diagnostic,) = check_source(source, "functions/bad.py", Settings())
    assert diagnostic.location.row == 5


def test_a_fix_whose_range_does_not_hold_its_node_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Positions gone wrong for any reason (here: every range one line up): the finding may
    # be misplaced, but no fix edits text that is not its node.
    right = module_module.ParsedModule.range_of

    def one_line_up(self: module_module.ParsedModule, node: cst.CSTNode) -> CodeRange:
        where = right(self, node)
        return CodeRange(
            CodePosition(where.start.line - 1, where.start.column),
            CodePosition(where.end.line - 1, where.end.column),
        )

    monkeypatch.setattr(module_module.ParsedModule, "range_of", one_line_up)
    (diagnostic,) = check_source(BACKSLASH_LINE, "functions/bad.py", Settings())
    assert diagnostic.location.row == 4  # misplaced
    assert diagnostic.fix is None


def test_libcst_given_a_backslash_line_still_places_a_nested_return(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # LibCST mishandles a backslash-only line (it shifts what follows a line up); a
    # statement nested in a block is positioned from CPython's line of that statement.
    monkeypatch.setattr(module_module, "libcst_source", lambda source, tree: source)
    (diagnostic,) = check_source(BACKSLASH_LINE, "functions/bad.py", Settings())
    assert (diagnostic.location.row, diagnostic.location.column) == (5, 16)
    assert diagnostic.fix is not None


def test_toolret_fix_edits_the_return_not_the_line_above(tmp_path: Path) -> None:
    path = tmp_path / "functions" / "bad.py"
    path.parent.mkdir()
    path.write_text(BACKSLASH_LINE, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "lint_rules", "fix", ".", "--no-cache"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert path.read_text(encoding="utf-8") == BACKSLASH_LINE.replace("return 3", "return str(3)")


@pytest.mark.parametrize("depth", [201, 290, 1000])
def test_nesting_cpython_rejects_is_one_trv001_at_once(depth: int) -> None:
    # CPython refuses more than 200 nested brackets; LibCST would parse them for seconds.
    source = "def f(conv):\n    x = " + "[" * depth + "]" * depth + "\n    return 3\n"
    (diagnostic,) = check_source(source, "functions/f.py", Settings())
    assert (diagnostic.code, diagnostic.location.row) == ("TRV001", 2)
    assert "too many nested parentheses" in diagnostic.message


def test_code_deeper_than_the_stack_is_checked_again_with_room_for_it() -> None:
    # 990 unary minuses: valid for CPython, deeper than the analysis' default recursion.
    source = "def f(conv):\n    x = " + "-" * 990 + "1\n    return 3\n"
    (diagnostic,) = check_source(source, "functions/f.py", Settings())
    assert (diagnostic.code, diagnostic.location.row, diagnostic.location.column) == (
        "TRV101",
        3,
        12,
    )


def test_code_too_deep_for_cpython_to_compile_is_one_trv001() -> None:
    # 10,000 deep: no CPython compiles it (3.11 and 3.12 stop near 3,000, 3.13 past 5,000).
    source = "def f(conv):\n    x = " + "-" * 10_000 + "1\n    return 3\n"
    (diagnostic,) = check_source(source, "functions/f.py", Settings())
    assert diagnostic.code == "TRV001" and "too deeply nested" in diagnostic.message


def test_cpython_syntax_warnings_in_checked_code_are_not_printed(
    capfd: pytest.CaptureFixture[str],
) -> None:
    (diagnostic,) = check_source(
        "def f(conv):\n    x = 1.0[0]\n    return 3\n", "functions/f.py", Settings()
    )
    assert diagnostic.code == "TRV101"
    assert "SyntaxWarning" not in capfd.readouterr().err


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("fifo", ["pyproject.toml", "toolret.toml", "cache"])
def test_a_fifo_as_config_or_cache_does_not_hang(tmp_path: Path, fifo: str) -> None:
    import os

    from lint_rules import __version__
    from lint_rules.cache import _FORMAT

    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "bad.py").write_text(BACKSLASH_LINE, encoding="utf-8")
    if fifo == "cache":
        (tmp_path / ".toolret_cache").mkdir()
        os.mkfifo(tmp_path / ".toolret_cache" / f"v{__version__}-{_FORMAT}.json")
    else:
        os.mkfifo(tmp_path / fifo)
    result = subprocess.run(
        [sys.executable, "-m", "lint_rules", "check", ".", "--output-format", "concise"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    # Not a file: no configuration there (as for any other non-file), no cache to read.
    assert result.returncode == 1, result.stderr
    assert "functions/bad.py:5:16: TRV101" in result.stdout


def test_a_backslash_line_deep_in_an_elif_chain_is_blanked_too() -> None:
    # The check of which lines are in strings must not recurse (a 250-branch chain).
    branches = ["    elif A:\n        pass\n"] * 250
    branches[100] = "    elif A:\n\\\n        pass\n"
    source = "def f(conv):\n    if A:\n        pass\n" + "".join(branches) + "    return 3\n"
    (diagnostic,) = check_source(source, "functions/f.py", Settings())
    assert diagnostic.code == "TRV101"
    assert source.splitlines()[diagnostic.location.row - 1].strip() == "return 3"


def test_an_indentation_error_at_the_end_after_a_crlf_line_is_one_trv001() -> None:
    # The campaign's mutant (CRLF on the last line only): CPython reports the error on
    # line 4, one past the lines str.splitlines() sees; placing it raised IndexError.
    source = 'def end_function(conv):\n if o!="":\n  if v:\r\n'
    (diagnostic,) = check_source(source, "functions/end_function.py", Settings())
    assert diagnostic.code == "TRV001", diagnostic.message
    assert "expected an indented block" in diagnostic.message


def test_an_unexpected_eof_after_non_ascii_text_is_placed_inside_its_line() -> None:
    # CPython gives this tokenizer error a UTF-8 byte offset: column 12 of a 6-character
    # line. The campaign's generated Pydantic AI programs found it.
    source = "from pydantic_ai import t\ndef r():\n def A():ú\\\n倲ŏĢ𱋊ā\\"
    (diagnostic,) = check_source(source, "pydantic_ai_tools.py", Settings())
    assert diagnostic.code == "TRV001"
    row_text = source.split("\n")[diagnostic.location.row - 1]
    assert 1 <= diagnostic.location.column <= len(row_text) + 1
