"""Google Gen AI SDK (``google-genai``, Gemini) function calling: the ``TRG`` family."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.google_genai.recognition import GenaiFile, has_signal, recognise
from lint_rules.frameworks.google_genai.trg001 import GenaiFunctionResponseNotDict
from lint_rules.frameworks.google_genai.trg002 import GenaiUnansweredFunctionCall
from lint_rules.frameworks.google_genai.trg003 import GenaiFunctionResponseWithoutCallTurn
from lint_rules.frameworks.google_genai.trg004 import GenaiMixedCallAndResponseParts
from lint_rules.frameworks.tool_function import ToolFunction
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    GenaiFunctionResponseNotDict,
    GenaiUnansweredFunctionCall,
    GenaiFunctionResponseWithoutCallTurn,
    GenaiMixedCallAndResponseParts,
)


class GoogleGenai:
    key = "google_genai"
    title = "Google Gen AI"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[GenaiFile]:
        return [recognise(module, project)]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        return []

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        return iter(())


FRAMEWORK = GoogleGenai()
