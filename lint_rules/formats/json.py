"""ruff's ``json`` format: an indented array of diagnostic objects, ``[]`` when clean.

Like ruff, the text has no trailing newline. The object's keys (sorted, at every level)
are exactly ruff 0.17's: ``cell`` (null, or for a notebook the 1-based cell number among
all cells, the positions below being relative to that cell, as ruff's), ``code``,
``end_location``, ``filename`` (absolute, or ``-`` for stdin), ``fix`` (null, or
``applicability`` / ``edits`` / ``message``), ``location``, ``message``, ``name``,
``noqa_row``, ``severity``, ``url``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from lint_rules.formats._base import RenderOptions
from lint_rules.model import Applicability, Diagnostic, Location

NAME = "json"

JSON_APPLICABILITY = {
    Applicability.SAFE: "safe",
    Applicability.UNSAFE: "unsafe",
    # ruff serialises its `DisplayOnly` variant in lowercase, without the hyphen.
    Applicability.DISPLAY_ONLY: "displayonly",
}


def _location(location: Location) -> dict[str, int]:
    return {"column": location.column, "row": location.row}


def diagnostic_to_json(diagnostic: Diagnostic) -> dict[str, Any]:
    fix = diagnostic.fix
    return {
        "cell": diagnostic.cell,
        "code": diagnostic.code,
        "end_location": _location(diagnostic.end_location),
        "filename": diagnostic.filename,
        "fix": None
        if fix is None
        else {
            "applicability": JSON_APPLICABILITY[fix.applicability],
            "edits": [
                {
                    "content": edit.content,
                    "end_location": _location(edit.end_location),
                    "location": _location(edit.location),
                }
                for edit in fix.edits
            ],
            "message": fix.message,
        },
        "location": _location(diagnostic.location),
        "message": diagnostic.message,
        "name": diagnostic.name,
        "noqa_row": diagnostic.noqa_row,
        "severity": diagnostic.severity.value,
        "url": diagnostic.url,
    }


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    return json.dumps(
        [diagnostic_to_json(diagnostic) for diagnostic in diagnostics],
        indent=2,
        sort_keys=True,
        ensure_ascii=False,
    )
