"""Google Gen AI SDK (``google-genai``, Gemini) function calling: the ``TRG`` family."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.google_genai.recognition import GenaiFile, has_signal, recognise
from lint_rules.frameworks.google_genai.screen import needs_libcst
from lint_rules.frameworks.google_genai.trg001 import GenaiFunctionResponseNotDict
from lint_rules.frameworks.google_genai.trg002 import GenaiUnansweredFunctionCall
from lint_rules.frameworks.google_genai.trg003 import GenaiFunctionResponseWithoutCallTurn
from lint_rules.frameworks.google_genai.trg004 import GenaiMixedCallAndResponseParts
from lint_rules.frameworks.google_genai.trg101 import GenaiAfcUnserializableReturn
from lint_rules.frameworks.tool_function import ToolFunction, plain_tool
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    GenaiFunctionResponseNotDict,
    GenaiUnansweredFunctionCall,
    GenaiFunctionResponseWithoutCallTurn,
    GenaiMixedCallAndResponseParts,
    GenaiAfcUnserializableReturn,
)


class GoogleGenai:
    key = "google_genai"
    title = "Google Gen AI"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[GenaiFile]:
        return [recognise(module, project)]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        """The functions automatic function calling runs (TRV901/TRV902 then apply)."""
        found = recognise(module, project)
        if not found.is_checked:
            return []
        return [plain_tool(module, f, self.key) for f, _ in found.afc_functions]

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        found = recognise(module, project)
        if not found.is_checked:
            return
        for function, listed in found.afc_functions:
            yield ToolFunctionReport(
                framework=self.title,
                name=function.name.value,
                row=module.range_of(function.name).start.line,
                is_tool=True,
                reason=f"listed in `tools=` (automatic function calling) at {listed}",
            )


FRAMEWORK = GoogleGenai()
