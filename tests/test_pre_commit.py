"""The hooks of ``.pre-commit-hooks.yaml``, run by pre-commit itself on a clone of HEAD.

pre-commit installs the hook repository into a virtual environment of its own
(pip, from the package index), so the end-to-end tests take some seconds each;
the manifest test runs without installing anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pre_commit", reason="the hook tests need pre-commit")

from pre_commit.clientlib import load_manifest

pytestmark = pytest.mark.interpreter_neutral

REPO = Path(__file__).resolve().parents[1]
MANIFEST = REPO / ".pre-commit-hooks.yaml"

FIXABLE = """\
def count_bookings(conv):
    bookings = conv.state.bookings or []
    return len(bookings)
"""


def test_manifest_follows_ruffs_conventions() -> None:
    hooks = {hook["id"]: hook for hook in load_manifest(str(MANIFEST))}
    assert sorted(hooks) == ["toolret-add-noqa", "toolret-check", "toolret-fix"]
    assert hooks["toolret-add-noqa"]["entry"] == "toolret check --add-noqa --force-exclude"
    assert hooks["toolret-add-noqa"]["stages"] == ["manual"]  # a one-shot, never on commit
    assert hooks["toolret-check"]["entry"] == "toolret check --force-exclude"
    assert hooks["toolret-fix"]["entry"] == "toolret fix --force-exclude"
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python", "pyi", "jupyter"]  # as ruff's hooks
        assert hook["require_serial"] is True
        assert hook["minimum_pre_commit_version"] == "2.9.2"


def _environment(home: Path) -> dict[str, str]:
    # A hook run inside another repository's hook must not see its GIT_DIR & co.
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(
        PRE_COMMIT_HOME=str(home),
        PRE_COMMIT_COLOR="never",
        GIT_AUTHOR_NAME="toolret tests",
        GIT_AUTHOR_EMAIL="tests@toolret.invalid",
        GIT_COMMITTER_NAME="toolret tests",
        GIT_COMMITTER_EMAIL="tests@toolret.invalid",
    )
    return env


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def _git(cwd: Path, env: dict[str, str], *args: str) -> None:
    result = _run(["git", *args], cwd, env)
    assert result.returncode == 0, result.stderr


def _pre_commit(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "-m", "pre_commit", *args], cwd, env)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """(a clone of the repository's HEAD, a project repository to run hooks in, env)."""
    if shutil.which("git") is None:
        pytest.skip("the hook tests need git")
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: nothing for pre-commit to clone")
    base = tmp_path_factory.mktemp("pre-commit")
    env = _environment(base / "home")
    checkout = base / "toolret"
    _git(base, env, "clone", "--quiet", str(REPO), str(checkout))
    if not (checkout / ".pre-commit-hooks.yaml").exists():
        pytest.skip("HEAD has no .pre-commit-hooks.yaml yet")

    project = base / "project"
    shutil.copytree(REPO / "examples" / "polyai", project / "polyai")
    functions = project / "other" / "functions"  # outside the PolyAI example's root
    functions.mkdir(parents=True)
    (functions / "count_bookings.py").write_text(FIXABLE)
    shutil.copy(REPO / "examples" / "newer_syntax" / "course.ipynb", project / "course.ipynb")
    _git(project, env, "init", "--quiet")
    _git(project, env, "add", "--all")
    _git(project, env, "commit", "--quiet", "--message", "initial")
    return checkout, project, env


def test_check_hook_fails_with_the_diagnostics(sandbox: tuple[Path, Path, dict[str, str]]) -> None:
    checkout, project, env = sandbox
    result = _pre_commit(
        project,
        env,
        "try-repo",
        str(checkout),
        "toolret-check",
        "--files",
        "polyai/functions/end_call.py",
    )
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "toolret check" in output and "Failed" in output
    assert "TRV103" in output
    assert "polyai/functions/end_call.py:14:13" in output


def test_check_hook_checks_notebooks(sandbox: tuple[Path, Path, dict[str, str]]) -> None:
    # pre-commit hands a hook only the files its ``types_or`` names: without ``jupyter``
    # the notebook was skipped and its mistake passed.
    checkout, project, env = sandbox
    result = _pre_commit(
        project, env, "try-repo", str(checkout), "toolret-check", "--files", "course.ipynb"
    )
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "TRV409" in output and "course.ipynb:cell 5:6:5" in output


def test_fix_hook_modifies_then_passes(sandbox: tuple[Path, Path, dict[str, str]]) -> None:
    checkout, project, env = sandbox
    if "def fix(" not in (checkout / "lint_rules" / "cli.py").read_text(encoding="utf-8"):
        pytest.skip("`toolret fix` does not exist at HEAD yet")
    revision = _run(["git", "rev-parse", "HEAD"], checkout, env).stdout.strip()
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {checkout}\n  rev: {revision}\n  hooks:\n  - id: toolret-fix\n"
    )
    target = project / "other" / "functions" / "count_bookings.py"
    args = ("run", "toolret-fix", "--files", "other/functions/count_bookings.py")

    first = _pre_commit(project, env, *args)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "files were modified by this hook" in first.stdout
    assert target.read_text() == FIXABLE.replace(
        "return len(bookings)", "return str(len(bookings))"
    )

    _git(project, env, "add", "--all")  # what a user does before committing again
    second = _pre_commit(project, env, *args)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Passed" in second.stdout


def test_add_noqa_hook_silences_the_findings_once(
    sandbox: tuple[Path, Path, dict[str, str]],
) -> None:
    checkout, project, env = sandbox
    manifest = (checkout / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    if "toolret-add-noqa" not in manifest:
        pytest.skip("HEAD has no toolret-add-noqa hook yet")
    target = "polyai/functions/end_call.py"
    original = (project / target).read_text(encoding="utf-8")
    args = ("try-repo", str(checkout), "toolret-add-noqa", "--hook-stage", "manual")
    try:
        first = _pre_commit(project, env, *args, "--files", target)
        assert first.returncode == 1, first.stdout + first.stderr  # it modified the file
        assert "# noqa: TRV103" in (project / target).read_text(encoding="utf-8")
        check = _pre_commit(
            project, env, "try-repo", str(checkout), "toolret-check", "--files", target
        )
        assert check.returncode == 0, check.stdout + check.stderr
        again = _pre_commit(project, env, *args, "--files", target)
        assert again.returncode == 0, again.stdout + again.stderr  # nothing left to add
    finally:  # the other hook tests use this file as it was
        (project / target).write_text(original, encoding="utf-8")
