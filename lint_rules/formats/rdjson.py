"""ruff's ``rdjson`` format: reviewdog's Diagnostic Format (``DiagnosticResult``).

::

    {
      "diagnostics": [
        {
          "code": {"url": "<TOOLRET_DOCS_URL>/rules/TRV301/", "value": "TRV301"},
          "location": {
            "path": "/abs/tools/weather.py",
            "range": {"end": {"column": 20, "line": 17}, "start": {"column": 12, "line": 17}}
          },
          "message": "…",
          "severity": "ERROR",
          "suggestions": [{"range": {…}, "text": "json.dumps(forecast)"}]
        }
      ],
      "severity": "WARNING",
      "source": {"name": "toolret", "url": "<TOOLRET_DOCS_URL>/"}
    }

(indented two spaces per level in the output). As in ruff 0.17: keys sorted, no trailing
newline, the absolute path, code-point columns (1-based, end exclusive), one suggestion
per edit of a fix of any applicability (``suggestions`` left out when there is no fix),
``"severity": "WARNING"`` at the top. Unlike ruff, each diagnostic also carries its own
``severity`` (``ERROR`` / ``WARNING`` / ``INFO``), which reviewdog prefers to the
top-level default. The ``url`` of a code and of the source point into the documentation
site when ``TOOLRET_DOCS_URL`` names it, and are left out otherwise (never invented).

A notebook diagnostic: ruff 0.17 does nothing special (its rows are those of the
concatenated code cells, which no reader can map back). toolret gives the cell-relative
range and starts the message with the place, ``cell 3:4:12: message``; it leaves out
``suggestions``, whose ranges would address the wrong lines of the ``.ipynb`` file (and
reviewdog offers them as one-click changes).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from lint_rules.formats._base import RenderOptions, cell_prefix
from lint_rules.formats.sarif import TOOL_NAME
from lint_rules.model import Diagnostic, Location, Severity, docs_base

NAME = "rdjson"

SEVERITY = {Severity.ERROR: "ERROR", Severity.WARNING: "WARNING", Severity.INFO: "INFO"}


def _range(start: Location, end: Location) -> dict[str, dict[str, int]]:
    return {
        "end": {"column": end.column, "line": end.row},
        "start": {"column": start.column, "line": start.row},
    }


def _code(diagnostic: Diagnostic) -> dict[str, str]:
    url = diagnostic.url
    return {"value": diagnostic.code} if url is None else {"url": url, "value": diagnostic.code}


def diagnostic_to_rdjson(diagnostic: Diagnostic) -> dict[str, Any]:
    value: dict[str, Any] = {
        "code": _code(diagnostic),
        "location": {
            "path": diagnostic.filename,
            "range": _range(diagnostic.location, diagnostic.end_location),
        },
        "message": cell_prefix(diagnostic) + diagnostic.message,
        "severity": SEVERITY[diagnostic.severity],
    }
    if diagnostic.fix is not None and diagnostic.fix.edits and diagnostic.cell is None:
        value["suggestions"] = [
            {"range": _range(edit.location, edit.end_location), "text": edit.content}
            for edit in diagnostic.fix.edits
        ]
    return value


def _source() -> dict[str, str]:
    base = docs_base()
    return {"name": TOOL_NAME} if base is None else {"name": TOOL_NAME, "url": base + "/"}


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    result = {
        "diagnostics": [diagnostic_to_rdjson(diagnostic) for diagnostic in diagnostics],
        "severity": "WARNING",
        "source": _source(),
    }
    return json.dumps(result, indent=2, sort_keys=True, ensure_ascii=False)
