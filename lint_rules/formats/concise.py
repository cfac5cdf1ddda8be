"""ruff's ``concise`` format: one ``path:row:col: CODE [*] message`` line per diagnostic."""

from __future__ import annotations

from collections.abc import Sequence

from lint_rules.formats._base import RenderOptions, paint, relative_path
from lint_rules.formats.full import header
from lint_rules.model import Diagnostic

NAME = "concise"


def render_one(diagnostic: Diagnostic, options: RenderOptions) -> str:
    path = relative_path(diagnostic.filename, options.cwd)
    location = diagnostic.location
    where = f"{paint(path, 'path', options)}:{location.row}:{location.column}:"
    return f"{where} {header(diagnostic, options)}\n"


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    return "".join(render_one(diagnostic, options) for diagnostic in diagnostics)
