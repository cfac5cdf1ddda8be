"""Claude Agent SDK (``claude_agent_sdk``) in-process tools: the ``TRC`` family."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.claude_agent_sdk.recognition import (
    ClaudeSdkFile,
    has_signal,
    recognise,
)
from lint_rules.frameworks.claude_agent_sdk.screen import needs_libcst
from lint_rules.frameworks.claude_agent_sdk.trc001 import ClaudeSdkToolReturnShape
from lint_rules.frameworks.claude_agent_sdk.trc002 import ClaudeSdkIsErrorCamelCase
from lint_rules.frameworks.claude_agent_sdk.trc003 import ClaudeSdkResultWithoutContent
from lint_rules.frameworks.claude_agent_sdk.trc004 import ClaudeSdkDroppedBlock
from lint_rules.frameworks.claude_agent_sdk.trc005 import ClaudeSdkSyncHandler
from lint_rules.frameworks.claude_agent_sdk.trc006 import ClaudeSdkToolDecoratorNotCalled
from lint_rules.frameworks.tool_function import ToolFunction, plain_tool
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    ClaudeSdkToolReturnShape,
    ClaudeSdkIsErrorCamelCase,
    ClaudeSdkResultWithoutContent,
    ClaudeSdkDroppedBlock,
    ClaudeSdkSyncHandler,
    ClaudeSdkToolDecoratorNotCalled,
)


class ClaudeAgentSdk:
    key = "claude_agent_sdk"
    title = "Claude Agent SDK"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        """``screen.needs_libcst``: whether the module can hold anything the family's
        rules (or TRV901/TRV902, on its tool functions) report."""
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[ClaudeSdkFile]:
        return [recognise(module, project)]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        """The ``@tool(...)`` handlers (TRV901/TRV902 then apply)."""
        found = recognise(module, project)
        return [plain_tool(module, h.function, self.key) for h in found.handlers if h.called]

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        for handler in recognise(module, project).handlers:
            yield ToolFunctionReport(
                framework=self.title,
                name=handler.function.name.value,
                row=module.range_of(handler.function.name).start.line,
                is_tool=True,
                reason="decorated with `claude_agent_sdk.tool`",
            )


FRAMEWORK = ClaudeAgentSdk()
