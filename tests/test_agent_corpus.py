"""The real-agent corpus is materialised from local mirrors: the pinned commit's Python
files and notebooks only, absent blobs and unavailable repositories skipped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import agent_corpus


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.fixture
def mirror(tmp_path: Path) -> tuple[Path, str]:
    work = tmp_path / "work"
    (work / "pkg").mkdir(parents=True)
    (work / "pkg" / "loop.py").write_text("import openai\n")
    (work / "demo.ipynb").write_text("{}\n")
    (work / "README.md").write_text("# not code\n")
    (work / "pyproject.toml").write_text('[project]\nrequires-python = ">=3.12"\n')
    _git("init", "--quiet", cwd=work)
    _git("add", ".", cwd=work)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "c", cwd=work)
    commit = _git("rev-parse", "HEAD", cwd=work)
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    bare = mirrors / "acme+agent" / "repo"
    _git("clone", "--quiet", "--bare", str(work), str(bare), cwd=tmp_path)
    return mirrors, commit


def test_materialise_from_a_mirror(
    tmp_path: Path, mirror: tuple[Path, str], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    mirrors, commit = mirror
    monkeypatch.setattr(agent_corpus, "PINNED", (("acme/agent", commit), ("gone/away", "0" * 40)))
    monkeypatch.setattr(agent_corpus, "_fetched", lambda repo, commit: None)  # no network
    dest = tmp_path / "corpus"
    info = agent_corpus.materialise(dest, mirrors)
    written = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert written == [
        "acme+agent/demo.ipynb",
        "acme+agent/pkg/loop.py",
        "acme+agent/pyproject.toml",
    ]
    assert (info.files, info.lines) == (2, 2)
    assert "1 of 2 pinned" in info.description
    assert "gone/away@0000000000 is not available" in capsys.readouterr().err


def test_every_pin_is_a_full_commit() -> None:
    assert len({repo for repo, _ in agent_corpus.PINNED}) == len(agent_corpus.PINNED) >= 50
    assert all(len(commit) == 40 and int(commit, 16) >= 0 for _, commit in agent_corpus.PINNED)
