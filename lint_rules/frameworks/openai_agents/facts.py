"""What one file contributes to the project index (whole-project mode).

The same recognition the rules use, run on a file of the project: its
top-level functions and classes (with the declared-type kind of each class),
its imports (to follow re-exports), and — when it builds agents whose
``tool_use_behavior`` is an imported function — those uses with the agent's
output type. Everything is plain JSON: the result cache keeps it, so a warm
run re-extracts nothing.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from lint_rules.analysis.index import EMPTY_FACTS, ModuleFacts, wants_full_facts
from lint_rules.analysis.module import ParsedModule, parse_module
from lint_rules.analysis.project import Project
from lint_rules.frameworks.openai_agents.recognition import class_kind, recognise


def extract(path: str, data: bytes, project: Project | None = None) -> ModuleFacts:
    """The index facts of one file (``EMPTY_FACTS`` when it cannot be read or parsed)."""
    from lint_rules.engine import decode_source

    try:
        source = decode_source(data)
        module = parse_module(source, path)
    except (SyntaxError, UnicodeDecodeError, LookupError, cst.ParserSyntaxError, RecursionError):
        return EMPTY_FACTS
    return ModuleFacts({"agents": extract_module(module, data, project)})


def extract_module(module: ParsedModule, data: bytes, project: Project | None) -> dict[str, Any]:
    """The ``agents`` facts of a parsed module."""
    facts: dict[str, Any] = {
        "functions": sorted(n for n in module.functions if n not in module.shadowed),
        "classes": {
            name: class_kind(module, name) for name in module.classes if name not in module.shadowed
        },
        "imports": {k: v for k, v in module.imports.items() if k not in module.shadowed},
        "uses": [],
        "type_refs": [],
    }
    if wants_full_facts(data):
        found = recognise(module, project)
        refs: dict[str, str] = {}
        for agent in found.agents:
            if agent.output_reference is not None:
                refs.setdefault(agent.output_reference, agent.output_type.display)
        for arg, reference, declared, label in found.cross_file_uses:
            agent = next(a for a in found.agents if a.argument("tool_use_behavior") is arg)
            line = module.range_of(arg).start.line
            if agent.output_reference is not None:
                raw: list[Any] = ["ref", agent.output_reference, declared.display]
            else:
                raw = declared.to_json()
            misspelled = list(agent.misspellings("tool_use_behavior", "output_type"))
            facts["uses"].append([reference, raw, label, line, misspelled])
        facts["type_refs"] = sorted(refs.items())
    return facts
