"""One package per framework: how its tool functions are recognised, and its rules.

Each framework package exports ``FRAMEWORK`` (an object with ``key``,
``title``, ``has_signal``, ``contexts`` and ``describe``; see
:class:`lint_rules.engine.Framework`) and ``RULES`` (its rule classes). Adding
a framework is adding its package and its name here.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

FRAMEWORK_PACKAGES = (
    "polyai",
    "browser_use",
    "openai_agents",
    "openai_chat",
    "anthropic",
    "mcp",
    "langchain",
    "pydantic_ai",
    "openai_responses",
    "google_genai",
    "bedrock",
    "claude_agent_sdk",
    "any_framework",
)
"""The families, in the order their rules run; ``any_framework`` (TRV9xx, over every other
family's tool functions) last."""


@cache
def framework_module(name: str) -> ModuleType:
    """One family's package, imported on first use: a check imports only the families
    signalled in its files."""
    return importlib.import_module(f"{__name__}.{name}")


def framework_modules() -> tuple[ModuleType, ...]:
    return tuple(framework_module(name) for name in FRAMEWORK_PACKAGES)
