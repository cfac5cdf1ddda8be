"""Issue 19, items 2, 4 and 5: one file never takes the run down, never hangs it, and
``# noqa`` holds whatever the line endings.

Each test is built from a minimal reproducer of the issue; every bad file is one
TRV001/TRV002 for that file, and the run goes on.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import libcst as cst
import pytest

from lint_rules.analysis.module import parse_module
from lint_rules.cache import ResultCache
from lint_rules.config import ConfigError, SettingsResolver
from lint_rules.engine import check_source
from lint_rules.fixes import apply_fixes, fixes_to_apply
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


# ------------------------------------------------------------ item 2: one file, one diagnostic

POLYAI = "def {name}(conv):\n"
DEEP = {
    "elif": POLYAI
    + "    if conv == 0:\n        return 3\n"
    + "".join(f"    elif conv == {i}:\n        return {i}\n" for i in range(1, 490)),
    "ifexp": POLYAI + "    return " + " if conv else ".join(str(i) for i in range(490)) + "\n",
    "sum": POLYAI + "    a = 1\n    b = " + " + ".join(["a"] * 600) + "\n    return 3\n",
}


@pytest.mark.parametrize("kind", DEEP, ids=DEEP.keys())
def test_deep_but_valid_code_is_checked_with_right_positions(kind: str) -> None:
    source = DEEP[kind].format(name="f")
    found = check_source(source, "functions/f.py")
    assert found and {d.code for d in found} == {"TRV101"}
    lines = source.splitlines()
    for diagnostic in found:  # every position holds the returned literal
        line = lines[diagnostic.location.row - 1]
        assert line[diagnostic.location.column - 1].isdigit()


def test_a_long_implicit_concatenation_in_an_agent_is_checked() -> None:
    prompt = "".join(f"        'line {i}\\n'\n" for i in range(500))
    source = (
        "from agents import Agent\n\nagent = Agent(\n    name='x',\n"
        f"    tool_use_behavior='stop',\n    instructions=(\n{prompt}    ),\n)\n"
    )
    (diagnostic,) = check_source(source, "agent.py")
    assert (diagnostic.code, diagnostic.location.row, diagnostic.location.column) == (
        "TRV301",
        5,
        5,
    )


@pytest.mark.parametrize("expression", ["x is not.0E-0_0 < 0.", "x in.5", "not.5"])
def test_valid_code_libcst_validators_reject_is_checked_like_any_other(expression: str) -> None:
    # LibCST's node validators reject these (CSTValidationError); toolret parses without
    # them, so the file is analysed, the finding placed and its fix applied exactly.
    source = f"def f(conv):\n    y = {expression}\n    return 3\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        compile(source, "f.py", "exec")  # valid Python
    (diagnostic,) = check_source(source, "functions/f.py")
    assert (diagnostic.code, diagnostic.location.row, diagnostic.location.column) == (
        "TRV101",
        3,
        12,
    )
    fixed, applied, _ = apply_fixes(source, fixes_to_apply([diagnostic]))
    assert applied == 1 and fixed == source.replace("return 3", "return str(3)")


def test_nodes_built_by_code_are_still_validated() -> None:
    parse_module("x = 1\n", "f.py")
    with pytest.raises(cst.CSTValidationError):
        cst.Comparison(left=cst.Name("x"), comparisons=[])


def test_text_with_a_lone_surrogate_is_one_trv001() -> None:
    (diagnostic,) = check_source("def f(conv):\n    return '\ud800'\n", "functions/f.py")
    assert (diagnostic.code, diagnostic.location.row) == ("TRV001", 2)


CHAIN = "def f(conv):\n    x = " + " + ".join(["1"] * 1500) + "\n    return 3\n"


def test_a_chain_too_long_to_parse_in_bounded_time_is_one_trv001() -> None:
    (diagnostic,) = check_source(CHAIN, "functions/f.py")
    assert (diagnostic.code, diagnostic.location.row, diagnostic.location.column) == (
        "TRV001",
        2,
        9,
    )
    assert "too long" in diagnostic.message
    trailers = "def f(conv):\n    x = a" + "[0]" * 501 + "\n    return 3\n"
    assert [d.code for d in check_source(trailers, "functions/f.py")] == ["TRV001"]


FILES: dict[str, bytes] = {
    "functions/elifs.py": DEEP["elif"].format(name="elifs").encode(),
    "functions/sums.py": DEEP["sum"].format(name="sums").encode(),
    "functions/valid.py": b"def valid(conv):\n    y = x in.5\n    return 3\n",
    "functions/utf7.py": b"# coding: utf-7\ndef utf7(conv):\n    return '+2AA-'\n",
    "functions/escape.py": b"# coding: raw_unicode_escape\ndef escape(conv):\n"
    b"    return '\\ud800'\n",
    "functions/chain.py": CHAIN.replace("def f", "def chain").encode(),
    "functions/ok.py": b"def ok(conv):\n    return 3\n",
}


def test_the_run_goes_on_past_every_bad_file(tmp_path: Path) -> None:
    for name, data in FILES.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(data)
    result = run_toolret("check", ".", "--no-cache", "--output-format", "json", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    found: dict[str, set[str]] = {}
    for diagnostic in json.loads(result.stdout):
        name = Path(diagnostic["filename"]).relative_to(tmp_path).as_posix()
        found.setdefault(name, set()).add(diagnostic["code"])
    assert found == {
        "functions/elifs.py": {"TRV101"},
        "functions/sums.py": {"TRV101"},
        "functions/valid.py": {"TRV101"},
        "functions/utf7.py": {"TRV001"},
        "functions/escape.py": {"TRV001"},
        "functions/chain.py": {"TRV001"},
        "functions/ok.py": {"TRV101"},
    }
    assert flake8_codes(tmp_path / "functions" / "valid.py") == [(3, "TRV101")]
    assert flake8_codes(tmp_path / "functions" / "chain.py") == [(2, "TRV001")]


def test_fix_on_stdin_fixes_valid_code_libcst_validators_reject(tmp_path: Path) -> None:
    name = "functions/valid.py"
    result = run_toolret(
        "check", "--fix", "--stdin-filename", name, "-", cwd=tmp_path, stdin=FILES[name]
    )
    assert result.stdout == FILES[name].replace(b"return 3", b"return str(3)"), result.stderr


@pytest.mark.parametrize("name", ["functions/utf7.py", "functions/chain.py"])
def test_fix_on_stdin_prints_its_input_when_the_file_cannot_be_checked(
    tmp_path: Path, name: str
) -> None:
    data = FILES[name]
    result = run_toolret("check", "--fix", "--stdin-filename", name, "-", cwd=tmp_path, stdin=data)
    assert result.stdout == data, result.stderr
