"""OpenAI Responses API tool loops (``client.responses.create``): the ``TRR`` family."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.displays import prepare as prepare_displays
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.openai_responses.recognition import (
    ResponsesFile,
    has_signal,
    responses_only,
)
from lint_rules.frameworks.openai_responses.screen import needs_libcst
from lint_rules.frameworks.openai_responses.trr001 import ResponsesChatToolSchema
from lint_rules.frameworks.openai_responses.trr002 import ResponsesOutputType
from lint_rules.frameworks.openai_responses.trr003 import ResponsesCallIdFromItemId
from lint_rules.frameworks.openai_responses.trr004 import ResponsesUnansweredFunctionCall
from lint_rules.frameworks.openai_responses.trr005 import ResponsesChatMessageInInput
from lint_rules.frameworks.openai_responses.trr006 import ResponsesOutputWithoutCallId
from lint_rules.frameworks.openai_responses.trr007 import ResponsesReasoningItemDropped
from lint_rules.frameworks.tool_function import ToolFunction
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    ResponsesChatToolSchema,
    ResponsesOutputType,
    ResponsesCallIdFromItemId,
    ResponsesUnansweredFunctionCall,
    ResponsesChatMessageInInput,
    ResponsesOutputWithoutCallId,
    ResponsesReasoningItemDropped,
)


class OpenAIResponses:
    key = "openai_responses"
    title = "OpenAI Responses"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[ResponsesFile]:
        prepare_displays(module)
        return [ResponsesFile(module, project)]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        """The functions a Responses loop's dispatch registry calls (``FUNCTIONS[item.name]``),
        in a module that sends Responses requests and no Chat Completions request: the
        registries are the Chat family's recognition, shared."""
        from lint_rules.frameworks.openai_chat import registry_tools

        if not responses_only(module, project):
            return []
        return registry_tools(module, project, self.key)

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        from lint_rules.frameworks.openai_chat import registry_reports

        if not responses_only(module, project):
            return iter(())
        return registry_reports(module, project, self.title)


FRAMEWORK = OpenAIResponses()
