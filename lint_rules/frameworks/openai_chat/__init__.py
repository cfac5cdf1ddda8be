"""OpenAI Chat Completions tool loops: recognition of loops, schemas, registries; TRV401–TRV410."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.openai_chat.recognition import ChatFile, has_signal, recognise
from lint_rules.frameworks.openai_chat.screen import needs_libcst
from lint_rules.frameworks.openai_chat.trv401 import ChatToolContentNotString
from lint_rules.frameworks.openai_chat.trv402 import ChatResultNotJsonSerializable
from lint_rules.frameworks.openai_chat.trv403 import ChatDispatchKeyMismatch
from lint_rules.frameworks.openai_chat.trv404 import ChatDispatchSignatureMismatch
from lint_rules.frameworks.openai_chat.trv405 import ChatUnansweredToolCalls
from lint_rules.frameworks.openai_chat.trv406 import ChatToolMessageWithoutId
from lint_rules.frameworks.openai_chat.trv407 import ChatAssistantMessagePerCall
from lint_rules.frameworks.openai_chat.trv408 import ChatToolMessageReusedId
from lint_rules.frameworks.openai_chat.trv409 import ChatToolCallLeftUnanswered
from lint_rules.frameworks.openai_chat.trv410 import ChatToolMessageBeforeAssistantMessage
from lint_rules.frameworks.openai_chat.trv411 import OllamaToolMessageKeys
from lint_rules.frameworks.openai_responses.recognition import responses_only
from lint_rules.frameworks.tool_function import ToolFunction, plain_tool
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    ChatToolContentNotString,
    ChatResultNotJsonSerializable,
    ChatDispatchKeyMismatch,
    ChatDispatchSignatureMismatch,
    ChatUnansweredToolCalls,
    ChatToolMessageWithoutId,
    ChatAssistantMessagePerCall,
    ChatToolMessageReusedId,
    ChatToolCallLeftUnanswered,
    ChatToolMessageBeforeAssistantMessage,
    OllamaToolMessageKeys,
)


class OpenAIChat:
    key = "openai_chat"
    title = "OpenAI Chat Completions"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path, settings)

    def needs_libcst(self, view: ModuleView) -> bool:
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[ChatFile]:
        return [recognise(module, project)]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        """The same-module functions of the file's registries (a loop dispatches to them);
        those of a module that sends only Responses API requests are that family's."""
        if responses_only(module, project):
            return []
        return registry_tools(module, project, self.key)

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        if responses_only(module, project):
            return iter(())
        return registry_reports(module, project, self.title)


def registry_tools(module: ParsedModule, project: Project | None, key: str) -> list[ToolFunction]:
    """The same-module functions of the file's dispatch registries, as ``key``'s tools."""
    found: dict[int, ToolFunction] = {}
    for registry in recognise(module, project).registries:
        if registry.is_globals:
            continue
        for _, _, value in registry.entries:
            if not isinstance(value, cst.Name) or value.value in module.shadowed:
                continue
            function = module.functions.get(value.value)
            if function is not None and id(function) not in found:
                found[id(function)] = plain_tool(module, function, key)
    return list(found.values())


def registry_reports(
    module: ParsedModule, project: Project | None, title: str
) -> Iterator[ToolFunctionReport]:
    """``toolret`` describes each registry function as a tool of ``title``."""
    for registry in recognise(module, project).registries:
        if registry.is_globals:
            continue
        for key, _, value in registry.entries:
            name = getattr(value, "value", None)
            function = module.functions.get(name) if isinstance(name, str) else None
            if function is None:
                continue
            yield ToolFunctionReport(
                framework=title,
                name=function.name.value,
                row=module.range_of(function.name).start.line,
                is_tool=True,
                reason=f"registered as tool `{key}` in `{registry.name}`",
            )


FRAMEWORK = OpenAIChat()
