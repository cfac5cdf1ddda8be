"""Bedrock Converse tool loops (``boto3`` ``bedrock-runtime``) and Strands Agents tools:
the ``TRB`` family."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView
from lint_rules.config import Settings
from lint_rules.engine import ToolFunctionReport
from lint_rules.frameworks.bedrock.recognition import BedrockFile, has_signal, recognise
from lint_rules.frameworks.bedrock.screen import needs_libcst
from lint_rules.frameworks.bedrock.trb001 import BedrockToolResultContentNotList
from lint_rules.frameworks.bedrock.trb002 import BedrockToolResultBlockValue
from lint_rules.frameworks.bedrock.trb003 import BedrockJsonBlockNotObject
from lint_rules.frameworks.bedrock.trb004 import BedrockToolResultForeignShape
from lint_rules.frameworks.bedrock.trb005 import BedrockToolResultWithoutAssistantTurn
from lint_rules.frameworks.bedrock.trb006 import BedrockUnansweredToolUse
from lint_rules.frameworks.bedrock.trb007 import BedrockErrorResultEmpty
from lint_rules.frameworks.bedrock.trb008 import BedrockInvalidEnum
from lint_rules.frameworks.bedrock.trb101 import StrandsToolResultShape
from lint_rules.frameworks.bedrock.trb102 import StrandsReprReturn
from lint_rules.frameworks.tool_function import ToolFunction, plain_tool
from lint_rules.rules import Rule

RULES: tuple[type[Rule], ...] = (
    BedrockToolResultContentNotList,
    BedrockToolResultBlockValue,
    BedrockJsonBlockNotObject,
    BedrockToolResultForeignShape,
    BedrockToolResultWithoutAssistantTurn,
    BedrockUnansweredToolUse,
    BedrockErrorResultEmpty,
    BedrockInvalidEnum,
    StrandsToolResultShape,
    StrandsReprReturn,
)


class Bedrock:
    key = "bedrock"
    title = "Bedrock Converse and Strands"

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool:
        return has_signal(source, path)

    def needs_libcst(self, view: ModuleView) -> bool:
        return needs_libcst(view)

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[BedrockFile]:
        return [recognise(module, project)]

    def tool_functions(self, module: ParsedModule, project: Project | None) -> list[ToolFunction]:
        """Strands ``@tool`` functions (TRV901/TRV902 then apply)."""
        found = recognise(module, project)
        return [plain_tool(module, f, self.key) for f in found.strands_tools]

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterator[ToolFunctionReport]:
        for function in recognise(module, project).strands_tools:
            yield ToolFunctionReport(
                framework=self.title,
                name=function.name.value,
                row=module.range_of(function.name).start.line,
                is_tool=True,
                reason="decorated with Strands' `@tool`",
            )


FRAMEWORK = Bedrock()
