"""Every rule code and whether it is on by default, without importing any rule.

Rule selection must be decided before a file is parsed — and for most files
of a repository nothing is ever parsed — so this table lives apart from the
rule classes (which import LibCST). ``tests/test_catalog.py`` keeps it equal
to the rules' own metadata: adding a rule without adding it here fails.
"""

from __future__ import annotations

from typing import Final

DEFAULT_ENABLED: Final[dict[str, bool]] = {
    "TRV001": True,
    "TRV002": True,
    "TRV003": True,
    "TRV004": False,
    "TRV005": False,
    "TRV101": True,
    "TRV102": True,
    "TRV103": True,
    "TRV104": True,
    "TRV105": True,
    "TRV106": True,
    "TRV107": False,
    "TRV108": True,
    "TRV201": True,
    "TRV202": True,
    "TRV203": True,
    "TRV204": True,
    "TRV205": True,
    "TRV206": True,
    "TRV207": True,
    "TRV208": False,
    "TRV209": True,
    "TRV301": True,
    "TRV302": True,
    "TRV303": True,
    "TRV304": True,
    "TRV305": True,
    "TRV306": True,
    "TRV307": False,
    "TRV308": False,
    "TRV309": True,
    "TRV310": True,
    "TRV311": True,
    "TRV312": True,
    "TRV401": True,
    "TRV402": True,
    "TRV403": True,
    "TRV404": True,
    "TRV405": True,
    "TRV406": True,
    "TRV407": True,
    "TRV408": True,
    "TRV409": True,
    "TRV410": True,
    "TRV411": True,
    "TRV501": True,
    "TRV502": True,
    "TRV503": True,
    "TRV504": True,
    "TRV505": True,
    "TRV506": True,
    "TRV507": True,
    "TRV508": True,
    "TRV601": True,
    "TRV602": True,
    "TRV603": True,
    "TRV604": True,
    "TRV605": True,
    "TRV606": False,
    "TRV607": False,
    "TRV701": True,
    "TRV702": True,
    "TRV703": True,
    "TRV704": True,
    "TRV705": True,
    "TRV706": False,
    "TRV801": True,
    "TRV802": True,
    "TRV803": True,
    "TRV901": True,
    "TRV902": True,
    "TRR001": True,
    "TRR002": True,
    "TRR003": True,
    "TRR004": True,
    "TRR005": True,
    "TRR006": True,
    "TRR007": True,
    "TRG001": True,
    "TRG002": True,
    "TRG003": True,
    "TRG004": True,
    "TRG101": True,
    "TRB001": True,
    "TRB002": True,
    "TRB003": True,
    "TRB004": True,
    "TRB005": True,
    "TRB006": True,
    "TRB007": True,
    "TRB008": True,
    "TRB101": True,
    "TRB102": False,
    "TRC001": True,
    "TRC002": True,
    "TRC003": True,
    "TRC004": True,
    "TRC005": True,
    "TRC006": True,
}

CODE_PREFIXES: Final = ("TRV", "TRR", "TRG", "TRB", "TRC")
"""The letters of toolret's codes (RULES.md "Codes after TRV9xx"): ``TRV`` for the engine
and the families up to TRV9xx, frozen at three digits, then one ``TR<X>`` per family
after it. Each is a flake8 entry point (``pyproject.toml``; a test keeps the two equal):
flake8 shows a plugin's codes by default only under a registered name."""

FRAMEWORK_CODE_PREFIXES: Final[dict[str, str]] = {
    "polyai": "TRV1",
    "browser_use": "TRV2",
    "openai_agents": "TRV3",
    "openai_chat": "TRV4",
    "anthropic": "TRV5",
    "mcp": "TRV6",
    "langchain": "TRV7",
    "pydantic_ai": "TRV8",
    "any_framework": "TRV9",
    "openai_responses": "TRR",
    "google_genai": "TRG",
    "bedrock": "TRB",
    "claude_agent_sdk": "TRC",
}
"""Which rule codes belong to which framework (``lint_rules/frameworks/<key>/``)."""


EVERY_FRAMEWORK_CODES: Final = frozenset({"TRV005"})
"""Engine codes that report on any file a framework signals, whichever framework's
rules are enabled: ``--select TRV005`` alone checks the syntax of every such file."""


def frameworks_enabled(codes: frozenset[str]) -> tuple[str, ...]:
    """The frameworks with at least one enabled rule (every framework when a code of
    ``EVERY_FRAMEWORK_CODES`` is enabled), in a stable order."""
    every = not EVERY_FRAMEWORK_CODES.isdisjoint(codes)
    return tuple(
        key
        for key, prefix in FRAMEWORK_CODE_PREFIXES.items()
        if every or any(code.startswith(prefix) for code in codes)
    )
