"""ruff's ``json-lines`` format: one compact ``json`` object per line, nothing when clean.

A notebook diagnostic has ``"cell": 3`` and cell-relative positions, as in ``json``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from lint_rules.formats import json as json_format
from lint_rules.formats._base import RenderOptions
from lint_rules.model import Diagnostic

NAME = "json-lines"


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    return "".join(
        json.dumps(
            json_format.diagnostic_to_json(diagnostic),
            sort_keys=True,
            ensure_ascii=False,
            separators=(",", ":"),
        )
        + "\n"
        for diagnostic in diagnostics
    )
