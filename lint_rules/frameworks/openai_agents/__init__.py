"""OpenAI Agents SDK: recognition of agents, behaviour functions and tools; rules TRV301–TRV312."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.openai_agents.recognition import AgentsFile, has_signal, recognise
from lint_rules.frameworks.openai_agents.screen import needs_libcst
from lint_rules.frameworks.openai_agents.trv301 import AgentsInvalidToolUseBehavior
from lint_rules.frameworks.openai_agents.trv302 import AgentsStopAtToolsMismatch
from lint_rules.frameworks.openai_agents.trv303 import AgentsBehaviorWrongReturn
from lint_rules.frameworks.openai_agents.trv304 import AgentsFinalOutputNone
from lint_rules.frameworks.openai_agents.trv305 import AgentsFinalOutputTypeMismatch
from lint_rules.frameworks.openai_agents.trv306 import AgentsNonBoolFinalFlag
from lint_rules.frameworks.openai_agents.trv307 import AgentsIgnoredFinalOutput
from lint_rules.frameworks.openai_agents.trv308 import AgentsFunctionToolReprReturn
from lint_rules.frameworks.openai_agents.trv309 import AgentsFunctionToolReturnsHandoff
from lint_rules.frameworks.openai_agents.trv310 import AgentsUnknownAgentArgument
from lint_rules.frameworks.openai_agents.trv311 import AgentsDuplicateToolName
from lint_rules.frameworks.openai_agents.trv312 import AgentsFinalOutputNotStr
from lint_rules.frameworks.tool_function import ToolFunction
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    AgentsInvalidToolUseBehavior,
    AgentsStopAtToolsMismatch,
    AgentsBehaviorWrongReturn,
    AgentsFinalOutputNone,
    AgentsFinalOutputTypeMismatch,
    AgentsNonBoolFinalFlag,
    AgentsIgnoredFinalOutput,
    AgentsFunctionToolReprReturn,
    AgentsFunctionToolReturnsHandoff,
    AgentsUnknownAgentArgument,
    AgentsDuplicateToolName,
    AgentsFinalOutputNotStr,
)


class OpenAIAgents:
    key = "openai_agents"
    title = "OpenAI Agents SDK"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        """``screen.needs_libcst``: whether the module can hold anything the family's
        rules (or TRV901/TRV902, on its tool functions) report."""
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[AgentsFile]:
        found = recognise(module, project)
        return [] if found.is_empty else [found]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        return [
            ToolFunction(module, tool.node, self.key, tool.scope.inference)
            for tool in recognise(module, project).tools
        ]

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        found = recognise(module, project)
        for tool in found.tools:
            yield ToolFunctionReport(
                framework=self.title,
                name=tool.node.name.value,
                row=module.range_of(tool.node.name).start.line,
                is_tool=True,
                reason="decorated with `@function_tool` (or wrapped by `function_tool(...)`)",
            )
        for behaviour in found.behaviours:
            if behaviour.name == "<lambda>":
                continue
            node = behaviour.node
            assert not isinstance(node, type(None))
            agents = ", ".join(
                f"{u.label}{f' ({u.where})' if u.where else ''}" for u in behaviour.uses
            )
            reason = (
                f"the `tool_use_behavior` of {agents}"
                if agents
                else "annotated to return `ToolsToFinalOutputResult`"
            )
            name_node = getattr(node, "name", None)
            if name_node is None:
                continue
            yield ToolFunctionReport(
                framework=self.title,
                name=behaviour.name,
                row=module.range_of(name_node).start.line,
                is_tool=True,
                reason=reason,
            )


FRAMEWORK = OpenAIAgents()
