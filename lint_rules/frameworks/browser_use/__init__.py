"""browser-use: recognition of actions and ``ActionResult`` calls, rules TRV201–TRV209."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.browser_use.recognition import BrowserUseFile, has_signal, recognise
from lint_rules.frameworks.browser_use.screen import needs_libcst
from lint_rules.frameworks.browser_use.trv201 import BrowserUseInvalidReturnType
from lint_rules.frameworks.browser_use.trv202 import BrowserUseSuccessWithoutDone
from lint_rules.frameworks.browser_use.trv203 import BrowserUsePositionalActionResult
from lint_rules.frameworks.browser_use.trv204 import BrowserUseUnknownActionResultField
from lint_rules.frameworks.browser_use.trv205 import BrowserUseNonStringContent
from lint_rules.frameworks.browser_use.trv206 import BrowserUseDoneOutputMismatch
from lint_rules.frameworks.browser_use.trv207 import BrowserUseDoneOnError
from lint_rules.frameworks.browser_use.trv208 import BrowserUseEmptyResult
from lint_rules.frameworks.browser_use.trv209 import BrowserUseActionKwargs
from lint_rules.frameworks.tool_function import ToolFunction
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    BrowserUseInvalidReturnType,
    BrowserUseSuccessWithoutDone,
    BrowserUsePositionalActionResult,
    BrowserUseUnknownActionResultField,
    BrowserUseNonStringContent,
    BrowserUseDoneOutputMismatch,
    BrowserUseDoneOnError,
    BrowserUseEmptyResult,
    BrowserUseActionKwargs,
)


class BrowserUse:
    key = "browser_use"
    title = "browser-use"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        """``screen.needs_libcst``: whether the module can hold anything the family's
        rules (or TRV901/TRV902, on its tool functions) report."""
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[BrowserUseFile]:
        found = recognise(module)
        return [found] if found.actions or found.action_results else []

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        return [
            ToolFunction(module, action.node, self.key, action.scope.inference)
            for action in recognise(module).actions
        ]

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        for action in recognise(module).actions:
            yield ToolFunctionReport(
                framework=self.title,
                name=action.name,
                row=module.range_of(action.node.name).start.line,
                is_tool=True,
                reason=action.reason,
            )


FRAMEWORK = BrowserUse()
