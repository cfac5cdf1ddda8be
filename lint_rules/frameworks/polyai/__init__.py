"""PolyAI Agent Studio: recognition of function files and rules TRV101–TRV108."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.polyai.recognition import PolyAIFunction, has_signal, recognise
from lint_rules.frameworks.polyai.screen import needs_libcst
from lint_rules.frameworks.polyai.trv101 import PolyaiInvalidReturnType
from lint_rules.frameworks.polyai.trv102 import PolyaiEmptyDictReturn
from lint_rules.frameworks.polyai.trv103 import PolyaiHangupWithoutUtterance
from lint_rules.frameworks.polyai.trv104 import PolyaiHandoffWithoutUtterance
from lint_rules.frameworks.polyai.trv105 import PolyaiUnknownReturnKey
from lint_rules.frameworks.polyai.trv106 import PolyaiInvalidKeyValue
from lint_rules.frameworks.polyai.trv107 import PolyaiModifierWithoutUtterance
from lint_rules.frameworks.polyai.trv108 import PolyaiConflictingActions
from lint_rules.frameworks.tool_function import ToolFunction
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    PolyaiInvalidReturnType,
    PolyaiEmptyDictReturn,
    PolyaiHangupWithoutUtterance,
    PolyaiHandoffWithoutUtterance,
    PolyaiUnknownReturnKey,
    PolyaiInvalidKeyValue,
    PolyaiModifierWithoutUtterance,
    PolyaiConflictingActions,
)


class PolyAI:
    key = "polyai"
    title = "PolyAI"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        """``screen.needs_libcst``: whether the module can hold anything the family's
        rules (or TRV901/TRV902, on its tool functions) report."""
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[PolyAIFunction]:
        polyai_project = project.polyai_for(module.path) if project is not None else None
        return recognise(module, polyai_project).tools

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        return [
            ToolFunction(module, tool.node, self.key, tool.inference)
            for tool in self.contexts(module, project)
        ]

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        polyai_project = project.polyai_for(module.path) if project is not None else None
        recognition = recognise(module, polyai_project)
        for tool in recognition.tools:
            yield ToolFunctionReport(
                framework=self.title,
                name=tool.name,
                row=module.range_of(tool.node.name).start.line,
                is_tool=True,
                reason=tool.reason,
            )
        for helper in recognition.helpers:
            yield ToolFunctionReport(
                framework=self.title,
                name=helper.node.name.value,
                row=module.range_of(helper.node.name).start.line,
                is_tool=False,
                reason=helper.reason,
            )


FRAMEWORK = PolyAI()
