"""What one file contributes to the project index for the Chat Completions rules.

Every parsed file gives what another file's loop may need of it: the
signatures of its top-level functions, its registry-shaped dict literals
(``REGISTRY = {"get_weather": get_weather}``: keys, the local names they
register, whether the registry is closed) and its imports (to follow
re-exports). A file that reads ``tool_calls`` also gives its *uses*: the
registries it dispatches through that cross files — an imported registry, or
a registry literal of its own whose functions are imported — with its tool
schemas, whether every dispatch is ``fn(**args)`` and whether results go to
plain ``json.dumps``. Everything is plain JSON (the result cache keeps it).
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from lint_rules.analysis.index import wants_chat_facts
from lint_rules.analysis.module import ParsedModule
from lint_rules.frameworks.openai_chat.recognition import ChatFile, Registry, Signature, recognise


def extract_module(module: ParsedModule, data: bytes) -> dict[str, Any]:
    """The ``chat`` facts of a parsed module."""
    shadowed = module.shadowed
    chat = recognise(module)
    registries: dict[str, Any] = {}
    for name, value in module.constants.items():
        if not isinstance(value, cst.Dict) or name in shadowed:
            continue
        registry = chat.dict_registry(chat.scopes[0], name)
        if registry is None:
            continue
        registries[name] = {
            "entries": [[key, _local(value)] for key, _, value in registry.entries],
            "closed": registry.closed,
        }
    facts: dict[str, Any] = {
        "signatures": {
            name: Signature.of(fn).to_json()
            for name, fn in module.functions.items()
            if name not in shadowed
        },
        "imports": {k: v for k, v in module.imports.items() if k not in shadowed},
        "registries": registries,
        "packages": sorted({q.lstrip(".").split(".", 1)[0] for q in module.imports.values()}),
        "schemas": None,
        "uses": [],
    }
    if not wants_chat_facts(data):
        return facts
    schemas = chat.schemas
    if schemas is not None and all(s.name is not None for s in schemas):
        facts["schemas"] = [[s.name, _listed(s.properties), _listed(s.required)] for s in schemas]
    for registry in chat.registries:
        use = _use(chat, registry)
        if use is not None:
            facts["uses"].append(use)
    return facts


def _use(chat: ChatFile, registry: Registry) -> dict[str, Any] | None:
    if registry.is_globals or not registry.dispatches:
        return None
    module = chat.module
    if registry.imported is not None:
        use = _use_facts(chat, registry)
        use["registry"] = registry.imported
        use["extended"] = chat.extended(registry.name, chat.scopes[0])
        return use
    entries = []
    for key, _, value in registry.entries:
        local = _local(value)
        if local is None or local in module.functions or local in module.shadowed:
            continue
        ref = module.imports.get(local)
        if ref is not None:
            entries.append([key, local, ref])
    if not entries:
        return None
    use = _use_facts(chat, registry)
    use["entries"] = entries
    return use


def _use_facts(chat: ChatFile, registry: Registry) -> dict[str, Any]:
    """What another file needs of a loop that crosses files. Only computed for such a loop:
    the line costs a position, which is most of this function's price."""
    return {
        "keywords": chat.keywords_only(registry),
        "plain": chat.serialised_plainly(registry),
        "line": chat.module.range_of(registry.dispatches[0]).start.line,
    }


def _local(value: cst.BaseExpression) -> str | None:
    return value.value if isinstance(value, cst.Name) else None


def _listed(value: tuple[str, ...] | None) -> list[str] | None:
    return None if value is None else list(value)
