"""The project index facts of one file, for every family that has cross-file facts.

The file is parsed once; each family adds its key to ``ModuleFacts.data``
(``agents``: :mod:`lint_rules.frameworks.openai_agents.facts`; ``chat``:
:mod:`lint_rules.frameworks.openai_chat.facts`; ``mcp``:
:mod:`lint_rules.frameworks.mcp.facts`). ``toolret check`` and the
language server both index through here.
"""

from __future__ import annotations

import libcst as cst

from lint_rules.analysis.index import EMPTY_FACTS, ModuleFacts
from lint_rules.analysis.module import ParsedModule, parse_module
from lint_rules.analysis.project import Project


def extract(path: str, data: bytes, project: Project | None = None) -> ModuleFacts:
    """The index facts of one file (``EMPTY_FACTS`` when it cannot be read or parsed)."""
    from lint_rules.engine import source_of
    from lint_rules.notebook import NotebookError

    try:
        module = parse_module(str(source_of(data, path)), path)
    except (
        SyntaxError,
        UnicodeDecodeError,
        LookupError,
        NotebookError,
        cst.ParserSyntaxError,
        RecursionError,
    ):
        return EMPTY_FACTS
    return extract_parsed(module, data, project)


def extract_parsed(
    module: ParsedModule, data: bytes, project: Project | None = None
) -> ModuleFacts:
    """The index facts of a file already parsed (``data``: its bytes, for the byte tests)."""
    from lint_rules.frameworks.google_genai.facts import extract_module as genai_facts
    from lint_rules.frameworks.mcp.facts import extract_module as mcp_facts
    from lint_rules.frameworks.openai_agents.facts import extract_module as agents_facts
    from lint_rules.frameworks.openai_chat.facts import extract_module as chat_facts
    from lint_rules.frameworks.pydantic_ai.facts import extract_module as pydantic_facts

    try:
        return ModuleFacts(
            {
                "agents": agents_facts(module, data, project),
                "chat": chat_facts(module, data),
                "mcp": mcp_facts(module, data),
                "pydantic_ai": pydantic_facts(module, data),
                "google_genai": genai_facts(module, data),
            }
        )
    except RecursionError:
        return EMPTY_FACTS
