"""Anthropic Messages tool loops and ``@beta_tool`` functions: TRV501–TRV508."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.anthropic.recognition import AnthropicFile, has_signal, recognise
from lint_rules.frameworks.anthropic.screen import needs_libcst
from lint_rules.frameworks.anthropic.trv501 import AnthropicToolResultWithoutId
from lint_rules.frameworks.anthropic.trv502 import AnthropicToolResultBeforeAssistantTurn
from lint_rules.frameworks.anthropic.trv503 import AnthropicToolResultNotFirst
from lint_rules.frameworks.anthropic.trv504 import AnthropicToolResultWrongRole
from lint_rules.frameworks.anthropic.trv505 import AnthropicToolResultContentType
from lint_rules.frameworks.anthropic.trv506 import AnthropicErrorResultEmpty
from lint_rules.frameworks.anthropic.trv507 import AnthropicUnansweredToolUse
from lint_rules.frameworks.anthropic.trv508 import AnthropicBetaToolReturn
from lint_rules.frameworks.tool_function import ToolFunction, plain_tool
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    AnthropicToolResultWithoutId,
    AnthropicToolResultBeforeAssistantTurn,
    AnthropicToolResultNotFirst,
    AnthropicToolResultWrongRole,
    AnthropicToolResultContentType,
    AnthropicErrorResultEmpty,
    AnthropicUnansweredToolUse,
    AnthropicBetaToolReturn,
)


class Anthropic:
    key = "anthropic"
    title = "Anthropic Messages"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[AnthropicFile]:
        return [recognise(module, project)]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        """The ``@beta_tool`` / ``@beta_async_tool`` functions (the SDK's tool runner calls
        them and sends what they return)."""
        return [plain_tool(module, f, self.key) for f in recognise(module, project).beta_tools]

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        for function in recognise(module, project).beta_tools:
            yield ToolFunctionReport(
                framework=self.title,
                name=function.name.value,
                row=module.range_of(function.name).start.line,
                is_tool=True,
                reason="decorated with the SDK's `@beta_tool`",
            )


FRAMEWORK = Anthropic()
