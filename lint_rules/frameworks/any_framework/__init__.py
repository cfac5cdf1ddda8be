"""Rules that hold for every framework: TRV901 (a returned exception) and TRV902 (a missing
``await``), over the tool functions every other family recognises (``tool_functions``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport, framework, signalled_keys
from lint_rules.frameworks.any_framework.trv901 import ToolReturnsException
from lint_rules.frameworks.any_framework.trv902 import ToolReturnsCoroutine
from lint_rules.frameworks.tool_function import ToolFunction
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (ToolReturnsException, ToolReturnsCoroutine)

KEY = "any_framework"


def _family_keys() -> list[str]:
    from lint_rules.frameworks import FRAMEWORK_PACKAGES

    return [key for key in FRAMEWORK_PACKAGES if key != KEY]


class AnyFramework:
    key = KEY
    title = "any framework"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return bool(signalled_keys(_family_keys(), source, path, None, settings))

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[ToolFunction]:
        """Every family's tool functions of the file, each function once (the first family
        in the catalogue's order that calls it a tool names the consequence)."""
        found: dict[int, ToolFunction] = {}
        for key in signalled_keys(_family_keys(), module.source, module.path, project):
            for tool in framework(key).tool_functions(module, project):
                found.setdefault(id(tool.node), tool)
        return list(found.values())

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        return []

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        return iter(())  # the families describe their own tool functions


FRAMEWORK = AnyFramework()
