"""MCP server tools (official SDK 1.x/2.x, standalone fastmcp, low-level servers): TRV601–TRV607."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.mcp.recognition import McpFile, has_signal, recognise
from lint_rules.frameworks.mcp.screen import needs_libcst
from lint_rules.frameworks.mcp.trv601 import McpDecoratorNotCalled
from lint_rules.frameworks.mcp.trv602 import McpReturnContradictsAnnotation
from lint_rules.frameworks.mcp.trv603 import McpCallToolHandlerReturn
from lint_rules.frameworks.mcp.trv604 import McpOptionalCallToolResult
from lint_rules.frameworks.mcp.trv605 import McpContextParameterUnannotated
from lint_rules.frameworks.mcp.trv606 import McpJsonStringReturn
from lint_rules.frameworks.mcp.trv607 import McpListReturnSplitsContent
from lint_rules.frameworks.tool_function import ToolFunction, plain_tool
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    McpDecoratorNotCalled,
    McpReturnContradictsAnnotation,
    McpCallToolHandlerReturn,
    McpOptionalCallToolResult,
    McpContextParameterUnannotated,
    McpJsonStringReturn,
    McpListReturnSplitsContent,
)


class Mcp:
    key = "mcp"
    title = "MCP server"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        """``screen.needs_libcst``: whether the module can hold anything the family's
        rules (or TRV901/TRV902, on its tool functions) report."""
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[McpFile]:
        return [recognise(module, project)]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        """The server's tools (decorated or registered) and low-level ``call_tool`` handlers:
        what they return is what the client gets."""
        found = recognise(module, project)
        functions = [t.function for t in found.tools]
        functions += [h for h, _ in found.call_tool_handlers if h not in functions]
        return [plain_tool(module, f, self.key) for f in functions]

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        for tool in recognise(module, project).tools:
            how = "decorated with `.tool`" if tool.decorator is not None else "registered"
            yield ToolFunctionReport(
                framework=self.title,
                name=tool.name,
                row=module.range_of(tool.function.name).start.line,
                is_tool=True,
                reason=f"{how} on {_article(tool.origin.value)} server",
            )


FRAMEWORK = Mcp()


def _article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word
