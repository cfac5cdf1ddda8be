"""The bad-input matrix of issue 19: every row through the CLI (flake8 where it applies).

Each row puts one bad input beside a good PolyAI tool file and asserts the exit
code, the message for the bad input, that the good file is still reported (one
file never takes the run down) and that no file is damaged. Rows that could
hang (FIFOs, ``/dev/zero``) and the concurrency row run ``toolret`` in a
subprocess with a timeout; the others use click's runner in this process, so
the whole matrix stays fast.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from lint_rules import runner as runner_module
from lint_rules.cli import main

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and symlinks: POSIX")

GOOD = "def good(conv):\n    return 3\n"
"""``functions/good.py``: one TRV101 (and a safe ``str()`` fix)."""
GOOD_REPORT = "functions/good.py:2:12: TRV101"
HANG = 20  # seconds: a subprocess that takes longer hangs
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "good.py").write_text(GOOD, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*args: str) -> Result:
    return CliRunner().invoke(
        main, ["check", "--no-cache", "--output-format", "concise", *args], catch_exceptions=False
    )


def toolret(*args: str, cwd: Path, timeout: float = HANG) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lint_rules", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1"},
    )


def snapshot(root: Path) -> dict[str, bytes]:
    """The bytes of every regular file under ``root`` (FIFOs and devices not read)."""
    files: dict[str, bytes] = {}
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink() and ".toolret_cache" not in path.parts:
            files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def tool(name: str, body: bytes) -> bytes:
    """A PolyAI tool file ``functions/<name>.py`` returning an int, around ``body``."""
    return body.replace(b"NAME", name.encode())


# ------------------------------------------------------------- encodings


def test_binary_file_walked_is_skipped_and_explicit_is_trv001(project: Path) -> None:
    blob = bytes(range(256)) * 4
    (project / "blob.py").write_bytes(blob)
    walked = check(".")
    assert walked.exit_code == 1 and GOOD_REPORT in walked.output
    assert "blob.py" not in walked.output  # no framework signal: never reported
    named = check("blob.py", "functions/good.py")
    assert named.exit_code == 1 and GOOD_REPORT in named.output
    assert "blob.py:1:1: TRV001 Cannot decode file" in named.output
    # In a PolyAI function's place, the path alone is a signal: TRV001 when walked too.
    (project / "functions" / "blob.py").write_bytes(blob)
    laid_out = check(".")
    assert "functions/blob.py:1:1: TRV001 Cannot decode file" in laid_out.output
    assert (project / "blob.py").read_bytes() == blob


def test_latin1_with_cookie_is_checked_and_fixed_in_latin1(project: Path) -> None:
    source = b"# -*- coding: latin-1 -*-\ndef cafe(conv):\n    return 3  # caf\xe9\n"
    path = project / "functions" / "cafe.py"
    path.write_bytes(source)
    result = check(".")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "functions/cafe.py:3:12: TRV101" in result.output
    fixed = CliRunner().invoke(main, ["fix", "--no-cache", "."], catch_exceptions=False)
    assert fixed.exit_code == 0, fixed.output
    assert path.read_bytes() == source.replace(b"return 3", b"return str(3)")


def test_latin1_without_cookie_is_trv001(project: Path) -> None:
    source = b"def cafe(conv):\n    return 3  # caf\xe9\n"
    (project / "functions" / "cafe.py").write_bytes(source)
    result = check(".")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "functions/cafe.py:1:1: TRV001 Cannot decode file" in result.output
    assert (project / "functions" / "cafe.py").read_bytes() == source


def test_bom_is_kept_by_fix(project: Path) -> None:
    source = b"\xef\xbb\xbfdef bom(conv):\n    return 3\n"
    path = project / "functions" / "bom.py"
    path.write_bytes(source)
    result = check(".")
    assert result.exit_code == 1 and "functions/bom.py:2:12: TRV101" in result.output
    assert GOOD_REPORT in result.output
    CliRunner().invoke(main, ["fix", "--no-cache", "."], catch_exceptions=False)
    assert path.read_bytes() == b"\xef\xbb\xbfdef bom(conv):\n    return str(3)\n"


def test_utf16_named_explicitly_is_trv001_not_silence(project: Path) -> None:
    source = "def wide(conv):\n    return 3\n".encode("utf-16")
    (project / "functions" / "wide.py").write_bytes(source)
    result = check("functions/wide.py", "functions/good.py")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "functions/wide.py:1:1: TRV001 Cannot decode file" in result.output
    alone = check("functions/wide.py")
    assert alone.exit_code == 1 and "TRV001" in alone.output
    assert (project / "functions" / "wide.py").read_bytes() == source


@pytest.mark.parametrize("newline", [b"\r\n", b"\r"], ids=["crlf", "cr-only"])
def test_line_endings_are_kept_and_noqa_is_read(project: Path, newline: bytes) -> None:
    lines = [b"def ends(conv):", b"    if conv:", b"        return 3  # noqa: TRV101"]
    lines.append(b"    return 4")
    source = newline.join(lines) + newline
    path = project / "functions" / "ends.py"
    path.write_bytes(source)
    result = check(".")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "functions/ends.py:4:12: TRV101" in result.output
    assert "functions/ends.py:3:" not in result.output  # suppressed
    CliRunner().invoke(main, ["fix", "--no-cache", "."], catch_exceptions=False)
    assert path.read_bytes() == source.replace(b"return 4", b"return str(4)")


def test_empty_file(project: Path) -> None:
    (project / "functions" / "empty.py").write_bytes(b"")
    result = check(".")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "empty.py" not in result.output


def test_fifty_thousand_lines(project: Path) -> None:
    body = b"# a long generated header line\n" * 50_000
    (project / "functions" / "long.py").write_bytes(body + b"def long(conv):\n    return 3\n")
    result = check(".")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "functions/long.py:50002:12: TRV101" in result.output


def test_deep_nesting_is_one_file_not_the_run(project: Path) -> None:
    branches = "".join(f"    elif conv == {n}:\n        x = {n}\n" for n in range(490))
    source = f"def deep(conv):\n    if conv:\n        x = 0\n{branches}    return 3\n"
    (project / "functions" / "deep.py").write_text(source, encoding="utf-8")
    result = check(".")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "functions/deep.py:" in result.output and "TRV002" not in result.output


@pytest.mark.parametrize(
    "source",
    [
        b"def odd(conv):\n    x = conv in.5\n    return 3\n",  # LibCST's CSTValidationError
        b"# coding: utf-7\ndef odd(conv):\n    return '+2D8-'\n",  # a lone surrogate
    ],
    ids=["cst-validation", "utf7-surrogate"],
)
def test_valid_code_libcst_rejects_is_one_file_not_the_run(project: Path, source: bytes) -> None:
    (project / "functions" / "odd.py").write_bytes(source)
    result = check(".")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "functions/odd.py:" in result.output and "Traceback" not in result.output
    assert (project / "functions" / "odd.py").read_bytes() == source


def test_fix_on_stdin_never_prints_less_than_its_input(project: Path) -> None:
    source = "def deep(conv):\n    return " + " + ".join(["1"] * 600) + "\n"
    result = CliRunner().invoke(
        main, ["check", "--fix", "-", "--stdin-filename", "functions/deep.py"], input=source
    )
    assert len(result.stdout) >= len(source) and result.exit_code in (0, 1)


# ------------------------------------------------------- not regular files


def test_symlink_loop_and_dangling_symlink_are_trv003(project: Path) -> None:
    functions = project / "functions"
    (functions / "loop.py").symlink_to(functions / "loop.py")
    (functions / "dangling.py").symlink_to(functions / "gone.py")
    walked = check(".")
    assert walked.exit_code == 1 and GOOD_REPORT in walked.output
    assert "functions/loop.py:1:1: TRV003 Cannot read file: Too many levels" in walked.output
    assert "functions/dangling.py:1:1: TRV003 Cannot read file: No such file" in walked.output
    named = check("functions/loop.py", "functions/good.py")
    assert named.exit_code == 1 and GOOD_REPORT in named.output and "TRV003" in named.output


def test_fifos_and_devices_never_hang_check_or_fix(project: Path) -> None:
    os.mkfifo(project / "functions" / "pipe.py")
    os.mkfifo(project / ".gitignore")
    settings = project / "agent_settings"
    settings.mkdir()
    (settings / "rules.txt").write_text("Call {{fn:good}} to count.\n", encoding="utf-8")
    os.mkfifo(settings / "prompt.yaml")
    (settings / "zero.txt").symlink_to("/dev/zero")
    (project / "explicit_pipe.py").unlink(missing_ok=True)
    os.mkfifo(project / "explicit_pipe.py")
    before = snapshot(project)
    for command in ("check", "fix"):
        result = toolret(command, "--output-format=concise", ".", "explicit_pipe.py", cwd=project)
        assert result.returncode == 1, result.stderr
        out = result.stdout
        assert "functions/pipe.py:1:1: TRV003 Cannot read file: Not a regular file" in out
        assert "explicit_pipe.py:1:1: TRV003" in out and ".gitignore:1:1: TRV003" in out
        assert "agent_settings/prompt.yaml:1:1: TRV003" in out
        assert "agent_settings/zero.txt:1:1: TRV003" in out
        if command == "check":
            assert GOOD_REPORT in out
    after = snapshot(project)
    assert after.pop("functions/good.py") == GOOD.replace("return 3", "return str(3)").encode()
    before.pop("functions/good.py")
    assert after == before


def test_flake8_does_not_hang_on_a_fifo_in_agent_settings(project: Path) -> None:
    settings = project / "agent_settings"
    settings.mkdir()
    (settings / "rules.txt").write_text("Call {{fn:good}}.\n", encoding="utf-8")
    os.mkfifo(settings / "prompt.yaml")
    (settings / "zero.txt").symlink_to("/dev/zero")
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TRV", "functions"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert result.returncode == 1, result.stderr
    assert "functions/good.py:2:12: TRV101" in result.stdout


def test_directory_named_like_a_python_file(project: Path) -> None:
    (project / "x.py").mkdir()
    (project / "x.py" / "inner.py").write_text("x = 1\n", encoding="utf-8")
    for args in ((".",), ("x.py", "functions/good.py")):
        result = check(*args)
        assert result.exit_code == 1 and GOOD_REPORT in result.output
        assert "x.py" not in result.output


def test_missing_explicit_path_is_trv003_exit_1_as_ruff_e902(project: Path) -> None:
    result = check("nope.py", "functions/good.py")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "nope.py:1:1: TRV003 Cannot read file: No such file or directory" in result.output
    deselected = check("nope.py", "functions/good.py", "--ignore", "TRV003")
    assert deselected.exit_code == 1 and "TRV003" not in deselected.output
    assert "warning: Failed to check" in deselected.stderr  # ruff warns too


def test_unreadable_explicit_path_is_trv003(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = project / "functions" / "secret.py"
    secret.write_text(GOOD.replace("good", "secret"), encoding="utf-8")
    real = runner_module.read_regular

    def forbidden(path: str | os.PathLike[str], **kwargs: int) -> bytes:
        if os.fspath(path) == str(secret):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path, **kwargs)

    monkeypatch.setattr(runner_module, "read_regular", forbidden)
    result = check("functions/secret.py", "functions/good.py")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "functions/secret.py:1:1: TRV003 Cannot read file: Permission denied" in result.output


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_explicit_path_for_real(project: Path) -> None:
    secret = project / "functions" / "secret.py"
    secret.write_text(GOOD, encoding="utf-8")
    secret.chmod(0)
    result = check("functions/secret.py", "functions/good.py")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "TRV003 Cannot read file: Permission denied" in result.output


def test_file_vanishing_between_discovery_and_read(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "functions" / "gone.py").write_text(GOOD.replace("good", "gone"), encoding="utf-8")
    real = runner_module.discover

    def vanishing(*args: object, **kwargs: object) -> Iterator[Path]:
        for path in real(*args, **kwargs):  # type: ignore[arg-type]
            if path.name == "gone.py":
                path.unlink()
            yield path

    monkeypatch.setattr(runner_module, "discover", vanishing)
    result = check(".")
    assert result.exit_code == 1 and GOOD_REPORT in result.output
    assert "functions/gone.py:1:1: TRV003 Cannot read file: No such file" in result.output


def test_non_utf8_file_name_is_valid_json_with_replacement_chars(project: Path) -> None:
    name = os.fsencode(project / "functions") + b"/caf\xe9.py"
    with open(name, "wb") as handle:
        handle.write(EXAMPLES.joinpath("browser_use", "shop_tools.py").read_bytes())
    result = CliRunner().invoke(
        main, ["check", "--no-cache", "--output-format", "json", "functions"]
    )
    assert result.exit_code == 1
    names = {entry["filename"] for entry in json.loads(result.stdout_bytes.decode("utf-8"))}
    assert str(project / "functions" / "caf\ufffd.py") in names  # what ruff prints
    assert str(project / "functions" / "good.py") in names


# ------------------------------------------------------------------ fixing


def test_read_only_file_under_fix(project: Path) -> None:
    path = project / "functions" / "good.py"
    path.chmod(0o444)
    result = CliRunner().invoke(main, ["fix", "--no-cache", "."], catch_exceptions=False)
    assert result.exit_code in (0, 2)
    text = path.read_text(encoding="utf-8")
    assert text in (GOOD, GOOD.replace("return 3", "return str(3)"))  # whole, never half
    assert path.stat().st_mode & 0o777 == 0o444


def test_file_changed_between_read_and_write_is_left_alone(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lint_rules import fixes

    path = project / "functions" / "good.py"
    edited = GOOD + "# edited meanwhile\n"
    real = fixes.write_atomic

    def edit_then_write(target: str, data: bytes, *, expected: bytes) -> None:
        path.write_text(edited, encoding="utf-8")  # an editor saves between read and write
        real(target, data, expected=expected)

    monkeypatch.setattr(fixes, "write_atomic", edit_then_write)
    result = CliRunner().invoke(main, ["fix", "--no-cache", "."], catch_exceptions=False)
    assert result.exit_code != 0
    assert "changed while toolret was fixing it" in result.output
    assert path.read_text(encoding="utf-8") == edited


# ----------------------------------------------------------- cache, config


def test_concurrent_runs_share_one_cache(project: Path) -> None:
    for n in range(6):
        (project / "functions" / f"tool{n}.py").write_text(
            GOOD.replace("good", f"tool{n}"), encoding="utf-8"
        )
    args = [sys.executable, "-m", "lint_rules", "check", "--output-format", "concise", "."]
    runs = [
        subprocess.Popen(args, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    outputs = [run.communicate(timeout=HANG) for run in runs]
    assert [run.returncode for run in runs] == [1, 1, 1], [err for _, err in outputs]
    assert len({out for out, _ in outputs}) == 1
    warm = toolret("check", "--output-format", "concise", ".", cwd=project)
    assert warm.returncode == 1 and warm.stdout.encode() == outputs[0][0]


def test_bad_toml_is_a_config_error(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.toolret\nselect = [\n", encoding="utf-8")
    result = check(".")
    assert result.exit_code == 2 and "pyproject.toml" in result.stderr


def test_deep_toml_is_a_config_error(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.toolret]\nselect = " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8"
    )
    result = CliRunner().invoke(main, ["check", "--no-cache", "."])
    assert result.exit_code == 2 and "pyproject.toml" in result.stderr


def test_deep_cache_json_is_ignored(project: Path) -> None:
    from lint_rules.cache import CACHE_DIR_NAME, ResultCache

    cache_file = ResultCache(project / CACHE_DIR_NAME).path
    cache_file.parent.mkdir(parents=True, exist_ok=True)
    cache_file.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for _ in range(2):  # the second run reads the cache the first one wrote
        result = CliRunner().invoke(
            main, ["check", "--output-format", "concise", "."], catch_exceptions=False
        )
        assert result.exit_code == 1 and GOOD_REPORT in result.output
