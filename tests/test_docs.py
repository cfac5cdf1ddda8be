"""The checked-in rule pages are exactly what the rules generate."""

from __future__ import annotations

from pathlib import Path

from lint_rules.docs import expected_files

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def test_rule_pages_are_up_to_date() -> None:
    stale = [
        name
        for name, content in expected_files().items()
        if not (DOCS / name).exists() or (DOCS / name).read_text(encoding="utf-8") != content
    ]
    assert not stale, f"run `python -m lint_rules.docs` to regenerate: {stale}"


def test_no_orphan_pages() -> None:
    assert {p.name for p in DOCS.glob("*.md")} == set(expected_files())
