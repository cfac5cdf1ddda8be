"""The documentation site builds with ``mkdocs build --strict``: a broken link fails the suite.

``mkdocs.yml`` turns on MkDocs' link, anchor and nav validation as warnings,
which ``--strict`` makes fatal. The build needs the ``docs`` extra; without it
the build test is skipped, but the nav is still checked against the rules.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lint_rules.model import DOCS_URL_ENV, rule_url
from lint_rules.rules import all_rules

pytestmark = pytest.mark.interpreter_neutral

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "mkdocs.yml"


def test_nav_lists_every_rule_page() -> None:
    text = CONFIG.read_text(encoding="utf-8")
    missing = [rule.code for rule in all_rules() if f"- rules/{rule.code}.md\n" not in text]
    assert not missing, f"add these rule pages to the nav in mkdocs.yml: {missing}"


@pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None,
    reason="mkdocs-material is not installed (pip install -e '.[docs]')",
)
def test_site_builds_strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(CONFIG),
            "--site-dir",
            str(site),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # Rule URLs (JSON `url`, SARIF `helpUri`, the editor's link) point at these pages.
    monkeypatch.setenv(DOCS_URL_ENV, "BASE")
    for rule in all_rules():
        url = rule_url(rule.code)
        assert url is not None
        page = url.removeprefix("BASE/")
        assert (site / page / "index.html").is_file(), url
    assert (site / "rules" / "index.html").is_file()
