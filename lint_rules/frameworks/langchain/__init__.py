"""LangChain / LangGraph tools: TRV701–TRV706."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules import prefilter
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.langchain.recognition import LangChainFile, recognise
from lint_rules.frameworks.langchain.screen import needs_libcst
from lint_rules.frameworks.langchain.trv701 import LangChainArtifactNotTuple
from lint_rules.frameworks.langchain.trv702 import LangChainToolWithoutDescription
from lint_rules.frameworks.langchain.trv703 import LangChainToolOnMethod
from lint_rules.frameworks.langchain.trv704 import LangGraphCommandWithoutToolMessage
from lint_rules.frameworks.langchain.trv705 import LangChainToolMessageFixedId
from lint_rules.frameworks.langchain.trv706 import LangChainTupleWithoutArtifactFormat
from lint_rules.frameworks.tool_function import ToolFunction, plain_tool
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    LangChainArtifactNotTuple,
    LangChainToolWithoutDescription,
    LangChainToolOnMethod,
    LangGraphCommandWithoutToolMessage,
    LangChainToolMessageFixedId,
    LangChainTupleWithoutArtifactFormat,
)

_HOW = {
    "decorator": "decorated with LangChain's `@tool`",
    "from_function": "given to `StructuredTool.from_function`",
    "base_tool": "the `_run` of a `BaseTool` subclass",
}


class LangChain:
    key = "langchain"
    title = "LangChain"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return prefilter.has_signal(self.key, source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        """``screen.needs_libcst``: whether the module can hold anything the family's
        rules (or TRV901/TRV902, on its tool functions) report."""
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[LangChainFile]:
        return [recognise(module, project)]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        return [plain_tool(module, t.function, self.key) for t in recognise(module, project).tools]

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        for tool in recognise(module, project).tools:
            yield ToolFunctionReport(
                framework=self.title,
                name=tool.name,
                row=module.range_of(tool.function.name).start.line,
                is_tool=True,
                reason=_HOW[tool.how],
            )


FRAMEWORK = LangChain()
