"""The light rule table the runner selects with equals the rules' own metadata."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

from lint_rules.catalog import CODE_PREFIXES, DEFAULT_ENABLED, FRAMEWORK_CODE_PREFIXES
from lint_rules.rules import EngineRule, all_rules


def test_catalog_lists_every_rule_with_its_default() -> None:
    assert {rule.code: rule.default_enabled() for rule in all_rules()} == DEFAULT_ENABLED


def test_every_rule_belongs_to_its_frameworks_prefix() -> None:
    for rule in all_rules():
        if issubclass(rule, EngineRule):
            continue
        assert rule.code.startswith(FRAMEWORK_CODE_PREFIXES[rule.framework])


def test_every_code_has_a_registered_prefix_of_three_letters() -> None:
    """RULES.md "Codes after TRV9xx": ``TR<X>`` and three digits, never ``TRY`` (ruff's
    tryceratops), and every prefix a flake8 entry point of the package."""
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    entry_points = pyproject["project"]["entry-points"]["flake8.extension"]
    assert list(entry_points) == list(CODE_PREFIXES)
    assert entry_points["TRV"] == "lint_rules.flake8_plugin:ToolretChecker"
    assert "TRY" not in CODE_PREFIXES
    for code in DEFAULT_ENABLED:
        assert re.fullmatch(r"TR[A-Z][0-9]{3}", code), code
        assert code[:3] in CODE_PREFIXES, code
    used = {code[:3] for code in DEFAULT_ENABLED}
    assert used == set(CODE_PREFIXES)  # no prefix registered before its family has a rule


def test_the_docs_tell_ruff_every_prefix_is_external() -> None:
    """Every ``external = [...]`` of the README and the docs lists each prefix."""
    root = Path(__file__).parents[1]
    expected = "[" + ", ".join(f'"{prefix}"' for prefix in CODE_PREFIXES) + "]"
    found = 0
    for path in [root / "README.md", root / "pyproject.toml", *(root / "docs").rglob("*.md")]:
        for match in re.finditer(r"^external = (\[.*\])$", path.read_text(), re.MULTILINE):
            assert match.group(1) == expected, path
            found += 1
    assert found >= 4


def test_every_framework_has_a_title_for_the_docs() -> None:
    from lint_rules.docs import FRAMEWORK_TITLES

    assert set(FRAMEWORK_TITLES) == {"engine", *FRAMEWORK_CODE_PREFIXES}
