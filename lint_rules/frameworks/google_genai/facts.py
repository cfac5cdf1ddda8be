"""What one file contributes to the project index for the Gemini rules.

Automatic function calling lists tools defined in other modules: ``runner.py`` does
``from .tools import get_weather`` and ``GenerateContentConfig(tools=[get_weather])``;
``get_weather`` in ``tools.py`` is then run by the SDK, and judged there (TRG101,
TRV901/TRV902). Every file with the family's byte signal gives ``registers``:
``[function, where]`` for each listed *imported* name, qualified as the imports spell
it; the index resolves the function's file and name (``ProjectIndex.registered_in``).
"""

from __future__ import annotations

from typing import Any

from lint_rules import prefilter
from lint_rules.analysis.module import ParsedModule
from lint_rules.frameworks.google_genai.recognition import recognise


def extract_module(module: ParsedModule, data: bytes) -> dict[str, Any]:
    """The ``google_genai`` facts of a parsed module (``{}`` without the family's signal)."""
    if not prefilter.has_signal("google_genai", data, ""):
        return {}
    found = recognise(module)
    if not found.module.imports_module("google.genai"):
        return {}
    registers = found.imported_listings()
    return {"registers": [[function, where] for function, where in registers]} if registers else {}
