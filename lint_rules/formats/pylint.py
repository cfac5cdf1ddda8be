"""ruff's ``pylint`` format (flake8's ``pylint`` formatter): ``path:row: [CODE] message``.

As in ruff 0.17: the path is relative to the working directory when inside it, only the
start row is given, nothing is printed when clean.
"""

from __future__ import annotations

from collections.abc import Sequence

from lint_rules.formats._base import RenderOptions, relative_path
from lint_rules.model import Diagnostic

NAME = "pylint"


def render_one(diagnostic: Diagnostic, options: RenderOptions) -> str:
    path = relative_path(diagnostic.filename, options.cwd)
    return f"{path}:{diagnostic.location.row}: [{diagnostic.code}] {diagnostic.message}\n"


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    return "".join(render_one(diagnostic, options) for diagnostic in diagnostics)
