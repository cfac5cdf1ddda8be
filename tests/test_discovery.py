"""File discovery: sorted walk, excludes, .gitignore without git, explicit paths."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pytest

from lint_rules.config import Settings, SettingsResolver
from lint_rules.discovery import GitignoreFile, discover


def make_tree(root: Path, files: Iterable[str]) -> None:
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("", encoding="utf-8")


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def found(*paths: str | Path, force_exclude: bool = False) -> list[str]:
    resolver = SettingsResolver()
    return [
        p.as_posix()
        for p in discover(
            [Path(p) for p in paths], settings_for=resolver, force_exclude=force_exclude
        )
    ]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty repository as the working directory (``.git`` makes it one)."""
    (tmp_path / ".git" / "info").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_walk_is_sorted_and_keeps_python_files(project: Path) -> None:
    make_tree(
        project,
        [
            "b.py",
            "a/z.py",
            "a/b/c.py",
            "a.py",
            "stubs/api.pyi",
            "README.md",
            "setup.cfg",
            "tools/run.pyw",
            "pkg/__init__.py",
        ],
    )
    assert found(".") == ["a/b/c.py", "a/z.py", "a.py", "b.py", "pkg/__init__.py", "stubs/api.pyi"]
    assert found("a") == ["a/b/c.py", "a/z.py"]
    assert found(project / "a" / "b") == [(project / "a" / "b" / "c.py").as_posix()]


def test_default_excludes_prune_directories(project: Path) -> None:
    make_tree(
        project,
        [
            "app.py",
            ".venv/lib/site.py",
            "venv/x.py",
            "node_modules/pkg/setup.py",
            "build/lib/app.py",
            "dist/x.py",
            ".tox/py/x.py",
            "src/.mypy_cache/x.py",
            ".toolret_cache/x.py",
            ".github/scripts/release.py",
        ],
    )
    assert found(".") == [".github/scripts/release.py", "app.py"]


def test_config_excludes_apply_per_subtree(project: Path) -> None:
    write(project / "pyproject.toml", '[tool.toolret]\nextend-exclude = ["legacy", "*_pb2.py"]\n')
    write(project / "svc" / "toolret.toml", 'extend-exclude = ["fixtures"]\n')
    make_tree(
        project,
        [
            "a_pb2.py",
            "legacy/old.py",
            "tests/fixtures/bad.py",
            "svc/fixtures/bad.py",
            "svc/legacy/old.py",
            "svc/api_pb2.py",
            "svc/tool.py",
        ],
    )
    # svc/ has its own config: the root's excludes do not reach into it (closest file wins).
    assert found(".") == [
        "svc/api_pb2.py",
        "svc/legacy/old.py",
        "svc/tool.py",
        "tests/fixtures/bad.py",
    ]


def test_exclude_replaces_defaults(project: Path) -> None:
    write(project / "toolret.toml", 'exclude = ["generated"]\n')
    make_tree(project, ["build/tool.py", "generated/a.py", "ok.py"])
    assert found(".") == ["build/tool.py", "ok.py"]


def test_gitignore_basics(project: Path) -> None:
    write(
        project / ".gitignore",
        "# generated code\n"
        "*_gen.py\n"
        "scratch/\n"
        "/top_only.py\n"
        "docs/**/conf.py\n"
        "logs\n"
        "notes.py   \n"
        "\\#hash.py\n",
    )
    make_tree(
        project,
        [
            "api_gen.py",
            "pkg/api_gen.py",
            "scratch/try.py",
            "pkg/scratch/try.py",
            "scratch.py",
            "top_only.py",
            "pkg/top_only.py",
            "docs/conf.py",
            "docs/a/b/conf.py",
            "docs/a/other.py",
            "logs/x.py",
            "notes.py",
            "#hash.py",
            "keep.py",
        ],
    )
    assert found(".") == [
        "docs/a/other.py",
        "keep.py",
        "pkg/top_only.py",
        "scratch.py",
    ]


def test_gitignore_directory_only_pattern_spares_files(project: Path) -> None:
    write(project / ".gitignore", "cache/\ntools.py/\n")
    make_tree(project, ["cache/x.py", "pkg/cache/y.py", "pkg/tools.py", "tools.py/z.py"])
    # ``tools.py/`` matches the directory of that name, not the file ``pkg/tools.py``.
    assert found(".") == ["pkg/tools.py"]


def test_gitignore_negation(project: Path) -> None:
    write(project / ".gitignore", "*.py\n!keep*.py\n!/src/\nignored_dir/\n!ignored_dir/back.py\n")
    make_tree(
        project,
        ["a.py", "keep_me.py", "src/x.py", "src/keep.py", "ignored_dir/back.py"],
    )
    # A file inside an ignored directory cannot be re-included (git's rule).
    assert found(".") == ["keep_me.py", "src/keep.py"]


def test_nested_gitignore(project: Path) -> None:
    write(project / ".gitignore", "*.tmp.py\nout/\n")
    write(project / "pkg" / ".gitignore", "/local.py\n!special.tmp.py\ndeep/*.py\n")
    make_tree(
        project,
        [
            "local.py",
            "a.tmp.py",
            "pkg/local.py",
            "pkg/sub/local.py",
            "pkg/special.tmp.py",
            "pkg/other.tmp.py",
            "pkg/deep/x.py",
            "pkg/deep/more/y.py",
            "pkg/out/z.py",
        ],
    )
    assert found(".") == [
        "local.py",
        "pkg/deep/more/y.py",
        "pkg/special.tmp.py",
        "pkg/sub/local.py",
    ]


def test_gitignore_of_parent_applies_when_walking_a_subdirectory(project: Path) -> None:
    write(project / ".gitignore", "secret.py\n/pkg/gen/\n")
    make_tree(project, ["pkg/secret.py", "pkg/ok.py", "pkg/gen/a.py"])
    assert found("pkg") == ["pkg/ok.py"]
    # The directory named on the command line is walked even if ignored itself.
    assert found("pkg/gen") == ["pkg/gen/a.py"]


def test_git_info_exclude(project: Path) -> None:
    write(project / ".git" / "info" / "exclude", "mine/\n")
    write(project / ".gitignore", "!mine/\n")
    make_tree(project, ["mine/a.py", "other/mine/b.py", "c.py"])
    # .gitignore beats info/exclude.
    assert found(".") == ["c.py", "mine/a.py", "other/mine/b.py"]
    (project / ".gitignore").unlink()
    assert found(".") == ["c.py"]


def test_gitignore_above_repository_root_is_ignored(tmp_path: Path) -> None:
    write(tmp_path / ".gitignore", "*.py\n")
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    make_tree(repo, ["a.py"])
    assert found(repo) == [(repo / "a.py").as_posix()]


def test_nested_repository_starts_fresh(project: Path) -> None:
    write(project / ".gitignore", "*_local.py\n")
    (project / "vendor" / "lib" / ".git").mkdir(parents=True)
    make_tree(project, ["x_local.py", "vendor/lib/y_local.py", "vendor/z_local.py"])
    assert found(".") == ["vendor/lib/y_local.py"]


def test_gitignore_outside_a_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / ".gitignore", "ignored.py\n")
    make_tree(tmp_path, ["ignored.py", "kept.py", "sub/ignored.py"])
    assert found(".") == ["kept.py"]
    assert found("sub") == []


def test_respect_gitignore_false(project: Path) -> None:
    write(project / ".gitignore", "*.py\n")
    write(project / "toolret.toml", "respect-gitignore = false\n")
    make_tree(project, ["a.py"])
    assert found(".") == ["a.py"]


def test_explicit_files_are_always_checked(project: Path) -> None:
    write(project / ".gitignore", "ignored.py\n")
    write(project / "toolret.toml", 'extend-exclude = ["skip_me.py", "gen"]\n')
    make_tree(project, ["ignored.py", "skip_me.py", "gen/a.py", "script"])
    assert found("ignored.py", "skip_me.py", "gen/a.py", "script") == [
        "ignored.py",
        "skip_me.py",
        "gen/a.py",
        "script",
    ]
    assert found("gen") == ["gen/a.py"]


def test_force_exclude(project: Path) -> None:
    write(project / ".gitignore", "ignored.py\n")
    write(project / "toolret.toml", 'extend-exclude = ["skip_me.py", "gen"]\n')
    make_tree(project, ["ignored.py", "skip_me.py", "gen/a.py", "gen/sub/b.py", "ok.py"])
    assert found(
        "ignored.py", "skip_me.py", "gen/a.py", "gen/sub/b.py", "gen", "ok.py", force_exclude=True
    ) == ["ignored.py", "ok.py"]
    # The default excludes count too (pre-commit passes files from a committed venv).
    make_tree(project, ["venv/lib/x.py"])
    assert found("venv/lib/x.py", force_exclude=True) == []


def test_force_exclude_from_config(project: Path) -> None:
    write(project / "toolret.toml", 'force-exclude = true\nextend-exclude = ["skip_me.py"]\n')
    make_tree(project, ["skip_me.py", "ok.py"])
    assert found("skip_me.py", "ok.py") == ["ok.py"]


def test_force_exclude_does_not_test_above_the_project_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "build" / "agent"
    write(project / "toolret.toml", "")
    make_tree(project, ["tool.py"])
    monkeypatch.chdir(project)
    assert found("tool.py", force_exclude=True) == ["tool.py"]


def test_missing_path_is_yielded_for_the_runner_to_report(project: Path) -> None:
    # ruff lints a missing path and reports E902; toolret's runner reports TRV003.
    make_tree(project, ["a.py"])
    found = discover([Path("a.py"), Path("nope.py")], settings_for=lambda _: Settings())
    assert list(found) == [Path("a.py"), Path("nope.py")]


def test_python_entries_that_are_not_files_are_yielded(project: Path) -> None:
    make_tree(project, ["a.py", "real/b.py"])
    (project / "dangling.py").symlink_to(project / "gone.py")
    (project / "loop.py").symlink_to(project / "loop.py")
    (project / "link_to_dir.py").symlink_to(project / "real", target_is_directory=True)
    os.mkfifo(project / "pipe.py")
    assert found(".") == ["a.py", "dangling.py", "loop.py", "pipe.py", "real/b.py"]


def test_an_ignore_file_that_is_a_fifo_is_skipped_and_reported(project: Path) -> None:
    make_tree(project, ["a.py", "b.py"])
    os.mkfifo(project / ".gitignore")
    errors: list[tuple[Path, OSError]] = []
    walked = discover(
        [Path(".")], settings_for=lambda _: Settings(), on_error=lambda p, e: errors.append((p, e))
    )
    assert [p.as_posix() for p in walked] == ["a.py", "b.py"]
    assert [(p.name, e.strerror) for p, e in errors] == [
        (".gitignore", "Not a regular file: a named pipe (FIFO)")
    ]


def test_each_file_once(project: Path) -> None:
    make_tree(project, ["pkg/a.py", "pkg/b.py"])
    assert found("pkg/b.py", "pkg", ".", str(project / "pkg" / "a.py")) == [
        "pkg/b.py",
        "pkg/a.py",
    ]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlinks(project: Path) -> None:
    make_tree(project, ["real/a.py", "outside/b.py"])
    (project / "link_dir").symlink_to(project / "outside", target_is_directory=True)
    (project / "link.py").symlink_to(project / "real" / "a.py")
    assert found(".") == ["link.py", "outside/b.py", "real/a.py"]


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "expected"),
    [
        ("foo", "foo", False, True),
        ("foo", "a/b/foo", True, True),
        ("foo/", "a/foo", False, None),
        ("foo/", "a/foo", True, True),
        ("/foo", "a/foo", False, None),
        ("a/foo", "a/foo", False, True),
        ("a/foo", "x/a/foo", False, None),
        ("*.py", "a/b.py", False, True),
        ("a/*.py", "a/b/c.py", False, None),
        ("**/foo", "foo", False, True),
        ("**/foo", "x/y/foo", False, True),
        ("a/**", "a/x/y", False, True),
        ("a/**", "a", True, None),
        ("a/**/b", "a/b", False, True),
        ("a/**/b", "a/x/y/b", False, True),
        ("a**b", "axxb", False, True),
        ("a**b", "ax/xb", False, None),
        ("fo?", "foo", False, True),
        ("fo?", "fo/", False, None),
        ("[a-c]x.py", "bx.py", False, True),
        ("[!a-c]x.py", "bx.py", False, None),
        ("[!a-c]x.py", "dx.py", False, True),
        ("\\!bang.py", "!bang.py", False, True),
        ("trailing\\ ", "trailing ", False, True),
        ("!foo", "foo", False, False),
        ("[unclosed", "[unclosed", False, True),
    ],
)
def test_gitignore_pattern(pattern: str, path: str, is_dir: bool, expected: bool | None) -> None:
    assert GitignoreFile(Path("/repo"), [pattern]).match(path, is_dir) is expected


def test_gitignore_last_match_wins() -> None:
    ignore = GitignoreFile(Path("/repo"), ["*.py", "!keep.py", "keep.py"])
    assert ignore.match("keep.py", False) is True
    ignore = GitignoreFile(Path("/repo"), ["*.py", "!keep.py"])
    assert ignore.match("keep.py", False) is False
    assert ignore.match("other.py", False) is True
