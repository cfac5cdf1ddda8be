"""ruff's ``concise`` format: one ``path:row:col: CODE [*] message`` line per diagnostic.

For a notebook diagnostic, as ruff 0.17: ``path:cell 3:4:12: CODE [*] message`` (rows
relative to the cell).
"""

from __future__ import annotations

from collections.abc import Sequence

from lint_rules.formats._base import RenderOptions, paint, relative_path, where
from lint_rules.formats.full import header
from lint_rules.model import Diagnostic

NAME = "concise"


def render_one(diagnostic: Diagnostic, options: RenderOptions) -> str:
    path = relative_path(diagnostic.filename, options.cwd)
    return f"{paint(path, 'path', options)}:{where(diagnostic)}: {header(diagnostic, options)}\n"


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    return "".join(render_one(diagnostic, options) for diagnostic in diagnostics)
