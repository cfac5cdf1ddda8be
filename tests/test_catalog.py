"""The light rule table the runner selects with equals the rules' own metadata."""

from __future__ import annotations

from lint_rules.catalog import DEFAULT_ENABLED, FRAMEWORK_CODE_PREFIXES
from lint_rules.rules import EngineRule, all_rules


def test_catalog_lists_every_rule_with_its_default() -> None:
    assert {rule.code: rule.default_enabled() for rule in all_rules()} == DEFAULT_ENABLED


def test_every_rule_belongs_to_its_frameworks_prefix() -> None:
    for rule in all_rules():
        if issubclass(rule, EngineRule):
            continue
        assert rule.code.startswith(FRAMEWORK_CODE_PREFIXES[rule.framework])
