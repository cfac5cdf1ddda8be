"""Issue 28, items 4 and 7: globs that cannot backtrack, and config errors with a position.

Item 4: ``exclude``, ``extend-exclude``, ``per-file-ignores`` and ``.gitignore`` globs are
matched by an automaton (``lint_rules.globs``), not a backtracking regex: a pattern of many
``*`` against a long name is as quick as any other. The regex translation it replaces is
kept below as the oracle the automaton must agree with.

Item 7: every config error gives FILE:LINE:COL - a TOML document nested too deeply, a file
that is not UTF-8, a ``toolret.toml`` that kept pyproject's ``[tool.toolret]`` header, a
name that cannot be a keyword argument - and a byte order mark is no error at all.
"""

from __future__ import annotations

import os
import pickle
import random
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lint_rules.config import Settings
from lint_rules.discovery import GitignoreFile
from lint_rules.globs import GlobSet, parse_ruff_glob
from tests.conftest import Invoke

REPOSITORY = Path(__file__).resolve().parents[1]


# -- item 4: the reproducer ---------------------------------------------------

STARS = "*a" * 12 + "b"
"""Twelve ``*`` that cannot match a name of 40 ``a``: minutes for a backtracking regex."""

MATCHES = {
    "exclude": f"""
        settings = Settings(root=Path("/project"), extend_exclude=({STARS!r},))
        print(settings.is_excluded_posix("/project/" + "a" * 40))
        print(settings.is_excluded_posix("/project/src/" + "a" * 40 + "b"))
    """,
    "per-file-ignores": f"""
        settings = Settings(root=Path("/project"), per_file_ignores={{{STARS!r}: ("TRV1",)}})
        print(bool(settings.ignored_for_file(Path("/project/" + "a" * 40))))
        print(bool(settings.ignored_for_file(Path("/project/" + "a" * 40 + "b"))))
    """,
    "gitignore": f"""
        ignore = GitignoreFile(Path("/project"), [{STARS!r}])
        print(ignore.match("src/" + "a" * 40, is_dir=False) is True)
        print(ignore.match("src/" + "a" * 40 + "b", is_dir=False) is True)
    """,
}


@pytest.mark.parametrize("setting", sorted(MATCHES))
def test_many_stars_against_a_long_name_are_quick(setting: str) -> None:
    # In a child process, so that a regex that backtracks for minutes can be killed: the
    # old translation took 17 s with ten ``*a`` and 140 s with these twelve.
    code = "from pathlib import Path\n"
    code += "from lint_rules.config import Settings\n"
    code += "from lint_rules.discovery import GitignoreFile\n"
    code += textwrap.dedent(MATCHES[setting])
    environment = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    try:
        result = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=10,
            env=environment,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"matching {STARS!r} against 40 characters took over 10 s")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]


def test_the_cache_of_states_is_bounded() -> None:
    # ``*a*a*a...`` over a long text of ``a`` and ``b`` meets many sets of states;
    # the cache starts afresh rather than growing, and the answers stay right.
    glob = GlobSet([parse_ruff_glob("*a" * 40)])
    rng = random.Random(7)
    for _ in range(30):
        text = "".join(rng.choice("ab") for _ in range(300))
        assert glob.matches(text) == (text.count("a") >= 40 and text.endswith("a"))


def test_a_set_of_globs_is_sent_to_worker_processes_as_its_patterns() -> None:
    # Settings go to the pool's workers pickled; the lock and the cache stay behind.
    glob = GlobSet([parse_ruff_glob("**/tests/*"), parse_ruff_glob("*.ipynb")])
    assert glob.matches("a/tests/b.py")  # a warm cache, and a lock
    copy = pickle.loads(pickle.dumps(glob))
    for text in ("a/tests/b.py", "tests/x", "book.ipynb", "a/b.py", "testsx"):
        assert copy.last_match(text) == glob.last_match(text)
    ignored = GitignoreFile(Path("/r"), ["build/", "*.log", "!keep.log"])
    again = pickle.loads(pickle.dumps(ignored))
    for relative, is_dir in (
        ("build", True),
        ("build", False),
        ("a.log", False),
        ("keep.log", False),
    ):
        assert again.match(relative, is_dir) == ignored.match(relative, is_dir)


# -- item 4: the automaton agrees with the regex translation it replaces ----------------
#
# The oracle: lint_rules/config.py's ``glob_to_regex`` and lint_rules/discovery.py's
# ``_translate_gitignore`` before issue 28, verbatim but for names.


def old_glob_to_regex(pattern: str) -> str:
    out: list[str] = []
    index = 0
    in_braces = False
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index) and (index == 0 or pattern[index - 1] == "/"):
            out.append("(?:.*/)?")
            index += 3
        elif char == "*":
            out.append(".*")
            while index < len(pattern) and pattern[index] == "*":
                index += 1
        elif char == "?":
            out.append(".")
            index += 1
        elif char == "[":
            close = old_class_end(pattern, index)
            if close < 0:
                raise ValueError(f"unclosed character class in {pattern!r}")
            out.append(old_class_to_regex(pattern[index + 1 : close], exclude_slash=False))
            index = close + 1
        elif char == "{" and not in_braces:
            if "}" not in pattern[index:]:
                raise ValueError(f"unclosed alternation in {pattern!r}")
            out.append("(?:")
            in_braces = True
            index += 1
        elif char == "}" and in_braces:
            out.append(")")
            in_braces = False
            index += 1
        elif char == "," and in_braces:
            out.append("|")
            index += 1
        elif char == "\\" and index + 1 < len(pattern):
            out.append(re.escape(pattern[index + 1]))
            index += 2
        else:
            out.append(re.escape(char))
            index += 1
    return "".join(out)


def old_class_end(pattern: str, start: int) -> int:
    index = start + 1
    if index < len(pattern) and pattern[index] in "!^":
        index += 1
    if index < len(pattern) and pattern[index] == "]":
        index += 1
    while index < len(pattern):
        if pattern[index] == "\\":
            index += 2
            continue
        if pattern[index] == "]":
            return index
        index += 1
    return -1


def old_class_to_regex(body: str, *, exclude_slash: bool) -> str:
    negated = body[:1] in ("!", "^")
    if negated:
        body = body[1:]
    members: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            members.append(re.escape(body[index + 1]))
            index += 2
            continue
        members.append("-" if char == "-" else re.escape(char))
        index += 1
    inner = "".join(members)
    if negated:
        return f"[^{inner}/]" if exclude_slash else f"[^{inner}]"
    return f"(?!/)[{inner}]" if exclude_slash else f"[{inner}]"


def old_translate_gitignore(pattern: str) -> str:
    out: list[str] = []
    index = 0
    length = len(pattern)
    while index < length:
        char = pattern[index]
        if char == "*":
            run_end = index
            while run_end < length and pattern[run_end] == "*":
                run_end += 1
            whole_segment = (
                run_end - index == 2
                and (index == 0 or pattern[index - 1] == "/")
                and (run_end == length or pattern[run_end] == "/")
            )
            if whole_segment and run_end == length:
                out.append(".*")
                index = run_end
            elif whole_segment:
                out.append("(?:.*/)?")
                index = run_end + 1
            else:
                out.append("[^/]*")
                index = run_end
        elif char == "?":
            out.append("[^/]")
            index += 1
        elif char == "[":
            close = old_class_end(pattern, index)
            if close < 0:
                out.append(re.escape(char))
                index += 1
            else:
                out.append(old_class_to_regex(pattern[index + 1 : close], exclude_slash=True))
                index = close + 1
        elif char == "\\" and index + 1 < length:
            out.append(re.escape(pattern[index + 1]))
            index += 2
        else:
            out.append(re.escape(char))
            index += 1
    return "".join(out)


def old_gitignore_line(line: str) -> tuple[re.Pattern[str], bool, bool] | None:
    if not line or line.startswith("#"):
        return None
    while line.endswith(" ") and not line.endswith("\\ "):
        line = line[:-1]
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    directory_only = line.endswith("/")
    if directory_only:
        line = line[:-1]
    if not line:
        return None
    anchored = "/" in line
    line = line.removeprefix("/")
    regex = ("" if anchored else "(?:.*/)?") + old_translate_gitignore(line)
    return re.compile(regex, re.DOTALL), negated, directory_only


def old_gitignore_match(lines: list[str], relative: str, is_dir: bool) -> bool | None:
    parsed = [old_gitignore_line(line) for line in lines]
    for found in reversed(parsed):
        if found is None or (found[2] and not is_dir):
            continue
        if found[0].fullmatch(relative) is not None:
            return not found[1]
    return None


PIECES = (
    *"ab/.-!^,{}[]*?\\ ",
    "**",
    "**/",
    "/**",
    "/**/",
    "[ab]",
    "[!a]",
    "[a-b]",
    "[]a]",
    "[^/]",
    "{a,b}",
    "{a*,**/b}",
    "\\*",
)


def random_pattern(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6)))


def random_path(rng: random.Random) -> str:
    return "".join(rng.choice("ab/.-!]*{,") for _ in range(rng.randint(0, 9)))


def old_ruff(pattern: str) -> re.Pattern[str] | None:
    """The old translation compiled; ``None`` when it refused the pattern or ``re`` did."""
    try:
        return re.compile(old_glob_to_regex(pattern), re.DOTALL)
    except (ValueError, re.error):
        return None


@pytest.mark.parametrize("seed", range(4))
def test_ruff_globs_agree_with_the_old_translation(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(600):
        pattern = random_pattern(rng)
        old = old_ruff(pattern)
        if old is None:
            # Refused then (or a regex that did not compile, a crash later): refused now.
            with pytest.raises(ValueError):
                parse_ruff_glob(pattern)
            continue
        new = GlobSet([parse_ruff_glob(pattern)])
        for text in [random_path(rng) for _ in range(12)] + [pattern]:
            assert new.matches(text) == (old.fullmatch(text) is not None), (pattern, text)


@pytest.mark.parametrize("seed", range(2))
def test_a_set_of_globs_names_the_last_that_matches(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(300):
        patterns = [random_pattern(rng) for _ in range(rng.randint(1, 4))]
        olds = [old_ruff(pattern) for pattern in patterns]
        if any(old is None for old in olds):
            continue
        new = GlobSet([parse_ruff_glob(pattern) for pattern in patterns])
        for text in [random_path(rng) for _ in range(12)]:
            expected = max(
                (index for index, old in enumerate(olds) if old and old.fullmatch(text)),
                default=-1,
            )
            assert new.last_match(text) == expected, (patterns, text)


def old_is_excluded(root: str, patterns: list[str], absolute: str) -> bool:
    """The old ``_PathMatcher``: the basename form, or the root-relative / absolute form."""
    basename = absolute.rsplit("/", 1)[-1]
    for pattern in patterns:
        pattern = pattern.rstrip("/") or pattern
        if os.path.isabs(pattern):
            whole = old_glob_to_regex(Path(pattern).as_posix())
        else:
            relative = pattern
            while relative.startswith("./"):
                relative = relative[2:]
            whole = re.escape(root.rstrip("/") + "/") + old_glob_to_regex(relative)
        if re.fullmatch(old_glob_to_regex(pattern), basename, re.DOTALL):
            return True
        if re.fullmatch(whole, absolute, re.DOTALL):
            return True
    return False


def test_excludes_agree_with_the_old_matcher() -> None:
    rng = random.Random(42)
    root = "/project/a"
    for _ in range(400):
        patterns = []
        for _ in range(rng.randint(1, 3)):
            prefix = rng.choice(["", "", "./", "/project/", "/project/a/", "/"])
            patterns.append(prefix + random_pattern(rng) + rng.choice(["", "", "/"]))
        if any(old_ruff(pattern) is None for pattern in patterns):
            continue
        settings = Settings(root=Path(root), exclude=tuple(patterns))
        for _ in range(10):
            absolute = rng.choice(["/project/a/", "/project/", "/other/"]) + random_path(rng)
            absolute = absolute.rstrip("/") or "/"
            expected = old_is_excluded(root, patterns, absolute)
            assert settings.is_excluded_posix(absolute) == expected, (patterns, absolute)


@pytest.mark.parametrize("seed", range(3))
def test_gitignore_agrees_with_the_old_translation(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(400):
        lines = [
            rng.choice(["", "", "!"]) + rng.choice(["", "", "/"]) + random_pattern(rng)
            for _ in range(rng.randint(1, 4))
        ]
        lines = [line + "/" if rng.random() < 0.2 else line for line in lines]
        try:
            for line in lines:
                old_gitignore_line(line)
        except re.error:
            continue  # ``[b-a]``: the old walk crashed; now the class matches nothing
        ignore = GitignoreFile(Path("/repo"), lines)
        for _ in range(12):
            relative = random_path(rng).strip("/") or "a"
            for is_dir in (False, True):
                expected = old_gitignore_match(lines, relative, is_dir)
                assert ignore.match(relative, is_dir) is expected, (lines, relative, is_dir)


def test_a_bad_class_range_in_gitignore_matches_nothing() -> None:
    ignore = GitignoreFile(Path("/repo"), ["[b-a].py", "*.txt"])
    assert ignore.match("a.py", False) is None
    assert ignore.match("notes.txt", False) is True


# -- item 7: config errors with a position -----------------------------------


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def failure(toolret_cli: Invoke) -> str:
    result = toolret_cli("check", "--no-cache", ".")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    return str(result.stderr)


def test_toml_nested_too_deeply_points_at_the_value(project: Path, toolret_cli: Invoke) -> None:
    deep = "[" * 600 + "]" * 600
    (project / "toolret.toml").write_text(f"# rules\nselect = {deep}\n", encoding="utf-8")
    assert failure(toolret_cli).splitlines()[:2] == [
        "toolret: invalid configuration in toolret.toml",
        "toolret.toml:2:10: TOML parse error: nested too deeply "
        "(600 arrays or inline tables inside one another)",
    ]


def test_nesting_in_pyproject_past_strings_and_comments(project: Path, toolret_cli: Invoke) -> None:
    deep = "{ a = " * 300 + "[" * 300 + "]" * 300 + " }" * 300
    text = (
        '[project]\nname = "[[[{{{"  # [[[[\n'
        "description = '''\n[[[[[[\n'''\n"
        f'[tool.toolret]\nselect = [["TRV1"]]\npolyai = {deep}\n'
    )
    (project / "pyproject.toml").write_text(text, encoding="utf-8")
    stderr = failure(toolret_cli)
    assert stderr.splitlines()[1] == (
        "pyproject.toml:8:10: TOML parse error: nested too deeply "
        "(600 arrays or inline tables inside one another)"
    )
    assert stderr.splitlines()[4] == "  |          ^"


def test_a_pyproject_that_is_not_utf8(project: Path, toolret_cli: Invoke) -> None:
    (project / "pyproject.toml").write_bytes(
        b'[tool.toolret]\nselect = ["TRV1"]  # caf\xc3\xa9 \xe9t\xe9\n'
    )
    assert failure(toolret_cli) == (
        "toolret: invalid configuration in pyproject.toml\n"
        "pyproject.toml:2:27: not UTF-8: invalid continuation byte (byte 0xe9)\n"
        "  |\n"
        '2 | select = ["TRV1"]  # café \ufffdt\ufffd\n'
        "  |                           ^\n"
    )


def test_a_toolret_toml_that_is_not_utf8(project: Path, toolret_cli: Invoke) -> None:
    (project / "toolret.toml").write_bytes(b'ignore = ["\xff"]\n')
    assert failure(toolret_cli).splitlines()[1] == (
        "toolret.toml:1:12: not UTF-8: invalid start byte (byte 0xff)"
    )


def test_toolret_toml_with_the_pyproject_header(project: Path, toolret_cli: Invoke) -> None:
    (project / "toolret.toml").write_text(
        '# settings\n[tool.toolret]\nselect = ["TRV1"]\n', encoding="utf-8"
    )
    assert failure(toolret_cli) == (
        "toolret: invalid configuration in toolret.toml\n"
        "toolret.toml:2:1: `toolret.toml` has its settings at the top level; "
        "`[tool.toolret]` is the table of `pyproject.toml`: drop the `[tool.toolret]` header\n"
        "  |\n"
        "2 | [tool.toolret]\n"
        "  | ^^^^^^^^^^^^^^\n"
    )


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            ".toolret.toml",
            'ignore = ["TRV101"]\n[tool.toolret.lint]\nselect = ["TRV1"]\n',
            ".toolret.toml:2:1: `.toolret.toml` has its settings at the top level; "
            "`[tool.toolret]` is the table of `pyproject.toml`: "
            "write `[lint]` for `[tool.toolret.lint]`",
        ),
        (
            "toolret.toml",
            'tool.toolret.select = ["TRV1"]\n',
            "toolret.toml:1:1: `toolret.toml` has its settings at the top level; "
            "`[tool.toolret]` is the table of `pyproject.toml`: "
            "drop the `tool.toolret.` prefix of `tool.toolret.select`",
        ),
    ],
)
def test_toolret_toml_with_other_pyproject_forms(
    project: Path, toolret_cli: Invoke, name: str, text: str, expected: str
) -> None:
    (project / name).write_text(text, encoding="utf-8")
    assert failure(toolret_cli).splitlines()[1] == expected


def test_a_pyproject_with_a_byte_order_mark_is_read(project: Path, toolret_cli: Invoke) -> None:
    (project / "pyproject.toml").write_bytes(
        b'\xef\xbb\xbf[tool.toolret]\nextend-exclude = ["a.py"]\n'
    )
    result = toolret_cli("check", "--no-cache", ".")
    assert result.exit_code == 0, result.output
    assert "invalid configuration" not in result.stderr


def test_errors_after_a_byte_order_mark_keep_their_position(
    project: Path, toolret_cli: Invoke
) -> None:
    (project / "pyproject.toml").write_bytes(b'\xef\xbb\xbf[tool.toolret]\nselect = "TRV1"\n')
    assert failure(toolret_cli) == (
        "toolret: invalid configuration in pyproject.toml\n"
        "pyproject.toml:2:10: expected an array of rule selectors, got a string\n"
        "  |\n"
        '2 | select = "TRV1"\n'
        "  |          ^^^^^^\n"
    )


def test_extra_action_result_fields_must_be_identifiers(project: Path, toolret_cli: Invoke) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.toolret.browser-use]\n"
        'extra-action-result-fields = ["trace_id", "not an identifier", "class", "x-y"]\n',
        encoding="utf-8",
    )
    lines = failure(toolret_cli).splitlines()
    assert [line for line in lines if line.startswith("pyproject.toml:")] == [
        "pyproject.toml:2:43: `not an identifier` is not a Python identifier "
        "(a keyword argument's name)",
        "pyproject.toml:2:64: `class` is a Python keyword, never a keyword argument's name",
        "pyproject.toml:2:73: `x-y` is not a Python identifier (a keyword argument's name)",
    ]
