"""Rules that hold for every framework: TRV901 (a returned exception) and TRV902 (a missing
``await``), over the tool functions every other family recognises (``tool_functions``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.config import Settings
from lint_rules.engine import Framework, ToolFunctionReport
from lint_rules.frameworks.any_framework.trv901 import ToolReturnsException
from lint_rules.frameworks.any_framework.trv902 import ToolReturnsCoroutine
from lint_rules.frameworks.tool_function import ToolFunction
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (ToolReturnsException, ToolReturnsCoroutine)

KEY = "any_framework"


def _families() -> list[Framework]:
    from lint_rules.frameworks import framework_modules

    return [m.FRAMEWORK for m in framework_modules() if m.FRAMEWORK.key != KEY]


class AnyFramework:
    key = KEY
    title = "any framework"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return any(f.has_signal(source, path, settings) for f in _families())

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[ToolFunction]:
        """Every family's tool functions of the file, each function once (the first family
        in the catalogue's order that calls it a tool names the consequence)."""
        found: dict[int, ToolFunction] = {}
        for family in _families():
            signalled = family.has_signal(module.source, module.path) or (
                project is not None and project.names_file(family.key, module.path)
            )
            if not signalled:
                continue
            for tool in family.tool_functions(module, project):
                found.setdefault(id(tool.node), tool)
        return list(found.values())

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        return []

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        return iter(())  # the families describe their own tool functions


FRAMEWORK = AnyFramework()
