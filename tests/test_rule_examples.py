"""Every rule's own examples, collected automatically (Fixit-style).

Adding a rule adds its tests: each ``invalid`` example must be reported by the
rule (and, where it has ``fixed``, the rule's fixes must turn it into exactly
that), each ``valid`` example must not be.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lint_rules.analysis.project import Project
from lint_rules.config import Settings
from lint_rules.engine import check_source
from lint_rules.fixes import apply_fixes, fixes_to_apply
from lint_rules.model import Diagnostic
from lint_rules.rules import EngineRule, Example, Rule, all_rules

CHECKED_RULES = [r for r in all_rules() if not issubclass(r, EngineRule)]


def _cases(kind: str) -> list[object]:
    cases = []
    for rule in CHECKED_RULES:
        examples: tuple[Example, ...] = getattr(rule, kind)
        for index, example in enumerate(examples):
            cases.append(pytest.param(rule, example, id=f"{rule.code}-{kind}-{index}"))
    return cases


def run_example(rule: type[Rule], example: Example, root: Path) -> list[Diagnostic]:
    target = root / example.path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(example.code)
    for name, text in example.files.items():
        extra = root / name
        extra.parent.mkdir(parents=True, exist_ok=True)
        extra.write_text(text)
    settings = Settings().with_overrides(select=[rule.code])
    diagnostics = check_source(example.code, str(target), settings, Project())
    return [d for d in diagnostics if d.code == rule.code]


@pytest.mark.parametrize(("rule", "example"), _cases("invalid"))
def test_invalid_example_is_reported(rule: type[Rule], example: Example, tmp_path: Path) -> None:
    found = run_example(rule, example, tmp_path)
    assert found, f"{rule.code} did not report:\n{example.code}"
    if example.fixed is not None:
        fixed, _, _ = apply_fixes(example.code, fixes_to_apply(found, unsafe=True))
        assert fixed == example.fixed
        # Idempotent: the fixed code has nothing left for this rule to fix.
        again = run_example(
            rule, Example(code=fixed, path=example.path, files=example.files), tmp_path
        )
        assert not fixes_to_apply(again, unsafe=True)


@pytest.mark.parametrize(("rule", "example"), _cases("valid"))
def test_valid_example_is_not_reported(rule: type[Rule], example: Example, tmp_path: Path) -> None:
    found = run_example(rule, example, tmp_path)
    assert not found, [f"{d.location.row}:{d.location.column} {d.message}" for d in found]


@pytest.mark.parametrize("rule", CHECKED_RULES, ids=lambda r: r.code)
def test_rule_is_documented_with_examples(rule: type[Rule]) -> None:
    doc = rule.documentation()
    assert "## What it does" in doc
    assert "## Why is this bad?" in doc
    if rule.fix_applicability is not None:
        assert "## Fix safety" in doc
        assert any(e.fixed is not None for e in rule.invalid), "a fixable rule shows its fix"
    assert len(rule.invalid) >= 2
    assert len(rule.valid) >= 3, "at least three negatives modelled on real code"
