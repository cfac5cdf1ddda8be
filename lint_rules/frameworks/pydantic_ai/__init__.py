"""Pydantic AI tools: TRV801–TRV803."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.pydantic_ai.recognition import PydanticAiFile, recognise
from lint_rules.frameworks.pydantic_ai.screen import needs_libcst
from lint_rules.frameworks.pydantic_ai.trv801 import PydanticAiRunContextPlacement
from lint_rules.frameworks.pydantic_ai.trv802 import PydanticAiPlainToolContext
from lint_rules.frameworks.pydantic_ai.trv803 import PydanticAiUnserializableReturn
from lint_rules.frameworks.tool_function import ToolFunction, plain_tool
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    PydanticAiRunContextPlacement,
    PydanticAiPlainToolContext,
    PydanticAiUnserializableReturn,
)


class PydanticAI:
    key = "pydantic_ai"
    title = "Pydantic AI"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        from lint_rules import prefilter

        return prefilter.has_signal(self.key, source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        """``screen.needs_libcst``: whether the module can hold anything the family's
        rules (or TRV901/TRV902, on its tool functions) report."""
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[PydanticAiFile]:
        return [recognise(module, project)]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        """Every registered tool function: what it returns is serialised for the model."""
        return [plain_tool(module, f, self.key) for f in recognise(module, project).tools]

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        found = recognise(module, project)
        reported: set[int] = set()
        for tool in found.registrations:
            if id(tool.function) in reported:
                continue
            reported.add(id(tool.function))
            yield ToolFunctionReport(
                framework=self.title,
                name=tool.name,
                row=module.range_of(tool.function.name).start.line,
                is_tool=True,
                reason=f"registered with {tool.how} ({tool.ctx.value})",
            )


FRAMEWORK = PydanticAI()
